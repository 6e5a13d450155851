// The classroom side of the window: the toolbar that offers every shortcut as a button (undo and
// redo among them), the lesson panel and the shortcut overlay. Each reads the state and asks for
// what was pressed as actions.
#pragma once

#include <imgui.h>

#include <cstddef>
#include <vector>

#include "gui/app/actions.hpp"
#include "gui/app/app_state.hpp"

namespace rope::gui {

void draw_toolbar(const AppState& state, Actions& out);
void draw_shortcut_overlay(const AppState& state, Actions& out);

// The open lesson step's text, title and Back / Next / Close buttons.
class LessonPanel {
public:
    void draw(const AppState& state, ImVec2 pos, ImVec2 size, ImFont* title_font, Actions& out);
    // The height the open step needs in a panel `width` wide (its whole text, no scrollbar).
    float height(const AppState& state, float width, ImFont* title_font);
    // The narrowest column beside the panel (from 28% up to 45% of the window) that holds the whole step.
    float column_width(const AppState& state, float window_width, float window_height, ImFont* title_font);

private:
    // Heights are asked for several times a frame (the column's width is searched for) with the same
    // values: each is kept by the values it depends on (the step, the width, the type, the window's kind, the theme).
    struct Known {
        int step;
        float width, font, title_font;
        bool presentation;
        plot::ThemeId theme;
        float height;
    };
    static constexpr std::size_t kKnownHeights = 64;
    std::vector<Known> known_;
};

}  // namespace rope::gui
