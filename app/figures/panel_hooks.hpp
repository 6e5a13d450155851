// What a figure's panel can do besides drawing: options on its header line, a readout when the
// pointer hovers a plot, and dragging, zooming or clicking in it. Figures write these against the
// small interfaces below, not against Dear ImGui: the window implements them with ImGui widgets,
// and tests drive them headless.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "figures/figures.hpp"

namespace rope::figures {

// The widgets a panel header offers (one row, left to right).
class HeaderControls {
public:
    virtual ~HeaderControls() = default;
    virtual void text(std::string_view text, std::string_view tooltip) = 0;
    virtual bool button(std::string_view label, std::string_view tooltip) = 0;
    virtual bool checkbox(std::string_view label, bool& on, std::string_view tooltip) = 0;
    // A drop-down list showing `preview`; returns the index of the item picked this frame, or -1.
    virtual int combo(std::string_view preview, const std::vector<std::string>& items, int current, float width_em,
                      std::string_view tooltip) = 0;
    // The next widget goes on the same line, `gap_em` font sizes after the last one (<= 0: the default gap).
    virtual void same_line(float gap_em = 0) = 0;
};

// A parameter change asked for by a panel: the app applies it to a copy, validates it like --set,
// keeps it only if it holds (else the status line says why) and makes it one undo step named `label`.
using EditParams = std::function<void(const std::string& label, const std::function<void(ParamSet&)>& change)>;

// The pointer over a panel's figure, in figure pixels.
struct PointerInput {
    plot::Vec2 local;
    bool hovered = false;         // over the figure
    bool held = false;            // the left button went down on the figure and is still down
    bool pressed = false;         // the left button went down on the figure this frame
    bool double_clicked = false;  // a double-click on the figure this frame
    plot::Vec2 delta;             // movement since the last frame while held
    float wheel = 0;              // wheel notches this frame (positive: away from the user)
};

struct PanelContext {
    const ParamSet& params;
    FigureCache& cache;
    const FigureResult& figure;  // the picture on screen (its plots' geometry)
    EditParams edit;
    int& grab;  // which handle a drag holds (the figure's own numbers; 0 = none), kept between frames
};

}  // namespace rope::figures
