// The window system behind the app: a window with a GL context (GlfwPlatform), or nothing at all
// for tests (HeadlessPlatform). It delivers input as events and says how big the window is.
#pragma once

#include <string>
#include <vector>

#include "gui/input/input.hpp"
#include "plot/display_list.hpp"

namespace rope::gui {

class Platform {
public:
    virtual ~Platform() = default;
    virtual InputQueue& input() = 0;
    virtual plot::Vec2 window_size() const = 0;       // in ImGui's units (screen coordinates)
    virtual plot::Vec2 framebuffer_size() const = 0;  // in pixels
    virtual double now() const = 0;                   // seconds, steady
    virtual void set_fullscreen(bool on) = 0;
    // Ends a wait for events from any thread (a background job finished).
    virtual void wake() = 0;
    virtual std::string clipboard() const { return {}; }
    virtual void set_clipboard(const std::string&) {}
    virtual void set_text_cursor(bool) {}  // an I-beam over text fields
    // What the last frame drew is still in the back buffer when the next one starts (the window is
    // shown without swapping buffers), so a frame need only redraw what changed.
    virtual bool keeps_back_buffer() const { return false; }
    // Files through a page (the browser): what the app writes (in the page's memory) goes to the
    // person as a download, and files are opened from the page's own picker (a picked file arrives
    // as a drop does). A desktop window has neither: its dialogs read and write paths.
    virtual bool files_through_page() const { return false; }
    virtual void download(const std::string& /*path*/, const std::string& /*name*/, const std::string& /*mime*/) {}
    virtual void pick_file(const std::string& /*accept*/, bool /*as_b*/) {}
    // The page's address with `fragment` after its # (the page's own address is the platform's).
    virtual std::string link_to(const std::string& fragment) const { return "#" + fragment; }
};

// No window: tests push events and set the size; time moves by one frame per call of advance().
class HeadlessPlatform : public Platform {
public:
    HeadlessPlatform(float width, float height, bool as_page = false) : page_files(as_page), size_{width, height} {}
    InputQueue& input() override { return queue_; }
    plot::Vec2 window_size() const override { return size_; }
    plot::Vec2 framebuffer_size() const override { return size_; }
    double now() const override { return time_; }
    void set_fullscreen(bool) override {}
    void wake() override {}
    std::string clipboard() const override { return clipboard_; }
    void set_clipboard(const std::string& text) override { clipboard_ = text; }
    void resize(float width, float height) { size_ = {width, height}; }
    // As a page (tests): downloads and picks are recorded, not done.
    bool files_through_page() const override { return page_files; }
    void download(const std::string& path, const std::string& name, const std::string& mime) override { downloads.push_back({path, name, mime}); }
    void pick_file(const std::string& accept, bool as_b) override { picks.push_back(accept + (as_b ? " as B" : "")); }
    struct Download {
        std::string path, name, mime;
    };
    bool page_files = false;
    std::vector<Download> downloads;
    std::vector<std::string> picks;
    void advance(double seconds = 1.0 / 60) { time_ += seconds; }

private:
    InputQueue queue_;
    plot::Vec2 size_;
    double time_ = 0;
    std::string clipboard_;
};

}  // namespace rope::gui
