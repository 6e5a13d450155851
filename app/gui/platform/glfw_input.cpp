#include "gui/platform/glfw_input.hpp"

#include <GLFW/glfw3.h>

namespace rope::gui {

void GlfwInput::connect(GLFWwindow* window) {
    glfwSetWindowUserPointer(window, this);
    glfwSetKeyCallback(window, on_key);
    glfwSetCharCallback(window, on_char);
    glfwSetMouseButtonCallback(window, on_button);
    glfwSetCursorPosCallback(window, on_move);
    glfwSetScrollCallback(window, on_scroll);
    glfwSetWindowFocusCallback(window, on_focus);
    glfwSetCursorEnterCallback(window, on_enter);
    glfwSetWindowRefreshCallback(window, on_refresh);
    glfwSetDropCallback(window, on_drop);
}

bool GlfwInput::take_refresh() {
    const bool was = refresh_;
    refresh_ = false;
    return was;
}

GlfwInput& GlfwInput::of(GLFWwindow* w) { return *static_cast<GlfwInput*>(glfwGetWindowUserPointer(w)); }

void GlfwInput::push(const InputEvent& e) {
    queue_.push(e);
    if (received_) received_();
}

void GlfwInput::on_key(GLFWwindow* w, int key, int, int action, int mods) {
    if (key == GLFW_KEY_LEFT_SHIFT || key == GLFW_KEY_RIGHT_SHIFT) of(w).shift_ = action != GLFW_RELEASE;
    of(w).push(InputEvent::key(key, action, mods));
}
void GlfwInput::on_char(GLFWwindow* w, unsigned int c) { of(w).push(InputEvent::character(c)); }
void GlfwInput::on_button(GLFWwindow* w, int button, int action, int mods) { of(w).push(InputEvent::button(button, action, mods)); }
void GlfwInput::on_move(GLFWwindow* w, double x, double y) { of(w).push(InputEvent::move(static_cast<float>(x), static_cast<float>(y))); }
// (the page's wheel reports pixels or lines: emscripten's GLFW has already made them steps)
void GlfwInput::on_scroll(GLFWwindow* w, double x, double y) { of(w).push(InputEvent::scroll(static_cast<float>(x), static_cast<float>(y))); }
void GlfwInput::on_focus(GLFWwindow* w, int focused) { of(w).push(InputEvent::focus(focused != 0)); }
void GlfwInput::on_enter(GLFWwindow* w, int entered) {
    if (!entered) of(w).push(InputEvent::move(-1e6f, -1e6f));  // the pointer left: no panel is hovered any more
}
// The window system lost the window's contents (uncovered, resized): the next frame copies all.
void GlfwInput::on_refresh(GLFWwindow* w) {
    GlfwInput& input = of(w);
    input.refresh_ = true;
    if (input.received_) input.received_();  // a frame to copy them
}
// Files dragged from a file manager (in the browser: written into the page's file system first),
// opened by the next frame (open_dropped_file).
void GlfwInput::on_drop(GLFWwindow* w, int count, const char** paths) {
    GlfwInput& input = of(w);
    const bool shift = input.shift_ || glfwGetKey(w, GLFW_KEY_LEFT_SHIFT) == GLFW_PRESS || glfwGetKey(w, GLFW_KEY_RIGHT_SHIFT) == GLFW_PRESS;
    for (int i = 0; i < count; ++i) input.queue_.push_drop(paths[i], shift);
    if (input.received_) input.received_();
}

}  // namespace rope::gui
