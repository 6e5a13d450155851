// The classroom side of the window: the toolbar that offers every shortcut as a button (undo and
// redo among them), the lesson panel and the shortcut overlay. Each reads the state and asks for
// what was pressed as actions.
#pragma once

#include <imgui.h>

#include <cstddef>
#include <string>
#include <vector>

#include "gui/app/actions.hpp"
#include "gui/app/app_state.hpp"

namespace rope::gui {

void draw_toolbar(const AppState& state, Actions& out);
// "How RoPE works  -  step 4 of 28"
std::string step_heading(const AppState& state);
// The answer and why, with how the audience's guess fared.
std::string answer_text(const AppState& state, const lessons::Question& q);
void draw_shortcut_overlay(const AppState& state, Actions& out);
// F1 over a panel: what it shows, in the words of docs/user-guide.md (not while presenting).
void draw_panel_help(const AppState& state, Actions& out);

// The open lesson step's text, title and Back / Next / Close buttons.
class LessonPanel {
public:
    void draw(const AppState& state, ImVec2 pos, ImVec2 size, ImFont* title_font, Actions& out);
    // The height the open step needs in a panel `width` wide (its whole text, no scrollbar).
    float height(const AppState& state, float width, ImFont* title_font);
    // The narrowest column beside the panel (from 28% up to 45% of the window) that holds the whole step.
    float column_width(const AppState& state, float window_width, float window_height, ImFont* title_font);
    // Presenting a revealed question: its answer and why go above the text in the column where the
    // column (up to 45% of the window) holds them with the whole text, else in a band across the top
    // of the picture, and the column keeps the size the step's text needs. Decided once a frame.
    void place_answer(const AppState& state, ImVec2 display, ImFont* title_font);
    float band_height(const AppState& state, float width) const;  // 0: no band
    void draw_band(const AppState& state, ImVec2 pos, ImVec2 size) const;

private:
    // Heights are asked for several times a frame (the column's width is searched for) with the same
    // values: each is kept by the values it depends on (the words shown, which an edit or a reveal
    // changes, the width, the type, the window's kind, the theme).
    struct Known {
        std::string words;
        float width, font, title_font;
        bool presentation;
        plot::ThemeId theme;
        float height;
    };
    static constexpr std::size_t kKnownHeights = 64;
    std::vector<Known> known_;
    bool answer_in_band_ = false;
};

}  // namespace rope::gui
