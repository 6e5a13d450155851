#include "gui/drivers/frame_drivers.hpp"

#include <GLFW/glfw3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "cli/arguments.hpp"
#include "gui/app/app.hpp"
#include "gui/dialogs/session_dialog.hpp"
#include "gui/drivers/soak.hpp"
#include "io/atomic_file.hpp"
#include "lessons/lessons.hpp"
#include "session/session.hpp"

namespace rope::gui {

namespace {

class InteractiveDriver : public FrameDriver {};

// --screenshot PATH [--quit]: the first complete frame (layout settled, figures built) as a PNG.
class ScreenshotDriver : public FrameDriver {
public:
    ScreenshotDriver(std::string path, bool quit) : path_(std::move(path)), quit_(quit) {}
    bool paced() const override { return saved_; }
    bool spins() const override { return !saved_; }
    // the picture shows the state the command line gives, not a hover readout where the pointer
    // happens to rest (which would also depend on when the X server tells where it is)
    void before_frame(App&, InputQueue& input, int) override {
        if (!saved_) input.drop_pointer_moves();
    }
    void after_frame(App& app, int frame) override {
        if (saved_ || frame < 3) return;
        // the window as it rests: every picture there, and the frames after the last change drawn
        // (a scrollbar is laid out from the frame before)
        if ((!app.figures_complete() || app.wants_frame()) && started_ + std::chrono::seconds(60) > std::chrono::steady_clock::now()) return;
        try {
            app.save_screenshot(path_);
        } catch (const io::IoError& e) {
            std::fprintf(stderr, "rope-explorer: %s\n", e.what());
            exit_code_ = 1;
            done_ = true;
        }
        saved_ = true;
        if (quit_) done_ = true;
    }
    bool done() const override { return done_; }
    int exit_code() const override { return exit_code_; }

private:
    std::string path_;
    bool quit_;
    bool saved_ = false, done_ = false;
    int exit_code_ = 0;
    std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
};

// --bench-frames N [--sweep KEY[,KEY...]]: a few warm-up frames (font atlas upload, shader
// compilation), then N frames for each KEY in turn, each frame moving it one slider step (as if
// dragged), then frames until every change is shown in its final picture; paced at 60 frames a
// second like the window. Prints frame times (the work of a frame, without the wait for the next),
// latencies from a change to its final picture, and per-figure build times.
class BenchDriver : public FrameDriver {
public:
    BenchDriver(int frames, std::vector<ParamId> keys, Renderer& renderer)
        : frames_(frames), keys_(std::move(keys)), renderer_(renderer) {}
    bool spins() const override { return true; }
    bool keeps_session() const override { return false; }
    void before_frame(App& app, InputQueue&, int frame) override {
        if (frame == 0) app.set_stats(&stats_);
        // Warm-up: a few frames (font atlas upload, shader compilation), then until the scenario's
        // first pictures are final, so that start-up work is not counted against the first changes.
        if (start_ < 0 && frame >= kWarmup && (!app.working() || frame >= kMaxWarmup)) start_ = frame;
        const int i = start_ < 0 ? -1 : frame - start_;
        const int total = frames_ * static_cast<int>(std::max<std::size_t>(1, keys_.size()));
        measuring_ = i >= 0 && i < total;
        if (measuring_ && !keys_.empty()) sweep_step(app.state(), keys_[static_cast<std::size_t>(i / frames_)], i % frames_, frames_);
        if (i >= total && drain_started_ < 0) drain_started_ = std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
        if (drawing_from_ >= 0 && !keys_.empty()) {
            // the draw-time pass: each key swept again over fewer frames, each window drawn and timed alone
            const int j = frame - drawing_from_;
            if (j < kDrawFrames * static_cast<int>(keys_.size()))
                sweep_step(app.state(), keys_[static_cast<std::size_t>(j / kDrawFrames)], j % kDrawFrames, kDrawFrames);
        }
    }
    void after_frame(App& app, int frame) override {
        renderer_.finish();
        stats_.frame_shown(app.now(), app.final_change(), measuring_);
        const double now = std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
        const bool drained = drain_started_ >= 0 && (!stats_.pending() || now - drain_started_ > 30);
        if (drained && drawing_from_ < 0) {
            // Timing each window alone stops software GL from drawing them together: a pass of its
            // own, after the measured frames, keeps the frame times honest.
            drawing_from_ = frame + 1;
            app.time_windows(true);
            stats_.stop_following_changes();
        }
        done_ = drawing_from_ >= 0 && frame + 1 - drawing_from_ >= kDrawFrames * static_cast<int>(std::max<std::size_t>(1, keys_.size()));
    }
    bool done() const override { return done_; }
    std::string report_text() const override { return stats_.report(); }

private:
    static constexpr int kWarmup = 3, kMaxWarmup = 3600;  // a minute at 60 frames a second
    static constexpr int kDrawFrames = 60;
    void sweep_step(AppState& state, ParamId key, int i, int frames) const {
        const ParamSpec& spec = param_spec(key);
        const double t = frames > 1 ? static_cast<double>(i) / (frames - 1) : 0.0;
        double lo = spec.slider_min, hi = spec.slider_max;
        if (spec.slider_top == SliderTop::last_position) hi = slider_top(spec, state.params());
        state.apply_number(key, slider_value(spec, lo, hi, t), "bench");
    }
    int frames_;
    std::vector<ParamId> keys_;
    Renderer& renderer_;
    FrameStats stats_;
    bool measuring_ = false, done_ = false;
    int start_ = -1, drawing_from_ = -1;
    double drain_started_ = -1;
};

// --soak-frames N [--seed S]: random parameter changes every frame; a memory report at the end.
class SoakFrames : public FrameDriver {
public:
    bool paced() const override { return false; }
    SoakFrames(unsigned long long seed, int frames, Renderer& renderer) : soak_(seed, frames), renderer_(renderer) {
        std::printf("soak_seed %llu\n", seed);  // first, so a run that dies can be repeated
        std::fflush(stdout);
    }
    bool spins() const override { return true; }
    bool keeps_session() const override { return false; }
    void before_frame(App& app, InputQueue&, int frame) override {
        soak_.step(app.state(), frame);
        errors_before_ = app.panels().figure_errors;
    }
    void after_frame(App& app, int frame) override {
        // the soak's reference frames stand for a pause in the lecture: the app would go idle here
        if (soak_.reference_frame(frame)) app.idle(true);
        // a frame errs if GL reported an error or a figure could not be built or held a NaN
        frame_errors_ += renderer_.take_errors();
        if (app.panels().figure_errors != errors_before_) ++frame_errors_;
        soak_.measure(frame);
        done_ = soak_.done(frame);
        if (done_) caches_ = app.cache().stats();
    }
    bool done() const override { return done_; }
    int exit_code() const override { return frame_errors_ > 0 ? 1 : 0; }
    std::string report_text() const override { return soak_.report(frame_errors_) + cache_report(caches_); }

private:
    SoakDriver soak_;
    Renderer& renderer_;
    std::vector<std::pair<std::string, figures::CacheStats>> caches_;  // at the last frame
    std::uint64_t errors_before_ = 0;
    int frame_errors_ = 0;
    bool done_ = false;
};

// --lesson-walk DIR: Page Down through every lesson step, then Page Up back to the first, as a
// presenter's clicker sends them (through the input queue); once each step's figures are complete,
// DIR/step-NN.png (forward) or DIR/back-NN.png (backward); a step that asks a question first is
// DIR/step-NN-asked.png before Page Down reveals it.
class LessonWalkDriver : public FrameDriver {
public:
    explicit LessonWalkDriver(std::string folder) : folder_(std::move(folder)) {}
    bool paced() const override { return false; }
    bool spins() const override { return true; }
    bool keeps_session() const override { return false; }
    void before_frame(App& app, InputQueue& input, int frame) override {
        input.drop_pointer_moves();  // the steps' pictures, not a hover readout
        if (frame < 3 || pending_ || done_) return;
        const int step = app.state().lesson_step();
        forward_ = forward_ && (step + 1 < static_cast<int>(app.state().lesson().steps.size()) || app.state().asking());
        if (!forward_ && step <= 0) {
            done_ = true;
            return;
        }
        const int key = forward_ ? GLFW_KEY_PAGE_DOWN : GLFW_KEY_PAGE_UP;
        input.push(InputEvent::key(key, GLFW_PRESS, 0));
        input.push(InputEvent::key(key, GLFW_RELEASE, 0));
        pending_ = true;
        settled_frames_ = 0;
    }
    void after_frame(App& app, int) override {
        if (!pending_) return;
        settled_frames_ = app.figures_complete() && !app.wants_frame() ? settled_frames_ + 1 : 0;
        if (settled_frames_ < 2) return;
        char name[64];
        std::snprintf(name, sizeof name, "%s-%02d%s.png", forward_ ? "step" : "back", app.state().lesson_step() + 1, app.state().asking() ? "-asked" : "");
        try {
            app.save_screenshot(folder_ + "/" + name);
        } catch (const io::IoError& e) {
            std::fprintf(stderr, "rope-explorer: %s\n", e.what());
            exit_code_ = 1;
            done_ = true;
        }
        pending_ = false;
    }
    bool done() const override { return done_; }
    int exit_code() const override { return exit_code_; }

private:
    std::string folder_;
    bool forward_ = true, pending_ = false, done_ = false;
    int settled_frames_ = 0, exit_code_ = 0;
};

}  // namespace

void FrameDriver::report() const {
    const std::string text = report_text();
    if (text.empty()) return;
    std::printf("%s", text.c_str());
    std::fflush(stdout);
}

std::unique_ptr<FrameDriver> make_driver(const GuiOptions& options, Renderer& renderer) {
    if (options.soak_frames > 0) return std::make_unique<SoakFrames>(options.seed, options.soak_frames, renderer);
    if (options.bench_frames > 0) return std::make_unique<BenchDriver>(options.bench_frames, options.sweep_keys, renderer);
    if (!options.lesson_walk.empty()) return std::make_unique<LessonWalkDriver>(options.lesson_walk);
    if (!options.screenshot.empty()) return std::make_unique<ScreenshotDriver>(options.screenshot, options.quit);
    return std::make_unique<InteractiveDriver>();
}

StartState starting_state(const GuiOptions& options) {
    StartState start;
    const std::string last_path = session::last_session_path();
    if (!options.session.empty()) {
        try {
            start.session = session::load_session(options.session);
        } catch (const session::SessionError& e) {
            throw cli::UsageError(e.what());
        }
    } else if (options.sets.empty() && !options.fresh && options.lesson == 0 && access(last_path.c_str(), F_OK) == 0) {
        try {
            start.session = session::load_session(last_path);
        } catch (const session::SessionError& e) {
            std::fprintf(stderr, "rope-explorer: warning: %s; starting from the defaults (the file is left as it is)\n", e.what());
            start.session = session::Session{};
            start.keep_last_session = false;
        }
    }
    // the lesson: --lessons FILE, else the session's lesson file, else the built-in one
    start.lesson_file = !options.lessons_file.empty() ? options.lessons_file : start.session.view.lesson_file;
    try {
        start.lesson = start.lesson_file.empty() ? lessons::builtin_lesson_shared() : lessons::read_lesson_file(start.lesson_file);
    } catch (const session::SessionError& e) {
        if (!options.lessons_file.empty()) throw cli::UsageError(e.what());
        if (!options.session.empty()) throw cli::UsageError(std::string(e.what()) + " (the lesson file of the session " + options.session + ")");
        // the last session's lesson file, moved or changed since: the built-in lesson, said
        std::fprintf(stderr, "rope-explorer: warning: %s; the built-in lesson instead\n", e.what());
        start.lesson = lessons::builtin_lesson_shared();
        start.lesson_file.clear();
        start.session.view.lesson_step = -1;
    }
    start.session.view.lesson_file = start.lesson_file;
    const int steps = static_cast<int>(start.lesson->steps.size());
    if (options.lesson > steps)
        throw cli::UsageError("--lesson " + std::to_string(options.lesson) + ": a lesson step from 1 to " + std::to_string(steps) +
                              (start.lesson_file.empty() ? std::string(" (the built-in lesson)") : " (" + start.lesson_file + ")"));
    if (options.lesson > 0) {
        const auto& step = start.lesson->steps[static_cast<std::size_t>(options.lesson - 1)];
        start.session.params = lessons::step_parameters(step);
        start.session.view.lesson_step = options.lesson - 1;
        start.session.view.page = step.panel->page;
        if (start.session.view.maximized >= 0 && figures::figure_at(start.session.view.maximized).page != step.panel->page)
            start.session.view.maximized = -1;
        start.session.view.playing = false;
    }
    cli::apply_sets(start.session.params, options.sets);
    if (options.theme_given) start.session.view.theme = options.theme;
    if (options.reduced_motion) start.session.view.reduced_motion = true;
    if (!options.lesson_walk.empty()) {
        struct stat st {};
        if (stat(options.lesson_walk.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
            throw cli::UsageError("--lesson-walk " + shorten_for_message(options.lesson_walk) + ": no such folder (it must exist)");
    }
    return start;
}

void start_app(AppState& state, const GuiOptions& options, const StartState& start) {
    state.use_lesson(start.lesson ? start.lesson : lessons::builtin_lesson_shared(), start.lesson_file);
    state.start_from(start.session.params, session_lesson_step(start.session, state.lesson()));
    apply_view(state, start.session.view);
    if (!options.session.empty()) state.session_path = options.session;
    if (options.lesson > 0) {
        const auto& steps = state.lesson().steps;
        state.set_status("Lesson step " + std::to_string(options.lesson) + " of " + std::to_string(steps.size()) + ": " +
                         steps[static_cast<std::size_t>(options.lesson - 1)].title);
    }
}

void keep_last_session(const AppState& state) {
    const std::string last_path = session::last_session_path();
    session::make_state_folder();
    try {
        session::save_session(last_path, current_session(state));
    } catch (const io::IoError& e) {
        std::fprintf(stderr, "rope-explorer: warning: could not keep the session: %s\n", e.what());
    }
}

}  // namespace rope::gui
