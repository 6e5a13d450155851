// A GLFW window with an OpenGL 3.3 core context; its input callbacks fill the app's event queue.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "gui/platform/glfw_input.hpp"
#include "gui/platform/platform.hpp"

struct GLFWwindow;
struct GLFWcursor;

namespace rope::gui {

class GlfwPlatform : public Platform {
public:
    // Opens the window; throws cli::RuntimeFailure (one line) if there is no display or no GL 3.3.
    GlfwPlatform(int width, int height, const char* title);
    ~GlfwPlatform() override;
    GlfwPlatform(const GlfwPlatform&) = delete;
    GlfwPlatform& operator=(const GlfwPlatform&) = delete;

    InputQueue& input() override { return input_.queue(); }
    plot::Vec2 window_size() const override;
    plot::Vec2 framebuffer_size() const override;
    double now() const override;
    void set_fullscreen(bool on) override;
    void wake() override;
    std::string clipboard() const override;
    void set_clipboard(const std::string& text) override;
    void set_text_cursor(bool on) override;
    bool keeps_back_buffer() const override { return copy_sub_buffer_ != nullptr; }

    float content_scale() const;   // the monitor's (Xft.dpi / 96 on X11)
    GLFWwindow* window() const { return window_; }  // the presenter view shares its GL objects
    bool should_close() const;
    void request_close();
    void poll();                   // takes the events that are there
    void wait(double timeout = -1);  // sleeps until an event (or the timeout, in seconds)
    // How many times something has asked for a frame: an input or window event taken by poll() or
    // wait(), or wake() from any thread. A wait after which it is unchanged ended by its timeout.
    std::uint64_t frame_requests() const { return frame_requests_.load(); }
    // Shows the frame: with a kept back buffer, only `changed` (framebuffer pixels, top-left origin)
    // is copied to the window, unless the window system asked for all of it.
    void swap(const std::vector<plot::Rect>& changed);

private:
    GLFWwindow* window_ = nullptr;
    GLFWcursor* text_cursor_ = nullptr;
    bool text_cursor_on_ = false;
    using CopySubBuffer = void (*)(void* display, unsigned long drawable, int x, int y, int width, int height);
    CopySubBuffer copy_sub_buffer_ = nullptr;  // glXCopySubBufferMESA, if the server has it
    std::atomic<std::uint64_t> frame_requests_{0};
    GlfwInput input_{[this] { ++frame_requests_; }};
    int windowed_[4] = {0, 0, 0, 0};  // position and size before fullscreen
};

}  // namespace rope::gui
