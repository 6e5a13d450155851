#include "gui/platform/presenter_window.hpp"

// Before X11's headers (see glfw_platform.cpp).
#include "cli/arguments.hpp"

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "gui/app/ui_theme.hpp"
#include "gui/platform/glfw_platform.hpp"
#include "gui/presentation/presenter_view.hpp"

namespace rope::gui {

namespace {

constexpr float kPresenterFontSize = 22.0f;  // read at arm's length, above the audience's screen

PresenterWindow* presenter_of(GLFWwindow* w) { return static_cast<PresenterWindow*>(glfwGetWindowUserPointer(w)); }

// A monitor the audience's window is not on (the projector may be the primary one or not), else the
// place beside the audience's window.
void place(GLFWwindow* window, GLFWwindow* audience) {
    int x = 0, y = 0, w = 0, h = 0;
    glfwGetWindowPos(audience, &x, &y);
    glfwGetWindowSize(audience, &w, &h);
    GLFWmonitor* audience_monitor = glfwGetWindowMonitor(audience);  // full screen: its monitor
    const int cx = x + w / 2, cy = y + h / 2;
    int count = 0;
    GLFWmonitor** monitors = glfwGetMonitors(&count);
    GLFWmonitor* home = glfwGetPrimaryMonitor();
    for (int i = 0; i < count; ++i) {
        int mx = 0, my = 0, mw = 0, mh = 0;
        glfwGetMonitorWorkarea(monitors[i], &mx, &my, &mw, &mh);
        const bool has_audience = monitors[i] == audience_monitor || (!audience_monitor && cx >= mx && cx < mx + mw && cy >= my && cy < my + mh);
        if (has_audience) home = monitors[i];
    }
    for (int i = 0; i < count; ++i)
        if (monitors[i] != home) {
            int mx = 0, my = 0, mw = 0, mh = 0;
            glfwGetMonitorWorkarea(monitors[i], &mx, &my, &mw, &mh);
            glfwSetWindowPos(window, mx + 40, my + 40);
            return;
        }
    // one monitor: beside the audience's window where the screen has room, else over its corner
    int own_w = 0, own_h = 0, work_x = 0, work_y = 0, work_w = 0, work_h = 0;
    glfwGetWindowSize(window, &own_w, &own_h);
    if (home) glfwGetMonitorWorkarea(home, &work_x, &work_y, &work_w, &work_h);
    if (x + w + own_w <= work_x + work_w) glfwSetWindowPos(window, x + w, y);
    else glfwSetWindowPos(window, x + 40, y + 40);
}

}  // namespace

PresenterWindow::PresenterWindow(GlfwPlatform& audience, float ui_scale) : audience_(audience) {
    ImGuiContext* audience_imgui = ImGui::GetCurrentContext();
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    // shown without taking the focus: the keys (a clicker) stay with the audience's window
    glfwWindowHint(GLFW_FOCUS_ON_SHOW, GLFW_FALSE);
    glfwWindowHint(GLFW_FOCUSED, GLFW_FALSE);
    window_ = glfwCreateWindow(static_cast<int>(std::round(900 * ui_scale)), static_cast<int>(std::round(640 * ui_scale)),
                               "RoPE Explorer - presenter view", nullptr, audience.window());
    glfwWindowHint(GLFW_FOCUS_ON_SHOW, GLFW_TRUE);
    glfwWindowHint(GLFW_FOCUSED, GLFW_TRUE);
    if (!window_) throw cli::RuntimeFailure("cannot open the presenter view's window");
    place(window_, audience.window());
    glfwSetWindowUserPointer(window_, this);
    glfwSetKeyCallback(window_, on_key);
    glfwSetCharCallback(window_, on_char);
    glfwSetScrollCallback(window_, on_scroll);
    glfwSetCursorPosCallback(window_, on_pointer);
    glfwSetMouseButtonCallback(window_, on_button);
    glfwMakeContextCurrent(window_);
    glfwSwapInterval(0);  // never wait for a display here: the audience's frames come first
    imgui_ = ImGui::CreateContext();
    ImGui::SetCurrentContext(imgui_);
    ImGui::GetIO().IniFilename = nullptr;
    ImGui::GetIO().LogFilename = nullptr;
    fonts_.build(ui_scale, kPresenterFontSize);
    ImGui::GetStyle() = ui_style(plot::ThemeId::dark, ui_scale);
    ImGui_ImplOpenGL3_Init("#version 330 core");
    started_ = glfwGetTime();
    glfwMakeContextCurrent(audience.window());
    ImGui::SetCurrentContext(audience_imgui);
}

PresenterWindow::~PresenterWindow() {
    // a modifier held here (Shift of the Shift+P that closes it) is let go where the keys go now
    for (const int key : {GLFW_KEY_LEFT_SHIFT, GLFW_KEY_RIGHT_SHIFT, GLFW_KEY_LEFT_CONTROL, GLFW_KEY_RIGHT_CONTROL, GLFW_KEY_LEFT_ALT, GLFW_KEY_RIGHT_ALT})
        if (glfwGetKey(window_, key) == GLFW_PRESS) audience_.input().push(InputEvent::key(key, GLFW_RELEASE, 0));
    ImGuiContext* audience_imgui = ImGui::GetCurrentContext();
    glfwMakeContextCurrent(window_);
    ImGui::SetCurrentContext(imgui_);
    ImGui_ImplOpenGL3_Shutdown();
    ImGui::DestroyContext(imgui_);
    glfwDestroyWindow(window_);
    glfwMakeContextCurrent(audience_.window());
    ImGui::SetCurrentContext(audience_imgui);
}

bool PresenterWindow::closed() const { return glfwWindowShouldClose(window_); }

double PresenterWindow::until_tick() const {
    if (frames_due_ > 0) return 0;  // a click's release, a hover: drawn at once
    const double elapsed = glfwGetTime() - started_;
    return std::max(0.01, std::ceil(elapsed + 1e-3) - elapsed);
}

// Page Down, L, Z ... typed here do what they do in the audience's window.
void PresenterWindow::on_key(GLFWwindow* w, int key, int, int action, int mods) {
    presenter_of(w)->audience_.input().push(InputEvent::key(key, action, mods));
    presenter_of(w)->audience_.wake();
}
void PresenterWindow::on_char(GLFWwindow* w, unsigned int c) {
    presenter_of(w)->audience_.input().push(InputEvent::character(c));  // ? for the shortcut list
    presenter_of(w)->audience_.wake();
}
void PresenterWindow::on_scroll(GLFWwindow* w, double, double y) {
    presenter_of(w)->wheel_ += static_cast<float>(y);
    presenter_of(w)->frames_due_ = 2;
}
void PresenterWindow::on_pointer(GLFWwindow* w, double, double) {
    presenter_of(w)->frames_due_ = 2;
    presenter_of(w)->audience_.wake();
}
void PresenterWindow::on_button(GLFWwindow* w, int button, int action, int) {
    PresenterWindow& me = *presenter_of(w);
    if (button >= 0 && button < 3) {
        me.down_[button] = action == GLFW_PRESS;
        if (action == GLFW_PRESS) me.pressed_[button] = true;
    }
    me.frames_due_ = 2;
    me.audience_.wake();
}

void PresenterWindow::frame(const AppState& state, Actions& out) {
    const double now = glfwGetTime();
    int width = 0, height = 0, fb_width = 0, fb_height = 0;
    glfwGetWindowSize(window_, &width, &height);
    glfwGetFramebufferSize(window_, &fb_width, &fb_height);
    const PresenterText text = presenter_text(state);
    std::string shown = text.heading + "\n" + text.question + "\n" + text.answer + "\n" + text.notes + "\n" + text.title + "\n" +
                        timer_text(now - started_) + "\n" + std::to_string(width) + "x" + std::to_string(height) + "\n" + text.status;
    for (const std::string& line : text.on_screen) shown += "\n" + line;
    if (shown == last_shown_ && frames_due_ == 0) return;
    frames_due_ = shown == last_shown_ ? frames_due_ - 1 : 1;
    last_shown_ = shown;

    ImGuiContext* audience_imgui = ImGui::GetCurrentContext();
    glfwMakeContextCurrent(window_);
    ImGui::SetCurrentContext(imgui_);
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(static_cast<float>(width), static_cast<float>(height));
    io.DisplayFramebufferScale = ImVec2(width > 0 ? static_cast<float>(fb_width) / width : 1, height > 0 ? static_cast<float>(fb_height) / height : 1);
    io.DeltaTime = static_cast<float>(std::clamp(now - last_frame_, 1e-3, 0.5));
    last_frame_ = now;
    double mx = 0, my = 0;
    glfwGetCursorPos(window_, &mx, &my);
    io.MousePos = glfwGetWindowAttrib(window_, GLFW_HOVERED) ? ImVec2(static_cast<float>(mx), static_cast<float>(my)) : ImVec2(-FLT_MAX, -FLT_MAX);
    for (int b = 0; b < 3; ++b) {
        io.MouseDown[b] = down_[b] || pressed_[b];
        if (pressed_[b] && !down_[b]) frames_due_ = std::max(frames_due_, 1);  // the release next frame
        pressed_[b] = false;
    }
    io.MouseWheel = wheel_;
    wheel_ = 0;
    ImGui_ImplOpenGL3_NewFrame();
    ImGui::NewFrame();
    bool reset = false;
    draw_presenter_view(state, now - started_, fonts_.bold(), reset, out);
    if (reset) started_ = now, frames_due_ = 1;
    ImGui::Render();
    glViewport(0, 0, fb_width, fb_height);
    const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
    glClearColor(bg.x, bg.y, bg.z, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    glfwSwapBuffers(window_);
    glfwMakeContextCurrent(audience_.window());
    ImGui::SetCurrentContext(audience_imgui);
}

}  // namespace rope::gui
