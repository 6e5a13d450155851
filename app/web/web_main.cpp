// The browser's entry point: the same App as the desktop's window, driven by the page's animation
// frames (emscripten_set_main_loop, as Dear ImGui's own emscripten examples do). A frame is drawn
// when something asks for one (input, a wake, a picture, a timer); the time left in each animation
// frame builds the pictures that wait and runs the background work (the page has one thread).
#include <emscripten.h>
#include <imgui.h>

#include <algorithm>
#include <cstdlib>
#include <cstdio>
#include <memory>
#include <string>

#include "figures/registry.hpp"
#include "cli/arguments.hpp"
#include "gui/app/app.hpp"
#include "gui/drivers/frame_drivers.hpp"
#include "gui/platform/gl_renderer.hpp"
#include "tasks/background.hpp"
#include "session/page_address.hpp"
#include "web/web_run.hpp"

namespace rope::gui {

WebRun& web_run() {
    static WebRun run;
    return run;
}

namespace {

// Of each animation frame (16.7 ms at 60 Hz), what the app's frame and the work between frames may take.
constexpr double kFrameBudget = 0.012;

EM_JS(char*, rope_page_fragment, (), {
    var text = (location.hash || "").replace(/^#/, "");
    var size = lengthBytesUTF8(text) + 1;
    var out = _malloc(size);
    stringToUTF8(text, out, size);
    return out;
});
EM_JS(void, rope_page_started, (), { if (Module['ropePage']) Module['ropePage'].started(); });
EM_JS(void, rope_page_failed, (const char* why), { if (Module['ropePage']) Module['ropePage'].failed(UTF8ToString(why)); });

void one_animation_frame(void*) {
    WebRun& r = web_run();
    if (r.ended) return;
    App& app = *r.app;
    const double t0 = r.platform->now();
    const double wake = r.driver->spins() ? 0 : app.wake_after();
    const bool woken = r.platform->take_wake();
    if (wake == 0 || woken || (wake > 0 && t0 - r.last_frame >= wake)) {
        r.idle = false;
        app.set_paced(r.driver->paced());
        r.driver->before_frame(app, r.platform->input(), r.frame);
        app.frame();
        r.driver->after_frame(app, r.frame);
        ++r.frame;
        r.last_frame = t0;
        app.state().quit_requested = false;  // a page is not closed by the app (Ctrl+Q leaves it as it is)
        tell_page_address(r);
        tell_page_typing(r);
        r.reader_due = true;
        if (r.driver->done()) {
            r.bench_report = r.driver->report_text();
            r.driver->report();
            // the page goes on as it is, interactive: first the app lets go of the benchmark's
            // measurements, which die with its driver (written to after that, they corrupted the heap)
            app.set_stats(nullptr);
            app.time_windows(false);
            r.driver = make_driver(GuiOptions{}, *r.renderer);
        }
    } else if (wake < 0 && !r.idle && !app.working()) {
        app.idle();
        r.idle = true;
    }
    // The time left: a picture waiting to be built (one at least, so that pictures keep coming
    // while frames take the whole budget), more while there is time, then background work; pictures
    // that arrived are drawn in place (the canvas keeps what it showed), else the next frame shows them.
    const double until = t0 + kFrameBudget;
    bool built = app.build_here();
    while (r.platform->now() < until && app.build_here()) built = true;
    if (tasks::background().run_until(until)) built = true;
    if (built) {
        app.use_spare_time(until);
        r.platform->wake();
    }
    // the screen readers' document: its tables once the state has settled (no frame for a while,
    // nothing building), one a frame; then the document itself when it changed
    constexpr double kSettled = 0.3;  // seconds
    if (!built && !app.working() && t0 - r.last_frame > kSettled && r.reader.build_one_table(app)) r.reader_due = true;
    tell_page_reader(r, t0);
}

// The options a desktop start would get from the address: parameters, lesson, theme, benchmark.
GuiOptions options_of(const session::PageAddress& a) {
    GuiOptions options;
    options.fresh = true;
    options.sets = a.sets;
    options.lesson = a.lesson;
    if (a.theme) {
        options.theme = *a.theme;
        options.theme_given = true;
    }
    options.bench_frames = a.bench_frames;
    options.sweep_keys = a.sweep;
    return options;
}

}  // namespace

int run_web() {
    WebRun& r = web_run();
    r.services = web_services();
    answer_model_imports(r.services);  // before any parameter is checked: compare_to may name a file
    char* fragment = rope_page_fragment();
    const session::PageAddress address = session::parse_page_address(fragment);
    std::free(fragment);
    std::vector<std::string> errors = address.errors;
    // the address's parameters as --set lines: each on its own, so that a wrong one leaves the rest
    GuiOptions options = options_of(address);
    options.sets.clear();
    for (const std::string& s : address.sets) {
        GuiOptions one = options;
        one.sets = {s};
        try {
            starting_state(one);
            options.sets.push_back(s);
        } catch (const std::exception& e) {
            errors.push_back(e.what());
        }
    }
    StartState start;
    try {
        start = starting_state(options);
    } catch (const std::exception& e) {  // a lesson step the lesson has not
        errors.push_back(e.what());
        options.lesson = 0;
        start = starting_state(options);
    }
    r.options = options;
    r.platform = std::make_unique<WebPlatform>();
    r.imgui = std::make_unique<ImGuiContextScope>();
    r.renderer = std::make_unique<GlRenderer>();
    const float scale = std::clamp(r.platform->content_scale(), 1.0f, 4.0f);
    r.app = std::make_unique<App>(*r.platform, *r.renderer, scale, r.services);
    start_app(r.app->state(), options, start);
    session::PageAddress view = address;
    view.lesson = 0;  // started there already
    view.theme.reset();
    apply_view_keys(*r.app, view);
    if (const figures::FigureDescriptor* figure = address.embed.empty() ? nullptr : figures::find_figure(address.embed)) {
        r.app->state().embedded = figure->index;  // that panel alone, for good
        r.app->state().maximized = figure->index;
        r.app->state().page = figure->page;
    }
    for (const std::string& e : errors) std::fprintf(stderr, "rope-explorer: %s\n", e.c_str());
    if (!errors.empty()) r.app->state().set_status(errors.front(), true);
    r.driver = make_driver(options, *r.renderer);
    rope_page_started();
    emscripten_set_main_loop_arg(one_animation_frame, nullptr, 0, false);
    return 0;
}

}  // namespace rope::gui

int main() {
    try {
        return rope::gui::run_web();
    } catch (const std::exception& e) {
        std::fprintf(stderr, "rope-explorer: %s\n", e.what());
        rope::gui::rope_page_failed(e.what());
        return 1;
    }
}
