// The controls panel: the toolbar of teaching actions, a control for every parameter the table gives
// one (ParamSpec::control), the preset picker, the model's numbers and the status line.
#pragma once

#include <imgui.h>

#include <optional>
#include <string>

#include "gui/app/actions.hpp"
#include "gui/app/app_state.hpp"

namespace rope::gui {

class ControlsPanel {
public:
    // `cache`: where the model's numbers ("Now") come from.
    // `opaque`: drawn over other windows (a phone's drawer), on the window's colour.
    void draw(const AppState& state, figures::FigureCache& cache, ImVec2 pos, ImVec2 size, Actions& out, bool opaque = false);
    // A section took another height in this frame than it was laid out with (each is laid out at the
    // height its content took the frame before): the next frame shows it whole.
    bool sections_resized() const { return sections_resized_; }

private:
    void table_section(const AppState& state, ControlSection section, Actions& out);
    void control(const AppState& state, const ParamSpec& spec, Actions& out);
    void slider(const AppState& state, const ParamSpec& spec, Actions& out);
    void combo(const AppState& state, const ParamSpec& spec, Actions& out);
    void checkbox(const AppState& state, const ParamSpec& spec, Actions& out);
    void list_field(const AppState& state, const ParamSpec& spec, Actions& out);
    void start_typing(const AppState& state, const ParamSpec& spec);
    void typed_value(const ParamSpec& spec, Actions& out);
    void model_section(const AppState& state, Actions& out);
    void compare_with(const AppState& state, Actions& out);
    void now_and_view_sections(const AppState& state, const FrequencyTable& f, Actions& out);
    void status_line(const AppState& state, ImVec2 pos, ImVec2 size, bool opaque);

    // A value being typed into a slider (Ctrl+click on it), as text until it is applied.
    std::optional<ParamId> typing_;
    bool typing_focus_ = false;   // the text field takes the keyboard in this frame
    bool typing_active_ = false;  // it has had the keyboard (so losing it ends the typing)
    std::string typed_before_;
    char typed_[128] = {};
    bool sections_resized_ = false;
};

}  // namespace rope::gui
