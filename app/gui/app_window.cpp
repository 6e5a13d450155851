#include "gui/app_window.hpp"

#include <GL/glcorearb.h>
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <dlfcn.h>
#include <malloc.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <optional>
#include <string>
#include <vector>

#include "cli/arguments.hpp"
#include "gui/app_state.hpp"
#include "gui/export_dialog.hpp"
#include "export/export.hpp"
#include "gui/fonts.hpp"
#include "gui/teaching.hpp"
#include "lessons/lessons.hpp"
#include "session/session.hpp"
#include "gui/input_queue.hpp"
#include "gui/panels.hpp"
#include "gui/soak.hpp"
#include "io/atomic_file.hpp"
#include "io/png_writer.hpp"
#include "rope/number_format.hpp"

namespace rope::gui {

namespace {

std::string g_glfw_error;

void on_glfw_error(int, const char* description) { g_glfw_error = description ? description : "unknown error"; }

bool parse_size(const std::string& text, int& w, int& h) {
    int a = 0, b = 0;
    char x = 0, extra = 0;
    if (std::sscanf(text.c_str(), "%d%c%d%c", &a, &x, &b, &extra) != 3 || (x != 'x' && x != 'X')) return false;
    if (a < 320 || b < 240 || a > 16384 || b > 16384) return false;
    w = a;
    h = b;
    return true;
}

void apply_imgui_theme(plot::ThemeId id, float scale) {
    ImGuiStyle style;
    if (id == plot::ThemeId::light)
        ImGui::StyleColorsLight(&style);
    else
        ImGui::StyleColorsDark(&style);
    style.WindowRounding = 0;
    style.FrameRounding = 4;
    style.GrabRounding = 4;
    style.FramePadding = ImVec2(6, 4);
    style.ItemSpacing = ImVec2(8, 6);
    style.WindowPadding = ImVec2(10, 8);
    style.GrabMinSize = 14;
    style.ScrollbarSize = 16;
    const plot::Theme t = plot::theme_by_id(id);
    // the controls panel stands apart from the figures by a slightly different shade
    const float shade = id == plot::ThemeId::light ? 0.95f : 0.8f;
    style.Colors[ImGuiCol_WindowBg] = ImVec4(t.background.r * shade, t.background.g * shade, t.background.b * shade, 1);
    style.Colors[ImGuiCol_Border] = ImVec4(t.axis.r, t.axis.g, t.axis.b, 0.35f);
    style.WindowBorderSize = 1;
    style.ScaleAllSizes(scale);
    // Filled shapes without the anti-aliasing fringe: software GL pays for the fringe's thin
    // triangles on every dot and arrow head every frame; lines keep their (texture-based, cheap) AA.
    style.AntiAliasedFill = false;
    ImGui::GetStyle() = style;
}

// The back buffer at framebuffer size, top row first (GL's row 0 is the bottom), alpha forced opaque.
std::vector<std::uint8_t> read_back(int width, int height) {
    std::vector<std::uint8_t> pixels(static_cast<std::size_t>(width) * height * 4);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadBuffer(GL_BACK);
    glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
    std::vector<std::uint8_t> flipped(pixels.size());
    const std::size_t row = static_cast<std::size_t>(width) * 4;
    for (int y = 0; y < height; ++y)
        std::copy_n(pixels.data() + static_cast<std::size_t>(height - 1 - y) * row, row, flipped.data() + static_cast<std::size_t>(y) * row);
    for (std::size_t i = 3; i < flipped.size(); i += 4) flipped[i] = 255;
    return flipped;
}

// Moves KEY one slider step per frame through its range (as if dragged), for --bench-frames.
void sweep_step(AppState& state, const std::string& key, int frame, int frames) {
    const ParamSpec* spec = find_param(key);
    const double t = frames > 1 ? static_cast<double>(frame) / (frames - 1) : 0.0;
    double lo = spec->slider_min, hi = spec->slider_max;
    if (key == "position" || key == "key_position") {
        lo = 0;
        hi = static_cast<double>(state.params.integer("max_position") - 1);
    }
    double v = spec->logarithmic ? std::exp(std::log(lo) + t * (std::log(hi) - std::log(lo))) : lo + t * (hi - lo);
    if (spec->type == ParamType::integer) v = std::round(v);
    if (spec->even) v = std::max(2.0, std::round(v / 2) * 2);
    state.apply_number(key, v);
}

// rope-explorer-YYYYMMDD-HHMMSS[-N].png in the Pictures folder, never over an existing file.
std::string screenshot_path() {
    const std::string folder = default_export_folder();
    char stamp[32];
    const std::time_t now = std::time(nullptr);
    std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&now));
    for (int n = 0;; ++n) {
        const std::string path = folder + "/rope-explorer-" + stamp + (n ? "-" + std::to_string(n) : "") + ".png";
        if (access(path.c_str(), F_OK) != 0) return path;
    }
}

double percentile(std::vector<double> v, double q) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const std::size_t i = std::min(v.size() - 1, static_cast<std::size_t>(std::ceil(q * v.size())) - 1);
    return v[i];
}

}  // namespace

GuiOptions parse_gui_options(int argc, char** argv, int first) {
    using cli::UsageError;
    GuiOptions o;
    cli::ArgCursor args(argc, argv, first);
    while (!args.done()) {
        std::string value;
        if (args.take_option("--set", value)) {
            o.sets.push_back(value);
        } else if (args.take_option("--screenshot", value)) {
            if (value.empty()) throw UsageError("--screenshot needs a file name");
            o.screenshot = value;
        } else if (args.take_flag("--quit")) {
            o.quit = true;
        } else if (args.take_option("--size", value)) {
            if (!parse_size(value, o.width, o.height))
                throw UsageError("--size " + shorten_for_message(value) + ": expected WIDTHxHEIGHT, each from 320/240 to 16384 (e.g. 1920x1080)");
            o.size_given = true;
        } else if (args.take_option("--bench-frames", value)) {
            char* end = nullptr;
            const long n = std::strtol(value.c_str(), &end, 10);
            if (value.empty() || *end || n < 1 || n > 1000000)
                throw UsageError("--bench-frames " + shorten_for_message(value) + ": expected a whole number of frames from 1 to 1000000");
            o.bench_frames = static_cast<int>(n);
        } else if (args.take_option("--sweep", value)) {
            const ParamSpec* spec = find_param(value);
            if (!spec || (spec->type != ParamType::integer && spec->type != ParamType::real) || spec->slider_max <= spec->slider_min)
                throw UsageError("--sweep " + shorten_for_message(value) +
                                 ": expected a numeric parameter with a slider (e.g. base, position, dim, max_position)");
            o.sweep_key = value;
        } else if (args.take_option("--theme", value)) {
            if (value != "dark" && value != "light") throw UsageError("--theme " + shorten_for_message(value) + ": expected dark or light");
            o.theme = value;
            o.theme_given = true;
        } else if (args.take_option("--session", value)) {
            if (value.empty()) throw UsageError("--session needs a file name");
            o.session = value;
        } else if (args.take_flag("--fresh")) {
            o.fresh = true;
        } else if (args.take_option("--lesson", value)) {
            const int steps = static_cast<int>(lessons::builtin_lesson().steps.size());
            char* end = nullptr;
            const long n = std::strtol(value.c_str(), &end, 10);
            if (value.empty() || *end || n < 1 || n > steps)
                throw UsageError("--lesson " + shorten_for_message(value) + ": expected a step number from 1 to " + std::to_string(steps));
            o.lesson = static_cast<int>(n);
        } else if (args.take_option("--soak-frames", value)) {
            char* end = nullptr;
            const long n = std::strtol(value.c_str(), &end, 10);
            if (value.empty() || *end || n < 1 || n > 10000000)
                throw UsageError("--soak-frames " + shorten_for_message(value) + ": expected a whole number of frames from 1 to 10000000");
            o.soak_frames = static_cast<int>(n);
        } else if (args.take_option("--seed", value)) {
            char* end = nullptr;
            errno = 0;
            const unsigned long long n = std::strtoull(value.c_str(), &end, 10);
            if (value.empty() || *end || errno || value[0] == '-')
                throw UsageError("--seed " + shorten_for_message(value) + ": expected a whole number from 0 to 18446744073709551615");
            o.seed = n;
        } else if (args.take_option("--ui-scale", value)) {
            char* end = nullptr;
            const double s = std::strtod(value.c_str(), &end);
            if (value.empty() || *end || !(s >= 0.5 && s <= 4))
                throw UsageError("--ui-scale " + shorten_for_message(value) + ": expected a number from 0.5 to 4");
            o.ui_scale = static_cast<float>(s);
        } else {
            throw UsageError("unknown option '" + shorten_for_message(args.peek()) + "' (see --help)");
        }
    }
    if (!o.sweep_key.empty() && o.bench_frames == 0) throw UsageError("--sweep needs --bench-frames N");
    return o;
}

namespace {

// AddressSanitizer builds only: GLFW loads the GL libraries (and they the Mesa driver) at run time
// and glfwTerminate unloads them, so at exit LeakSanitizer finds the blocks their globals still
// point to unreachable and reports them as leaks of an unknown module. Loaded here with
// RTLD_NODELETE they stay mapped to the end and those blocks stay reachable, as in a normal run.
void keep_gl_libraries_mapped() {
#if defined(__SANITIZE_ADDRESS__)
    for (const char* lib : {"libGL.so.1", "libGLX.so.0", "libGLX_mesa.so.0", "libGLdispatch.so.0",
                            "/usr/lib/x86_64-linux-gnu/dri/swrast_dri.so"})
        dlopen(lib, RTLD_NOW | RTLD_GLOBAL | RTLD_NODELETE);
#endif
}

}  // namespace

int run_gui(const GuiOptions& options) {
    // Every slider move frees and allocates tables of a few hundred kB to a few MB. glibc raises its
    // mmap threshold to the size of each big block freed, so later tables come from the heap, where
    // a lecture's worth of slider moves fragments it: resident memory rose 15% over the soak test's
    // 20,000 frames with flat use. A fixed threshold returns every big table to the system on free.
    mallopt(M_MMAP_THRESHOLD, 256 * 1024);
    AppState state;
    // The starting state: a --session file, else the last session (unless --set or --fresh ask
    // for a reproducible start), then a lesson step, then --set on top (later wins). Bad input
    // exits 2 here, before any window opens.
    session::Session start;
    bool keep_last_session = true;  // never overwrite a last-session file we could not read
    const std::string last_path = session::last_session_path();
    if (!options.session.empty()) {
        try {
            start = session::load_session(options.session);
        } catch (const session::SessionError& e) {
            throw cli::UsageError(e.what());
        }
        state.session_path = options.session;
    } else if (options.sets.empty() && !options.fresh && options.lesson == 0 && access(last_path.c_str(), F_OK) == 0) {
        try {
            start = session::load_session(last_path);
        } catch (const session::SessionError& e) {
            std::fprintf(stderr, "rope-explorer: warning: %s; starting from the defaults (the file is left as it is)\n", e.what());
            start = session::Session{};
            keep_last_session = false;
        }
    }
    apply_session(state, start);
    if (options.lesson > 0) state.go_to_lesson_step(options.lesson - 1);
    cli::apply_sets(state.params, options.sets);
    if (options.theme_given) state.theme = options.theme == "light" ? plot::ThemeId::light : plot::ThemeId::dark;
    state.play_position = static_cast<double>(state.params.integer("position"));

    const char* display = std::getenv("DISPLAY");
    const char* wayland = std::getenv("WAYLAND_DISPLAY");
    if ((!display || !*display) && (!wayland || !*wayland))
        throw cli::RuntimeFailure(
            "no display to open a window on (DISPLAY is not set); run it in a desktop session, or headless with: "
            "xvfb-run -s \"-screen 0 1920x1080x24\" rope-explorer");
    glfwSetErrorCallback(on_glfw_error);
    keep_gl_libraries_mapped();
    if (!glfwInit())
        throw cli::RuntimeFailure("cannot open the display '" + std::string(display ? display : "") + "' (" + g_glfw_error +
                                  "); run it in a desktop session, or under xvfb-run -s \"-screen 0 1920x1080x24\"");
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    int width = options.width, height = options.height;
    if (!options.size_given) {
        width = std::max(width, 1280);
        height = std::max(height, 720);
    }
    GLFWwindow* window = glfwCreateWindow(width, height, "RoPE Explorer", nullptr, nullptr);
    if (!window) {
        const std::string why = g_glfw_error;
        glfwTerminate();
        throw cli::RuntimeFailure("cannot create an OpenGL 3.3 window (" + why + ")");
    }
    glfwMakeContextCurrent(window);
    glfwSwapInterval(1);
    // a background computation finishing (the base-bound curve) wakes the idle loop to redraw
    state.cache.set_on_ready([] { glfwPostEmptyEvent(); });

    float scale = options.ui_scale;
    if (scale <= 0) {
        if (const char* env = std::getenv("ROPE_UI_SCALE")) scale = static_cast<float>(std::atof(env));
    }
    if (!(scale >= 0.5f && scale <= 4.0f)) {
        float sx = 1, sy = 1;
        glfwGetWindowContentScale(window, &sx, &sy);
        scale = std::clamp(std::max(sx, sy), 1.0f, 4.0f);
    }
    state.base_scale = scale;
    state.ui_scale = state.effective_scale();

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // layout is ours; deterministic screenshots
    io.LogFilename = nullptr;
    FontSet fonts;
    fonts.build(state.ui_scale, 18.0f);
    apply_imgui_theme(effective_theme(state), state.ui_scale);
    ImGui_ImplGlfw_InitForOpenGL(window, false);
    install_input_queue(window);
    ImGui_ImplOpenGL3_Init("#version 330 core");
    ImGuiTextMeasure measure(fonts);

    // --bench-frames and --soak-frames drive the window themselves: no sleeping between frames
    std::optional<SoakDriver> soak;
    if (options.soak_frames > 0) {
        soak.emplace(options.seed, options.soak_frames);
        std::printf("soak_seed %llu\n", options.seed);  // first, so a run that dies can be repeated
        std::fflush(stdout);
    }
    const bool benchmarking = options.bench_frames > 0 || soak.has_value();
    int frame_errors = 0;
    constexpr int kWarmupFrames = 3;
    std::vector<double> frame_ms;
    int frame = 0;
    int settle_frames = 3;  // frames to draw after an event before sleeping again
    plot::ThemeId applied_theme = effective_theme(state);
    bool applied_presentation = state.presentation;
    bool applied_fullscreen = false;
    int windowed[4] = {0, 0, width, height};
    auto last_frame = std::chrono::steady_clock::now();
    int exit_code = 0;
    bool screenshot_done = options.screenshot.empty();
    const auto started = std::chrono::steady_clock::now();

    // Figures come and go in blocks of every size, which leaves cached curves of past states and free
    // pages scattered through malloc's heap. When the app goes idle, and every ~10 s while parameters
    // keep changing (animation, a dragged slider), drop the cached curves the last built frame did not
    // use and give free pages back to the system, so a lecture-long session stays at its working set.
    std::uint64_t trimmed_version = state.params.version();
    std::uint64_t last_build_mark = state.cache.use_mark();  // the cache's clock before the last frame that used it
    int frames_since_trim = 0;
    auto trim_heap = [&] {
        state.cache.release_unused(last_build_mark);
        malloc_trim(0);
        trimmed_version = state.params.version();
        frames_since_trim = 0;
    };

    while (!glfwWindowShouldClose(window)) {
        // Idle: sleep until an event, but finish drawing what an event started.
        const bool changed_since_trim = state.params.version() != trimmed_version;
        if (benchmarking || settle_frames > 0 || !screenshot_done || input_pending()) {
            glfwPollEvents();
            if (changed_since_trim && ++frames_since_trim >= 600) trim_heap();
        } else if (state.playing) {
            if (changed_since_trim && ++frames_since_trim >= 600) trim_heap();
            glfwWaitEventsTimeout(1.0 / 120);  // animation: frames paced below, input still wakes us
        } else {
            if (changed_since_trim) trim_heap();
            glfwWaitEvents();
            settle_frames = 2;
        }
        if (settle_frames > 0) --settle_frames;
        const auto t0 = std::chrono::steady_clock::now();
        // --bench-frames: a few warm-up frames first (font atlas upload, shader compilation), then
        // N measured frames moving the swept key one slider step each
        const int bench_frame = frame - kWarmupFrames;
        if (benchmarking && !options.sweep_key.empty() && bench_frame >= 0)
            sweep_step(state, options.sweep_key, bench_frame, options.bench_frames);
        if (soak) soak->step(state, frame);
        const std::uint64_t figure_errors_before = state.figure_errors;
        const std::uint64_t cache_mark = state.cache.use_mark();

        const std::uint64_t version_before = state.params.version();
        const int maximized_before = state.maximized;
        const int page_before = state.page;
        drain_input_queue();
        ImGui_ImplOpenGL3_NewFrame();
        ImGui_ImplGlfw_NewFrame();
        ImGui::NewFrame();

        int fb_w = 0, fb_h = 0;
        glfwGetFramebufferSize(window, &fb_w, &fb_h);
        const ImVec2 display_size = io.DisplaySize;
        const float controls_w = std::round(std::min(display_size.x * 0.3f, 330.0f * state.ui_scale));
        handle_shortcuts(state);
        const auto now = std::chrono::steady_clock::now();
        advance_animation(state, std::chrono::duration<double>(now - last_frame).count());
        last_frame = now;
        const bool lesson_open = state.lesson_step >= 0;
        if (state.presentation) {
            // no controls; a lesson reads along the bottom, its panel filling the screen above
            const float strip = lesson_open ? std::round(display_size.y * 0.30f) : 0.0f;
            const int chosen = state.maximized;
            if (lesson_open && chosen < 0) state.maximized = static_cast<int>(lesson_panel(state));
            draw_panels(state, fonts, measure, ImVec2(0, 0), ImVec2(display_size.x, display_size.y - strip));
            if (state.maximized == static_cast<int>(lesson_panel(state)) && chosen < 0 && lesson_open) state.maximized = chosen;
            if (lesson_open) draw_lesson_panel(state, ImVec2(0, display_size.y - strip), ImVec2(display_size.x, strip));
        } else if (state.maximized >= 0) {
            draw_panels(state, fonts, measure, ImVec2(0, 0), display_size);
        } else {
            const float lesson_h = lesson_open ? std::round(display_size.y * 0.42f) : 0.0f;
            if (lesson_open) draw_lesson_panel(state, ImVec2(0, 0), ImVec2(controls_w, lesson_h));
            draw_controls(state, ImVec2(0, lesson_h), ImVec2(controls_w, display_size.y - lesson_h));
            draw_panels(state, fonts, measure, ImVec2(controls_w, 0), ImVec2(display_size.x - controls_w, display_size.y));
        }
        draw_shortcut_overlay(state);
        draw_session_dialog(state);
        draw_export_dialog(state);
        ImGui::Render();
        glViewport(0, 0, fb_w, fb_h);
        const plot::Color bg = plot::theme_by_id(state.theme).background;
        glClearColor(bg.r, bg.g, bg.b, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());

        // the screenshot waits (a while at most) for figures still computing in the background
        const auto waited = std::chrono::steady_clock::now() - started;
        const bool figures_complete =
            std::none_of(state.panels.begin(), state.panels.end(), [&](const PanelView& p) { return p.valid && p.figure.incomplete; }) ||
            waited > std::chrono::seconds(60);
        // the window as a PNG that reopens as a session (its parameters and view in text chunks)
        auto save_screenshot = [&](const std::string& path) {
            const std::vector<std::uint8_t> pixels = read_back(fb_w, fb_h);
            io::TextChunks text = exporting::parameter_metadata(state.params, state.panels[0].id);
            text.erase(std::remove_if(text.begin(), text.end(), [](const auto& kv) { return kv.first == "figure"; }), text.end());
            const session::Session now_session = current_session(state);
            text.emplace_back("view:maximized", std::to_string(now_session.view.maximized));
            text.emplace_back("view:page", std::to_string(now_session.view.page));
            text.emplace_back("view:theme", now_session.view.theme);
            text.emplace_back("view:presentation", now_session.view.presentation ? "true" : "false");
            text.emplace_back("view:lesson_step", std::to_string(now_session.view.lesson_step));
            text.emplace_back("view:ui_font_px", format_number(std::round(18.0 * state.ui_scale)));
            io::write_png(path, pixels.data(), fb_w, fb_h, text);
        };
        if (!screenshot_done && frame >= 3 && figures_complete) {
            // the first complete frame: layout settled, figures built
            try {
                save_screenshot(options.screenshot);
            } catch (const io::IoError& e) {
                std::fprintf(stderr, "rope-explorer: %s\n", e.what());
                exit_code = 1;
                glfwSetWindowShouldClose(window, GLFW_TRUE);
            }
            screenshot_done = true;
            if (options.quit) glfwSetWindowShouldClose(window, GLFW_TRUE);
        }
        if (state.screenshot_requested) {
            // F12: into the Pictures folder (or the current one), a new name each time
            state.screenshot_requested = false;
            const std::string path = screenshot_path();
            try {
                save_screenshot(path);
                state.set_status("Saved screenshot " + path);
            } catch (const io::IoError& e) {
                state.set_status(e.what(), true);
            }
            settle_frames = std::max(settle_frames, 2);
        }
        glfwSwapBuffers(window);
        if (state.cache.use_mark() != cache_mark) last_build_mark = cache_mark;
        if (soak) {
            // the soak's reference frames stand for a pause in the lecture: the app would go idle here
            if (soak->reference_frame(frame)) trim_heap();
            // a frame errs if GL reported an error or a figure could not be built or held a NaN
            while (glGetError() != GL_NO_ERROR) ++frame_errors;
            if (state.figure_errors != figure_errors_before) ++frame_errors;
            soak->measure(frame);
            if (soak->done(frame)) glfwSetWindowShouldClose(window, GLFW_TRUE);
        }
        if (options.bench_frames > 0) {
            glFinish();
            const auto t1 = std::chrono::steady_clock::now();
            if (bench_frame >= 0) frame_ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
            if (bench_frame + 1 >= options.bench_frames) glfwSetWindowShouldClose(window, GLFW_TRUE);
        }
        ++frame;

        if (state.quit_requested) glfwSetWindowShouldClose(window, GLFW_TRUE);
        if (state.presentation != applied_presentation) {
            // type and sizes change between frames: rebuild the font atlas at the new scale
            applied_presentation = state.presentation;
            state.ui_scale = state.effective_scale();
            fonts.build(state.ui_scale, 18.0f);
            ImGui_ImplOpenGL3_DestroyFontsTexture();
            ImGui_ImplOpenGL3_CreateFontsTexture();
            applied_theme = effective_theme(state);
            apply_imgui_theme(applied_theme, state.ui_scale);
            settle_frames = std::max(settle_frames, 3);
        }
        if (effective_theme(state) != applied_theme) {
            applied_theme = effective_theme(state);
            apply_imgui_theme(applied_theme, state.ui_scale);
        }
        if (state.fullscreen != applied_fullscreen) {
            applied_fullscreen = state.fullscreen;
            if (state.fullscreen) {
                glfwGetWindowPos(window, &windowed[0], &windowed[1]);
                glfwGetWindowSize(window, &windowed[2], &windowed[3]);
                GLFWmonitor* monitor = glfwGetPrimaryMonitor();
                const GLFWvidmode* mode = monitor ? glfwGetVideoMode(monitor) : nullptr;
                if (mode) glfwSetWindowMonitor(window, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
            } else {
                glfwSetWindowMonitor(window, nullptr, windowed[0], windowed[1], windowed[2], windowed[3], 0);
            }
            settle_frames = std::max(settle_frames, 3);
        }
        if (state.playing && !benchmarking) {
            // a steady ~60 frames a second while the animation plays (vsync cannot be relied on)
            const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            if (spent < 1.0 / 60) glfwWaitEventsTimeout(1.0 / 60 - spent);
        }
        if (state.params.version() != version_before || state.maximized != maximized_before || state.page != page_before || ImGui::IsAnyItemActive() ||
            io.MouseWheel != 0)
            settle_frames = std::max(settle_frames, 2);
    }

    if (!benchmarking && keep_last_session) {
        // the state for the next start (unless --set/--fresh/--session ask for something else then)
        const std::string dir = last_path.substr(0, last_path.find_last_of('/'));
        for (std::size_t at = 1; at != std::string::npos; at = dir.find('/', at + 1))
            mkdir(dir.substr(0, at).c_str(), 0700);  // mkdir -p: our own state folder
        mkdir(dir.c_str(), 0700);
        try {
            session::save_session(last_path, current_session(state));
        } catch (const io::IoError& e) {
            std::fprintf(stderr, "rope-explorer: warning: could not keep the session: %s\n", e.what());
        }
    }
    if (soak) {
        std::printf("%s", soak->report(frame_errors).c_str());
        std::fflush(stdout);
        if (frame_errors > 0) exit_code = 1;
    }
    if (benchmarking && !frame_ms.empty()) {
        std::printf("p50_ms %.3f\np99_ms %.3f\nmax_ms %.3f\n", percentile(frame_ms, 0.50), percentile(frame_ms, 0.99),
                    *std::max_element(frame_ms.begin(), frame_ms.end()));
        std::fflush(stdout);
    }
    state.cache.stop_background();  // no wake-ups once the window is gone, no worker threads left
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    glfwDestroyWindow(window);
    glfwTerminate();
    return exit_code;
}

}  // namespace rope::gui
