// Session files and the lesson data: validated like --set, never modified, round trips exactly.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "lessons/lessons.hpp"
#include "figures/registry.hpp"
#include "rope/number_parse.hpp"
#include "plot/style.hpp"
#include "session/page_address.hpp"
#include "session/session.hpp"
#include "support/process.hpp"

using namespace rope;

namespace {

std::string temp_file(const std::string& name, const std::string& content) {
    const std::string path = "/tmp/rope-session-test-" + std::to_string(::getpid()) + "-" + name;
    std::ofstream(path, std::ios::binary) << content;
    return path;
}


}  // namespace

TEST(Sessions, RoundTripKeepsEveryParameterAndTheView) {
    session::Session s;
    s.params.set(P::base, "500000");
    s.params.set(P::dim, "8");
    s.params.set(P::vector, "1,2,3,4,5,6,7,8.5");
    s.params.set(P::scaling, "yarn");
    s.params.set(P::factor, "4");
    s.params.set(P::attention_factor, "1.25");
    s.params.set(P::truncate, "false");
    s.view.maximized = 7;  // the precision panel, on the third page
    s.view.page = 2;
    s.params.set(P::compare, "yarn,linear");
    s.params.set(P::compare_to, "deepseek-v3");
    s.view.theme = "light";
    s.view.presentation = true;
    s.view.lesson_step = 3;
    s.view.speed = 250;
    const std::string path = temp_file("round.json", "");
    session::save_session(path, s);
    const session::Session back = session::load_session(path);
    EXPECT_TRUE(back.params == s.params);
    EXPECT_EQ(back.view.maximized, 7);
    EXPECT_EQ(back.view.page, 2);
    EXPECT_EQ(back.params.value_text(P::compare), "linear,yarn");
    EXPECT_EQ(back.view.theme, "light");
    EXPECT_TRUE(back.view.presentation);
    EXPECT_EQ(back.view.lesson_step, 3);
    EXPECT_EQ(back.view.speed, 250);
    EXPECT_NE(rope::test::read_file(path).find("\"base\": 500000"), std::string::npos);
    std::remove(path.c_str());
}

// The third theme and less motion (issue 63) come back from a file, and a wrong value is refused in
// one line that names the file, the key, the value and what is allowed.
TEST(Sessions, HighContrastAndReducedMotionRoundTrip) {
    session::Session s;
    s.view.theme = "high_contrast";
    s.view.reduced_motion = true;
    const std::string path = temp_file("motion.json", "");
    session::save_session(path, s);
    const session::Session back = session::load_session(path);
    EXPECT_EQ(back.view.theme, "high_contrast");
    EXPECT_TRUE(back.view.reduced_motion);
    EXPECT_FALSE(session::parse_session_json(R"({"parameters": {}})", "t").view.reduced_motion) << "off unless asked";
    std::remove(path.c_str());
    const std::pair<const char*, const char*> refused[] = {
        {R"({"parameters": {}, "view": {"reduced_motion": "yes"}})", "view.reduced_motion is \"yes\"; it must be true or false"},
        {R"({"parameters": {}, "view": {"theme": "sepia"}})", "view.theme is \"sepia\"; it must be dark, light or high_contrast"},
    };
    for (const auto& [text, message] : refused) {
        try {
            session::parse_session_json(text, "bad.json");
            ADD_FAILURE() << text << " was accepted";
        } catch (const session::SessionError& e) {
            EXPECT_NE(std::string(e.what()).find("bad.json"), std::string::npos) << e.what();
            EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
        }
    }
}

// theme= in the page's address takes every theme's name and writes the one shown; another word is
// refused naming the key, the value and the names.
TEST(Sessions, PageAddressTakesEveryTheme) {
    for (const plot::ThemeName& theme : plot::kThemeNames) {
        const session::PageAddress a = session::parse_page_address(std::string("theme=") + theme.name);
        EXPECT_TRUE(a.errors.empty()) << theme.name;
        EXPECT_EQ(a.theme.value_or(""), theme.name);
    }
    session::ViewState view;
    view.theme = "high_contrast";
    EXPECT_NE(session::page_address_of(ParamSet(), view).find("theme=high_contrast"), std::string::npos);
    const session::PageAddress bad = session::parse_page_address("theme=sepia");
    ASSERT_EQ(bad.errors.size(), 1u);
    EXPECT_EQ(bad.errors[0], "theme=sepia in the page's address: dark, light or high_contrast");
}

TEST(Sessions, UnknownKeysOutsideParametersAreIgnored) {
    const session::Session s = session::parse_session_json(
        R"({"parameters": {"dim": 64, "base": "20000"}, "comment": "hello", "view": {"theme": "light", "future": 1}})", "t");
    EXPECT_EQ(s.params[P::dim], 64);
    EXPECT_EQ(s.params[P::base], 20000);
    EXPECT_EQ(s.view.theme, "light");
}

TEST(Sessions, BadFilesAreOneLineNamingTheFileAndAreNeverModified) {
    // one past the registry's last panel and page
    const std::string past_panel = std::to_string(figures::figure_count()), past_page = std::to_string(figures::pages().size());
    const std::vector<std::pair<std::string, std::string>> bad = {
        {"truncated.json", R"({"parameters": {"dim": 64, "base": 10)"},
        {"not-json.json", "this is not json"},
        {"empty.json", ""},
        {"array.json", "[1, 2, 3]"},
        {"no-params.json", R"({"view": {}})"},
        {"wrong-type.json", R"({"parameters": {"dim": [1, 2]}})"},
        {"bool-dim.json", R"({"parameters": {"dim": true}})"},
        {"odd-dim.json", R"({"parameters": {"dim": 7}})"},
        {"range.json", R"({"parameters": {"base": 0.5}})"},
        {"unknown-key.json", R"({"parameters": {"colour": "red"}})"},
        {"vector-length.json", R"({"parameters": {"dim": 4, "vector": "1,2,3"}})"},
        {"bad-view.json", R"({"parameters": {}, "view": {"maximized": )" + past_panel + "}}"},
        {"bad-page.json", R"({"parameters": {}, "view": {"page": )" + past_page + "}}"},
        {"bad-compare.json", R"({"parameters": {"compare": "yarn,rope9"}})"},
        {"bad-speed.json", R"({"parameters": {}, "view": {"speed": -1}})"},
        {"nan.json", R"({"parameters": {"base": "nan"}})"},
    };
    for (const auto& [name, content] : bad) {
        const std::string path = temp_file(name, content);
        try {
            session::load_session(path);
            ADD_FAILURE() << name << " was accepted";
        } catch (const session::SessionError& e) {
            const std::string msg = e.what();
            EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
            EXPECT_NE(msg.find(path), std::string::npos) << msg;
        }
        EXPECT_EQ(rope::test::read_file(path), content) << name;
        std::remove(path.c_str());
    }
    EXPECT_THROW(session::load_session("/nonexistent/rope.json"), session::SessionError);
    // the last panel and page are fine
    const std::string last = temp_file("last.json", R"({"parameters": {}, "view": {"maximized": )" +
                                                        std::to_string(figures::figure_count() - 1) + "}}");
    EXPECT_EQ(session::load_session(last).view.maximized, figures::figure_count() - 1);
    std::remove(last.c_str());
}

TEST(Sessions, LastSessionFollowsXdgStateHome) {
    setenv("XDG_STATE_HOME", "/tmp/xdg-state-test", 1);
    EXPECT_EQ(session::last_session_path(), "/tmp/xdg-state-test/rope-explorer/last-session.json");
    unsetenv("XDG_STATE_HOME");
    setenv("HOME", "/home/someone", 1);
    EXPECT_EQ(session::last_session_path(), "/home/someone/.local/state/rope-explorer/last-session.json");
}

TEST(Lessons, EveryStepSetsValidKeysAndValues) {
    const lessons::Lesson& lesson = lessons::builtin_lesson();  // parse_lesson validates each step
    ASSERT_GE(lesson.steps.size(), 9u);
    for (const lessons::Step& step : lesson.steps) {
        EXPECT_FALSE(step.title.empty());
        EXPECT_GT(step.text.size(), 100u) << step.title;  // a few sentences
        const ParamSet p = lessons::step_parameters(step);
        EXPECT_NO_THROW(p.validate()) << step.title;
        // each value the step's JSON gives is the value the step shows
        const nlohmann::json given = nlohmann::json::parse(step.parameters_json);
        for (const auto& [key, value] : given.items()) {
            const ParamSpec* spec = find_param(key);
            ASSERT_NE(spec, nullptr) << step.title << ": " << key;
            const std::string shown = p.value_text(spec->id);
            if (value.is_number()) {
                EXPECT_EQ(parse_number(shown), value.get<double>()) << step.title << ": " << key;
            } else {
                EXPECT_EQ(shown, value.is_string() ? value.get<std::string>() : value.dump()) << step.title << ": " << key;
            }
        }
    }
}

TEST(Lessons, TheTourFollowsTheOrderOfIdeas) {
    const auto& steps = lessons::builtin_lesson().steps;
    // rotation and n - m first, then pairs, heatmap, decay, base, then context extension
    auto index_of = [&](const std::string& word) {
        for (std::size_t i = 0; i < steps.size(); ++i)
            if (steps[i].title.find(word) != std::string::npos) return static_cast<int>(i);
        return -1;
    };
    const int rotation = index_of("rotation"), relative = index_of("n - m"), pairs = index_of("pairs"),
              heatmap = index_of("heatmap"), decay = index_of("decay"), base = index_of("base"),
              linear = index_of("linear"), ntk = index_of("NTK"), yarn = index_of("YaRN"), llama = index_of("Llama 3");
    for (int i : {rotation, relative, pairs, heatmap, decay, base, linear, ntk, yarn, llama}) EXPECT_GE(i, 0);
    EXPECT_LT(rotation, relative);
    EXPECT_LT(relative, pairs);
    EXPECT_LT(pairs, heatmap);
    EXPECT_LT(heatmap, decay);
    EXPECT_LT(decay, base);
    EXPECT_LT(base, linear);
    EXPECT_LT(linear, ntk);
    EXPECT_LT(ntk, yarn);
    EXPECT_LT(yarn, llama);
}

TEST(Lessons, ABadStepIsRefused) {
    EXPECT_THROW(lessons::parse_lesson(R"({"steps": [{"title": "x", "text": "y", "panel": "vectors", "parameters": {"dim": 3}}]})", "t"),
                 session::SessionError);
    EXPECT_THROW(lessons::parse_lesson(R"({"steps": [{"title": "x", "text": "y", "panel": "nowhere", "parameters": {}}]})", "t"),
                 session::SessionError);
}
