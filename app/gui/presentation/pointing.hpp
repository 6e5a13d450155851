// Pointing while presenting: a laser pointer (hold L: a bright dot with a short fading trail, the dot
// alone with reduced motion), a pen (D: the pointer draws over the panels; C, or a change of lesson
// step, clears it) and a zoom lens (Z on and off: a round 2x magnifier under the pointer). They are
// drawn over the window only (ImGui's foreground): a screenshot (F12) has them, an export never does.
#pragma once

#include <imgui.h>

#include <deque>
#include <vector>

#include "gui/app/app_state.hpp"
#include "gui/input/input.hpp"
#include "gui/platform/renderer.hpp"

namespace rope::gui {

class PointingTools {
public:
    // Takes the keys and, while the laser or the pen is on, the pointer and its buttons (true: the
    // event is the tools', not the panels': no hover readout follows a laser). Only while presenting
    // and no text field has the keyboard.
    bool take(const InputEvent& e, bool presenting);
    // The panels see no pointer while a tool has it.
    bool holds_pointer() const { return laser_ || pen_; }
    // Draws the strokes, the laser's dot and trail for this frame at `now` (seconds), and the lens.
    void draw(const AppState& state, double now, Renderer& renderer);
    // Frames are needed while the laser is held or its trail fades.
    bool animating() const { return laser_ || !trail_.empty(); }
    bool pen() const { return pen_; }
    bool laser() const { return laser_; }
    bool lens() const { return lens_; }
    // The lens's circle (window coordinates) around `pointer` and the smaller square it enlarges,
    // kept within the window; the lens is kMagnification times the square.
    static void lens_rects(ImVec2 pointer, ImVec2 window, plot::Rect& source, plot::Rect& dest);
    static constexpr float kMagnification = 2;
    std::size_t strokes() const { return strokes_.size(); }

    static constexpr double kTrailSeconds = 0.35;

private:
    void draw_lens(ImDrawList* draw, ImVec2 mouse, float unit, Renderer& renderer);

    struct TrailPoint {
        ImVec2 at;
        double time;
    };
    bool laser_ = false, pen_ = false, drawing_ = false, lens_ = false;
    ImVec2 pointer_{-1, -1};  // where the pointer is (every move, the tools' or not)
    std::deque<TrailPoint> trail_;
    std::vector<std::vector<ImVec2>> strokes_;
    int strokes_step_ = -1;  // the lesson step the strokes were drawn on
};

}  // namespace rope::gui
