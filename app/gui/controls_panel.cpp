// The controls panel: one slider per parameter people move, each with the parameter table's help as
// its tooltip. Dragging stays inside the slider's range; a value typed with Ctrl+click goes
// through the same validation as --set and is refused with a message if the table does not allow it.
#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "gui/renderer.hpp"
#include "gui/controls_panel.hpp"
#include "gui/teaching.hpp"
#include "gui/ui_helpers.hpp"
#include "gui/ui_theme.hpp"
#include "rope/number_format.hpp"
#include "rope/presets.hpp"

namespace rope::gui {

namespace {

const char* help_of(const char* key) {
    const ParamSpec* s = find_param(key);
    return s ? s->help.data() : "";
}

// A section of the controls in a child window of its own: software GL pays for every pixel, and a
// window drawing what it drew last frame is left alone (gl_renderer.cpp), so a moving slider redraws
// its section only. A child's height is the one its content took last frame.
class Section {
public:
    explicit Section(const char* title) : id_(ImGui::GetID(title)) {
        const float height = ImGui::GetStateStorage()->GetFloat(id_, ImGui::GetFrameHeightWithSpacing());
        // opaque, so that it alone is drawn again when it changes (kOpaqueWindow)
        ImVec4 background = ImGui::GetStyleColorVec4(ImGuiCol_WindowBg);
        background.w = 1.0f;
        ImGui::PushStyleColor(ImGuiCol_ChildBg, background);
        ImGui::BeginChild((std::string(title) + kOpaqueWindow).c_str(), ImVec2(0, height), false,
                          ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
        ImGui::PopStyleColor();
        ImGui::Spacing();
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        ImGui::TextUnformatted(title);
        ImGui::PopStyleColor();
        ImGui::Separator();
    }
    ~Section() {
        const float content = ImGui::GetCursorPosY() - ImGui::GetStyle().ItemSpacing.y;
        ImGui::EndChild();
        ImGui::GetStateStorage()->SetFloat(id_, std::max(1.0f, content));
    }
    Section(const Section&) = delete;
    Section& operator=(const Section&) = delete;

private:
    ImGuiID id_;
};

void label_row(const char* text) {
    ImGui::TextUnformatted(text);
}

// A slider for an integer parameter; returns true if the value changed.
bool int_slider(AppState& state, const char* key, const char* label, std::int64_t lo, std::int64_t hi, bool log,
                bool even = false) {
    label_row(label);
    const std::int64_t current = state.params().integer(key);
    std::int64_t v = current;
    char id[64];
    std::snprintf(id, sizeof id, "##%s", key);
    ImGui::SetNextItemWidth(-1);
    const ImGuiID widget = ImGui::GetID(id);
    const bool typing = ImGui::TempInputIsActive(widget);
    const bool changed = ImGui::SliderScalar(id, ImGuiDataType_S64, &v, &lo, &hi, "%lld",
                                             log ? ImGuiSliderFlags_Logarithmic : ImGuiSliderFlags_None);
    if (ImGui::IsItemActivated()) state.selected_key = key;  // what Record sweeps
    item_tooltip(help_of(key));
    if (!changed || v == current) return false;
    if (even && !typing) v = std::max<std::int64_t>(2, v / 2 * 2);  // dragging moves in even steps
    return state.apply_number(key, static_cast<double>(v), std::string("item:") + key);
}

bool real_slider(AppState& state, const char* key, const char* label, double lo, double hi, bool log, const char* format) {
    label_row(label);
    const double current = state.params().real(key);
    double v = current;
    char id[64];
    std::snprintf(id, sizeof id, "##%s", key);
    ImGui::SetNextItemWidth(-1);
    const bool changed = ImGui::SliderScalar(id, ImGuiDataType_Double, &v, &lo, &hi, format,
                                             log ? ImGuiSliderFlags_Logarithmic : ImGuiSliderFlags_None);
    if (ImGui::IsItemActivated()) state.selected_key = key;  // what Record sweeps
    item_tooltip(help_of(key));
    if (!changed || v == current) return false;
    return state.apply_number(key, v, std::string("item:") + key);
}

bool choice(AppState& state, const char* key, const char* label) {
    label_row(label);
    const ParamSpec* spec = find_param(key);
    const std::string current = state.params().text(key);
    char id[64];
    std::snprintf(id, sizeof id, "##%s", key);
    ImGui::SetNextItemWidth(-1);
    bool changed = false;
    if (ImGui::BeginCombo(id, current.c_str())) {
        for (std::string_view c : spec->choices) {
            const std::string s(c);
            if (ImGui::Selectable(s.c_str(), s == current)) changed = state.apply(key, s);
        }
        ImGui::EndCombo();
    }
    item_tooltip(spec->help.data());
    return changed;
}

bool toggle(AppState& state, const char* key, const char* label) {
    bool on = state.params().boolean(key);
    if (!ImGui::Checkbox(label, &on)) {
        item_tooltip(help_of(key));
        return false;
    }
    item_tooltip(help_of(key));
    return state.apply(key, on ? "true" : "false");
}

// Images and video: the axes positions run along, and the image the patch-grid panels show.
void image_controls(AppState& state) {
    Section section("Images and video");
    choice(state, "rope_axes", "position axes");
    choice(state, "axial_frequencies", "2D axial frequencies");
    toggle(state, "mrope_interleaved", "interleaved M-RoPE (Qwen3-VL)");
    int_slider(state, "grid_rows", "image rows (patches)", 1, 64, false);
    int_slider(state, "grid_cols", "image columns (patches)", 1, 64, false);
    int_slider(state, "text_before", "text tokens before the image", 0, 16, false);
    int_slider(state, "text_after", "text tokens after the image", 0, 16, false);
}

}  // namespace

void draw_controls(AppState& state, ImVec2 pos, ImVec2 size) {
    ImGui::SetNextWindowPos(pos);
    ImGui::SetNextWindowSize(size);
    // the controls scroll; the status line below them stays in view, in a window of its own
    const float status_h = std::round(ImGui::GetTextLineHeightWithSpacing() * 3.2f);
    ImGui::SetNextWindowSize(ImVec2(size.x, size.y - status_h));
    ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0);  // no frame around the sections' windows
    ImGui::Begin("Controls", nullptr,
                 ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoCollapse |
                     ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus |
                     ImGuiWindowFlags_NoBackground);  // the cleared window shows through: no fill to pay for
    ImGui::PopStyleVar();
    ImGui::BeginChild("controls_scroll", ImVec2(0, 0), false);
    const ParamSet& p = state.params();
    const auto freqs = state.cache.frequencies(p);
    const FrequencyTable& f = *freqs;
    const std::int64_t max_position = p.integer("max_position");

    {
        Section section("Teach");
        draw_toolbar(state);
    }
    {
        Section section("Position");
        int_slider(state, "position", "position m (token)", 0, std::max<std::int64_t>(0, max_position - 1), false);
        int_slider(state, "key_position", "key position n (q-k view)", 0, std::max<std::int64_t>(0, max_position - 1), false);
        int_slider(state, "pair", "selected pair i", 0, std::max(0, f.pairs() - 1), false);
    }
    {
        Section section("Model");
        const std::string current = p.text("preset");
        ImGui::SetNextItemWidth(-1);
        if (ImGui::BeginCombo("##preset", current == "none" ? "(no preset)" : current.c_str())) {
            for (const Preset& preset : presets()) {
                if (ImGui::Selectable(std::string(preset.name).c_str(), current == preset.name) &&
                    state.change("preset " + std::string(preset.name), [&](ParamSet& next) { next.set("preset", std::string(preset.name)); }))
                    state.set_status("Preset " + std::string(preset.name) + ": " + std::string(preset.model));
                if (ImGui::IsItemHovered()) {
                    ImGui::BeginTooltip();
                    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30);
                    ImGui::Text("%s", std::string(preset.model).c_str());
                    ImGui::TextDisabled("%s", std::string(preset.source).c_str());
                    ImGui::PopTextWrapPos();
                    ImGui::EndTooltip();
                }
            }
            ImGui::EndCombo();
        }
        item_tooltip(find_param("preset")->help.data());
        if (const Preset* chosen = find_preset(current)) {
            ImGui::PushTextWrapPos(0);
            ImGui::TextDisabled("%s", std::string(chosen->source).c_str());
            ImGui::PopTextWrapPos();
        }
    }

    {
        Section section("RoPE");
        int_slider(state, "dim", "head dim d", 2, 512, false, true);
        real_slider(state, "base", "base b", 10.0, 1e9, true, "%.6g");
        choice(state, "pairing", "pairing layout");
        real_slider(state, "rotary_fraction", "rotary fraction", 0.05, 1.0, false, "%.3f");
    }
    {
        Section section("Ranges");
        int_slider(state, "max_position", "context length (max_position)", 16, 1048576, true);
        int_slider(state, "max_distance", "max distance n - m (decay)", 16, 1048576, true);
    }
    {
    Section section("Context extension");
    choice(state, "scaling", "scaling");
    if (p.text("scaling") != "none" || p.text("compare") != "none") {
        real_slider(state, "factor", "factor", 1.0, 64.0, true, "%.3g");
        int_slider(state, "original_max_position", "original context L0", 256, 131072, true);
        if (p.text("scaling") == "dynamic" || p.text("scaling") == "longrope")
            int_slider(state, "sequence_length", "sequence length", 256, 1048576, true);
        if (p.text("scaling") == "llama3") {
            real_slider(state, "low_freq_factor", "low_freq_factor", 0.5, 8.0, false, "%.2f");
            real_slider(state, "high_freq_factor", "high_freq_factor", 1.0, 32.0, false, "%.2f");
        }
        if (p.text("scaling") == "yarn") {
            real_slider(state, "beta_fast", "beta_fast", 1.0, 128.0, true, "%.3g");
            real_slider(state, "beta_slow", "beta_slow", 0.1, 8.0, true, "%.3g");
        }
    }
    }
    image_controls(state);
    {
        Section section("Now");
        const int pair = static_cast<int>(std::min<std::int64_t>(p.integer("pair"), f.pairs() - 1));
        ImGui::Text("d = %d (%d rotated, %d pairs)", f.dim, f.rotated_dims, f.pairs());
        ImGui::Text("θ_%d = %.6g rad/token", pair, f.theta[pair]);
        ImGui::Text("wavelength = %.6g tokens", f.wavelength(pair));
        ImGui::Text("attention factor = %.6g", f.attention_factor);
    }
    {
        Section section("View");
        bool light = state.theme == plot::ThemeId::light;
        if (ImGui::Checkbox("light theme", &light)) state.theme = light ? plot::ThemeId::light : plot::ThemeId::dark;
        item_tooltip("Switch between the dark and the light colour theme.");
    }
    ImGui::EndChild();
    ImGui::End();

    ImGui::SetNextWindowPos(ImVec2(pos.x, pos.y + size.y - status_h));
    ImGui::SetNextWindowSize(ImVec2(size.x, status_h));
    ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0);
    ImGui::Begin("##status", nullptr, kFixedWindow | ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoBackground);
    ImGui::PopStyleVar();
    ImGui::Separator();
    ImGui::PushTextWrapPos(0);
    if (state.status_error) ImGui::PushStyleColor(ImGuiCol_Text, ui_error_text(effective_theme(state)));
    ImGui::TextUnformatted(state.status.c_str());
    if (state.status_error) ImGui::PopStyleColor();
    ImGui::PopTextWrapPos();
    ImGui::End();
}

}  // namespace rope::gui
