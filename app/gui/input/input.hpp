// Input as a queue of events, each with the modifiers held when it happened. The platform (GLFW, or
// a test) pushes events; every frame the app takes its share in order, acts on the keys itself
// (shortcuts, with each key's own modifiers) and hands them to Dear ImGui.
//
// Dear ImGui 1.86 keeps keys and buttons as "down" flags, so it misses a key or a click that goes
// down and up between two frames. FrameBatch paces what ImGui must see: a mouse button changes at
// most once a frame and nothing after a press joins its frame (a click may focus a text field); while
// a text field or a dialog has the keyboard, keys are paced the same way and a modifier change waits
// when a key went down before it. Key taps the shortcuts take need no pacing: they all go at once.
#pragma once

#include <algorithm>
#include <cstddef>
#include <deque>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace rope::gui {

// Key codes and modifiers are GLFW's (GLFW_KEY_*, GLFW_MOD_*), passed through by every platform.
struct InputEvent {
    enum class Kind { key, character, button, move, scroll, focus };
    Kind kind = Kind::key;
    int code = 0;    // key: the key code; button: 0 left, 1 right, 2 middle; character: the code point
    int action = 0;  // key and button: 0 released, 1 pressed, 2 repeated (keys); focus: 1 gained, 0 lost
    int mods = 0;    // the modifiers held when it happened
    float x = 0, y = 0;  // move: the pointer's position; scroll: the offsets

    static InputEvent key(int code, int action, int mods) { return {Kind::key, code, action, mods}; }
    static InputEvent character(unsigned int c) { return {Kind::character, static_cast<int>(c)}; }
    static InputEvent button(int b, int action, int mods) { return {Kind::button, b, action, mods}; }
    static InputEvent move(float x, float y) { return {Kind::move, 0, 0, 0, x, y}; }
    // The pointer left (a finger lifted): nothing is hovered, and the next touch starts without a jump
    // from where the last one ended (Dear ImGui's "no position").
    static InputEvent pointer_gone() { return move(-kNoPosition, -kNoPosition); }
    bool is_pointer_gone() const { return kind == Kind::move && x <= -kNoPosition; }
    static constexpr float kNoPosition = 3.402823466e+38f;  // FLT_MAX: ImGui's -FLT_MAX is no position
    static InputEvent scroll(float dx, float dy) { return {Kind::scroll, 0, 0, 0, dx, dy}; }
    static InputEvent focus(bool gained) { return {Kind::focus, 0, gained ? 1 : 0}; }
};

bool is_modifier_key(int code);

// Decides which of the queued events one frame takes (call admit for each, in order, until it says no).
class FrameBatch {
public:
    // `keyboard_taken`: a text field or a dialog has the keyboard (keys are paced for ImGui).
    explicit FrameBatch(bool keyboard_taken) : strict_(keyboard_taken) {}
    // True if `e` belongs to this frame (it is then counted as taken); false ends the frame's batch.
    bool admit(const InputEvent& e);
    // Nothing more this frame (a shortcut opened a dialog: later keys are for it).
    void end() { ended_ = true; }

private:
    bool strict_;
    bool ended_ = false;
    bool key_pressed_ = false;
    bool moved_ = false;  // the pointer moved in this batch
    std::set<int> keys_changed_, buttons_changed_;
};

// The events waiting for frames. Only the UI thread touches it.
// A file dragged onto the window, and whether Shift was held as it was dropped (a config.json as model B).
struct DroppedFile {
    std::string path;
    bool shift = false;
};

class InputQueue {
public:
    void push(const InputEvent& e) { events_.push_back(e); }
    bool empty() const { return events_.empty(); }
    std::size_t size() const { return events_.size(); }
    const InputEvent& front() const { return events_.front(); }
    void pop() { events_.pop_front(); }
    void clear() { events_.clear(); }
    // Files dropped onto the window, in order: the next frame opens them.
    void push_drop(const std::string& path, bool shift = false) { drops_.push_back({path, shift}); }
    bool has_drops() const { return !drops_.empty(); }
    std::vector<DroppedFile> take_drops() { return std::exchange(drops_, {}); }
    // Forgets where the pointer went (the drivers whose pictures show a state, not a hover).
    void drop_pointer_moves() {
        events_.erase(std::remove_if(events_.begin(), events_.end(), [](const InputEvent& e) { return e.kind == InputEvent::Kind::move; }),
                      events_.end());
    }

private:
    std::deque<InputEvent> events_;
    std::vector<DroppedFile> drops_;
};

// Applies one taken event to Dear ImGui's io (keys, modifiers, characters, buttons, pointer, wheel, focus).
void feed_imgui(const InputEvent& e);
// Maps ImGui's navigation keys to GLFW key codes (text fields need them); call once per context.
void map_imgui_keys();

}  // namespace rope::gui
