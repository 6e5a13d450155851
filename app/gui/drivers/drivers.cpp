#include "gui/drivers/drivers.hpp"

#include <malloc.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <string>

#include "cli/arguments.hpp"
#include "gui/app/app.hpp"
#include "gui/platform/gl_renderer.hpp"
#include "gui/platform/glfw_platform.hpp"
#include "gui/platform/presenter_window.hpp"
#include "gui/drivers/state_report.hpp"
#include "rope/number_parse.hpp"
#include "session/ui_settings.hpp"

namespace rope::gui {

namespace {

// The presenter's window opened or closed as the state asks (its close button turns the view off),
// and its frame drawn; what its buttons ask is applied to the app.
void show_presenter_view(App& app, GlfwPlatform& platform, std::unique_ptr<PresenterWindow>& presenter) {
    AppState& state = app.state();
    if (presenter && presenter->closed()) {
        state.presenter_view = false;
        platform.wake();
    }
    if (!state.presenter_view) return presenter.reset();
    if (!presenter) {
        try {
            presenter = std::make_unique<PresenterWindow>(platform, state.base_scale);
        } catch (const std::exception& e) {
            state.presenter_view = false;
            return state.set_status(e.what(), true);
        }
    }
    Actions asked;
    presenter->frame(state, asked);
    if (asked.empty()) return;
    app.apply(asked);
    platform.wake();  // the audience's window shows it next
}

// --state-file: whatever asked for a frame since `requests` was read (input, a worker's wake-up, the
// window's contents lost) gets its frame first (false is returned); with nothing, the app's settled
// state is reported as of the time before it was looked for.
bool settle_report(const App& app, GlfwPlatform& platform, StateReport& report, std::uint64_t requests) {
    const double looked = steady_seconds();
    platform.poll();
    if (platform.frame_requests() != requests || !platform.input().empty() || platform.input().has_drops()) return false;
    report.settled(app, looked);
    return true;
}

// --state-file, while the app sleeps: the report is made again every so often (no frame is drawn
// for it), so a script that sent input which changes nothing, or which the app took before the
// script looked, still finds a report made after it. Returns when something asks for a frame
// (counted by the platform, so a wake-up at the end of a wait is not taken for its timeout) or the
// wake-up time comes.
void wait_reporting(const App& app, GlfwPlatform& platform, StateReport& report, double wake, std::uint64_t requests) {
    constexpr double kReportEvery = 0.05;
    const double until = wake < 0 ? -1 : platform.now() + wake;
    for (;;) {
        const double step = until < 0 ? kReportEvery : std::min(kReportEvery, until - platform.now());
        if (step <= 0) return;
        platform.wait(step);
        if (platform.frame_requests() != requests || app.wants_frame()) return;
        if (!settle_report(app, platform, report, requests)) return;
    }
}

float ui_scale(const GuiOptions& options, const GlfwPlatform& platform) {
    float scale = options.ui_scale;
    if (scale <= 0)
        if (const char* env = std::getenv("ROPE_UI_SCALE")) scale = static_cast<float>(parse_number(env).value_or(0));
    if (!(scale >= 0.5f && scale <= 4.0f)) scale = std::clamp(platform.content_scale(), 1.0f, 4.0f);
    return scale;
}

}  // namespace

int run_gui(const GuiOptions& options, const Services& services) {
    // Every slider move frees and allocates tables of a few hundred kB to a few MB. glibc raises its
    // mmap threshold to the size of each big block freed, so later tables come from the heap, where
    // a lecture's worth of slider moves fragments it: resident memory rose 15% over the soak test's
    // 20,000 frames with flat use. A fixed threshold returns every big table to the system on free.
    mallopt(M_MMAP_THRESHOLD, 256 * 1024);
    const StartState start = starting_state(options);

    int width = options.width, height = options.height;
    if (!options.size_given) {
        width = std::max(width, 1280);
        height = std::max(height, 720);
    }
    GlfwPlatform platform(width, height, "RoPE Explorer");
    ImGuiContextScope imgui;
    GlRenderer renderer;
    App app(platform, renderer, ui_scale(options, platform), services);
    AppState& state = app.state();
    start_app(state, options, start);
    // the UI zoom people chose last time (--fresh: 100%), kept again whenever they change it
    session::UiSettings settings = options.fresh ? session::UiSettings{} : session::kept_ui_settings();
    state.ui_zoom = settings.ui_zoom;

    std::unique_ptr<FrameDriver> driver = make_driver(options, renderer);
    std::unique_ptr<PresenterWindow> presenter;
    StateReport report(options.state_file);
    int frame = 0;
    // the requests for a frame as the last frame began: one that came during it (a worker's wake-up
    // taken off the queue by the next poll) still gets the frame after it
    std::uint64_t requests = platform.frame_requests();
    while (!platform.should_close()) {
        app.set_paced(driver->paced());
        double wake = driver->spins() ? 0 : app.wake_after();
        if (presenter && (wake < 0 || wake > presenter->until_tick())) wake = presenter->until_tick();  // its timer's next second
        const bool spin = wake == 0;
        if (spin) {
            platform.poll();
        } else {
            if (wake < 0) app.idle();
            if (!report.wanted()) platform.wait(wake);
            else if (settle_report(app, platform, report, requests)) wait_reporting(app, platform, report, wake, requests);
            // (else something asked for a frame meanwhile: it comes first)
        }
        const double t0 = platform.now();
        requests = platform.frame_requests();
        driver->before_frame(app, platform.input(), frame);
        app.frame();
        driver->after_frame(app, frame);
        if (state.ui_zoom != settings.ui_zoom) {
            settings.ui_zoom = state.ui_zoom;
            session::keep_ui_settings(settings);
        }
        platform.swap(renderer.changed_area());
        show_presenter_view(app, platform, presenter);
        ++frame;
        if (state.quit_requested || driver->done()) platform.request_close();
        if (driver->paced()) {
            // At most a display's 60 frames a second (vsync cannot be relied on, and under Xvfb there
            // is none): frames nobody can see would only take the cores the panels' builders need.
            // Events that come meanwhile wait in the queue for the next frame.
            // The time until then draws the pictures that arrived, in place: the next frame only
            // shows them.
            for (double left = kFrameInterval - (platform.now() - t0); left > 1e-4; left = kFrameInterval - (platform.now() - t0))
                if (!app.use_spare_time(t0 + kFrameInterval)) platform.wait(left);
        }
    }
    if (driver->keeps_session() && start.keep_last_session) keep_last_session(state);
    driver->report();
    return driver->exit_code();
}

}  // namespace rope::gui
