#include "gui/panel_figures.hpp"

#include <algorithm>
#include <chrono>
#include <atomic>
#include <functional>
#include <future>
#include <string>

#include "gui/imgui_canvas.hpp"

namespace rope::gui {

FigureKey figure_key(const AppState& state, const figures::FigureDescriptor& figure, float width, float height) {
    FigureKey key;
    key.width = width;
    key.height = height;
    key.scale = state.ui_scale;
    key.theme = effective_theme(state);
    key.inputs.reserve(figure.reads.size());
    for (std::string_view k : figure.reads) key.inputs.push_back(state.params().value(k));
    return key;
}

bool figure_current(const PanelView& panel, const FigureKey& key) {
    return panel.built && panel.key == key &&
           !(panel.result.incomplete && panel.result.background_stamp != figures::background_stamp());
}

namespace {

// A build and how long it took (ms).
struct Timed {
    figures::FigureResult result;
    double ms;
};

Timed timed_build(const AppState& state, const figures::FigureDescriptor& figure, const plot::TextMeasure& measure, float width,
                  float height, figures::FigureCache& cache) {
    const auto t0 = std::chrono::steady_clock::now();
    figures::FigureResult r = build_for_screen(state, figure, measure, width, height, cache, false);
    return {std::move(r), std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count()};
}

}  // namespace

figures::FigureResult build_for_screen(const AppState& state, const figures::FigureDescriptor& figure, const plot::TextMeasure& measure,
                                       float width, float height, figures::FigureCache& cache, bool wait_for_background) {
    figures::FigureRequest request;
    request.figure = &figure;
    request.width = width;
    request.height = height;
    request.style = screen_style(state);
    request.measure = &measure;
    request.wait_for_background = wait_for_background;
    try {
        return figures::build_figure(request, state.params(), cache);
    } catch (const std::exception& e) {
        // never a crash: the panel says what went wrong (and the soak run counts it)
        figures::FigureResult failed;
        failed.list.width = width;
        failed.list.height = height;
        failed.list.text({width / 2, height / 2}, std::string("Could not draw this figure: ") + e.what(),
                         request.style.px(request.style.label_font), request.style.theme.text, plot::HAlign::center,
                         plot::VAlign::middle);
        failed.error = true;
        return failed;
    }
}

namespace {

void install(AppState& state, Renderer& renderer, PanelView& panel, figures::FigureResult&& figure, FigureKey&& key, double ms) {
    if (figure.error || !plot::first_non_finite(figure.list).empty()) ++state.figure_errors;
    ++state.figure_builds;
    panel.built_change = state.change_serial;
    panel.build_ms = ms;
    panel.just_built = true;
    panel.result = std::move(figure);
    upload_images(panel.result.list, panel.textures, renderer);
    panel.built = true;
    panel.key = std::move(key);
}

void release(PanelView& panel, Renderer& renderer) {
    for (HeatmapTexture& t : panel.textures) renderer.release(t);
    panel.textures.clear();
    panel.textures.shrink_to_fit();
    panel.result = figures::FigureResult();
    panel.built = false;
}

// The heavy cached data of every stale figure (decay curves), computed on both threads before the
// builds, which then find it ready.
void prepare(AppState& state, const std::vector<const figures::FigureDescriptor*>& figures) {
    std::vector<std::function<void()>> jobs;
    for (const figures::FigureDescriptor* f : figures)
        if (f->prepare)
            for (auto& j : f->prepare(state.params(), state.cache)) jobs.push_back(std::move(j));
    if (jobs.size() < 2) {
        for (auto& j : jobs) j();
        return;
    }
    std::atomic<std::size_t> next{0};
    auto run = [&] {
        for (std::size_t i = next++; i < jobs.size(); i = next++) jobs[i]();
    };
    auto worker = std::async(std::launch::async, run);
    run();
    worker.get();
}

}  // namespace

void release_hidden_panels(AppState& state, Renderer& renderer) {
    for (PanelView& p : state.panels) {
        if (p.shown || !p.built) continue;
        // rebuilt when shown again anyway: give its display list and textures back now, so memory
        // follows what is on screen
        if (figure_key(state, *p.figure, p.key.width, p.key.height) != p.key) release(p, renderer);
    }
}

void build_stale_panels(AppState& state, const UiContext& ui, const std::vector<PanelSize>& sizes) {
    struct Stale {
        PanelView* panel;
        FigureKey key;
    };
    std::vector<Stale> stale;
    for (const PanelSize& s : sizes) {
        PanelView& p = state.panels[static_cast<std::size_t>(s.panel)];
        FigureKey key = figure_key(state, *p.figure, s.width, s.height);
        if (!figure_current(p, key)) stale.push_back({&p, std::move(key)});
    }
    if (stale.empty()) return;
    if (stale.size() == 1) {
        Stale& s = stale[0];
        Timed t = timed_build(state, *s.panel->figure, ui.measure, s.key.width, s.key.height, state.cache);
        install(state, ui.renderer, *s.panel, std::move(t.result), std::move(s.key), t.ms);
        return;
    }
    std::vector<const figures::FigureDescriptor*> figures;
    for (const Stale& s : stale) figures.push_back(s.panel->figure);
    prepare(state, figures);
    // the costliest figure on a worker, the rest here; GL uploads stay here
    auto heaviest = std::max_element(stale.begin(), stale.end(),
                                     [](const Stale& a, const Stale& b) { return a.panel->figure->build_cost < b.panel->figure->build_cost; });
    Stale off = std::move(*heaviest);
    stale.erase(heaviest);
    auto worker = std::async(std::launch::async, [&state, &off, &ui] {
        return timed_build(state, *off.panel->figure, ui.measure, off.key.width, off.key.height, state.cache);
    });
    std::vector<Timed> built;
    for (Stale& s : stale) built.push_back(timed_build(state, *s.panel->figure, ui.measure, s.key.width, s.key.height, state.cache));
    Timed off_result = worker.get();
    for (std::size_t i = 0; i < stale.size(); ++i)
        install(state, ui.renderer, *stale[i].panel, std::move(built[i].result), std::move(stale[i].key), built[i].ms);
    install(state, ui.renderer, *off.panel, std::move(off_result.result), std::move(off.key), off_result.ms);
}

}  // namespace rope::gui
