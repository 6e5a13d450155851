#include "gui/panels/panel_figures.hpp"

#include <imgui.h>

#include <string>
#include <variant>

#include "gui/platform/imgui_canvas.hpp"

namespace rope::gui {

bool builds_quickly(const PanelView& panel) { return panel.built && panel.build_ms < kQuickBuildMs; }

FigureKey figure_key(const AppState& state, const figures::FigureDescriptor& figure, float width, float height) {
    FigureKey key;
    key.width = width;
    key.height = height;
    key.scale = state.ui_scale;
    key.theme = effective_theme(state);
    key.focus = lesson_focus(state, figure);
    key.maximized = state.maximized == figure.index;
    key.presenting = state.presentation;
    key.touch = state.touch;
    key.small_screen = state.compact();
    key.inputs.reserve(figure.reads.size());
    for (const ParamId k : figure.reads) key.inputs.push_back(state.params().value(k));
    return key;
}

bool figure_current(const PanelView& panel, const FigureKey& key) {
    return panel.built && panel.key == key &&
           !(panel.result.incomplete && panel.result.background_stamp != figures::background_stamp());
}



figures::FigureResult build_picture(const figures::FigureDescriptor& figure, const ParamSet& params, const plot::Style& style,
                                    const plot::TextMeasure& measure, float width, float height, figures::FigureCache& cache,
                                    bool wait_for_background, bool maximized, bool touch, bool small_screen) {
    figures::FigureRequest request;
    request.maximized = maximized;
    request.key_hints = !touch;
    request.small_screen = small_screen;
    request.interactive = !style.presenting;  // presenting, nobody in the room clicks: the figures' words say no click or drag
    request.figure = &figure;
    request.width = width;
    request.height = height;
    request.style = style;
    request.measure = &measure;
    request.wait_for_background = wait_for_background;
    try {
        return figures::build_figure(request, params, cache);
    } catch (const std::exception& e) {
        // never a crash: the panel says what went wrong (and the soak run counts it)
        figures::FigureResult failed;
        failed.list.width = width;
        failed.list.height = height;
        failed.list.background = style.theme.background;
        failed.list.text({width / 2, height / 2}, std::string("Could not draw this figure: ") + e.what(), style.px(style.label_font),
                         style.theme.text, plot::HAlign::center, plot::VAlign::middle);
        failed.error = true;
        return failed;
    }
}

figures::FigureResult build_for_screen(const AppState& state, const figures::FigureDescriptor& figure, const plot::TextMeasure& measure,
                                       float width, float height, figures::FigureCache& cache, bool wait_for_background) {
    return build_picture(figure, state.params(), screen_style(state, &figure), measure, width, height, cache, wait_for_background,
                         state.maximized == figure.index, state.touch, state.compact());
}

void request_picture(const AppState& state, PanelSet& panels, PanelBuilder& builder, int index, std::uint64_t change) {
    PanelView& panel = panels[index];
    const float width = panel.size.x, height = panel.size.y;
    FigureKey key = figure_key(state, *panel.figure, width, height);
    // A picture still waiting for its frame is shown first: building more while it waits only
    // makes pictures nobody sees (and takes the cores the drawing needs); unless it is already out
    // of date and the panel's pictures build quickly (the newer one replaces it when it arrives).
    if ((panel.has_next && (panel.next_key == key || !builds_quickly(panel))) || figure_current(panel, key)) return;
    if (builder.pending(index, key)) return;
    // Every picture of a change together: a panel that is ahead of another still on its way waits
    // for it (pictures nobody waits for would take the cores the slowest one needs), unless its
    // pictures build well within a frame: then waiting only makes the change a frame late.
    if (!builds_quickly(panel))
        for (const PanelView& other : panels.views)
            if (&other != &panel && other.shown && other.asked_change < panel.asked_change &&
                !figure_current(other, figure_key(state, *other.figure, other.size.x, other.size.y)))
                return;
    panel.asked_change = change;
    PanelBuilder::Request r;
    r.panel = index;
    r.figure = panel.figure;
    r.key = std::move(key);
    r.change = change;
    r.params = state.params();
    r.style = screen_style(state, panel.figure);
    builder.request(std::move(r));
}

namespace {

void release(PanelView& panel, Renderer& renderer) {
    for (HeatmapTexture& t : panel.textures) renderer.release(t);
    panel.textures.clear();
    panel.textures.shrink_to_fit();
    panel.result = figures::FigureResult();
    panel.next = figures::FigureResult();
    panel.built = false;
    panel.has_next = false;
    panel.on_screen = false;
}

}  // namespace

double draw_cost_ms(const plot::DisplayList& list) {
    // measured with llvmpipe at 1920x1080 on two cores: ~1.5 ms a picture, ~0.09 us an index drawn,
    // ~2 ns a heatmap pixel
    double indices = 0, pixels = 0;
    for (const plot::Command& c : list.commands) {
        if (const auto* l = std::get_if<plot::PolylineCmd>(&c)) indices += 6.0 * static_cast<double>(l->points.size());
        else if (const auto* t = std::get_if<plot::TextCmd>(&c)) indices += 6.0 * static_cast<double>(t->text.size());
        else if (std::get_if<plot::CircleCmd>(&c)) indices += 60;
        else if (const auto* im = std::get_if<plot::ImageCmd>(&c)) pixels += static_cast<double>(im->rect.width() * im->rect.height());
        else indices += 6;
    }
    return 1.5 + 0.09e-3 * indices + 2e-6 * pixels;
}

void receive_finished(PanelSet& panels, std::vector<PanelBuilder::Finished>&& finished, std::uint64_t frame) {
    for (PanelBuilder::Finished& f : finished) {
        PanelView& panel = panels[f.panel];
        if (!panel.has_next) panel.arrived_frame = frame;  // a picture still waiting keeps its place in the line
        panel.has_next = true;
        panel.next = std::move(f.result);
        panel.next_key = std::move(f.key);
        panel.next_change = f.change;
        panel.next_ms = f.ms;
        panel.next_cost = draw_cost_ms(panel.next.list);
    }
}

namespace {

void take_next(PanelSet& panels, PanelView& panel) {
    if (panel.next.error || !plot::first_non_finite(panel.next.list).empty()) ++panels.figure_errors;
    ++panels.figure_builds;
    panel.result = std::move(panel.next);
    panel.next = figures::FigureResult();
    panel.built = true;
    panel.has_next = false;
    panel.on_screen = false;
    panel.key = std::move(panel.next_key);
    panel.built_change = panel.next_change;
    panel.build_ms = panel.next_ms;
    panel.just_built = true;
    panel.missed_spare_time = false;
}

}  // namespace

bool show_next_in_place(const AppState& state, PanelSet& panels, const FontSet& fonts, Renderer& renderer, PanelView& panel, double now) {
    if (!panel.shown || !panel.has_next || !panel.built || !panel.on_screen || panel.overlay != PanelView::Overlay()) return false;
    const plot::Rect& at = panel.drawn;
    if (at.width() != panel.next_key.width || at.height() != panel.next_key.height) return false;
    // the panel's draw list in a frame, as far as the picture goes: the same clip, the same vertices
    ImDrawList list(ImGui::GetDrawListSharedData());
    list._ResetForNewFrame();
    list.PushTextureID(ImGui::GetIO().Fonts->TexID);
    list.PushClipRect(ImVec2(panel.clip.x0, panel.clip.y0), ImVec2(panel.clip.x1, panel.clip.y1), false);
    std::vector<HeatmapTexture> textures;
    upload_images(panel.next.list, textures, renderer);
    replay(panel.next.list, &list, {at.x0, at.y0}, fonts, textures, renderer);
    if (!renderer.draw_in_place(list, at, plot::theme_by_id(effective_theme(state)).background)) {
        for (HeatmapTexture& t : textures) renderer.release(t);
        return false;
    }
    for (HeatmapTexture& t : panel.textures) renderer.release(t);
    panel.textures = std::move(textures);
    take_next(panels, panel);
    panel.on_screen = true;  // at `drawn`, with no overlay
    panel.shown_at = now;
    return true;
}

void show_next(PanelSet& panels, Renderer& renderer, PanelView& panel) {
    if (!panel.has_next) return;
    take_next(panels, panel);
    upload_images(panel.result.list, panel.textures, renderer);
}


bool draw_waiting_pictures(const AppState& state, PanelSet& panels, const FontSet& fonts, Renderer& renderer, double until,
                           const std::function<double()>& now, const std::function<void(const PanelView&, double)>& drawn) {
    std::vector<PanelView*> waiting;
    for (PanelView& p : panels.views)
        if (p.shown && p.has_next) waiting.push_back(&p);
    // the panel furthest behind first: the one every change is waiting for
    std::stable_sort(waiting.begin(), waiting.end(), [](const PanelView* a, const PanelView* b) { return a->built_change < b->built_change; });
    bool drew = false;
    for (PanelView* p : waiting) {
        const double t0 = now();
        if (t0 + p->next_cost / 1000.0 > until + kSpareTimeSlackMs / 1000.0) {
            p->missed_spare_time = true;  // the next frame draws it
            continue;
        }
        if (!show_next_in_place(state, panels, fonts, renderer, *p, t0)) continue;
        drawn(*p, (now() - t0) * 1000.0);
        drew = true;
    }
    return drew;
}

void forget_overdrawn(PanelSet& panels, const std::vector<plot::Rect>& overdrawn) {
    for (PanelView& p : panels.views)
        for (const plot::Rect& r : overdrawn)
            if (p.on_screen && r.x0 < p.drawn.x1 && p.drawn.x0 < r.x1 && r.y0 < p.drawn.y1 && p.drawn.y0 < r.y1) p.on_screen = false;
}

void clear_replay_times(PanelSet& panels) {
    for (PanelView& p : panels.views) p.replay_ms = -1;
}

void note_final_pictures(const AppState& state, PanelSet& panels, std::uint64_t change, const std::function<void(const PanelView&)>& built) {
    for (PanelView& p : panels.views) {
        if (p.just_built) built(p);
        p.just_built = false;
        if (!p.shown || !p.built || p.result.incomplete || p.key.width != p.size.x || p.key.height != p.size.y) continue;
        p.final_change = std::max(p.final_change, p.built_change);
        if (figure_current(p, figure_key(state, *p.figure, p.size.x, p.size.y))) p.final_change = change;
    }
}

void release_hidden_panels(const AppState& state, PanelSet& panels, Renderer& renderer) {
    for (PanelView& p : panels.views) {
        if (p.shown) continue;
        p.on_screen = false;  // drawn over by other panels
        // rebuilt when shown again anyway: give its display list and textures back now, so memory
        // follows what is on screen
        if ((p.built || p.has_next) && figure_key(state, *p.figure, p.key.width, p.key.height) != p.key) release(p, renderer);
    }
}

void release_all_panels(PanelSet& panels, Renderer& renderer) {
    for (PanelView& p : panels.views) release(p, renderer);
}

}  // namespace rope::gui
