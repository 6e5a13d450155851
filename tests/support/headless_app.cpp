#include "support/headless_app.hpp"

#include <GLFW/glfw3.h>
#include <unistd.h>

#include <chrono>

#include "gui/panels/panel_figures.hpp"
#include "weights/desktop_services.hpp"
#include "weights/trained_weights.hpp"

namespace rope::test {

namespace {

gui::GuiOptions options_from(const std::vector<std::string>& args) {
    std::vector<std::string> argv_text = {"rope-explorer"};
    argv_text.insert(argv_text.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& a : argv_text) argv.push_back(a.data());
    return gui::parse_gui_options(static_cast<int>(argv.size()), argv.data(), 1);
}

int modifier_bit(int key) {
    switch (key) {
        case GLFW_KEY_LEFT_SHIFT: case GLFW_KEY_RIGHT_SHIFT: return GLFW_MOD_SHIFT;
        case GLFW_KEY_LEFT_CONTROL: case GLFW_KEY_RIGHT_CONTROL: return GLFW_MOD_CONTROL;
        case GLFW_KEY_LEFT_ALT: case GLFW_KEY_RIGHT_ALT: return GLFW_MOD_ALT;
        default: return 0;
    }
}

// The desktop's services, answering this process's model imports (as the programs' entry points do).
Services answered(Services services) {
    answer_model_imports(services);
    return services;
}

}  // namespace

HeadlessApp::HeadlessApp(const std::vector<std::string>& args, float width, float height, bool as_page)
    : platform_(width, height, as_page), app_(platform_, renderer_, 1.0f, answered(weights::desktop_services())), reference_cache_(weights::folder_reader()) {
    const gui::GuiOptions options = options_from(args);
    gui::start_app(app_.state(), options, gui::starting_state(options));
}

void HeadlessApp::frame() {
    imgui_.make_current();
    platform_.advance();
    app_.frame();
}

bool HeadlessApp::settle(double seconds) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    int quiet = 0;
    while (std::chrono::steady_clock::now() < until) {
        frame();
        const bool done = app_.figures_complete() && !app_.wants_frame() && !app_.working();
        quiet = done ? quiet + 1 : 0;
        if (quiet >= 2) return true;
        if (app_.working()) usleep(2000);
    }
    return false;
}

bool HeadlessApp::frames_until(const std::function<bool()>& done, double seconds) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (!done()) {
        if (std::chrono::steady_clock::now() >= until) return false;
        frame();
        usleep(500);  // a worker's file takes wall time, not frames: a loaded machine gives it fewer per frame
    }
    return true;
}

void HeadlessApp::key(int code, int mods) {
    platform_.input().push(gui::InputEvent::key(code, GLFW_PRESS, mods));
    platform_.input().push(gui::InputEvent::key(code, GLFW_RELEASE, mods));
}

void HeadlessApp::chord(int modifier_key, int code) {
    const int bit = modifier_bit(modifier_key);
    auto& q = platform_.input();
    q.push(gui::InputEvent::key(modifier_key, GLFW_PRESS, 0));
    q.push(gui::InputEvent::key(code, GLFW_PRESS, bit));
    q.push(gui::InputEvent::key(modifier_key, GLFW_RELEASE, bit));
    q.push(gui::InputEvent::key(code, GLFW_RELEASE, 0));
}

void HeadlessApp::type(const std::string& text) {
    auto& q = platform_.input();
    for (char c : text) {
        const bool upper = c >= 'A' && c <= 'Z';
        const int code = c >= 'a' && c <= 'z' ? GLFW_KEY_A + (c - 'a') : upper ? GLFW_KEY_A + (c - 'A') : static_cast<int>(c);
        q.push(gui::InputEvent::key(code, GLFW_PRESS, upper ? GLFW_MOD_SHIFT : 0));
        q.push(gui::InputEvent::character(static_cast<unsigned char>(c)));
        q.push(gui::InputEvent::key(code, GLFW_RELEASE, upper ? GLFW_MOD_SHIFT : 0));
    }
}

void HeadlessApp::move(float x, float y) { platform_.input().push(gui::InputEvent::move(x, y)); }

void HeadlessApp::click(float x, float y) {
    move(x, y);
    platform_.input().push(gui::InputEvent::button(0, GLFW_PRESS, 0));
    platform_.input().push(gui::InputEvent::button(0, GLFW_RELEASE, 0));
}

void HeadlessApp::drag(float x0, float y0, float x1, float y1, int steps) {
    move(x0, y0);
    frame();
    platform_.input().push(gui::InputEvent::button(0, GLFW_PRESS, 0));
    frame();
    for (int i = 1; i <= steps; ++i) {
        move(x0 + (x1 - x0) * static_cast<float>(i) / static_cast<float>(steps), y0 + (y1 - y0) * static_cast<float>(i) / static_cast<float>(steps));
        frame();
    }
    platform_.input().push(gui::InputEvent::button(0, GLFW_RELEASE, 0));
    frame();
}

std::string HeadlessApp::panels_fresh() {
    imgui_.make_current();
    const gui::AppState& s = state();
    for (const gui::PanelView& p : app_.panels().views) {
        if (!p.shown) continue;
        const std::string which = "panel " + std::to_string(p.figure->index + 1) + " (" + std::string(p.figure->name) + ")";
        if (!p.built) return which + " has no picture";
        if (p.key != gui::figure_key(s, *p.figure, p.key.width, p.key.height)) return which + " was built from other values";
        const figures::FigureResult fresh =
            gui::build_for_screen(s, *p.figure, app_.ui().measure, p.key.width, p.key.height, reference_cache_, true);
        std::string why;
        if (!figures::same_picture(p.result.list, fresh.list, &why)) return which + ": " + why;
        if (p.result.plots.size() != fresh.plots.size()) return which + ": another number of plots";
    }
    return "";
}

std::vector<HeadlessApp::Picture> HeadlessApp::pictures() const {
    std::vector<Picture> out;
    for (const gui::PanelView& p : app_.panels().views)
        if (p.shown) out.push_back({p.figure->index, p.key, p.result.list});
    return out;
}

std::string same_pictures(const std::vector<HeadlessApp::Picture>& a, const std::vector<HeadlessApp::Picture>& b) {
    if (a.size() != b.size()) return std::to_string(a.size()) + " panels shown vs " + std::to_string(b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        const std::string which = "panel " + std::to_string(a[i].panel + 1);
        if (a[i].panel != b[i].panel) return which + " shown vs panel " + std::to_string(b[i].panel + 1);
        if (a[i].key.width != b[i].key.width || a[i].key.height != b[i].key.height)
            return which + ": size " + std::to_string(a[i].key.width) + "x" + std::to_string(a[i].key.height) + " vs " +
                   std::to_string(b[i].key.width) + "x" + std::to_string(b[i].key.height);
        if (a[i].key != b[i].key) return which + ": built from other values";
        std::string why;
        if (!figures::same_picture(a[i].list, b[i].list, &why)) return which + ": " + why;
    }
    return "";
}

}  // namespace rope::test
