// Lesson words that are true at every size and in every theme (issue 28). Each step is shown as a
// class sees it, at 1024x768, 1280x720 and 1920x1080, in the dark, light and high-contrast themes and
// in presentation mode, and its text is held to what its panel draws there:
//  - a colour word generated for a named series ({colour:NAME}) is the word for that series' colour
//    in the theme, and the panel draws that colour;
//  - a colour word written into the text covers some colour the panel draws (else it is false in
//    that theme: "the orange arrow" drawn yellow);
//  - a plot named by its caption's words ({plot:NAME}) has those words in a caption drawn;
// where the panel shows fewer plots than the text speaks of and says so, with the panel maximised.
// And, whatever is drawn: no colour word is written into lessons.json (true in one theme at most),
// and no step places a plot by where it sits ("left", "below"): the layout puts a panel's plots side
// by side or stacked by the window's size.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <ostream>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "gui/app/app_state.hpp"
#include "lessons/lessons.hpp"
#include "plot/colormap.hpp"
#include "plot/colour_words.hpp"
#include "support/headless_app.hpp"
#include "support/temp_dir.hpp"

using namespace rope;
using rope::test::HeadlessApp;

namespace {

// How a class sees the lesson: a window size, a theme, presentation mode (which draws high contrast).
struct View {
    float width, height;
    plot::ThemeId theme;
    bool presentation;
    std::string name;  // "1024x768_dark"
};

void PrintTo(const View& view, std::ostream* out) { *out << view.name; }

std::vector<View> views() {
    std::vector<View> out;
    for (const auto& [w, h] : {std::pair{1024, 768}, std::pair{1280, 720}, std::pair{1920, 1080}}) {
        const std::string size = std::to_string(w) + "x" + std::to_string(h);
        const auto fw = static_cast<float>(w), fh = static_cast<float>(h);
        out.push_back({fw, fh, plot::ThemeId::dark, false, size + "_dark"});
        out.push_back({fw, fh, plot::ThemeId::light, false, size + "_light"});
        out.push_back({fw, fh, plot::ThemeId::high_contrast, false, size + "_high_contrast"});
        out.push_back({fw, fh, plot::ThemeId::dark, true, size + "_presentation"});
    }
    return out;
}

std::string hex(plot::Color c) {
    char s[8];
    std::snprintf(s, sizeof s, "#%02X%02X%02X", static_cast<int>(std::lround(c.r * 255)), static_cast<int>(std::lround(c.g * 255)),
                  static_cast<int>(std::lround(c.b * 255)));
    return s;
}

// The opaque colours a picture draws (lines, fills, text, and each heatmap cell through its
// colormap and fade), once each; see-through ones (grid lines, bands) are not what a word names.
std::vector<plot::Color> drawn_colours(const plot::DisplayList& list) {
    std::set<std::string> seen;
    std::vector<plot::Color> out;
    auto see = [&](plot::Color c) {
        if (c.a >= 0.5f && seen.insert(hex(c)).second) out.push_back(c);
    };
    for (const plot::Command& command : list.commands) {
        if (const auto* l = std::get_if<plot::PolylineCmd>(&command)) see(l->color);
        else if (const auto* p = std::get_if<plot::PolygonCmd>(&command)) see(p->fill);
        else if (const auto* r = std::get_if<plot::RectCmd>(&command)) see(r->fill), see(r->stroke);
        else if (const auto* circle = std::get_if<plot::CircleCmd>(&command)) see(circle->fill), see(circle->stroke);
        else if (const auto* t = std::get_if<plot::TextCmd>(&command)) see(t->color);
        else if (const auto* image = std::get_if<plot::ImageCmd>(&command))
            for (std::size_t i = 0; i < image->values.size(); ++i) {
                const plot::Color c = plot::colormap_color(
                    image->colormap, plot::colormap_position(image->colormap, image->values[i], image->vmin, image->vmax));
                see(image->weights.empty() ? c : plot::faded(c, image->weights[i]));
            }
    }
    return out;
}

// Distance in OKLab: below 0.02 two colours look alike.
double distance(plot::Color a, plot::Color b) {
    const plot::Lch x = plot::to_lch(a), y = plot::to_lch(b);
    const double ax = x.chroma * std::cos(x.hue * M_PI / 180), bx = x.chroma * std::sin(x.hue * M_PI / 180);
    const double ay = y.chroma * std::cos(y.hue * M_PI / 180), by = y.chroma * std::sin(y.hue * M_PI / 180);
    return std::sqrt((x.lightness - y.lightness) * (x.lightness - y.lightness) + (ax - ay) * (ax - ay) + (bx - by) * (bx - by));
}

// A step's text as written, without its placeholders: what no theme or layout chooses.
std::string written_words(const std::string& text) {
    std::string out;
    bool inside = false;
    for (char c : text) {
        if (c == '{') inside = true;
        if (!inside) out += c;
        if (c == '}') inside = false;
    }
    return out;
}

// The lower-case words of a text (runs of ASCII letters).
std::vector<std::string> words_of(const std::string& text) {
    std::vector<std::string> out(1);
    for (char c : text) {
        if (std::isalpha(static_cast<unsigned char>(c))) out.back() += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        else if (!out.back().empty()) out.emplace_back();
    }
    if (out.back().empty()) out.pop_back();
    return out;
}

std::string named(int step) { return "step " + std::to_string(step + 1); }

// What a panel draws: its opaque colours and its texts.
struct PanelDrawing {
    std::vector<plot::Color> colours;
    std::vector<std::string> texts;
    std::string palette() const {
        std::string out;
        for (const plot::Color& c : colours) out += " " + std::string(plot::colour_word(c)) + " " + hex(c) + ",";
        return out;
    }
};

// The panel's picture as shown; false if the panel is not shown.
bool drawing_of(HeadlessApp& app, int panel, PanelDrawing& out) {
    for (const HeadlessApp::Picture& p : app.pictures()) {
        if (p.panel != panel) continue;
        out.colours = drawn_colours(p.list);
        out.texts.clear();
        for (const plot::Command& command : p.list.commands)
            if (const auto* t = std::get_if<plot::TextCmd>(&command)) out.texts.push_back(t->text);
        return true;
    }
    return false;
}

// What the step's text says that the drawing does not show: each colour word (generated for a
// named series: that series' colour, drawn; written: some colour drawn that it covers) and each
// plot named by its caption's words.
std::vector<std::string> untrue_words(const lessons::Step& step, const lessons::DisplayedText& shown, const PanelDrawing& drawing) {
    std::vector<std::string> out;
    for (const lessons::ColourMention& m : shown.colours) {
        bool drawn = false;
        for (const plot::Color& c : drawing.colours) drawn = drawn || distance(c, m.drawn) < 0.02;
        if (!plot::word_covers(m.word, m.drawn)) out.push_back("\"" + m.word + "\" for " + std::string(m.colour->name) + " " + hex(m.drawn));
        if (!drawn)
            out.push_back("says \"" + m.word + "\" for " + std::string(m.colour->name) + " (" + hex(m.drawn) +
                          "), a colour its panel does not draw; it draws:" + drawing.palette());
    }
    for (const std::string& w : words_of(written_words(step.text))) {
        if (!plot::is_colour_term(w)) continue;
        bool covered = false;
        for (const plot::Color& c : drawing.colours) covered = covered || plot::word_covers(w, c);
        if (!covered) out.push_back("says \"" + w + "\", but its panel draws nothing " + w + "; it draws:" + drawing.palette());
    }
    for (const lessons::PlotMention& m : shown.plots) {
        bool drawn = false;
        for (const std::string& t : drawing.texts) drawn = drawn || t.find(m.words) != std::string::npos;
        if (!drawn) out.push_back("names " + std::string(m.plot->name) + " \"" + m.words + "\", a caption its panel does not draw");
    }
    return out;
}

class StepsSayWhatTheirPanelDraws : public rope::test::TempDirTest, public ::testing::WithParamInterface<View> {
protected:
    void SetUp() override {
        TempDirTest::SetUp();
        setenv("XDG_STATE_HOME", path("state").c_str(), 1);
    }
};

}  // namespace

TEST_P(StepsSayWhatTheirPanelDraws, EveryStep) {
    const View& view = GetParam();
    HeadlessApp app({"--fresh"}, view.width, view.height);
    app.state().theme = view.theme;
    app.state().presentation = view.presentation;
    const plot::Theme theme = plot::theme_by_id(gui::effective_theme(app.state()));
    const auto& steps = lessons::builtin_lesson().steps;
    for (int n = 0; n < static_cast<int>(steps.size()); ++n) {
        const lessons::Step& step = steps[static_cast<std::size_t>(n)];
        const std::string where = view.name + " " + named(n);
        app.state().go_to_lesson_step(n, false);  // answered: the text is shown with the step's picture
        ASSERT_TRUE(app.settle()) << where;
        PanelDrawing drawing;
        ASSERT_TRUE(drawing_of(app, step.panel->index, drawing)) << where << ": its panel " << step.panel->name << " is not shown";
        const lessons::DisplayedText shown = lessons::displayed_text(step, theme);
        std::vector<std::string> untrue = untrue_words(step, shown, drawing);
        if (!untrue.empty()) {
            // A panel in the grid may show fewer plots and say so ("1 of 4 plots: maximise (3)"): the
            // words must hold where the class is sent to see the rest.
            app.state().maximized = step.panel->index;
            ASSERT_TRUE(app.settle()) << where;
            ASSERT_TRUE(drawing_of(app, step.panel->index, drawing)) << where;
            untrue = untrue_words(step, shown, drawing);
            app.state().maximized = -1;
        }
        for (const std::string& u : untrue) ADD_FAILURE() << where << ": " << u;
    }
}

INSTANTIATE_TEST_SUITE_P(Views, StepsSayWhatTheirPanelDraws, ::testing::ValuesIn(views()),
                         [](const ::testing::TestParamInfo<View>& param) { return param.param.name; });

// Colours differ by theme: a colour word written into lessons.json is true in one theme at most.
TEST(LessonWords, ColourWordsAreGeneratedFromTheTheme) {
    const auto& steps = lessons::builtin_lesson().steps;
    for (std::size_t n = 0; n < steps.size(); ++n)
        for (const std::string& w : words_of(written_words(steps[n].text)))
            EXPECT_FALSE(plot::is_colour_term(w)) << named(static_cast<int>(n)) << " writes \"" << w
                                                  << "\": name the series ({colour:NAME}) so that the word is the drawn colour's";
}

// Plots sit side by side or stacked by the window's size: a step names them by their captions.
// The place words also have other senses, which a step may use.
TEST(LessonWords, NoStepPlacesAPlotByWhereItSits) {
    const std::set<std::string> places{"left", "right", "top", "bottom", "above", "below", "beside", "upper", "lower"};
    const std::vector<std::string> no_place{"below zero", "left alone", "decade below", "decade above"};
    const auto& steps = lessons::builtin_lesson().steps;
    for (std::size_t n = 0; n < steps.size(); ++n) {
        std::string text;
        for (const std::string& w : words_of(lessons::displayed_text(steps[n], plot::dark_theme()).text)) text += w + " ";
        for (const std::string& phrase : no_place)
            for (std::size_t at = text.find(phrase); at != std::string::npos; at = text.find(phrase)) text.erase(at, phrase.size());
        for (const std::string& w : words_of(text))
            EXPECT_EQ(places.count(w), 0u) << named(static_cast<int>(n)) << " says \"" << w
                                           << "\": name the plot by its caption ({plot:NAME}) instead";
    }
}

// The namer's words hold for the colours the themes are made of, and placeholders are checked when
// a lesson is read.
TEST(LessonWords, ColoursAreNamedByHueAndLightness) {
    EXPECT_EQ(plot::colour_word(plot::dark_theme().accent), "yellow");
    EXPECT_EQ(plot::colour_word(plot::high_contrast_theme().accent), "yellow");
    EXPECT_EQ(plot::colour_word(plot::light_theme().accent), "orange");
    EXPECT_EQ(plot::colour_word(plot::dark_theme().series[0]), "blue");
    EXPECT_EQ(plot::colour_word(plot::Color{0.05f, 0.05f, 0.05f, 1}), "black");
    EXPECT_EQ(plot::colour_word(plot::fade_color()), "grey");
    EXPECT_EQ(plot::colour_word(plot::Color{1, 0, 0, 1}), "red");
    EXPECT_EQ(plot::colour_word(plot::Color{0, 0.6f, 0, 1}), "green");
    for (const char* bad : {R"({"steps": [{"title": "t", "text": "the {colour:sweep_lowest_base} arrow", "panel": "vectors", "parameters": {}}]})",
                            R"({"steps": [{"title": "t", "text": "the {plot:fan} plot", "panel": "sweep", "parameters": {}}]})",
                            R"({"steps": [{"title": "t", "text": "the {color:turned_vector} arrow", "panel": "vectors", "parameters": {}}]})"})
        EXPECT_THROW(lessons::parse_lesson(bad, "bad.json"), session::SessionError) << bad;
}

namespace {

// The texts a figure draws, one a line, in presentation mode's style in a panel `width` x `height`.
std::string presented_text(const char* figure, const std::vector<std::pair<std::string, std::string>>& sets, float width = 600,
                           float height = 700) {
    ParamSet params;
    for (const auto& [key, value] : sets) params.set(key, value);
    params.validate();
    figures::FigureCache cache;
    figures::FigureRequest r;
    r.figure = figures::find_figure(figure);
    r.width = width;
    r.height = height;
    r.style = plot::screen_style(plot::ThemeId::high_contrast, 1.375f, true);
    std::string all;
    for (const plot::Command& c : figures::build_figure(r, params, cache).list.commands)
        if (const auto* t = std::get_if<plot::TextCmd>(&c)) all += t->text + "\n";
    return all;
}

}  // namespace

// A panel that draws what the model does not use says so, also in presentation mode, where long
// captions give way to the plots: the partial/proportional layouts drawn at f = 0.25 for a model that
// rotates its whole head, M-RoPE's ids for a model without M-RoPE; and no "…" hides a single token.
TEST(LessonWords, PanelsSayWhenTheyDrawWhatTheModelDoesNotUse) {
    // the caption when it fits (its lines joined again), else the note
    auto joined = [](std::string text) {
        for (char& c : text) c = c == '\n' ? ' ' : c;
        return text;
    };
    for (const auto& [w, h] : {std::pair{600.f, 700.f}, std::pair{1000.f, 560.f}, std::pair{1800.f, 950.f}}) {
        const std::string llama = joined(presented_text("partial_vs_proportional", {{"preset", "llama-3-8b"}}, w, h));
        EXPECT_TRUE(llama.find("Drawn for f = 0.25 (Gemma 4's), not this model's f = 1") != std::string::npos ||
                    llama.find("rotary_fraction = 1 rotates the whole head in both layouts; shown for f = 0.25") != std::string::npos)
            << w << "x" << h;
        EXPECT_EQ(presented_text("partial_vs_proportional", {{"dim", "512"}, {"rotary_fraction", "0.25"}}, w, h).find("not this model's"),
                  std::string::npos);
    }
    for (const char* preset : {"pixtral-12b-vision", "rope-vit-deit-b"})
        EXPECT_NE(presented_text("position_ids", {{"preset", preset}}).find("does not use M-RoPE"), std::string::npos) << preset;
    const std::string qwen = presented_text("position_ids", {{"preset", "qwen2.5-vl-7b"}, {"text_before", "3"}, {"grid_rows", "2"},
                                                             {"grid_cols", "3"}, {"text_after", "2"}});
    EXPECT_EQ(qwen.find("does not use M-RoPE"), std::string::npos);
    EXPECT_NE(qwen.find("\n0\n"), std::string::npos) << "text token 0 is not shown";
}
