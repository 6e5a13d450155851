#include "gui/input_queue.hpp"

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>

#include <deque>
#include <set>

namespace rope::gui {

namespace {

struct Event {
    enum Kind { key, character, button, scroll } kind;
    int a = 0, b = 0, c = 0, d = 0;
    double x = 0, y = 0;
};

GLFWwindow* g_window = nullptr;
std::deque<Event> g_events;

void on_key(GLFWwindow*, int key, int scancode, int action, int mods) {
    g_events.push_back({Event::key, key, scancode, action, mods});
}
void on_char(GLFWwindow*, unsigned int c) { g_events.push_back({Event::character, static_cast<int>(c)}); }
void on_button(GLFWwindow*, int button, int action, int mods) { g_events.push_back({Event::button, button, action, mods}); }
void on_scroll(GLFWwindow*, double x, double y) {
    Event e{Event::scroll};
    e.x = x;
    e.y = y;
    g_events.push_back(e);
}

}  // namespace

void install_input_queue(GLFWwindow* window) {
    g_window = window;
    glfwSetKeyCallback(window, on_key);
    glfwSetCharCallback(window, on_char);
    glfwSetMouseButtonCallback(window, on_button);
    glfwSetScrollCallback(window, on_scroll);
    glfwSetWindowFocusCallback(window, ImGui_ImplGlfw_WindowFocusCallback);
    glfwSetCursorEnterCallback(window, ImGui_ImplGlfw_CursorEnterCallback);
}

void drain_input_queue() {
    std::set<int> keys_changed, buttons_changed;
    while (!g_events.empty()) {
        const Event e = g_events.front();
        if (e.kind == Event::key && e.c != GLFW_REPEAT) {
            if (keys_changed.count(e.a)) break;  // its second change waits for the next frame
            keys_changed.insert(e.a);
        }
        if (e.kind == Event::button) {
            if (buttons_changed.count(e.a)) break;
            buttons_changed.insert(e.a);
        }
        g_events.pop_front();
        switch (e.kind) {
            case Event::key: ImGui_ImplGlfw_KeyCallback(g_window, e.a, e.b, e.c, e.d); break;
            case Event::character: ImGui_ImplGlfw_CharCallback(g_window, static_cast<unsigned int>(e.a)); break;
            case Event::button: ImGui_ImplGlfw_MouseButtonCallback(g_window, e.a, e.b, e.c); break;
            case Event::scroll: ImGui_ImplGlfw_ScrollCallback(g_window, e.x, e.y); break;
        }
    }
}

bool input_pending() { return !g_events.empty(); }

}  // namespace rope::gui
