// The presenter view: a second window for the one who teaches (Shift+P while presenting; on a second
// monitor, or beside the audience's window on one). It shows what the audience does not see: the
// open step's text before it is revealed, the answer to the question being asked, the teacher's
// notes, the next step, and a timer. Its buttons step the lesson like Page Up / Page Down.
#pragma once

#include <imgui.h>

#include <string>
#include <vector>

#include "gui/app/actions.hpp"
#include "gui/app/app_state.hpp"
#include "gui/panels/panel_set.hpp"

namespace rope::gui {

// What the presenter view says for the state, as text.
struct PresenterText {
    std::string heading;  // "How RoPE works  -  step 4 of 28", or that no lesson step is open
    std::string title;    // the open step's
    std::string text;     // its words (colour words as the audience sees them, without the swatches)
    std::string question;  // the question being asked ("" when none is asked now)
    std::vector<std::string> choices;  // "A) ..."
    std::string answer;   // "Answer: B) ... why": while asking (for the presenter alone) or revealed
    std::string notes;    // the teacher's notes on the step ("" if none)
    std::string next;     // "Next: 5. Title" or "Last step"
    std::string next_text;  // the next step's words, cut after its first sentence or two
    std::vector<std::string> on_screen;  // what the audience's window leaves out, and the keys (AppState::room_notes)
    std::string status;                  // the status line (the audience's window shows none)
};
PresenterText presenter_text(const AppState& state);

// Presenting, what the shown panels leave out at their size (plots, model B's picture) and the
// keys that show it; last, the keys that stand for the panels' buttons (kPresentingKeys).
std::vector<std::string> room_notes(const AppState& state, const PanelSet& panels);

// "0:00" .. "59:59", "1:00:00": minutes and seconds since the timer started.
std::string timer_text(double seconds);

// Draws the view over the whole of the current ImGui context's display; Back / Next ask for steps in
// `out`, Reset timer sets `reset_timer`.
void draw_presenter_view(const AppState& state, double elapsed, ImFont* title_font, bool& reset_timer, Actions& out);

}  // namespace rope::gui
