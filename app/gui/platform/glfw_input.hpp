// GLFW's input callbacks as the app's input events: one translation for the desktop's window and the
// browser page's canvas (emscripten's GLFW has the same callbacks and key codes).
#pragma once

#include <functional>

#include "gui/input/input.hpp"

struct GLFWwindow;

namespace rope::gui {

class GlfwInput {
public:
    // `received`: called after each event is queued, and when the window's contents were lost (a
    // frame is wanted for either); may be empty.
    explicit GlfwInput(std::function<void()> received = {}) : received_(std::move(received)) {}
    GlfwInput(const GlfwInput&) = delete;
    GlfwInput& operator=(const GlfwInput&) = delete;

    // Takes `window`'s input callbacks; its user pointer becomes this object.
    void connect(GLFWwindow* window);
    InputQueue& queue() { return queue_; }
    // Whether the window system lost the window's contents since the last call (uncovered, resized).
    bool take_refresh();

private:
    static GlfwInput& of(GLFWwindow* w);
    static void on_key(GLFWwindow* w, int key, int scancode, int action, int mods);
    static void on_char(GLFWwindow* w, unsigned int c);
    static void on_button(GLFWwindow* w, int button, int action, int mods);
    static void on_move(GLFWwindow* w, double x, double y);
    static void on_scroll(GLFWwindow* w, double x, double y);
    static void on_focus(GLFWwindow* w, int focused);
    static void on_enter(GLFWwindow* w, int entered);
    static void on_refresh(GLFWwindow* w);
    static void on_drop(GLFWwindow* w, int count, const char** paths);
    void push(const InputEvent& e);

    InputQueue queue_;
    std::function<void()> received_;
    bool shift_ = false;    // held: a config.json dropped with Shift becomes model B
    bool refresh_ = true;   // the whole contents are needed (the first frame too)
};

}  // namespace rope::gui
