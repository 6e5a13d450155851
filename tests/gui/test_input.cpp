// Input on the whole app run headless: every key acts with the modifiers it was pressed with, in
// order, none lost, however many arrive between two frames; Ctrl+Q quits after whatever came before
// it; keys typed into a dialog go to it, not to the shortcuts; nothing stays held when focus goes.
#include <GLFW/glfw3.h>
#include <gtest/gtest.h>
#include <imgui.h>
#include <stdlib.h>

#include <cstring>
#include <nlohmann/json.hpp>
#include <string>

#include "gui/app/screen_layout.hpp"
#include "gui/input/input.hpp"
#include "support/headless_app.hpp"
#include "support/temp_dir.hpp"

namespace P = rope::P;

using rope::gui::InputEvent;
using rope::test::HeadlessApp;

namespace {

class Input : public rope::test::TempDirTest {
protected:
    void SetUp() override {
        TempDirTest::SetUp();
        setenv("XDG_STATE_HOME", path("state").c_str(), 1);
    }
    static std::int64_t position(HeadlessApp& app) { return app.state().params()[P::position]; }
};

// Runs frames until the queue is empty (at most `limit`); returns how many it took.
int drain(HeadlessApp& app, int limit = 200) {
    int n = 0;
    while (!app.platform().input().empty() && !app.state().quit_requested && n < limit) {
        app.frame();
        ++n;
    }
    app.frame();
    return n;
}

}  // namespace

// xdotool sends Shift+Right as Shift down, Right down, Shift up, Right up: all of it can land
// between two frames. The old input lost Shift whenever Shift up and Right down met in one frame.
TEST_F(Input, AChordArrivingInOneFrameKeepsItsModifier) {
    HeadlessApp app({"--fresh", "--set", "position=3"});
    app.settle();
    for (int i = 0; i < 5; ++i) app.key(GLFW_KEY_RIGHT);
    app.chord(GLFW_KEY_LEFT_SHIFT, GLFW_KEY_RIGHT);
    app.chord(GLFW_KEY_RIGHT_SHIFT, GLFW_KEY_LEFT);  // -10
    app.chord(GLFW_KEY_LEFT_SHIFT, GLFW_KEY_RIGHT);  // +10
    EXPECT_EQ(drain(app), 1) << "key taps need no frames of their own";
    EXPECT_EQ(position(app), 3 + 5 + 10 - 10 + 10);
}

// Every split of the same sequence over frames gives the same result: arrival times do not matter.
TEST_F(Input, AnySplitOverFramesGivesTheSameState) {
    for (int split = 1; split <= 12; ++split) {
        HeadlessApp app({"--fresh", "--set", "position=3"});
        app.settle();
        int pushed = 0;
        auto maybe_frame = [&] {
            if (++pushed % split == 0) app.frame();
        };
        for (int i = 0; i < 5; ++i) {
            app.key(GLFW_KEY_RIGHT);
            maybe_frame();
        }
        app.platform().input().push(InputEvent::key(GLFW_KEY_LEFT_SHIFT, GLFW_PRESS, 0));
        maybe_frame();
        app.platform().input().push(InputEvent::key(GLFW_KEY_RIGHT, GLFW_PRESS, GLFW_MOD_SHIFT));
        maybe_frame();
        app.platform().input().push(InputEvent::key(GLFW_KEY_LEFT_SHIFT, GLFW_RELEASE, GLFW_MOD_SHIFT));
        maybe_frame();
        app.platform().input().push(InputEvent::key(GLFW_KEY_RIGHT, GLFW_RELEASE, 0));
        maybe_frame();
        app.key(GLFW_KEY_UP);
        maybe_frame();
        app.key(GLFW_KEY_RIGHT_BRACKET);
        drain(app);
        EXPECT_EQ(position(app), 18) << "split every " << split;
        EXPECT_EQ(app.state().params()[P::pair], 1) << "split every " << split;
        EXPECT_NEAR(app.state().params()[P::base], 10000 * std::pow(10.0, 0.1), 1e-6) << "split every " << split;
    }
}

// Ctrl+Q after a burst of keys: every key before it counts, then the app quits.
TEST_F(Input, CtrlQQuitsAfterEverythingBeforeIt) {
    HeadlessApp app({"--fresh"});
    app.settle();
    for (int i = 0; i < 30; ++i) app.key(GLFW_KEY_RIGHT);
    app.chord(GLFW_KEY_LEFT_CONTROL, GLFW_KEY_Q);  // xdotool's order: Ctrl goes up before Q
    app.key(GLFW_KEY_RIGHT);                       // after Ctrl+Q: not taken
    app.frame();
    EXPECT_TRUE(app.state().quit_requested);
    EXPECT_EQ(position(app), 30);
    // and while a text field has the keyboard
    HeadlessApp typing({"--fresh"});
    typing.settle();
    typing.chord(GLFW_KEY_LEFT_CONTROL, GLFW_KEY_S);
    typing.settle();
    ASSERT_TRUE(typing.app().session_dialog().is_open());
    typing.chord(GLFW_KEY_LEFT_CONTROL, GLFW_KEY_A);
    typing.type("abc");
    typing.chord(GLFW_KEY_LEFT_CONTROL, GLFW_KEY_Q);
    EXPECT_LT(drain(typing), 20);  // keys are paced for the text field: a few frames, not many
    EXPECT_TRUE(typing.state().quit_requested);
    EXPECT_STREQ(typing.app().session_dialog().path(), "abc");  // typed before Ctrl+Q: not lost
}

// Keys typed into a dialog go to its text field, every one, in order; none acts as a shortcut.
TEST_F(Input, TypingInADialogGoesToItsField) {
    HeadlessApp app({"--fresh"});
    app.settle();
    app.chord(GLFW_KEY_LEFT_CONTROL, GLFW_KEY_S);
    app.chord(GLFW_KEY_LEFT_CONTROL, GLFW_KEY_A);  // in the same frame as Ctrl+S: it waits for the dialog
    app.type("/tmp/Presentation-Keys-12.json");  // P, K and digits are shortcuts outside a text field
    drain(app);
    app.settle();
    ASSERT_TRUE(app.app().session_dialog().is_open());
    EXPECT_STREQ(app.app().session_dialog().path(), "/tmp/Presentation-Keys-12.json");
    EXPECT_FALSE(app.state().presentation);
    EXPECT_EQ(app.state().maximized, -1);
    app.key(GLFW_KEY_ESCAPE);
    app.settle();
    EXPECT_FALSE(app.app().session_dialog().is_open());
    app.key(GLFW_KEY_P);  // outside the dialog, P is presentation mode again
    app.settle();
    EXPECT_TRUE(app.state().presentation);
}

// A key held when the window loses the focus does not stay held.
TEST_F(Input, NothingStaysHeldWhenTheFocusGoes) {
    HeadlessApp app({"--fresh"});
    app.settle();
    app.platform().input().push(InputEvent::key(GLFW_KEY_LEFT_CONTROL, GLFW_PRESS, 0));
    app.platform().input().push(InputEvent::button(0, GLFW_PRESS, GLFW_MOD_CONTROL));
    app.platform().input().push(InputEvent::focus(false));
    drain(app);
    EXPECT_FALSE(ImGui::GetIO().KeyCtrl);
    EXPECT_FALSE(ImGui::GetIO().MouseDown[0]);
    app.platform().input().push(InputEvent::focus(true));
    app.key(GLFW_KEY_RIGHT);  // Ctrl's release never came: Right is still a plain step
    drain(app);
    EXPECT_EQ(position(app), 1);
}

// The pacing rules on their own: a click gets a frame of its own; while a text field has the
// keyboard, a key changes once a frame and a modifier waits for the key pressed before it.
TEST(FrameBatch, PacesWhatImGuiMustSee) {
    using rope::gui::FrameBatch;
    {
        FrameBatch b(false);
        EXPECT_TRUE(b.admit(InputEvent::key(GLFW_KEY_RIGHT, GLFW_PRESS, 0)));
        EXPECT_TRUE(b.admit(InputEvent::key(GLFW_KEY_RIGHT, GLFW_RELEASE, 0)));
        EXPECT_TRUE(b.admit(InputEvent::key(GLFW_KEY_RIGHT, GLFW_PRESS, 0)));
        EXPECT_TRUE(b.admit(InputEvent::key(GLFW_KEY_LEFT_CONTROL, GLFW_PRESS, 0)));
        EXPECT_TRUE(b.admit(InputEvent::button(0, GLFW_PRESS, GLFW_MOD_CONTROL)));  // Ctrl+click: Ctrl is down
        EXPECT_FALSE(b.admit(InputEvent::key(GLFW_KEY_LEFT_CONTROL, GLFW_RELEASE, GLFW_MOD_CONTROL)));
    }
    {
        FrameBatch b(true);
        EXPECT_TRUE(b.admit(InputEvent::key(GLFW_KEY_LEFT_SHIFT, GLFW_PRESS, 0)));
        EXPECT_TRUE(b.admit(InputEvent::key(GLFW_KEY_A, GLFW_PRESS, GLFW_MOD_SHIFT)));
        EXPECT_TRUE(b.admit(InputEvent::character('A')));
        EXPECT_FALSE(b.admit(InputEvent::key(GLFW_KEY_LEFT_SHIFT, GLFW_RELEASE, GLFW_MOD_SHIFT)));
    }
    {
        FrameBatch b(true);
        EXPECT_TRUE(b.admit(InputEvent::key(GLFW_KEY_BACKSPACE, GLFW_PRESS, 0)));
        EXPECT_FALSE(b.admit(InputEvent::key(GLFW_KEY_BACKSPACE, GLFW_RELEASE, 0)));
    }
    {  // a quick drag's end: the moves in this frame with the button down, the release in the next
        FrameBatch b(false);
        EXPECT_TRUE(b.admit(InputEvent::move(100, 100)));
        EXPECT_TRUE(b.admit(InputEvent::move(140, 120)));
        EXPECT_FALSE(b.admit(InputEvent::button(0, GLFW_RELEASE, 0)));
        FrameBatch next(false);
        EXPECT_TRUE(next.admit(InputEvent::button(0, GLFW_RELEASE, 0)));
    }
}

// A tap on a slider's Type button (a touch screen's way to type a value) makes a text field take the
// keys a frame or two later. The app runs frames only while it wants them, as the page's loop does;
// when it stops, io.WantTextInput (what tells the page to give a phone's keyboard its field) must
// already say so. It did not when the click came a frame late: the field was active, the app asleep,
// the page never told, and the phone's keyboard typed into nothing.
TEST_F(Input, ATextFieldThatTookTheKeysIsKnownBeforeTheAppSleeps) {
    HeadlessApp app({"--fresh"});
    app.state().touch = true;
    ASSERT_TRUE(app.settle());
    const nlohmann::json targets = nlohmann::json::parse(rope::gui::layout_report(app.app(), 1))["targets"];
    ASSERT_TRUE(targets.contains("type:position")) << targets.dump();
    const nlohmann::json r = targets["type:position"];
    const float x = r[0].get<float>() + r[2].get<float>() / 2, y = r[1].get<float>() + r[3].get<float>() / 2;
    // the click's release in a frame of its own after the press, then the pointer gone (a finger lifted)
    app.move(x, y);
    app.platform().input().push(InputEvent::button(0, GLFW_PRESS, 0));
    app.frame();
    app.platform().input().push(InputEvent::button(0, GLFW_RELEASE, 0));
    app.platform().input().push(InputEvent::pointer_gone());
    int frames = 0;
    for (; frames < 100 && (app.app().wants_frame() || app.app().working()); ++frames) app.frame();
    ASSERT_LT(frames, 100);
    EXPECT_TRUE(ImGui::GetIO().WantTextInput) << "the app slept with a field taking the keys that the page was never told of";
    app.type("77");
    app.key(GLFW_KEY_ENTER);
    drain(app);
    EXPECT_EQ(position(app), 77);
}

// Presenting on a touch screen, a tap shows the corner's Menu for a few seconds (the room sees only
// that). When they are up the app draws a frame without it by itself: it used to stay on screen until
// the next input, however long nobody touched the screen.
TEST_F(Input, ThePresentingMenuLeavesTheScreenWhenItsTimeIsUp) {
    HeadlessApp app({"--fresh"}, 844, 390);
    app.state().touch = true;
    app.state().presentation = true;
    ASSERT_TRUE(app.settle());
    auto menu_shown = [&] { return nlohmann::json::parse(rope::gui::layout_report(app.app(), 1))["targets"].contains("presenting:Menu"); };
    EXPECT_FALSE(menu_shown()) << "the room sees no menu until someone taps";
    EXPECT_EQ(app.app().wake_after(), -1);
    app.click(422, 195);
    ASSERT_TRUE(app.settle());
    ASSERT_TRUE(menu_shown());
    // the driver sleeps until the app asks to wake, then draws a frame
    const double wake = app.app().wake_after();
    EXPECT_GT(wake, 0) << "the app would sleep with the Menu on screen until the next input";
    EXPECT_LE(wake, 4.1);
    app.platform().advance(wake);
    app.frame();
    ASSERT_TRUE(app.settle());
    EXPECT_FALSE(menu_shown()) << "the Menu's time is up";
    EXPECT_EQ(app.app().wake_after(), -1) << "and the app sleeps";
    // the Menu's list open stays open, and the app sleeps meanwhile
    app.click(422, 195);
    ASSERT_TRUE(app.settle());
    const nlohmann::json menu = nlohmann::json::parse(rope::gui::layout_report(app.app(), 1))["targets"]["presenting:Menu"];
    ASSERT_TRUE(menu.is_array());
    app.click(menu[0].get<float>() + menu[2].get<float>() / 2, menu[1].get<float>() + menu[3].get<float>() / 2);
    ASSERT_TRUE(app.settle());
    EXPECT_TRUE(nlohmann::json::parse(rope::gui::layout_report(app.app(), 1))["targets"].contains("menu:Leave presentation"));
    EXPECT_EQ(app.app().wake_after(), -1) << "an open list wakes nothing";
    // a finger on the Menu keeps it past its seconds (a slow page's tap can take them between the
    // touch and the lift)
    app.click(422, 195);  // the list closed by a tap elsewhere
    ASSERT_TRUE(app.settle());
    EXPECT_FALSE(nlohmann::json::parse(rope::gui::layout_report(app.app(), 1))["targets"].contains("menu:Leave presentation"));
    app.move(menu[0].get<float>() + 4, menu[1].get<float>() + 4);
    ASSERT_TRUE(app.settle());
    app.platform().advance(6);
    app.move(menu[0].get<float>() + 5, menu[1].get<float>() + 4);
    ASSERT_TRUE(app.settle());
    EXPECT_TRUE(menu_shown()) << "the Menu went from under a finger resting on it";
}
