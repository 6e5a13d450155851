// What the page and the app say to each other (web/page.js is the other side). The page calls the
// functions below (ccall) for window.ropeExplorer, its address and the files it is given; the app
// asks the page to download a file and tells it its address.
#include <GLFW/glfw3.h>
#include <emscripten.h>
#include <imgui.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/arguments.hpp"
#include "export/export.hpp"
#include "export/still_writers.hpp"
#include "figures/registry.hpp"
#include "gui/app/actions.hpp"
#include "gui/app/screen_layout.hpp"
#include "session/page_address.hpp"
#include "session/session.hpp"
#include "web/web_run.hpp"

namespace rope::gui {

namespace {

EM_JS(void, rope_page_address_changed, (const char* fragment), { if (Module['ropePage']) Module['ropePage'].addressChanged(UTF8ToString(fragment)); });
EM_JS(void, rope_page_report, (const char* line), { console.warn(UTF8ToString(line)); });

// A returned text lives until the next call of the same function (ccall copies it at once).
const char* kept(std::string& slot, std::string text) {
    slot = std::move(text);
    return slot.c_str();
}

// `sets` applied like --set lines, each on its own: the wrong ones refused with their line, the rest applied.
ParamSet with_sets(ParamSet params, const std::vector<std::string>& sets, std::vector<std::string>& errors) {
    for (const std::string& s : sets) {
        ParamSet next = params;
        try {
            cli::apply_sets(next, {s});
            next.validate();
            params = next;
        } catch (const std::exception& e) {
            errors.push_back(e.what());
        }
    }
    return params;
}

std::string joined(const std::vector<std::string>& lines) {
    std::string out;
    for (const std::string& l : lines) out += (out.empty() ? "" : "\n") + l;
    return out;
}

}  // namespace

// The view keys of an address applied to the running app (its parameters are applied apart).
void apply_view_keys(App& app, const session::PageAddress& a) {
    AppState& state = app.state();
    Actions asked;
    if (a.lesson > 0) {
        const int steps = static_cast<int>(state.lesson().steps.size());
        if (a.lesson <= steps) asked.ask(act::GoToLessonStep{a.lesson - 1});
    }
    if (a.theme) asked.ask(act::SetTheme{plot::theme_from_name(*a.theme).value_or(plot::ThemeId::dark)});
    if (a.page) asked.ask(act::ShowPage{*a.page});
    if (a.maximized && state.maximized != *a.maximized) asked.ask(act::ToggleMaximized{*a.maximized});
    if (a.presentation && *a.presentation != state.presentation) asked.ask(act::TogglePresentation{});
    app.apply(asked);
}

EM_JS(void, rope_page_typing, (int on), { if (Module['ropePage']) Module['ropePage'].typing(!!on); });

void tell_page_typing(WebRun& run) {
    const bool typing = ImGui::GetIO().WantTextInput;
    if (typing == run.typing) return;
    run.typing = typing;
    rope_page_typing(typing ? 1 : 0);
}

EM_JS(void, rope_page_reader, (const char* document), { if (Module['ropePage']) Module['ropePage'].reader(UTF8ToString(document)); });

void tell_page_reader(WebRun& run, double now) {
    // seconds: the live region speaks at most twice a second, and the document is written no more
    // often either, whether it changed or not (frames that run on, a dialog open or Play, would
    // otherwise write it every frame: on a slow page that was most of each frame)
    constexpr double kEvery = 0.5;
    if (!run.reader_due || now - run.reader_written_at < kEvery) return;
    run.reader_due = false;
    run.reader_written_at = now;
    std::string document = run.reader.json(*run.app);
    if (document == run.reader_sent) return;
    run.reader_sent = std::move(document);
    rope_page_reader(run.reader_sent.c_str());
}

void tell_page_address(WebRun& run) {
    const std::string fragment = run.app->page_fragment();
    if (fragment == run.address) return;
    run.address = fragment;
    rope_page_address_changed(fragment.c_str());
}

}  // namespace rope::gui

using rope::gui::web_run;

extern "C" {

// 1 once every shown panel holds its final picture and nothing is computing.
EMSCRIPTEN_KEEPALIVE int rope_web_ready() {
    rope::gui::WebRun& r = web_run();
    return r.app && r.frame > 2 && r.app->figures_complete() && !r.app->working() && !r.app->wants_frame() ? 1 : 0;
}

// The session as a desktop session file holds it.
EMSCRIPTEN_KEEPALIVE const char* rope_web_session() {
    static std::string text;
    return rope::gui::kept(text, rope::session::session_json(current_session(web_run().app->state())));
}

// A JSON object of --set keys and values ({"base": 500000}), applied as one undo step; returns the
// refusals, one line each ("" when every key applied).
EMSCRIPTEN_KEEPALIVE const char* rope_web_set(const char* json_object) {
    static std::string errors_text;
    std::vector<std::string> errors, sets;
    const nlohmann::json j = nlohmann::json::parse(json_object, nullptr, false);
    if (!j.is_object()) return rope::gui::kept(errors_text, "ropeExplorer.set: give a key and a value, or an object of them");
    for (const auto& [key, value] : j.items()) sets.push_back(key + "=" + (value.is_string() ? value.get<std::string>() : value.dump()));
    rope::gui::App& app = *web_run().app;
    const rope::ParamSet next = rope::gui::with_sets(app.state().params(), sets, errors);
    if (!(next == app.state().params())) {
        rope::gui::Actions asked;
        asked.ask(rope::gui::act::ChangeParams{"the page's script", next, ""});
        app.apply(asked);
    }
    web_run().platform->wake();
    for (const std::string& e : errors) rope::gui::rope_page_report(("rope-explorer: " + e).c_str());
    return rope::gui::kept(errors_text, rope::gui::joined(errors));
}

// The address the state gives now (for "Copy link").
EMSCRIPTEN_KEEPALIVE const char* rope_web_address() {
    static std::string text;
    return rope::gui::kept(text, web_run().app->page_fragment());
}

// What a person did in the page's document for screen readers (a JSON object: reader_document.hpp),
// applied as the ImGui control does it: one undo step, the same checks.
EMSCRIPTEN_KEEPALIVE void rope_web_reader_do(const char* request) {
    rope::gui::WebRun& r = web_run();
    rope::gui::Actions asked = rope::gui::ReaderDocument::actions_of(request, *r.app);
    r.app->apply(asked);
    r.reader_due = true;
    r.platform->wake();
}

// The page's address changed (a link followed, the user edited it): applied as one undo step.
EMSCRIPTEN_KEEPALIVE const char* rope_web_apply_address(const char* fragment) {
    static std::string errors_text;
    rope::gui::WebRun& r = web_run();
    if (fragment == r.address) return "";
    const rope::session::PageAddress a = rope::session::parse_page_address(fragment);
    std::vector<std::string> errors = a.errors;
    rope::gui::App& app = *r.app;
    const rope::ParamSet next = rope::gui::with_sets(app.state().params(), a.sets, errors);
    rope::gui::Actions asked;
    if (!(next == app.state().params())) asked.ask(rope::gui::act::ChangeParams{"the page's address", next, ""});
    app.apply(asked);
    rope::gui::apply_view_keys(app, a);
    r.platform->wake();
    for (const std::string& e : errors) rope::gui::rope_page_report(("rope-explorer: " + e).c_str());
    if (!errors.empty()) app.state().set_status(errors.front(), true);
    return rope::gui::kept(errors_text, rope::gui::joined(errors));
}

// A file the page was given (picked or dropped), already in the page's file system at `path`:
// opened by its content as a drop is (a session, a lesson, a config.json; as_b: a config.json as B).
EMSCRIPTEN_KEEPALIVE void rope_web_open(const char* path, int as_b) {
    web_run().platform->input().push_drop(path, as_b != 0);
    web_run().platform->wake();
}

// Two fingers moved on the page: about their midpoint (canvas pixels), the picture zooms as the
// wheel zooms it (a notch zooms by 1/0.8), by the factor their spread changed.
EMSCRIPTEN_KEEPALIVE void rope_web_pinch(double x, double y, double factor) {
    if (!(factor > 0)) return;
    rope::gui::InputQueue& input = web_run().platform->input();
    input.push(rope::gui::InputEvent::move(static_cast<float>(x), static_cast<float>(y)));
    input.push(rope::gui::InputEvent::scroll(0, static_cast<float>(std::log(factor) / std::log(1 / 0.8))));
    web_run().platform->wake();
}

// One finger on the page, as the mouse's left button (canvas pixels; page.js decides between a tap,
// a drag, a swipe and a long press): 0 pressed, 1 moved while pressed, 2 lifted (the release is seen
// where it was let go, then the pointer leaves: nothing stays hovered, no tooltip stays up and the
// next touch starts without a jump from this one), 3 hovering (a long press: what hover shows),
// 4 gone (lifted after hovering or swiping: no click), 5 cancelled while pressed (no click).
EMSCRIPTEN_KEEPALIVE void rope_web_touch(int phase, double x, double y) {
    using rope::gui::InputEvent;
    rope::gui::InputQueue& input = web_run().platform->input();
    const auto fx = static_cast<float>(x), fy = static_cast<float>(y);
    switch (phase) {
        case 0:
            input.push(InputEvent::move(fx, fy));
            input.push(InputEvent::button(0, 1, 0));
            break;
        case 1:
        case 3: input.push(InputEvent::move(fx, fy)); break;
        case 2:
            input.push(InputEvent::move(fx, fy));
            input.push(InputEvent::button(0, 0, 0));
            input.push(InputEvent::pointer_gone());
            break;
        case 5:  // cancelled (the browser took the touch): the pointer leaves, then lets go, so nothing is clicked
            input.push(InputEvent::pointer_gone());
            input.push(InputEvent::button(0, 0, 0));
            break;
        default: input.push(InputEvent::pointer_gone()); break;
    }
    web_run().platform->wake();
}

// Whether the page's main pointer is a finger (a phone's or a tablet's: CSS pointer: coarse), as the
// page starts and whenever that changes (a tablet's keyboard and trackpad attached). Not on a touch
// as such: a laptop's touch screen keeps the mouse's sizes, which a first tap must not change under it.
EMSCRIPTEN_KEEPALIVE void rope_web_touch_screen(int coarse) {
    rope::gui::AppState& state = web_run().app->state();
    state.touch = coarse != 0;
    // the first words a finger reads: no Ctrl+click for it
    if (state.touch && state.status.rfind("Ready.", 0) == 0) state.status = "Ready. Drag the sliders; tap Type beside a slider to type a value.";
    web_run().platform->wake();
}

// The browser's prefers-reduced-motion: as the page starts if it asks for less motion, and whenever it
// changes. Play starts only when asked (a restored session's animation stops), the laser pointer
// leaves no trail, the text cursor does not blink.
EMSCRIPTEN_KEEPALIVE void rope_web_reduced_motion(int reduce) {
    rope::gui::Actions asked;
    asked.ask(rope::gui::act::SetReducedMotion{reduce != 0});
    web_run().app->apply(asked);
    web_run().platform->wake();
}

// A finger swiped `dy` canvas pixels at (x, y) over a list or a text that scrolls: it scrolls with
// the finger, as the wheel scrolls it (Dear ImGui moves a window 5 lines a notch).
EMSCRIPTEN_KEEPALIVE void rope_web_swipe(double x, double y, double dy) {
    rope::gui::InputQueue& input = web_run().platform->input();
    input.push(rope::gui::InputEvent::move(static_cast<float>(x), static_cast<float>(y)));
    const float notch = 5 * ImGui::GetFontSize();
    if (notch > 0) input.push(rope::gui::InputEvent::scroll(0, static_cast<float>(dy) / notch));
    web_run().platform->wake();
}

// What a finger at (x, y) is over, as the last frame laid it out: 1 a list or text a vertical swipe
// scrolls, 2 a picture a pinch zooms (elsewhere the browser zooms the page), 3 a small screen's tabs
// or panel header, where a sideways swipe moves to the next or previous panel (and a vertical one
// scrolls nothing), 0 anything else. Plus 4 where a swipe from the left edge opens the controls'
// drawer (the page decides what is the edge), plus 8 where a tap starts typing (the page opens the
// phone's keyboard while it handles the tap).
EMSCRIPTEN_KEEPALIVE int rope_web_touch_target(double x, double y) {
    const rope::gui::App& app = *web_run().app;
    const rope::plot::Vec2 p{static_cast<float>(x), static_cast<float>(y)};
    const int drawer = (rope::gui::drawer_can_open(app) ? 4 : 0) + (rope::gui::types_at(p) ? 8 : 0);
    if (rope::gui::zooms_at(app, p)) return 2 + drawer;
    if (rope::gui::scrolls_at(p)) return 1 + drawer;
    return (rope::gui::flips_at(app, p) ? 3 : 0) + drawer;
}

// Text from the page's own text field (a phone's on-screen keyboard, which sends no key a canvas can
// take): its characters as typed; `backspace` keys erased before them (the keyboard's delete key).
EMSCRIPTEN_KEEPALIVE void rope_web_text(const char* utf8, int backspaces) {
    using rope::gui::InputEvent;
    rope::gui::InputQueue& input = web_run().platform->input();
    for (int i = 0; i < backspaces; ++i) {
        input.push(InputEvent::key(GLFW_KEY_BACKSPACE, GLFW_PRESS, 0));
        input.push(InputEvent::key(GLFW_KEY_BACKSPACE, GLFW_RELEASE, 0));
    }
    for (const char* p = utf8; *p;) {  // UTF-8 to code points
        const auto c = static_cast<unsigned char>(*p);
        const int n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
        unsigned int cp = n == 1 ? c : c & (0x3F >> (n - 1));
        for (int k = 1; k < n && p[k]; ++k) cp = (cp << 6) | (static_cast<unsigned char>(p[k]) & 0x3F);
        input.push(InputEvent::character(cp));
        for (int k = 0; k < n && *p; ++k) ++p;
    }
    web_run().platform->wake();
}

// A sideways swipe over a small screen's tabs or a panel's header: the next panel (+1, a swipe to
// the left) or the previous one (-1), past the page's last or first the next or previous page.
EMSCRIPTEN_KEEPALIVE void rope_web_flip(int delta) {
    rope::gui::Actions asked;
    asked.ask(rope::gui::act::NextPage{delta < 0 ? -1 : 1});
    web_run().app->apply(asked);
    web_run().platform->wake();
}

// A swipe in from the left edge: the controls' drawer opens (where a small screen has one).
EMSCRIPTEN_KEEPALIVE void rope_web_open_drawer() {
    if (!rope::gui::drawer_can_open(*web_run().app)) return;
    rope::gui::Actions asked;
    asked.ask(rope::gui::act::ShowDrawer{true});
    web_run().app->apply(asked);
    web_run().platform->wake();
}

// The layout of the last frame (gui/app/screen_layout.hpp) in CSS pixels.
EMSCRIPTEN_KEEPALIVE const char* rope_web_layout(double device_pixel_ratio) {
    static std::string text;
    return rope::gui::kept(text, rope::gui::layout_report(*web_run().app, static_cast<float>(device_pixel_ratio)));
}

// The CSV of a figure at width x height, as `rope-explorer export FIGURE --out f.csv --width W
// --height H` writes it for the current parameters (a refusal's line instead, if it has no table).
EMSCRIPTEN_KEEPALIVE const char* rope_web_csv(const char* name, int width, int height) {
    static std::string text;
    const rope::figures::FigureDescriptor* figure = rope::figures::find_figure(name);
    if (!figure) return rope::gui::kept(text, std::string("no figure '") + name + "'");
    rope::exporting::ExportOptions o;
    o.width = width;
    o.height = height;
    try {
        const std::unique_ptr<rope::plot::TextMeasure> measure = rope::exporting::file_text_measure();
        const rope::figures::FigureResult fig =
            rope::exporting::build_for_file(*figure, web_run().app->state().params(), o, *measure, true, web_run().app->cache());
        return rope::gui::kept(text, rope::exporting::table_csv(fig.table));
    } catch (const std::exception& e) {
        return rope::gui::kept(text, e.what());
    }
}

// The frame benchmark's report ("" until it is done): the text the desktop's --bench-frames prints.
EMSCRIPTEN_KEEPALIVE const char* rope_web_bench() { return web_run().bench_report.c_str(); }

}  // extern "C"
