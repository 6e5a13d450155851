// The whole app in the test's process, headless: the same App, frames and input code as the window,
// behind a platform with no window and a renderer that draws nothing (Polyscope's mock back end).
// Tests push real input events (GLFW key codes, with the modifiers GLFW would report) and check
// what every panel shows against a fresh build of the same state.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "gui/app/app.hpp"
#include "gui/drivers/drivers.hpp"

namespace rope::test {

class HeadlessApp {
public:
    // A window of `width` x `height` started as `args` say (the app's own options: --fresh, --lesson
    // N, --set ..., --session FILE); XDG_STATE_HOME should point at a test folder.
    // `as_page`: files go through the page as in the browser (the platform records downloads and picks).
    explicit HeadlessApp(const std::vector<std::string>& args = {"--fresh"}, float width = 1600, float height = 900, bool as_page = false);
    gui::App& app() { return app_; }
    gui::AppState& state() { return app_.state(); }
    gui::HeadlessPlatform& platform() { return platform_; }
    const gui::NullRenderer& renderer() const { return renderer_; }

    void frame();
    // Frames until the input is taken, nothing is settling and every shown panel is complete (and the
    // background jobs done); false if that takes longer than `seconds`.
    bool settle(double seconds = 60);
    // Frames until `done()` holds (a file written on a worker, a recording started); false if that
    // takes longer than `seconds`.
    bool frames_until(const std::function<bool()>& done, double seconds = 60);

    // Input, as GLFW reports it: a key pressed and released with `mods` held (GLFW_MOD_*).
    void key(int code, int mods = 0);
    // A modifier chord in the order xdotool sends it: modifier down, key down, modifier up, key up.
    void chord(int modifier_key, int code);
    void type(const std::string& text);  // characters, each with its key
    void move(float x, float y);
    void click(float x, float y);
    void drag(float x0, float y0, float x1, float y1, int steps = 8);

    // "" if every shown panel holds the picture a fresh build of the current state gives (a cache of
    // the test's own, background results waited for) at the panel's size; else which panel differs and how.
    std::string panels_fresh();
    // The shown panels' pictures and keys, to compare two ways of reaching a state.
    struct Picture {
        int panel;
        gui::FigureKey key;
        plot::DisplayList list;
    };
    std::vector<Picture> pictures() const;

private:
    gui::ImGuiContextScope imgui_;
    gui::HeadlessPlatform platform_;
    gui::NullRenderer renderer_;
    gui::App app_;
    // The fresh builds' own cache: independent of the app's, filled in another order.
    figures::FigureCache reference_cache_;
};

// "" if both show the same panels with the same pictures; else the first difference.
std::string same_pictures(const std::vector<HeadlessApp::Picture>& a, const std::vector<HeadlessApp::Picture>& b);

}  // namespace rope::test
