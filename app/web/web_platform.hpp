// The browser's window: the page's canvas with a WebGL 2 context, through emscripten's GLFW (whose
// key codes and callbacks are the desktop's), sized to the page at its device pixel ratio. Input
// arrives between the page's animation frames and waits in the queue for the next frame.
#pragma once

#include <string>

#include "gui/platform/glfw_input.hpp"
#include "gui/platform/platform.hpp"

struct GLFWwindow;

namespace rope::gui {

class WebPlatform : public Platform {
public:
    WebPlatform();  // throws cli::RuntimeFailure (one line) if the page has no WebGL 2
    ~WebPlatform() override;
    WebPlatform(const WebPlatform&) = delete;
    WebPlatform& operator=(const WebPlatform&) = delete;

    InputQueue& input() override { return input_.queue(); }
    plot::Vec2 window_size() const override { return framebuffer_size(); }  // ImGui works in the canvas's pixels
    plot::Vec2 framebuffer_size() const override;
    double now() const override;
    void set_fullscreen(bool on) override;
    void wake() override { woken_ = true; }
    std::string clipboard() const override { return clipboard_; }
    void set_clipboard(const std::string& text) override;
    void set_text_cursor(bool on) override;
    bool keeps_back_buffer() const override { return true; }  // preserveDrawingBuffer
    bool files_through_page() const override { return true; }
    void download(const std::string& path, const std::string& name, const std::string& mime) override;
    void pick_file(const std::string& accept, bool as_b) override;
    std::string link_to(const std::string& fragment) const override;

    // The page's device pixel ratio: the app's UI scale.
    float content_scale() const;
    // Whether anything asked for a frame since the last call (an event, a wake, a resize).
    bool take_wake();
    // Follows the page's size: the canvas's pixels are its CSS size times the device pixel ratio.
    void fit_canvas();

private:
    GLFWwindow* window_ = nullptr;
    bool woken_ = true;
    GlfwInput input_{[this] { woken_ = true; }};  // an event asks for a frame
    std::string clipboard_;
    int width_ = 0, height_ = 0;
};

}  // namespace rope::gui
