// The presenter view's own window (see gui/presentation/presenter_view.hpp): a second GLFW window
// sharing the audience window's GL objects, with an ImGui context and fonts of its own. It opens on
// a second monitor where there is one, else beside the audience's window. Its keys are the
// audience window's (Page Down in either steps the lesson); its pointer is its own.
#pragma once

#include <string>

#include "gui/app/actions.hpp"
#include "gui/app/app_state.hpp"
#include "gui/platform/fonts.hpp"

struct GLFWwindow;
struct ImGuiContext;

namespace rope::gui {

class GlfwPlatform;

class PresenterWindow {
public:
    // Throws cli::RuntimeFailure if the window cannot be made.
    PresenterWindow(GlfwPlatform& audience, float ui_scale);
    ~PresenterWindow();
    PresenterWindow(const PresenterWindow&) = delete;
    PresenterWindow& operator=(const PresenterWindow&) = delete;

    // The user closed it (its close button).
    bool closed() const;
    // Draws a frame if the view would show something else (the step, the timer's second, its own
    // pointer) and asks for what its buttons did in `out`. Leaves the audience window's GL and ImGui
    // contexts current.
    void frame(const AppState& state, Actions& out);
    // Seconds until the timer shows its next second (the loop must wake for it); 0 while input
    // waits to be drawn.
    double until_tick() const;

private:
    static void on_key(GLFWwindow* w, int key, int scancode, int action, int mods);
    static void on_char(GLFWwindow* w, unsigned int c);
    static void on_scroll(GLFWwindow* w, double x, double y);
    static void on_pointer(GLFWwindow* w, double x, double y);
    static void on_button(GLFWwindow* w, int button, int action, int mods);

    GlfwPlatform& audience_;
    GLFWwindow* window_ = nullptr;
    ImGuiContext* imgui_ = nullptr;
    FontSet fonts_;
    double started_ = 0, last_frame_ = 0;
    float wheel_ = 0;
    // a click between two frames is seen by the first of them: pressed, then let go a frame later
    bool down_[3] = {false, false, false}, pressed_[3] = {false, false, false};
    int frames_due_ = 2;     // ImGui settles hover and clicks over a frame or two after input
    std::string last_shown_;  // what the last frame showed (the step, the timer, the size)
};

}  // namespace rope::gui
