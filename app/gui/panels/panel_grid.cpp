#include "gui/panels/panel_grid.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

#include "figures/compared_build.hpp"
#include "gui/app/screen_layout.hpp"
#include "gui/panels/formula_strip.hpp"
#include "gui/drivers/frame_stats.hpp"
#include "gui/platform/imgui_canvas.hpp"
#include "gui/panels/panel_figures.hpp"
#include "gui/panels/panel_ui.hpp"
#include "gui/app/ui_helpers.hpp"

namespace rope::gui {

namespace {

// Where `n` tracks of a `length` split at `gap`s begin and end; track `wide` (if any) takes
// kEmphasisShare of the room.
std::vector<float> track_edges(int n, float length, float gap, int wide, float wide_share) {
    const float room = length - gap * static_cast<float>(n - 1);
    std::vector<float> edges{0};
    for (int i = 0; i < n; ++i) {
        const float share = wide < 0 || n == 1 ? 1.0f / static_cast<float>(n)
                            : i == wide      ? wide_share
                                             : (1 - wide_share) / static_cast<float>(n - 1);
        edges.push_back(edges.back() + room * share + (i + 1 < n ? gap : 0));
    }
    return edges;
}

}  // namespace

std::vector<GridCell> grid_cells(int count, float width, float height, float gap, int emphasised, float share) {
    std::vector<GridCell> cells;
    if (count <= 0) return cells;
    const int cols = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(count))));
    const int rows = (count + cols - 1) / cols;
    const bool emphasis = emphasised >= 0 && emphasised < count;
    const std::vector<float> xs = track_edges(cols, width, gap, emphasis ? emphasised % cols : -1, share);
    const std::vector<float> ys = track_edges(rows, height, gap, emphasis ? emphasised / cols : -1, share);
    // a last row with fewer panels than columns shares the whole width (no empty cell beside them)
    const int last_row_count = count - (rows - 1) * cols;
    const std::vector<float> last_xs = track_edges(last_row_count, width, gap, -1, share);
    for (int i = 0; i < count; ++i) {
        const int c = i % cols, r = i / cols;
        const std::vector<float>& x = r == rows - 1 && last_row_count < cols ? last_xs : xs;
        const int n = r == rows - 1 && last_row_count < cols ? last_row_count : cols;
        cells.push_back({x[static_cast<std::size_t>(c)], ys[static_cast<std::size_t>(r)], x[static_cast<std::size_t>(c + 1)] - (c + 1 < n ? gap : 0),
                         ys[static_cast<std::size_t>(r + 1)] - (r + 1 < rows ? gap : 0)});
    }
    return cells;
}

namespace {

// Panel numbers as runs: "10–11, 17" (a panel added later sits at the end of the list).
std::string panel_numbers(const std::vector<int>& panels) {
    std::string numbers;
    for (std::size_t i = 0; i < panels.size();) {
        std::size_t j = i;
        while (j + 1 < panels.size() && panels[j + 1] == panels[j] + 1) ++j;
        numbers += (numbers.empty() ? "" : ", ") + std::to_string(panels[i] + 1);
        if (j > i) numbers += "–" + std::to_string(panels[j] + 1);
        i = j + 1;
    }
    return numbers;
}

// The row of tabs above the grid: each page's name and its panels' numbers, or the names alone where
// the numbers would not leave them one row, or the short names where the names would not either; where
// the current page is shown in parts, a button for each part after its tab ("6–7", "8–9").
struct PageTab {
    std::string label, tooltip;
    act::ShowPage shows;
    bool current = false;
    bool new_row = false;  // (a tab is never cut at the window's edge: a second row where needed)
};
struct PageTabs {
    std::vector<PageTab> tabs;
    float height = 0;
};
PageTabs page_tabs(const AppState& state, float width, const std::vector<std::vector<int>>& parts, int part) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const char* keys = "Tab: next page or part, Shift+Tab: previous; number keys maximise a panel";
    std::vector<PageTab> numbered, named, short_named;
    for (int k = 0; k < static_cast<int>(figures::pages().size()); ++k) {
        std::vector<int> on_page;
        for (const figures::FigureDescriptor* d : figures::figures_on_page(k)) on_page.push_back(d->index);
        if (on_page.empty()) continue;
        const std::string name(figures::pages()[static_cast<std::size_t>(k)]), numbers = panel_numbers(on_page);
        const bool current = state.page == k;
        numbered.push_back({name + "  (" + numbers + ")", std::string("Switch the page of panels (") + keys + ").", {k, 0}, current});
        named.push_back({name, "Panels " + numbers + ": switch the page of panels (" + keys + ").", {k, 0}, current});
        short_named.push_back({std::string(figures::page_table()[static_cast<std::size_t>(k)].short_name),
                               name + ", panels " + numbers + ": switch the page of panels (" + keys + ").", {k, 0}, current});
        if (!current || parts.size() < 2) continue;
        for (int j = 0; j < static_cast<int>(parts.size()); ++j) {
            const std::string these = panel_numbers(parts[static_cast<std::size_t>(j)]);
            const bool one = parts[static_cast<std::size_t>(j)].size() == 1;
            const PageTab tab{these, (one ? "Panel " : "Panels ") + these + " of this page: its panels do not all fit legibly at this size (" + keys + ").",
                              {k, j}, j == part};
            numbered.push_back(tab);
            named.push_back(tab);
            short_named.push_back(tab);
        }
    }
    const float room = width - style.WindowPadding.x * 2;
    auto rows = [&](std::vector<PageTab>& tabs) {
        int count = 1;
        float x = 0;
        for (PageTab& t : tabs) {
            const float w = ImGui::CalcTextSize(t.label.c_str()).x + style.FramePadding.x * 2;
            t.new_row = x > 0 && x + style.ItemSpacing.x + w > room;
            if (t.new_row) ++count, x = 0;
            x += (x > 0 ? style.ItemSpacing.x : 0) + w;
        }
        return count;
    };
    const int numbered_rows = rows(numbered), named_rows = rows(named), short_rows = rows(short_named);
    PageTabs out;
    // numbers while they fit one row, then names, then short names; rows of numbers when nothing fits
    int n = numbered_rows;
    if (numbered_rows == 1) out.tabs = std::move(numbered);
    else if (named_rows == 1) out.tabs = std::move(named), n = 1;
    else if (short_rows == 1) out.tabs = std::move(short_named), n = 1;
    else out.tabs = std::move(numbered);
    out.height = style.WindowPadding.y * 2 + ImGui::GetFrameHeight() * static_cast<float>(n) + style.ItemSpacing.y * static_cast<float>(n - 1);
    return out;
}

// A small screen (AppState::compact): one row a thumb's height, the page from a list (seven names
// would take rows of tabs) and a button for each part of it (a phone upright: each of its panels).
PageTabs narrow_page_tabs(const AppState& state, const std::vector<std::vector<int>>& parts, int part) {
    PageTabs out;
    for (int j = 0; j < static_cast<int>(parts.size()) && parts.size() > 1; ++j) {
        const std::string these = panel_numbers(parts[static_cast<std::size_t>(j)]);
        out.tabs.push_back({these, "Panel " + these + " of this page.", {state.page, j}, j == part});
    }
    out.height = ImGui::GetStyle().WindowPadding.y * 2 + ImGui::GetFrameHeight();
    return out;
}

// One page tab (the `i`-th): the current one lit, a click shows its page or part.
void page_tab_button(const PageTab& t, int i, Actions& out) {
    if (t.current) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
    ImGui::PushID(i);
    if (ImGui::Button(t.label.c_str())) out.ask(t.shows);
    note_target("tab:" + t.label);
    ImGui::PopID();
    if (t.current) ImGui::PopStyleColor();
    item_tooltip(t.tooltip.c_str());
}

void draw_narrow_page_tabs(const AppState& state, const PageTabs& tabs, ImVec2 pos, float width, Actions& out) {
    ImGui::SetNextWindowPos(pos);
    ImGui::SetNextWindowSize({width, tabs.height});
    ImGui::Begin("##pages", nullptr, kFixedWindow | ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoBackground);
    const std::string current(figures::pages()[static_cast<std::size_t>(state.page)]);
    ImGui::SetNextItemWidth(std::min(width * 0.5f, ImGui::GetFontSize() * 12));
    const bool open = ImGui::BeginCombo("##page", current.c_str());
    note_target("control:page");
    if (open) {
        for (int k = 0; k < static_cast<int>(figures::pages().size()); ++k) {
            if (figures::figures_on_page(k).empty()) continue;
            const std::string name(figures::pages()[static_cast<std::size_t>(k)]);
            if (ImGui::Selectable(name.c_str(), k == state.page)) out.ask(act::ShowPage{k, 0});
            note_target("page:" + name);
        }
        ImGui::EndCombo();
    }
    for (std::size_t i = 0; i < tabs.tabs.size(); ++i) {
        ImGui::SameLine();
        page_tab_button(tabs.tabs[i], static_cast<int>(i), out);
    }
    ImGui::End();
}

void draw_page_tabs(const PageTabs& tabs, ImVec2 pos, float width, Actions& out) {
    ImGui::SetNextWindowPos(pos);
    ImGui::SetNextWindowSize({width, tabs.height});
    ImGui::Begin("##pages", nullptr, kFixedWindow | ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoBackground);
    for (std::size_t i = 0; i < tabs.tabs.size(); ++i) {
        if (i > 0 && !tabs.tabs[i].new_row) ImGui::SameLine();
        page_tab_button(tabs.tabs[i], static_cast<int>(i), out);
    }
    ImGui::End();
}

// The room between a panel's title and its buttons, and the buttons' width (Record, Export and
// Maximise or Restore).
float header_gap() { return ImGui::GetFontSize() * 1.2f; }

// A panel's window padding: half the usual on a small screen, whose pictures need the room.
ImVec2 panel_padding(const AppState& state) {
    const ImVec2 usual = ImGui::GetStyle().WindowPadding;
    return state.compact() && !state.presentation ? ImVec2(std::round(usual.x / 2), std::round(usual.y / 2)) : usual;
}
float header_buttons_width(const char* last_button) {  // "": Record and Export only
    const ImGuiStyle& style = ImGui::GetStyle();
    const float two = ImGui::CalcTextSize("Record").x + ImGui::CalcTextSize("Export").x + style.FramePadding.x * 4 + style.ItemSpacing.x;
    return *last_button ? two + ImGui::CalcTextSize(last_button).x + style.FramePadding.x * 2 + style.ItemSpacing.x : two;
}

// "1  Angle heatmap · llama-3-8b": the number (none when embedded) and the title naming the model,
// the model left out only where the panel is too narrow for it (in the current font).
std::string header_title(int index, const figures::FigureDescriptor& figure, const ParamSet& params, float width) {
    const std::string number = index >= 0 ? std::to_string(index + 1) + "  " : "";
    const std::string named = number + figures::figure_title(figure, params);
    if (ImGui::CalcTextSize(named.c_str()).x <= width) return named;
    std::string title = number + std::string(figure.title);
    // narrower still (a phone's embed): cut at a word, with an ellipsis
    while (ImGui::CalcTextSize(title.c_str()).x > width && title.find(' ') != std::string::npos) {
        title.erase(title.find_last_of(' '));
        while (!title.empty() && (title.back() == ':' || title.back() == ',' || title.back() == ' ')) title.pop_back();
        if (ImGui::CalcTextSize((title + "…").c_str()).x <= width) return title + "…";
    }
    return title;
}

// The header's title in `width`: an embedded panel is all its page shows, so no panel number.
std::string panel_title(const AppState& state, int index, const figures::FigureDescriptor& figure, float width) {
    return header_title(state.embedded < 0 ? index : -1, figure, state.params(), width);
}

// Presenting, the header is the room's: the number and title, and "(B the same)" where one picture
// stands for both models (a fact of the models, not of the window). No buttons, options or tooltips;
// what the panel leaves out at this size ("(A only)", plots) and its keys are the presenter's
// (presenter_notes, the presenter view).
void draw_header_for_the_room(const AppState& state, const PanelView& panel, const UiContext& ui, int index) {
    ImGui::PushFont(ui.fonts.bold());
    ImGui::TextUnformatted(panel_title(state, index, *panel.figure, ImGui::GetContentRegionAvail().x).c_str());
    ImGui::PopFont();
    if (panel.result.hidden_b.empty() && !panel.result.same_for_b.empty()) {
        ImGui::SameLine();
        ImGui::TextDisabled("(B the same)");
    }
}

// A small screen's header (a phone, a zoomed page, an embed in a column: AppState::compact): the
// title, and at its right one Menu button holding the figure's options, Export, Record and Maximise, so
// that the picture keeps the height a line of options and buttons would take.
void draw_compact_header(const AppState& state, PanelView& panel, const UiContext& ui, int index, bool alone, Actions& out) {
    const char* menu = "Menu";
    const float menu_w = ImGui::CalcTextSize(menu).x + ImGui::GetStyle().FramePadding.x * 2;
    const float right = ImGui::GetWindowContentRegionMax().x;
    ImGui::PushFont(ui.fonts.bold());
    ImGui::TextUnformatted(panel_title(state, index, *panel.figure, ImGui::GetContentRegionAvail().x - menu_w - header_gap()).c_str());
    ImGui::PopFont();
    ImGui::SameLine();
    ImGui::SetCursorPosX(std::max(ImGui::GetCursorPosX(), right - menu_w));
    if (ImGui::SmallButton(menu)) ImGui::OpenPopup("panel_menu");
    note_target("panel:" + std::string(panel.figure->name) + ":Menu");
    if (!ImGui::BeginPopup("panel_menu")) return;
    if (!panel.result.hidden_b.empty())
        ImGui::TextDisabled("Model A alone: too small for two legible pictures (its export shows %s too)", panel.result.hidden_b.c_str());
    if (panel.figure->header) {
        panel_header_options(state, ui.cache, panel, out);
        ImGui::Separator();
    }
    if (ImGui::MenuItem("Export…")) out.ask(act::OpenExportDialog{index, false});
    note_target("menu:Export…");
    if (ImGui::MenuItem("Record…")) out.ask(act::OpenExportDialog{index, true});
    note_target("menu:Record…");
    if (state.embedded < 0 && ImGui::MenuItem(alone && state.maximized == index ? "Restore the page" : "Maximise"))
        out.ask(act::ToggleMaximized{index});
    ImGui::EndPopup();
}

// The header line: number and title (double-click maximises), the figure's options, Record, Export,
// Maximise. The buttons go at the right of the title's line, or of the next one under a long
// title; the options go before them where they fit, else on a line of their own (narrow panels,
// big type).
void draw_header(const AppState& state, PanelView& panel, const UiContext& ui, int index, bool alone, Actions& out) {
    if (state.presentation) return draw_header_for_the_room(state, panel, ui, index);
    if (state.compact()) return draw_compact_header(state, panel, ui, index, alone, out);
    ImGui::PushFont(ui.fonts.bold());
    ImGui::TextUnformatted(panel_title(state, index, *panel.figure, ImGui::GetContentRegionAvail().x).c_str());
    ImGui::PopFont();
    const bool title_double_clicked = ImGui::IsItemHovered() && ImGui::IsMouseDoubleClicked(0);
    if (state.embedded < 0) item_tooltip("Double-click the title (or press its number key) to maximise this panel; again to restore.");
    if (!panel.result.hidden_b.empty()) {  // model B set, but no room here for its picture beside A's
        ImGui::SameLine();
        ImGui::TextDisabled("(A only)");
        item_tooltip(state.maximized == index
                         ? ("Too small for two legible pictures: this panel shows model A alone. A larger window shows model B (" +
                            panel.result.hidden_b + ") beside it; its export shows both.").c_str()
                         : ("Too small for two legible pictures: this panel shows model A alone. Maximise it (double-click the "
                            "title) to see model B (" + panel.result.hidden_b + ") beside it; its export shows both.").c_str());
    } else if (!panel.result.same_for_b.empty()) {  // B's picture is A's: one stands for both
        ImGui::SameLine();
        ImGui::TextDisabled("(B the same)");
        item_tooltip(("Model B (" + panel.result.same_for_b + ") gives exactly this picture: this figure does not depend on what "
                      "differs between the two models.").c_str());
    }
    // an embedded panel is all there is: nothing to maximise or restore
    const char* button = state.embedded >= 0 ? "" : alone && state.maximized == index ? "Restore" : "Maximise";
    const float gap = header_gap();
    const float buttons_w = header_buttons_width(button);
    const float right = ImGui::GetWindowContentRegionMax().x;
    const float title_end = ImGui::GetItemRectMax().x - ImGui::GetWindowPos().x;
    const float options_w = ImGui::GetFontSize() * panel.figure->header_width_em;
    // presentation mode hides the controls, the panels' options among them
    const bool options = !state.presentation && panel.figure->header;
    // what goes beside the title: options and buttons, the buttons alone, or nothing (a long title)
    const bool buttons_beside = right - title_end - gap >= buttons_w;
    const bool options_beside = buttons_beside && right - title_end - gap - buttons_w >= options_w;
    const bool options_before_buttons = options && (options_beside || (!buttons_beside && right - buttons_w >= options_w));
    if (options_before_buttons) {
        if (options_beside) ImGui::SameLine(0, gap);
        panel_header_options(state, ui.cache, panel, out);
    }
    if (buttons_beside || options_before_buttons) ImGui::SameLine();
    ImGui::SetCursorPosX(std::max(ImGui::GetCursorPosX(), right - buttons_w));
    if (ImGui::SmallButton("Record")) out.ask(act::OpenExportDialog{index, true});
    item_tooltip("Save this figure as an animation (GIF, MP4, WebM or PNG frames) while one parameter moves: the playing "
                 "animation, or the slider you last used (Ctrl+R over a panel).");
    ImGui::SameLine();
    if (ImGui::SmallButton("Export")) out.ask(act::OpenExportDialog{index, false});
    item_tooltip("Save this figure as PNG, SVG, PDF or CSV (Ctrl+E over a panel).");
    if (state.embedded < 0) {
        ImGui::SameLine();
        if (ImGui::SmallButton(button) || title_double_clicked) out.ask(act::ToggleMaximized{index});
        item_tooltip("Maximise this panel to the whole window, or restore the page's grid.");
    }
    if (options && !options_before_buttons) panel_header_options(state, ui.cache, panel, out);
}

// A waiting picture becomes the panel's if this frame is its turn: before its header is drawn, which
// reads it ("(A only)").
void take_new_picture(PanelSet& panels, UiContext& ui, PanelView& panel, int index) {
    if (std::find(ui.show_new.begin(), ui.show_new.end(), index) == ui.show_new.end()) return;
    show_next(panels, ui.renderer, panel);
    panel.shown_at = ui.platform.now();
}

// The panel's picture, drawn with its overlays (the linked highlight, a quiet "updating" cue when no
// new picture came for a while) unless the back buffer still holds exactly that. (New pictures are
// asked for after the frame's actions: App.)
void draw_picture(const AppState& state, UiContext& ui, PanelView& panel, ImDrawList* draw, ImVec2 origin) {
    const double now = ui.platform.now();
    const bool current = figure_current(panel, figure_key(state, *panel.figure, panel.size.x, panel.size.y));
    if (current) panel.stale_since = -1;
    else if (panel.stale_since < 0) panel.stale_since = now;
    PanelView::Overlay wanted;
    wanted.cue = !current && now - std::max(panel.stale_since, panel.shown_at) > 0.25;  // not while pictures keep coming
    wanted.pair = state.linked.pair;
    wanted.position = state.linked.position;
    const plot::Rect at{origin.x, origin.y, origin.x + panel.size.x, origin.y + panel.size.y};
    const bool same_place = panel.drawn.x0 == at.x0 && panel.drawn.y0 == at.y0 && panel.drawn.x1 == at.x1 && panel.drawn.y1 == at.y1;
    if (ui.platform.keeps_back_buffer() && panel.on_screen && same_place && panel.overlay == wanted) {
        ui.keep.push_back(at);
        return;
    }
    replay(panel.result.list, draw, {origin.x, origin.y}, ui.fonts, panel.textures, ui.renderer);
    panel.replay_ms = (ui.platform.now() - now) * 1000.0;
    ui.fresh.push_back(at);
    if (wanted.cue) {
        const plot::Theme theme = plot::theme_by_id(effective_theme(state));
        const char* cue = panel.built ? "updating…" : "computing…";
        const ImVec2 text = ImGui::CalcTextSize(cue);
        draw->AddText(ImVec2(origin.x + panel.size.x - text.x - 4, origin.y + 2), to_imgui_color(theme.muted, 1), cue);
    }
    draw_linked_highlight(state, panel, draw, origin);
    panel.drawn = at;
    panel.overlay = wanted;
    panel.on_screen = panel.built;  // until a window the app does not place draws over it
}

void draw_panel(const AppState& state, PanelSet& panels, UiContext& ui, int index, ImVec2 p0, ImVec2 p1, bool alone, Actions& out) {
    PanelView& panel = panels[index];
    ImGui::SetNextWindowPos(p0);
    ImGui::SetNextWindowSize({p1.x - p0.x, p1.y - p0.y});
    char name[32];
    std::snprintf(name, sizeof name, "##panel%d", index);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, panel_padding(state));
    ImGui::Begin(name, nullptr, kFixedWindow | ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse |
                                         ImGuiWindowFlags_NoBackground);
    ImGui::PopStyleVar();
    take_new_picture(panels, ui, panel, index);
    draw_header(state, panel, ui, index, alone, out);
    // the figure
    const ImVec2 fig_pos = ImGui::GetCursorScreenPos();
    ImVec2 avail = ImGui::GetContentRegionAvail();
    avail.x = std::max(avail.x, 50.f);
    avail.y = std::max(avail.y, 50.f);
    ImGui::InvisibleButton("figure", avail);
    panel.screen = {fig_pos.x, fig_pos.y, fig_pos.x + avail.x, fig_pos.y + avail.y};
    panel.size = {std::floor(avail.x), std::floor(avail.y)};
    panel.shown = true;
    panel_pointer(state, ui.cache, panel, index, out);
    ImDrawList* draw = ImGui::GetWindowDrawList();
    if (lesson_panel(state) == panel.figure) {
        // the panel the lesson step asks people to look at
        draw->AddRect(ImVec2(p0.x + 1, p0.y + 1), ImVec2(p1.x - 1, p1.y - 1), to_imgui_color(plot::theme_by_id(effective_theme(state)).accent, 1),
                      0, 0, std::round(3 * state.ui_scale));
    }
    // whole pixels: what is kept from the last frame and what is drawn now are the same rectangle
    const ImVec2 origin(std::floor(fig_pos.x), std::floor(fig_pos.y));
    draw->PushClipRect(origin, {origin.x + panel.size.x, origin.y + panel.size.y}, true);
    const ImVec4 clip = draw->_ClipRectStack.back();
    panel.clip = {clip.x, clip.y, clip.z, clip.w};
    draw_picture(state, ui, panel, draw, origin);
    draw->PopClipRect();
    ImGui::End();
}

}  // namespace

namespace {

// The open lesson step's panel's place among `shown` (-1: not there).
int lesson_panel_in(const AppState& state, const std::vector<int>& shown) {
    const figures::FigureDescriptor* step_panel = lesson_panel(state);
    if (!step_panel) return -1;
    const auto at = std::find(shown.begin(), shown.end(), step_panel->index);
    return at == shown.end() ? -1 : static_cast<int>(at - shown.begin());
}

// The room a panel's figure gets in a grid cell: less its header, the line of the figure's options
// under it (outside presentation mode) and the window's padding.
ImVec2 figure_room(const AppState& state, const UiContext& ui, const figures::FigureDescriptor& f, const GridCell& c) {
    const float header = panel_header_height(state, f.index, c.x1 - c.x0, ui.fonts.bold()) +
                         (f.header && !state.presentation && !state.compact() ? ImGui::GetFrameHeightWithSpacing() : 0.0f);
    return {c.x1 - c.x0 - panel_padding(state).x * 2, c.y1 - c.y0 - header};
}

// How much of the page's width and height the step's panel (`emphasised` among `shown`) gets: up to
// 62%, less where that would leave another panel too small for any of its plots while the step's
// plots keep half again their minimums; 0 when no share gives the step's plots their room and the
// other panels theirs (a small window: the step's panel is then shown alone, not beside squeezed,
// unreadable pictures).
float emphasis_share(const AppState& state, const UiContext& ui, const std::vector<int>& shown, ImVec2 size, float gap, int emphasised) {
    const int count = static_cast<int>(shown.size());
    // (given up for the others only while the step's plots keep half again their minimums)
    auto step_fits = [&](const std::vector<GridCell>& cells, float spare) {
        const figures::FigureDescriptor& f = figures::figure_at(shown[static_cast<std::size_t>(emphasised)]);
        const ImVec2 room = figure_room(state, ui, f, cells[static_cast<std::size_t>(emphasised)]);
        return figures::focus_fits(f, state.params(), screen_style(state, &f), room.x / spare, room.y / spare);
    };
    auto others_legible = [&](const std::vector<GridCell>& cells) {
        for (int k = 0; k < count; ++k) {
            if (k == emphasised) continue;
            const figures::FigureDescriptor& f = figures::figure_at(shown[static_cast<std::size_t>(k)]);
            const ImVec2 room = figure_room(state, ui, f, cells[static_cast<std::size_t>(k)]);
            bool any = false;
            for (const figures::PlotDescriptor& d : f.plots)
                any = any || (state.ui_scale * (d.min_size.x + d.key_width) <= room.x && state.ui_scale * d.min_size.y <= room.y);
            if (!any) return false;
        }
        return true;
    };
    constexpr float kMost = 0.62f, kEven = 0.5f;
    const std::vector<GridCell> most = grid_cells(count, size.x, size.y, gap, emphasised, kMost);
    if (step_fits(most, 1.0f) && others_legible(most)) return kMost;
    // the most the others can have while the step keeps its room to spare; where no share leaves
    // them legible (a small window), the step's panel alone
    for (float share = kMost - 0.02f; share >= kEven - 1e-3f; share -= 0.02f) {
        const std::vector<GridCell> cells = grid_cells(count, size.x, size.y, gap, emphasised, share);
        if (!step_fits(cells, 1.5f)) break;
        if (others_legible(cells)) return share;
    }
    return 0.0f;
}

// Whether panel `f` shows its lead plot (the lesson step's focus, else its lowest-ranked plot) at
// its legible size in `cell`, for both models where B is drawn as a second picture (`with_b`), else
// for A alone.
bool lead_fits(const AppState& state, const UiContext& ui, const figures::FigureDescriptor& f, const GridCell& cell, bool with_b) {
    plot::Style style = screen_style(state, &f);
    if (style.focus.empty() && !f.plots.empty()) {
        const auto lead = std::min_element(f.plots.begin(), f.plots.end(),
                                           [](const figures::PlotDescriptor& a, const figures::PlotDescriptor& b) { return a.rank < b.rank; });
        style.focus = std::string(lead->name);
    }
    const ImVec2 room = figure_room(state, ui, f, cell);
    if (!with_b) return figures::focus_fits_one(f, state.params(), style, room.x, room.y);
    // and the two pictures as the build splits them (its main plots, or this model's own plot, legible
    // in each half): a lead plot of lower need than those (the patch grid's first map of a text-only
    // model) would otherwise put the panel beside others and show A alone
    const std::optional<ParamSet> b = figures::detail::second_picture_model(f, state.params());
    return figures::focus_fits(f, state.params(), style, room.x, room.y) &&
           (!b || figures::detail::compared_split(f, state.params(), *b, screen_style(state, &f), room.x, room.y).both);
}

// The page's panels (`shown`) in as few parts as leave every panel's lead plot legible, each part a
// run of panels drawn together: all at once on a large screen; two and two, or one at a time, on a
// projector. A panel that can show models A and B legibly when alone must show both in its part.
std::vector<std::vector<int>> page_parts(const AppState& state, const UiContext& ui, const std::vector<int>& shown, ImVec2 size, float gap) {
    const int n = static_cast<int>(shown.size());
    auto split = [&](int parts) {  // as even as they come, the larger parts first
        std::vector<std::vector<int>> out;
        for (int k = 0, begin = 0; k < parts; ++k) {
            const int end = begin + (n - begin + (parts - k) - 1) / (parts - k);
            out.emplace_back(shown.begin() + begin, shown.begin() + end);
            begin = end;
        }
        return out;
    };
    const GridCell alone = grid_cells(1, size.x, size.y, gap)[0];
    std::vector<bool> with_b;
    for (int panel : shown) with_b.push_back(lead_fits(state, ui, figures::figure_at(panel), alone, true));
    auto legible = [&](const std::vector<std::vector<int>>& parts) {
        std::size_t at = 0;  // the panel's place on the page
        for (const std::vector<int>& part : parts) {
            const std::vector<GridCell> cells = grid_cells(static_cast<int>(part.size()), size.x, size.y, gap);
            for (std::size_t k = 0; k < part.size(); ++k, ++at)
                if (!lead_fits(state, ui, figures::figure_at(part[k]), cells[k], with_b[at])) return false;
        }
        return true;
    };
    for (int parts = 1; parts < n; ++parts)
        if (legible(split(parts))) return split(parts);
    return split(std::max(n, 1));
}

// Draws the page tabs at `pos` and returns the panels of the page (`page`) to show under them, in
// the room left (`pos`, `size` updated): the whole page, or the part Tab has reached where its panels
// do not all fit legibly (not beside a lesson step's panel, which has its own share of the page).
// Presenting, the room sees no tabs (they are buttons): Tab and Shift+Tab go on, the presenter view
// names the page and the part.
std::vector<int> draw_tabs_and_page_part(const AppState& state, const UiContext& ui, Actions& out, const std::vector<int>& page, bool step_panel,
                                         float gap, ImVec2& pos, ImVec2& size) {
    auto tabs_for = [&](const std::vector<std::vector<int>>& parts, int part) {
        return state.presentation ? PageTabs{} : state.compact() ? narrow_page_tabs(state, parts, part) : page_tabs(state, size.x, parts, part);
    };
    std::vector<std::vector<int>> parts{page};
    PageTabs tabs = tabs_for(parts, 0);
    if (!step_panel && page.size() > 1 && state.narrow) {
        // a phone upright: one panel at a time, at the whole width
        parts.clear();
        for (int panel : page) parts.push_back({panel});
        tabs = tabs_for(parts, 0);
    } else if (!step_panel && page.size() > 1) {
        parts = page_parts(state, ui, page, {size.x, size.y - tabs.height}, gap);
        // (the parts' buttons rarely need a second row of tabs; then the parts have less room)
        const float one_row = tabs.height;
        tabs = tabs_for(parts, 0);
        if (tabs.height > one_row) parts = page_parts(state, ui, page, {size.x, size.y - tabs.height}, gap);
    }
    const int part = std::clamp(state.page_part, 0, static_cast<int>(parts.size()) - 1);
    if (static_cast<int>(parts.size()) != state.page_parts || part != state.page_part)
        out.ask(act::PageParts{static_cast<int>(parts.size()), part});
    tabs = tabs_for(parts, part);
    if (state.presentation) return parts[static_cast<std::size_t>(part)];
    if (state.compact()) draw_narrow_page_tabs(state, tabs, pos, size.x, out);
    else draw_page_tabs(tabs, pos, size.x, out);
    pos.y += tabs.height;
    size.y -= tabs.height;
    return parts[static_cast<std::size_t>(part)];
}

}  // namespace

float panel_header_height(const AppState& state, int index, float width, ImFont* title_font) {
    const ImGuiStyle& style = ImGui::GetStyle();
    if (state.presentation || state.compact()) return ImGui::GetFrameHeightWithSpacing() + panel_padding(state).y * 2;  // one line
    ImGui::PushFont(title_font);
    const float room = width - style.WindowPadding.x * 2;
    const float title_w = ImGui::CalcTextSize(header_title(index, figures::figure_at(index), state.params(), room).c_str()).x;
    ImGui::PopFont();
    const bool one_line = title_w + header_gap() + header_buttons_width("Maximise") <= width - style.WindowPadding.x * 2;
    return ImGui::GetFrameHeightWithSpacing() * (one_line ? 1.0f : 2.0f) + style.WindowPadding.y * 2;
}

void draw_panels(const AppState& state, PanelSet& panels, UiContext& ui, Actions& out, ImVec2 pos, ImVec2 size, int maximized,
                 bool formula_strip) {
    if (formula_strip) {
        // on a short screen the strip folds away before a plot shrinks; elsewhere it takes at most a
        // sixth of the height (a phone upright: the strip's lines wrap)
        const float strip_h = formula_strip_height(state, ui.cache, size.x);
        if (!state.short_screen && strip_h <= size.y / 6) {
            draw_formula_strip(state, ui.cache, {pos.x, pos.y + size.y - strip_h}, {size.x, strip_h});
            size.y -= strip_h;
        }
    }
    std::vector<int> shown;
    if (maximized >= 0) {
        shown.push_back(maximized);
    } else {
        for (const figures::FigureDescriptor* d : figures::figures_on_page(state.page)) shown.push_back(d->index);
    }
    const float gap = std::round(6 * state.ui_scale);
    int emphasised = maximized < 0 ? lesson_panel_in(state, shown) : -1;
    if (maximized < 0) shown = draw_tabs_and_page_part(state, ui, out, shown, emphasised >= 0, gap, pos, size);
    float share = 0.62f;
    if (emphasised >= 0 && shown.size() > 1) share = emphasis_share(state, ui, shown, size, gap, emphasised);
    if (share <= 0) {
        // too small a window for the step's plots beside the rest of the page: the step's panel alone
        // (the page's other panels are a tab or a number key away)
        shown = {shown[static_cast<std::size_t>(emphasised)]};
        emphasised = -1;
    }
    for (PanelView& p : panels.views) p.shown = std::find(shown.begin(), shown.end(), p.figure->index) != shown.end();
    release_hidden_panels(state, panels, ui.renderer);
    // the new pictures that waited longest are shown first, kNewPicturesMs' worth a frame
    ui.show_new.clear();
    ui.keep.clear();
    ui.fresh.clear();
    for (int i : shown) {
        const PanelView& p = panels[i];
        if (p.has_next && (!ui.draws_between_frames || p.arrived_frame < ui.frame || p.missed_spare_time)) ui.show_new.push_back(i);
    }
    std::stable_sort(ui.show_new.begin(), ui.show_new.end(), [&](int a, int b) {
        return panels[a].arrived_frame < panels[b].arrived_frame;
    });
    double budget = kNewPicturesMs;
    std::size_t taken = 0;
    for (int i : ui.show_new) {
        const double cost = panels[i].next_cost;
        if (taken > 0 && cost > budget) break;
        budget -= cost;
        ++taken;
    }
    ui.show_new.resize(taken);
    const auto cells = grid_cells(static_cast<int>(shown.size()), size.x, size.y, gap, emphasised, share);
    for (std::size_t k = 0; k < shown.size(); ++k)
        draw_panel(state, panels, ui, shown[k], {pos.x + cells[k].x0, pos.y + cells[k].y0}, {pos.x + cells[k].x1, pos.y + cells[k].y1},
                   maximized >= 0, out);
}

}  // namespace rope::gui
