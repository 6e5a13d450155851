#include "gui/app_window.hpp"

#include <GL/glcorearb.h>
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "cli/arguments.hpp"
#include "gui/app_state.hpp"
#include "gui/export_dialog.hpp"
#include "gui/fonts.hpp"
#include "gui/input_queue.hpp"
#include "gui/panels.hpp"
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

int run_gui(const GuiOptions& options) {
    AppState state;
    cli::apply_sets(state.params, options.sets);  // bad --set: exit 2 before any window opens
    state.theme = options.theme == "light" ? plot::ThemeId::light : plot::ThemeId::dark;

    const char* display = std::getenv("DISPLAY");
    const char* wayland = std::getenv("WAYLAND_DISPLAY");
    if ((!display || !*display) && (!wayland || !*wayland))
        throw cli::RuntimeFailure(
            "no display to open a window on (DISPLAY is not set); run it in a desktop session, or headless with: "
            "xvfb-run -s \"-screen 0 1920x1080x24\" rope-explorer");
    glfwSetErrorCallback(on_glfw_error);
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

    float scale = options.ui_scale;
    if (scale <= 0) {
        if (const char* env = std::getenv("ROPE_UI_SCALE")) scale = static_cast<float>(std::atof(env));
    }
    if (!(scale >= 0.5f && scale <= 4.0f)) {
        float sx = 1, sy = 1;
        glfwGetWindowContentScale(window, &sx, &sy);
        scale = std::clamp(std::max(sx, sy), 1.0f, 4.0f);
    }
    state.ui_scale = scale;

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // layout is ours; deterministic screenshots
    io.LogFilename = nullptr;
    FontSet fonts;
    fonts.build(scale, 18.0f);
    apply_imgui_theme(state.theme, scale);
    ImGui_ImplGlfw_InitForOpenGL(window, false);
    install_input_queue(window);
    ImGui_ImplOpenGL3_Init("#version 330 core");
    ImGuiTextMeasure measure(fonts);

    const bool benchmarking = options.bench_frames > 0;
    constexpr int kWarmupFrames = 3;
    std::vector<double> frame_ms;
    int frame = 0;
    int settle_frames = 3;  // frames to draw after an event before sleeping again
    plot::ThemeId applied_theme = state.theme;
    int exit_code = 0;
    bool screenshot_done = options.screenshot.empty();

    while (!glfwWindowShouldClose(window)) {
        // Idle: sleep until an event, but finish drawing what an event started.
        if (benchmarking || settle_frames > 0 || !screenshot_done || input_pending())
            glfwPollEvents();
        else {
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

        const std::uint64_t version_before = state.params.version();
        const int maximized_before = state.maximized;
        drain_input_queue();
        ImGui_ImplOpenGL3_NewFrame();
        ImGui_ImplGlfw_NewFrame();
        ImGui::NewFrame();

        int fb_w = 0, fb_h = 0;
        glfwGetFramebufferSize(window, &fb_w, &fb_h);
        const ImVec2 display_size = io.DisplaySize;
        const float controls_w = std::round(std::min(display_size.x * 0.3f, 330.0f * scale));
        if (!io.WantTextInput) {
            for (int k = 0; k < 4; ++k)
                if (ImGui::IsKeyPressed(GLFW_KEY_1 + k, false)) state.maximized = state.maximized == k ? -1 : k;
            if (ImGui::IsKeyPressed(GLFW_KEY_ESCAPE, false)) state.maximized = -1;
            if (io.KeyCtrl && ImGui::IsKeyPressed(GLFW_KEY_Q, false)) glfwSetWindowShouldClose(window, GLFW_TRUE);
            if (io.KeyCtrl && ImGui::IsKeyPressed(GLFW_KEY_E, false)) {
                // the panel under the mouse
                for (int k = 0; k < 4; ++k) {
                    const plot::Rect& r = state.panels[k].screen;
                    if ((state.maximized < 0 || state.maximized == k) && r.contains({io.MousePos.x, io.MousePos.y}))
                        open_export_dialog(state, k);
                }
            }
        }
        if (state.maximized >= 0) {
            draw_panels(state, fonts, measure, ImVec2(0, 0), display_size);
        } else {
            draw_controls(state, ImVec2(0, 0), ImVec2(controls_w, display_size.y));
            draw_panels(state, fonts, measure, ImVec2(controls_w, 0), ImVec2(display_size.x - controls_w, display_size.y));
        }
        draw_export_dialog(state);
        ImGui::Render();
        glViewport(0, 0, fb_w, fb_h);
        const plot::Color bg = plot::theme_by_id(state.theme).background;
        glClearColor(bg.r, bg.g, bg.b, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());

        if (!screenshot_done && frame >= 3) {
            // the first complete frame: layout settled, figures built
            const std::vector<std::uint8_t> pixels = read_back(fb_w, fb_h);
            io::TextChunks text = {{"Software", "RoPE Explorer " ROPE_EXPLORER_VERSION}};
            for (const auto& [k, v] : state.params.to_key_values()) text.emplace_back("rope:" + k, v);
            try {
                io::write_png(options.screenshot, pixels.data(), fb_w, fb_h, text);
            } catch (const io::IoError& e) {
                std::fprintf(stderr, "rope-explorer: %s\n", e.what());
                exit_code = 1;
                glfwSetWindowShouldClose(window, GLFW_TRUE);
            }
            screenshot_done = true;
            if (options.quit) glfwSetWindowShouldClose(window, GLFW_TRUE);
        }
        glfwSwapBuffers(window);
        if (benchmarking) {
            glFinish();
            const auto t1 = std::chrono::steady_clock::now();
            if (bench_frame >= 0) frame_ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
            if (bench_frame + 1 >= options.bench_frames) glfwSetWindowShouldClose(window, GLFW_TRUE);
        }
        ++frame;

        if (state.theme != applied_theme) {
            apply_imgui_theme(state.theme, scale);
            applied_theme = state.theme;
        }
        if (state.params.version() != version_before || state.maximized != maximized_before || ImGui::IsAnyItemActive() ||
            io.MouseWheel != 0)
            settle_frames = std::max(settle_frames, 2);
    }

    if (benchmarking && !frame_ms.empty()) {
        std::printf("p50_ms %.3f\np99_ms %.3f\nmax_ms %.3f\n", percentile(frame_ms, 0.50), percentile(frame_ms, 0.99),
                    *std::max_element(frame_ms.begin(), frame_ms.end()));
        std::fflush(stdout);
    }
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    glfwDestroyWindow(window);
    glfwTerminate();
    return exit_code;
}

}  // namespace rope::gui
