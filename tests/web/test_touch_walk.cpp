// The page as people use it on a phone held upright (390x844), held sideways (844x390) and a tablet
// (1024x768): mobile viewports, touch events only (and the phone's keyboard). One walk per screen, in
// one page: the controls' drawer opens and closes (upright: by its button and by a swipe from the
// edge; the first tap in it, just opened, reaches its control), a finger drags position m to where it
// goes, position m is typed by its Type button and the phone's keyboard (its text inserted as an
// on-screen keyboard does, then its Enter key), a swipe scrolls the controls, llama-3.1-8b is picked
// from the list, the heatmap is pinched and panned, every page and every panel is visited (upright, a
// swipe over a panel's header moves on), three lesson steps are stepped through and a question is
// answered, presenting starts and is left by the corner's Menu (tapped again if it went before the
// finger came, as on a slow page). After every tap: no tooltip stays up; every picture is drawn (not
// one flat colour); no uncaught exception at any point. Label web.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <set>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/chromium.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"
#include "support/web_page.hpp"

using rope::test::Chromium;

namespace touch_walk {

const std::string kWalkUrl = rope::test::web_page_url();
const double kWalkPatience = rope::test::web_deadline();  // s: only a fault waits this long

struct Device {
    const char* name;
    int width, height;
    double dpr;
};
const Device kDevices[] = {{"phone_upright_390x844", 390, 844, 3}, {"phone_sideways_844x390", 844, 390, 3}, {"tablet_1024x768", 1024, 768, 2}};

struct Point {
    double x, y;
};

class TouchWalk : public rope::test::TempDirTest, public ::testing::WithParamInterface<Device> {
protected:
    nlohmann::json layout() { return c->evaluate("ropeExplorer.layout()"); }
    nlohmann::json session() { return c->evaluate("ropeExplorer.session()"); }
    // Waits until every shown picture is final and the input has been taken (ready()), two frames on.
    void settle() {
        ASSERT_GE(c->wait_for("ropeExplorer.ready()", kWalkPatience), 0);
        c->evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))");
        ASSERT_GE(c->wait_for("ropeExplorer.ready()", kWalkPatience), 0);
    }
    bool has_target(const std::string& name) { return layout()["targets"].contains(name); }
    std::vector<std::string> target_names() {
        const nlohmann::json l = layout();
        std::vector<std::string> names;
        for (const auto& t : l["targets"].items()) names.push_back(t.key());
        return names;
    }
    nlohmann::json rect_of(const std::string& name) {
        const nlohmann::json l = layout();
        EXPECT_TRUE(l["targets"].contains(name)) << name << " is not on screen; targets: " << l["targets"].dump();
        return l["targets"].value(name, nlohmann::json::array({0, 0, 0, 0}));
    }
    Point centre_of(const std::string& name) {
        const nlohmann::json r = rect_of(name);
        return {r[0].get<double>() + r[2].get<double>() / 2, r[1].get<double>() + r[3].get<double>() / 2};
    }
    // A tap on a target; then the page settles, and no tooltip is left on screen.
    void tap(const std::string& name) {
        SCOPED_TRACE("tap " + name);
        const Point p = centre_of(name);
        c->tap(p.x, p.y);
        settle();
        no_tooltip("after a tap on " + name);
    }
    void tap_at(double x, double y, const std::string& what) {
        c->tap(x, y);
        settle();
        no_tooltip("after a tap " + what);
    }
    void no_tooltip(const std::string& when) {
        const nlohmann::json l = layout();
        for (const auto& w : l["windows"])
            EXPECT_EQ(w["name"].get<std::string>().rfind("##Tooltip", 0), std::string::npos) << "a tooltip is up " << when;
    }
    bool window_shown(const std::string& name) {
        const nlohmann::json l = layout();
        for (const auto& w : l["windows"])
            if (w["name"] == name) return true;
        return false;
    }
    // The window whose name's last part begins with `last` ("controls_scroll": Controls/controls_scroll_6EA1A4EC).
    nlohmann::json window(const std::string& last) {
        const nlohmann::json l = layout();
        for (const auto& w : l["windows"]) {
            const std::string name = w["name"];
            const std::size_t slash = name.find_last_of('/');
            if (name.compare(slash == std::string::npos ? 0 : slash + 1, last.size(), last) == 0) return w;
        }
        return nullptr;
    }
    // The screenshot holds a picture in every shown panel (not one flat colour).
    void pictures_drawn(const std::string& when) {
        const std::vector<unsigned char> shot = c->screenshot();
        const std::string png = path("shot-" + std::to_string(++shots) + ".png");
        std::ofstream(png, std::ios::binary).write(reinterpret_cast<const char*>(shot.data()), static_cast<std::streamsize>(shot.size()));
        const double dpr = GetParam().dpr;
        const nlohmann::json l = layout();
        for (const auto& p : l["panels"]) {
            const auto& r = p["picture"];
            char crop[96];
            std::snprintf(crop, sizeof crop, "%dx%d+%d+%d", static_cast<int>(r[2].get<double>() * dpr), static_cast<int>(r[3].get<double>() * dpr),
                          static_cast<int>(r[0].get<double>() * dpr), static_cast<int>(r[1].get<double>() * dpr));
            const auto out = rope::test::run_process({"/usr/bin/convert", png, "-crop", crop, "+repage", "-colorspace", "Gray", "-format",
                                                      "%[fx:standard_deviation]", "info:"});
            EXPECT_GT(out.exit_code == 0 ? std::stod(out.out) : -1, 0.01) << p["figure"] << "'s picture is blank " << when << " (" << png << ")";
        }
        if (const char* keep = std::getenv("ROPE_KEEP_SCREENSHOTS"))
            rope::test::run_process({"/bin/cp", png, std::string(keep) + "/walk-" + GetParam().name + "-" + std::to_string(shots) + ".png"});
    }
    // Swipes the list or text that holds `target` (the window `scroller`: the controls, the lesson's
    // text) until the target is whole in view.
    void swipe_into_view(const std::string& target, const std::string& scroller = "controls_scroll") {
        for (int k = 0; k < 12; ++k) {
            const nlohmann::json w = window(scroller);
            if (w.is_null() && scroller != "controls_scroll") return;  // the whole text is in view: it does not scroll
            ASSERT_FALSE(w.is_null());
            const nlohmann::json r = rect_of(target);
            const double top = w["rect"][1].get<double>(), h = w["rect"][3].get<double>(), x = w["rect"][0].get<double>() + 12;
            const double y0 = r[1].get<double>(), y1 = y0 + r[3].get<double>();
            if (y0 >= top && y1 <= top + h) return;
            if (y1 > top + h) c->touch_drag(x, top + h * 0.7, x, top + h * 0.3, 8);  // the list up
            else c->touch_drag(x, top + h * 0.3, x, top + h * 0.7, 8);
            settle();
        }
        ADD_FAILURE() << target << " never came into view by swipes";
    }
    // The controls are on screen (a phone upright: its drawer opened by the bar's button).
    // (a phone upright, or a short screen while a lesson step has the column: a drawer, opened by the bar)
    void open_controls() {
        if (!window_shown("Controls")) tap("bar:Controls");
        ASSERT_TRUE(window_shown("Controls"));
    }
    void close_controls() {
        if (!layout()["drawer"].get<bool>()) return;
        const Device d = GetParam();
        tap_at(d.width - 8, d.height * 0.6, "outside the drawer");
        EXPECT_FALSE(layout()["drawer"].get<bool>()) << "a tap outside the drawer closes it";
        EXPECT_FALSE(window_shown("Controls"));
    }
    // Presenting: a tap shows the corner's Menu for a few seconds, and a tap on it opens its list. The
    // walk taps the Menu as soon as it is on screen; on a slow page it can still go before the finger
    // gets there (the checked page takes seconds to answer a tap), and then, as a person would, the
    // walk taps again.
    void open_presenting_menu() {
        const Device d = GetParam();
        const std::string menu_shown = "ropeExplorer.layout().targets['presenting:Menu'] !== undefined";
        for (int k = 0; k < 3; ++k) {
            if (!has_target("presenting:Menu")) {
                c->tap(d.width / 2.0, d.height / 2.0);
                if (c->wait_for(menu_shown, kWalkPatience) < 0) continue;
            }
            const nlohmann::json menu = layout()["targets"].value("presenting:Menu", nlohmann::json());
            if (menu.is_null()) continue;
            tap_at(menu[0].get<double>() + menu[2].get<double>() / 2, menu[1].get<double>() + menu[3].get<double>() / 2, "on the Menu");
            if (has_target("menu:Leave presentation")) return;
        }
        ADD_FAILURE() << "the Menu's list never opened; targets: " << layout()["targets"].dump();
    }
    std::unique_ptr<Chromium> c;
    int shots = 0;
};

}  // namespace touch_walk

using touch_walk::TouchWalk;

TEST_P(TouchWalk, EverythingByTouchAlone) {
    const touch_walk::Device d = GetParam();
    c = std::make_unique<Chromium>(d.width, d.height, path("profile"));
    c->emulate(d.width, d.height, d.dpr, true);
    c->open(touch_walk::kWalkUrl);
    settle();
    nlohmann::json l = layout();
    EXPECT_TRUE(l["touch"].get<bool>()) << "the page takes a phone's coarse pointer for touch";
    const bool narrow = l["narrow"].get<bool>();
    EXPECT_EQ(narrow, d.width < 768);
    pictures_drawn("at the start");

    // the drawer (a phone upright), opened and closed by touch
    if (narrow) {
        EXPECT_FALSE(window_shown("Controls")) << "upright, the controls wait in a drawer";
        tap("bar:Controls");
        EXPECT_TRUE(window_shown("Controls")) << layout()["windows"].dump();
        // the first tap in the drawer, just opened, reaches the control under the finger (not the
        // dimmed rest behind the drawer, which would close it)
        const double m = session()["parameters"]["position"].get<double>();
        tap("tool:m+1");
        EXPECT_EQ(session()["parameters"]["position"].get<double>(), m + 1) << "the first tap in the drawer, on m+1";
        EXPECT_TRUE(window_shown("Controls"));
        close_controls();
        c->touch_drag(3, d.height * 0.5, d.width * 0.5, d.height * 0.5, 10);  // a swipe in from the left edge
        settle();
        EXPECT_TRUE(layout()["drawer"].get<bool>()) << "a swipe from the left edge opens the drawer";
        close_controls();
    }

    // a finger drags position m: the value follows the finger to where it is let go
    open_controls();
    swipe_into_view("control:position");
    {
        const nlohmann::json r = rect_of("control:position");
        const double x0 = r[0].get<double>(), w = r[2].get<double>(), y = r[1].get<double>() + r[3].get<double>() / 2;
        c->touch_drag(x0 + w * 0.1, y, x0 + w * 0.5, y, 12);
        settle();
        const double m = session()["parameters"]["position"].get<double>(), most = session()["parameters"]["max_position"].get<double>();
        std::printf("position after the drag to the slider's middle: %.0f of %.0f\n", m, most);
        EXPECT_GT(m, most * 0.35) << "the slider follows the finger";
        EXPECT_LT(m, most * 0.65);
        no_tooltip("after the drag");
    }

    // a value typed by touch: the slider's Type button gives the page's own field the focus (a phone
    // opens its keyboard for it), the keyboard's text goes in, its Enter applies it
    tap("type:position");
    EXPECT_EQ(c->evaluate("document.activeElement && document.activeElement.id"), "typing") << "no field for the phone's keyboard";
    c->insert_text("1234");
    settle();  // (a person's Enter comes well after the text)
    c->key("Enter");
    settle();
    EXPECT_EQ(session()["parameters"]["position"], 1234) << "the value typed on the phone's keyboard";
    EXPECT_EQ(c->evaluate("document.activeElement && document.activeElement.id"), "canvas") << "the canvas has the keys again";

    // a swipe scrolls the controls
    {
        const nlohmann::json before = window("controls_scroll");
        ASSERT_FALSE(before.is_null());
        const auto& r = before["rect"];
        const double x = r[0].get<double>() + 12, top = r[1].get<double>(), h = r[3].get<double>();
        c->touch_drag(x, top + h * 0.8, x, top + h * 0.3, 10);
        settle();
        const double scrolled = window("controls_scroll")["scroll"].get<double>();
        std::printf("the controls scrolled by a swipe: %.0f -> %.0f CSS px\n", before["scroll"].get<double>(), scrolled);
        EXPECT_GT(scrolled, before["scroll"].get<double>() + 20);
        c->touch_drag(x, top + h * 0.3, x, top + h * 0.9, 10);  // and back to the top
        settle();
    }

    // llama-3.1-8b from the model list
    swipe_into_view("control:##preset");
    tap("control:##preset");
    tap("preset:llama-3.1-8b");
    EXPECT_EQ(session()["parameters"]["preset"], "llama-3.1-8b");
    close_controls();

    // every page and every panel: by the tabs, or upright by the page list and the panels' buttons
    auto page_tabs = [&] {
        std::vector<std::string> tabs;
        for (const std::string& name : target_names())
            if (name.rfind("tab:", 0) == 0 && name.find_first_not_of("0123456789–, ", 4) != std::string::npos) tabs.push_back(name);
        return tabs;
    };
    auto part_tabs = [&] {
        std::vector<std::string> tabs;
        for (const std::string& name : target_names())
            if (name.rfind("tab:", 0) == 0 && name.find_first_not_of("0123456789–, ", 4) == std::string::npos) tabs.push_back(name);
        return tabs;
    };
    std::vector<std::string> pages;
    const bool picker = has_target("control:page");  // a small screen: the page from a list
    if (picker) {
        tap("control:page");
        for (const std::string& name : target_names())
            if (name.rfind("page:", 0) == 0) pages.push_back(name);
        tap("control:page");  // closes the list
    } else {
        pages = page_tabs();
    }
    ASSERT_EQ(pages.size(), 7u);  // the app's seven pages
    std::set<int> pages_seen;
    int panels_seen = 0;
    for (std::size_t k = 0; k < pages.size(); ++k) {
        if (picker) {
            tap("control:page");
            tap(pages[k]);
        } else {
            // (a tab's label can change with the page shown: the k-th page tab, whatever it says now)
            const std::vector<std::string> now = page_tabs();
            ASSERT_EQ(now.size(), pages.size());
            tap(now[k]);
        }
        pages_seen.insert(session()["view"]["page"].get<int>());
        std::vector<std::string> parts = part_tabs();
        if (parts.empty()) parts.push_back("");
        for (const std::string& part : parts) {
            if (!part.empty()) tap(part);
            panels_seen += static_cast<int>(layout()["panels"].size());
            pictures_drawn("on page " + std::to_string(k) + " " + part);
        }
    }
    std::printf("panels seen on the %zu pages: %d\n", pages_seen.size(), panels_seen);
    EXPECT_EQ(pages_seen.size(), pages.size());
    EXPECT_GE(panels_seen, 20);

    // the heatmap: pinched (zoomed) and panned by a finger
    if (picker) {
        tap("control:page");
        tap("page:Basics");
    } else {
        for (const std::string& tab : page_tabs())
            if (tab.rfind("tab:Basics", 0) == 0) tap(tab);
    }
    if (has_target("tab:2")) tap("tab:2");  // upright, one panel at a time: the heatmap is the Basics page's second
    {
        nlohmann::json area;
        const nlohmann::json l2 = layout();
        for (const auto& p : l2["panels"])
            if (p["figure"] == "heatmap") area = p["plots"][0]["area"];
        ASSERT_FALSE(area.is_null()) << "no heatmap on screen";
        const double cx = area[0].get<double>() + area[2].get<double>() / 2, cy = area[1].get<double>() + area[3].get<double>() / 2;
        c->pinch(cx, cy, 20, 3, 8);
        settle();
        const nlohmann::json zoomed = session()["parameters"];
        std::printf("the heatmap pinched: positions %s to %s\n", zoomed["heatmap_from"].dump().c_str(), zoomed["heatmap_to"].dump().c_str());
        EXPECT_GT(zoomed["heatmap_to"].get<double>(), 0) << "a pinch over the heatmap zooms it";
        c->touch_drag(cx + area[2].get<double>() * 0.3, cy, cx - area[2].get<double>() * 0.1, cy, 10);
        settle();
        EXPECT_NE(session()["parameters"]["heatmap_from"], zoomed["heatmap_from"]) << "a finger's drag pans it";
        no_tooltip("after the pan");
        pictures_drawn("after the pinch and the pan");
    }
    if (narrow) {  // one panel at a time: a sideways swipe over its header moves to the next panel, and back
        auto shown_figure = [&] { return layout()["panels"][0]["figure"].get<std::string>(); };
        auto swipe_header = [&](double from, double to) {
            const nlohmann::json picture = layout()["panels"][0]["picture"];
            const double y = picture[1].get<double>() - 10;  // the header's line, above the picture
            c->touch_drag(d.width * from, y, d.width * to, y, 10);
            settle();
        };
        const std::string first = shown_figure();
        swipe_header(0.8, 0.2);
        const std::string next = shown_figure();
        EXPECT_NE(next, first) << "a swipe to the left over the header shows the next panel";
        swipe_header(0.2, 0.8);
        EXPECT_EQ(shown_figure(), first) << "and one to the right the previous one";
        std::printf("swiped over the header: %s -> %s -> %s\n", first.c_str(), next.c_str(), shown_figure().c_str());
    }

    // the lesson: three steps, then a question answered
    open_controls();
    swipe_into_view("tool:Lessons");
    tap("tool:Lessons");
    close_controls();
    ASSERT_GE(layout()["lesson"]["step"].get<int>(), 0);
    for (int k = 0; k < 3; ++k) {  // each tap on Next goes on: the next step, or a question's answer
        const nlohmann::json before = layout()["lesson"];
        tap("lesson:Next");
        const nlohmann::json after = layout()["lesson"];
        EXPECT_TRUE(after["step"].get<int>() == before["step"].get<int>() + 1 || (before["asking"].get<bool>() && !after["asking"].get<bool>()))
            << before << " -> " << after;
    }
    pictures_drawn("three lesson steps on");
    for (int k = 0; k < 40 && !has_target("choice:0"); ++k) tap("lesson:Next");
    ASSERT_TRUE(has_target("choice:0")) << "no question in the lesson";
    EXPECT_TRUE(layout()["lesson"]["asking"].get<bool>());
    swipe_into_view("choice:0", "lesson_text");
    tap("choice:0");
    EXPECT_EQ(layout()["lesson"]["guess"], 0);
    tap("lesson:Next");  // Reveal
    EXPECT_FALSE(layout()["lesson"]["asking"].get<bool>()) << "the answer is revealed";
    pictures_drawn("with the answer");

    // presenting, and the way back by touch
    open_controls();
    swipe_into_view("tool:Present");
    tap("tool:Present");
    EXPECT_TRUE(layout()["presenting"].get<bool>());
    EXPECT_FALSE(has_target("presenting:Menu")) << "the room sees no menu until someone taps";
    open_presenting_menu();
    tap("menu:Next step");
    open_presenting_menu();
    tap("menu:Leave presentation");
    EXPECT_FALSE(layout()["presenting"].get<bool>());
    pictures_drawn("after presenting");
    EXPECT_TRUE(c->exceptions().empty()) << c->exceptions().front();
}

INSTANTIATE_TEST_SUITE_P(Devices, TouchWalk, ::testing::ValuesIn(touch_walk::kDevices),
                         [](const ::testing::TestParamInfo<touch_walk::Device>& device) { return std::string(device.param.name); });
