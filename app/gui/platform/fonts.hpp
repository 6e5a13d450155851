// DejaVu Sans at the sizes the UI and the figures use, rasterised for the current UI scale, and a
// TextMeasure that measures with them.
#pragma once

#include <vector>

#include "plot/display_list.hpp"

struct ImFont;

namespace rope::gui {

inline constexpr const char* kFontPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
inline constexpr const char* kBoldFontPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf";

class FontSet {
public:
    // Rebuilds the ImGui font atlas for `scale` (call between frames; the caller re-creates the
    // GL font texture). Returns false if the TTF could not be loaded (ImGui's default font is used).
    bool build(float scale, float ui_size);
    ImFont* ui() const { return ui_; }
    ImFont* bold() const { return bold_ ? bold_ : ui_; }
    // The loaded font closest to `pixels` (figures draw text at many sizes).
    ImFont* nearest(float pixels) const;

private:
    struct Sized {
        float pixels;
        ImFont* font;
    };
    std::vector<Sized> sizes_;
    ImFont* ui_ = nullptr;
    ImFont* bold_ = nullptr;
};

class ImGuiTextMeasure : public plot::TextMeasure {
public:
    explicit ImGuiTextMeasure(const FontSet& fonts) : fonts_(fonts) {}
    plot::Vec2 measure(const std::string& text, float size) const override;

private:
    const FontSet& fonts_;
};

}  // namespace rope::gui
