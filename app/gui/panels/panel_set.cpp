#include "gui/panels/panel_set.hpp"

namespace rope::gui {

PanelSet::PanelSet() {
    for (const figures::FigureDescriptor* d : figures::all_figures()) {
        views.emplace_back();
        views.back().figure = d;
    }
}

int PanelSet::panel_at(plot::Vec2 point) const {
    for (int k = 0; k < static_cast<int>(views.size()); ++k)
        if (views[static_cast<std::size_t>(k)].shown && views[static_cast<std::size_t>(k)].screen.contains(point)) return k;
    return -1;
}

}  // namespace rope::gui
