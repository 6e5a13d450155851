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
#include "rope/number_parse.hpp"

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

    std::unique_ptr<FrameDriver> driver = make_driver(options, renderer);
    std::unique_ptr<PresenterWindow> presenter;
    int frame = 0;
    while (!platform.should_close()) {
        app.set_paced(driver->paced());
        double wake = driver->spins() ? 0 : app.wake_after();
        if (presenter && (wake < 0 || wake > presenter->until_tick())) wake = presenter->until_tick();  // its timer's next second
        const bool spin = wake == 0;
        if (spin) {
            platform.poll();
        } else {
            if (wake < 0) app.idle();
            platform.wait(wake);
        }
        const double t0 = platform.now();
        driver->before_frame(app, platform.input(), frame);
        app.frame();
        driver->after_frame(app, frame);
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
