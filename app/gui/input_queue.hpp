// Input trickling for Dear ImGui 1.86: its GLFW back end records keys as "down" flags, so a key
// pressed and released between two frames (a fast tap, or xdotool) is never seen, and a modifier
// released in the same batch as a click turns Ctrl+click into a plain click. GLFW's events are
// queued here and handed to ImGui so that no key or button changes twice in one frame.
#pragma once

struct GLFWwindow;

namespace rope::gui {

// Installs the GLFW callbacks (call after ImGui_ImplGlfw_InitForOpenGL(window, false)).
void install_input_queue(GLFWwindow* window);
// Hands this frame's share of the queued events to ImGui (before ImGui_ImplGlfw_NewFrame).
void drain_input_queue();
// Events are still waiting for later frames.
bool input_pending();

}  // namespace rope::gui
