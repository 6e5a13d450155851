// The controls panel: the toolbar of teaching actions, a control for every parameter the table gives
// one (ParamSpec::control), the preset picker, the model's numbers and the status line.
#pragma once

#include <imgui.h>

#include <optional>
#include <string>

#include "gui/app_state.hpp"

namespace rope::gui {

class ControlsPanel {
public:
    void draw(AppState& state, ImVec2 pos, ImVec2 size);

private:
    void table_section(AppState& state, ControlSection section, const FrequencyTable& f);
    void control(AppState& state, const ParamSpec& spec, const FrequencyTable& f);
    bool slider(AppState& state, const ParamSpec& spec, const FrequencyTable& f);
    bool combo(AppState& state, const ParamSpec& spec);
    bool checkbox(AppState& state, const ParamSpec& spec);
    void start_typing(const AppState& state, const ParamSpec& spec);
    bool typed_value(AppState& state, const ParamSpec& spec);
    void model_section(AppState& state);
    void now_and_view_sections(AppState& state, const FrequencyTable& f);
    void status_line(const AppState& state, ImVec2 pos, ImVec2 size);

    // A value being typed into a slider (Ctrl+click on it), as text until it is applied.
    std::optional<ParamId> typing_;
    bool typing_focus_ = false;   // the text field takes the keyboard in this frame
    bool typing_active_ = false;  // it has had the keyboard (so losing it ends the typing)
    std::string typed_before_;
    char typed_[128] = {};
};

}  // namespace rope::gui
