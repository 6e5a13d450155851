#include "gui/platform/fonts.hpp"

#include <imgui.h>

#include <cfloat>
#include <cmath>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace rope::gui {

namespace {

// Latin, Greek (theta, pi), punctuation, super/subscripts (10⁴, Sⱼ), arrows and math operators.
const ImWchar kGlyphRanges[] = {0x0020, 0x00FF, 0x0370, 0x03FF, 0x1D00, 0x1DBF, 0x2000, 0x206F, 0x2070, 0x209F,
                                0x2190, 0x21FF, 0x2200, 0x22FF, 0x2300, 0x23FF, 0x25A0, 0x25FF, 0x27E6, 0x27EF,
                                0x2C60, 0x2C7F, 0};

}  // namespace

bool FontSet::build(float scale, float ui_size) {
    ImGuiIO& io = ImGui::GetIO();
    io.Fonts->Clear();
    sizes_.clear();
    ui_ = bold_ = nullptr;
    if (access(kFontPath, R_OK) != 0) {
        ui_ = io.Fonts->AddFontDefault();
        sizes_.push_back({13.0f, ui_});
        return false;
    }
    ImFontConfig cfg;
    cfg.OversampleH = 2;
    cfg.OversampleV = 1;
    cfg.PixelSnapH = false;
    ui_ = io.Fonts->AddFontFromFileTTF(kFontPath, std::round(ui_size * scale), &cfg, kGlyphRanges);
    sizes_.push_back({std::round(ui_size * scale), ui_});
    // figure text sizes (tick, label, title at 1x and in presentation mode)
    // the figure text sizes (tick 16, label 18, title 21, small labels 13.6) at this scale
    for (float px : {13.6f, 16.f, 21.f}) {
        const float s = std::round(px * scale);
        ImFont* f = io.Fonts->AddFontFromFileTTF(kFontPath, s, &cfg, kGlyphRanges);
        if (f) sizes_.push_back({s, f});
    }
    if (access(kBoldFontPath, R_OK) == 0)
        bold_ = io.Fonts->AddFontFromFileTTF(kBoldFontPath, std::round((ui_size + 3) * scale), &cfg, kGlyphRanges);
    io.Fonts->Build();
    io.FontDefault = ui_;
    return ui_ != nullptr;
}

ImFont* FontSet::nearest(float pixels) const {
    ImFont* best = ui_;
    float best_d = FLT_MAX;
    for (const Sized& s : sizes_) {
        const float d = std::abs(s.pixels - pixels);
        if (d < best_d) {
            best_d = d;
            best = s.font;
        }
    }
    return best;
}

plot::Vec2 ImGuiTextMeasure::measure(const std::string& text, float size) const {
    ImFont* f = fonts_.nearest(size);
    if (!f) return plot::ApproximateTextMeasure().measure(text, size);
    const ImVec2 s = f->CalcTextSizeA(size, FLT_MAX, 0.0f, text.c_str(), text.c_str() + text.size());
    return {s.x, s.y};
}

}  // namespace rope::gui
