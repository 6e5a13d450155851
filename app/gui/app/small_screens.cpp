// The app on a phone held upright (AppState::narrow) and presenting on a touch screen: the layouts
// and controls a small screen and a finger need, beside the desktop's (app.cpp).
#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cmath>

#include "gui/app/app.hpp"
#include "gui/app/ui_helpers.hpp"
#include "gui/app/screen_layout.hpp"
#include "gui/panels/panel_grid.hpp"

namespace rope::gui {

namespace {

constexpr ImGuiWindowFlags kOverlay = ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoMove |
                                      ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoScrollbar;

// `root` and its child windows over every other window, in their order (Dear ImGui finds the hovered
// window, and draws, in its list's order: a root moved alone would cover its own children). Done as a
// window opens over others, not every frame: a popup opened from it later must stay over it.
// Moved in the list itself: ImGui::BringWindowToDisplayFront leaves a root where it is when one of its
// children is already in front, as a child made in this frame is (the drawer's first opening: the
// root, and with it every child, stayed under the dimmed rest, and the first tap on a control closed
// the drawer).
void bring_to_front(ImGuiWindow* root) {
    if (!root) return;
    ImVector<ImGuiWindow*>& windows = ImGui::GetCurrentContext()->Windows;
    std::stable_partition(windows.begin(), windows.end(), [root](const ImGuiWindow* w) { return w != root && w->RootWindow != root; });
}

// A menu's item, reachable by its label (note_target: "menu:Next step").
bool menu_item(const char* label) {
    const bool picked = ImGui::MenuItem(label);
    note_target(std::string("menu:") + label);
    return picked;
}

}  // namespace

// A phone upright: a bar across the top (Controls opens them in a drawer over the panels), the page's
// panels one at a time at the whole width (the page tabs and each panel's Menu above it), and an open
// lesson step in a band along the bottom: its text scrolls by a swipe, Back / Next and a question's
// choices stay on screen.
void App::layout_narrow(ImVec2 display) {
    Actions asked;
    const float bar_h = draw_bar(ImVec2(0, 0), display.x, asked);
    apply(asked);
    const bool lesson_open = state_.lesson_step() >= 0;
    const float room = display.y - bar_h;
    const float lesson_h = lesson_open ? std::min(std::round(room * 0.45f), lesson_.height(state_, display.x, fonts_.bold())) : 0.0f;
    draw_panels(state_, panels_, ui_, asked, ImVec2(0, bar_h), ImVec2(display.x, room - lesson_h), state_.maximized);
    apply(asked);
    if (lesson_open) lesson_.draw(state_, ImVec2(0, display.y - lesson_h), ImVec2(display.x, lesson_h), fonts_.bold(), asked);
    apply(asked);
    if (state_.drawer_open) draw_drawer(display, asked);
    else drawer_shown_ = false;
    apply(asked);
}

// The bar a small screen keeps in view at `pos`, `width` wide: Controls (the drawer) and Undo, and
// the status line's news. Its height.
float App::draw_bar(ImVec2 pos, float width, Actions& asked) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const float bar_h = ImGui::GetFrameHeight() + style.WindowPadding.y * 2;
    ImGui::SetNextWindowPos(pos);
    ImGui::SetNextWindowSize(ImVec2(width, bar_h));
    ImGui::Begin("##bar", nullptr, kFixedWindow | ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoBackground);
    if (ImGui::Button("Controls")) asked.ask(act::ShowDrawer{true});
    note_target("bar:Controls");
    item_tooltip("The controls: model, position, pair, base, the lesson, presenting, files (a tap outside closes them).");
    ImGui::SameLine();
    if (ImGui::Button("Undo")) asked.ask(act::Undo{});
    note_target("bar:Undo");
    item_tooltip("Undo the last change.");
    ImGui::SameLine();
    if (ImGui::Button("Redo")) asked.ask(act::Redo{});
    note_target("bar:Redo");
    item_tooltip("Redo what was undone.");
    if (!state_.status.empty() && state_.status.rfind("Ready.", 0) != 0) {  // (the status line is the drawer's: its news shows here too)
        ImGui::SameLine();
        const float room = ImGui::GetContentRegionAvail().x;
        const std::vector<std::string> lines = wrap_at_spaces(state_.status, std::max(room, 1.0f));
        if (!lines.empty()) ImGui::TextDisabled("%s%s", lines[0].c_str(), lines.size() > 1 ? "…" : "");
    }
    ImGui::End();
    return bar_h;
}

// The controls in a drawer from the left edge, over the panels; a tap on the dimmed rest closes it
// (and reaches nothing under it).
void App::draw_drawer(ImVec2 display, Actions& asked) {
    const bool opening = !drawer_shown_;
    drawer_shown_ = true;
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(display);
    ImGui::SetNextWindowBgAlpha(0.6f);
    ImGui::Begin("##scrim", nullptr, kOverlay | ImGuiWindowFlags_NoBringToFrontOnFocus);
    if (opening) bring_to_front(ImGui::GetCurrentWindow());
    ImGui::SetCursorScreenPos(ImVec2(0, 0));
    if (ImGui::InvisibleButton("##outside", display)) asked.ask(act::ShowDrawer{false});
    ImGui::End();
    const float width = std::round(std::min(display.x * 0.88f, 400.0f * state_.ui_scale));
    controls_.draw(state_, builder_.cache(), ImVec2(0, 0), ImVec2(width, display.y), asked, true);
    if (opening) {
        bring_to_front(ImGui::FindWindowByName("Controls"));
        bring_to_front(ImGui::FindWindowByName("##status"));
    }
    // what opens a view of its own closes the drawer (presenting, the lesson, a dialog)
    bool leaves = false;
    for (const Action& a : asked.list())
        leaves = leaves || std::holds_alternative<act::TogglePresentation>(a) || std::holds_alternative<act::OpenLesson>(a) ||
                 std::holds_alternative<act::OpenExportDialog>(a) || std::holds_alternative<act::OpenFileDialog>(a);
    if (leaves) asked.ask(act::ShowDrawer{false});
}

// Presenting on a touch screen there are no keys: a tap anywhere shows a small Menu in the corner for
// a few seconds (the room sees only that), with the lesson, Back / Next and leaving presentation.
void App::draw_touch_way_back(ImVec2 display, Actions& asked) {
    constexpr double kShownFor = 4.0;
    const double now = platform_.now();
    // Its seconds count from the frame after the one that shows it (when a slow page has put that
    // frame on screen), and a finger on it keeps it: on a slow page they could otherwise run out
    // between the finger's touch and its lift.
    if (ImGui::IsMouseClicked(0)) {
        way_back_until_ = now + kShownFor;
        way_back_shown_at_frame_ = ImGui::GetFrameCount();
    } else if (way_back_shown_at_frame_ == ImGui::GetFrameCount() - 1) {
        way_back_until_ = now + kShownFor;
    }
    const ImGuiWindow* menu_window = ImGui::FindWindowByName("##way_back");
    if (menu_window && menu_window == ImGui::GetCurrentContext()->HoveredWindow) way_back_until_ = std::max(way_back_until_, now + kShownFor);
    // (the list's open state as of the last frame: its ID is the Menu window's, not known out here)
    if (now > way_back_until_ && !way_back_menu_open_) return;
    const char* label = "Menu";
    const ImGuiStyle& style = ImGui::GetStyle();
    const ImVec2 size(ImGui::CalcTextSize(label).x + style.FramePadding.x * 2 + style.WindowPadding.x * 2,
                      ImGui::GetFrameHeight() + style.WindowPadding.y * 2);
    ImGui::SetNextWindowPos(ImVec2(display.x - size.x, 0));
    ImGui::SetNextWindowSize(size);
    ImGui::Begin("##way_back", nullptr, kOverlay | ImGuiWindowFlags_NoBackground);
    ImGui::BringWindowToDisplayFront(ImGui::GetCurrentWindow());
    if (ImGui::Button(label)) ImGui::OpenPopup("##way_back_menu");
    note_target("presenting:Menu");
    way_back_menu_open_ = ImGui::BeginPopup("##way_back_menu");
    if (way_back_menu_open_) {
        way_back_until_ = now + kShownFor;
        const bool lesson_open = state_.lesson_step() >= 0;
        if (lesson_open) {
            if (menu_item("Next step")) asked.ask(act::StepLesson{1});
            if (menu_item("Previous step")) asked.ask(act::StepLesson{-1});
            if (menu_item("Close the lesson")) asked.ask(act::CloseLesson{});
        } else if (menu_item("Open the lesson")) {
            asked.ask(act::OpenLesson{});
        }
        if (state_.maximized >= 0 && menu_item("Restore the page")) asked.ask(act::RestoreGrid{});
        if (menu_item("Next page")) asked.ask(act::NextPage{1});
        ImGui::Separator();
        if (menu_item("Leave presentation")) asked.ask(act::TogglePresentation{});
        ImGui::EndPopup();
    }
    ImGui::End();
}

}  // namespace rope::gui
