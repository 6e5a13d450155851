// What is where on the screen, for the page's touch handling and for tests: the windows and panels
// as the last frame laid them out (read after a frame, between frames, on the UI thread).
#pragma once

#include <string>

#include "plot/display_list.hpp"

namespace rope::gui {

class App;

// What a finger or a test reaches things by: the last Dear ImGui item's rectangle, under `name`
// ("control:position", "tab:Basics", "lesson:Next", ...), kept for this frame's layout report.
// Called on the UI thread while a frame is laid out; forget_targets() as each frame begins.
void note_target(const std::string& name);
void forget_targets();

// The layout as JSON, every rectangle [x, y, width, height] divided by `px_per_unit` (the page's
// device pixel ratio: CSS pixels): the frame; each shown window by its name ("Controls", "Lesson",
// "##formula", ...) with its vertical scroll; the targets noted this frame (note_target); each shown panel with its figure, its picture's rectangle, its plots' data
// areas and frames (role "main" for the figure's main plots) and its picture's texts (box and size);
// the lesson's step, whether it asks a question and the guess; the drawer, presenting, the screen's
// shape (compact, narrow) and whether touch points.
std::string layout_report(const App& app, float px_per_unit);

// Whether a vertical swipe at `p` (window pixels) should scroll: the topmost window there, or one
// it sits in, scrolls vertically (the controls, the lesson's text), and it is not a figure's panel.
bool scrolls_at(plot::Vec2 p);

// Whether the wheel (or a pinch) at `p` zooms a picture: over the data of a shown panel whose figure
// zooms (the heatmap).
bool zooms_at(const App& app, plot::Vec2 p);

// Whether a sideways swipe at `p` moves to the next or previous panel (past the page's last, the next
// page: act::NextPage): a small screen's layout (one panel or part at a time, not presenting), over
// its row of page tabs or a panel's header (its picture keeps a finger's drags: a pan, a slider, a
// vector).
bool flips_at(const App& app, plot::Vec2 p);

// Whether a tap at `p` starts typing: over a slider's Type button (a target "type:NAME"), where the
// page must give the phone's keyboard a field of its own while it handles the tap (a keyboard opens
// only from within one).
bool types_at(plot::Vec2 p);

// Whether a swipe in from the left edge would open the controls' drawer: the small screen's bar is
// shown and the drawer is closed.
bool drawer_can_open(const App& app);

}  // namespace rope::gui
