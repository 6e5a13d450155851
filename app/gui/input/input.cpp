#include "gui/input/input.hpp"

#include <GLFW/glfw3.h>
#include <imgui.h>

namespace rope::gui {

bool is_modifier_key(int code) {
    return code == GLFW_KEY_LEFT_SHIFT || code == GLFW_KEY_RIGHT_SHIFT || code == GLFW_KEY_LEFT_CONTROL ||
           code == GLFW_KEY_RIGHT_CONTROL || code == GLFW_KEY_LEFT_ALT || code == GLFW_KEY_RIGHT_ALT ||
           code == GLFW_KEY_LEFT_SUPER || code == GLFW_KEY_RIGHT_SUPER;
}

bool FrameBatch::admit(const InputEvent& e) {
    if (ended_) return false;
    switch (e.kind) {
        case InputEvent::Kind::button:
            if (buttons_changed_.count(e.code)) return false;
            // a release after movement waits for the next frame, so that the movement is seen with the
            // button still down: a quick drag (moves and release within one frame) ends where it was let go
            if (e.action == GLFW_RELEASE && moved_) return false;
            buttons_changed_.insert(e.code);
            // a click needs its own frame, with what came before it and nothing after it
            if (e.action == GLFW_PRESS) ended_ = true;
            return true;
        case InputEvent::Kind::key:
            if (!strict_ || e.action == GLFW_REPEAT) return true;
            if (keys_changed_.count(e.code)) return false;
            // the key that went down is seen with the modifiers it went down with
            if (is_modifier_key(e.code) && key_pressed_) return false;
            keys_changed_.insert(e.code);
            if (e.action == GLFW_PRESS && !is_modifier_key(e.code)) key_pressed_ = true;
            return true;
        case InputEvent::Kind::move:
            // a finger lifted: its release is seen over what it touched, and the pointer leaves after
            if (e.is_pointer_gone() && !buttons_changed_.empty()) return false;
            moved_ = true;
            return true;
        default: return true;
    }
}

void map_imgui_keys() {
    ImGuiIO& io = ImGui::GetIO();
    io.KeyMap[ImGuiKey_Tab] = GLFW_KEY_TAB;
    io.KeyMap[ImGuiKey_LeftArrow] = GLFW_KEY_LEFT;
    io.KeyMap[ImGuiKey_RightArrow] = GLFW_KEY_RIGHT;
    io.KeyMap[ImGuiKey_UpArrow] = GLFW_KEY_UP;
    io.KeyMap[ImGuiKey_DownArrow] = GLFW_KEY_DOWN;
    io.KeyMap[ImGuiKey_PageUp] = GLFW_KEY_PAGE_UP;
    io.KeyMap[ImGuiKey_PageDown] = GLFW_KEY_PAGE_DOWN;
    io.KeyMap[ImGuiKey_Home] = GLFW_KEY_HOME;
    io.KeyMap[ImGuiKey_End] = GLFW_KEY_END;
    io.KeyMap[ImGuiKey_Insert] = GLFW_KEY_INSERT;
    io.KeyMap[ImGuiKey_Delete] = GLFW_KEY_DELETE;
    io.KeyMap[ImGuiKey_Backspace] = GLFW_KEY_BACKSPACE;
    io.KeyMap[ImGuiKey_Space] = GLFW_KEY_SPACE;
    io.KeyMap[ImGuiKey_Enter] = GLFW_KEY_ENTER;
    io.KeyMap[ImGuiKey_Escape] = GLFW_KEY_ESCAPE;
    io.KeyMap[ImGuiKey_KeyPadEnter] = GLFW_KEY_KP_ENTER;
    io.KeyMap[ImGuiKey_A] = GLFW_KEY_A;
    io.KeyMap[ImGuiKey_C] = GLFW_KEY_C;
    io.KeyMap[ImGuiKey_V] = GLFW_KEY_V;
    io.KeyMap[ImGuiKey_X] = GLFW_KEY_X;
    io.KeyMap[ImGuiKey_Y] = GLFW_KEY_Y;
    io.KeyMap[ImGuiKey_Z] = GLFW_KEY_Z;
}

void feed_imgui(const InputEvent& e) {
    ImGuiIO& io = ImGui::GetIO();
    switch (e.kind) {
        case InputEvent::Kind::key:
            if (e.code >= 0 && e.code < IM_ARRAYSIZE(io.KeysDown)) io.KeysDown[e.code] = e.action != GLFW_RELEASE;
            io.KeyCtrl = io.KeysDown[GLFW_KEY_LEFT_CONTROL] || io.KeysDown[GLFW_KEY_RIGHT_CONTROL];
            io.KeyShift = io.KeysDown[GLFW_KEY_LEFT_SHIFT] || io.KeysDown[GLFW_KEY_RIGHT_SHIFT];
            io.KeyAlt = io.KeysDown[GLFW_KEY_LEFT_ALT] || io.KeysDown[GLFW_KEY_RIGHT_ALT];
            io.KeySuper = io.KeysDown[GLFW_KEY_LEFT_SUPER] || io.KeysDown[GLFW_KEY_RIGHT_SUPER];
            break;
        case InputEvent::Kind::character:
            if (e.code > 0 && e.code <= 0x10FFFF) io.AddInputCharacter(static_cast<unsigned int>(e.code));
            break;
        case InputEvent::Kind::button:
            if (e.code >= 0 && e.code < IM_ARRAYSIZE(io.MouseDown)) io.MouseDown[e.code] = e.action == GLFW_PRESS;
            break;
        case InputEvent::Kind::move: io.MousePos = ImVec2(e.x, e.y); break;
        case InputEvent::Kind::scroll:
            io.MouseWheelH += e.x;
            io.MouseWheel += e.y;
            break;
        case InputEvent::Kind::focus:
            io.AddFocusEvent(e.action != 0);
            if (!e.action) {
                // keys and buttons let go while another window had the focus must not stay down here
                for (bool& k : io.KeysDown) k = false;
                for (bool& b : io.MouseDown) b = false;
                io.KeyCtrl = io.KeyShift = io.KeyAlt = io.KeySuper = false;
            }
            break;
    }
}

}  // namespace rope::gui
