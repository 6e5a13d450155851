// Composition, read from the display lists: every lesson step in presentation and normal mode at the
// projector and laptop sizes people meet it at, and every figure exported at the sizes blogs use,
// hold the rule in support/composition_rule.hpp (focus plots drawn, no plot under its minimum, no
// text cut with "…", no empty block of 12% or more, no interaction hint in a clean export, tick
// labels legible in a 700-px blog column).
#include <GLFW/glfw3.h>
#include <gtest/gtest.h>

#include "support/synthetic_model.hpp"
#include <stdlib.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "export/cairo_canvas.hpp"
#include "export/export.hpp"
#include "figures/registry.hpp"
#include "lessons/lessons.hpp"
#include "support/composition_rule.hpp"
#include "support/headless_app.hpp"
#include "support/temp_dir.hpp"

using rope::test::HeadlessApp;

namespace {

struct Size {
    int width, height;
    std::string text() const { return std::to_string(width) + "x" + std::to_string(height); }
};

const std::vector<Size> kScreens{{1024, 768}, {1280, 720}, {1920, 1080}};
const std::vector<Size> kExports{{800, 480}, {1200, 675}, {1920, 1080}};

std::string joined(const std::vector<std::string>& problems) {
    std::string s;
    for (const std::string& p : problems) s += "\n    " + p;
    return s;
}

// The pictures that do not hold the rule yet (issue 28's remaining work), one "where figure" a line
// in composition_known.txt. A test fails on any other picture that breaks the rule, and on a listed
// one that now holds it (take it off the list): the list only shrinks.
std::vector<std::string> known_failing() {
    std::vector<std::string> out;
    std::ifstream in(ROPE_COMPOSITION_KNOWN);
    for (std::string line; std::getline(in, line);)
        if (!line.empty() && line[0] != '#') out.push_back(line);
    return out;
}

// With ROPE_COMPOSITION_DUMP=DIR, each picture that breaks the rule is also written as DIR/KEY.svg,
// its largest empty block outlined in red, for a person to look at.
void dump_failing(const std::string& key, const std::vector<std::string>& problems, const rope::figures::FigureResult& result,
                  const rope::plot::TextMeasure& measure) {
    const char* dir = std::getenv("ROPE_COMPOSITION_DUMP");
    if (!dir || problems.empty()) return;
    rope::plot::DisplayList list = result.list;
    list.commands.push_back(rope::plot::RectCmd{rope::test::largest_empty_rect(result, measure), {1, 0, 0, 0.15f}, {1, 0, 0, 1}, 2});
    std::string file = key;
    std::replace(file.begin(), file.end(), ' ', '_');
    std::ofstream(std::string(dir) + "/" + file + ".svg") << rope::exporting::render_svg(list, measure, key, {});
}

struct Findings {
    std::vector<std::string> failing;  // "1024x768 presenting step 11 context"
    std::string report;
    void add(const std::string& key, const std::vector<std::string>& problems) {
        if (problems.empty()) return;
        failing.push_back(key);
        report += "\n  " + key + ":" + joined(problems);
    }
    // the pictures among `scope` (by prefix) that fail and are not known, and the known ones that pass
    void check(const std::string& scope_prefix) const {
        const std::vector<std::string> known = known_failing();
        std::string unknown, fixed;
        for (const std::string& f : failing)
            if (std::find(known.begin(), known.end(), f) == known.end()) unknown += "\n  " + f;
        for (const std::string& k : known)
            if (k.rfind(scope_prefix, 0) == 0 && std::find(failing.begin(), failing.end(), k) == failing.end()) fixed += "\n  " + k;
        EXPECT_EQ(unknown, "") << "pictures that break the composition rule:" << report;
        EXPECT_EQ(fixed, "") << "these now hold the rule: take them off tests/gui/composition_known.txt";
    }
};

// Every shown panel of the app against the rule.
void screen_problems(HeadlessApp& app, bool presenting, const std::string& where, Findings& findings) {
    static const rope::plot::ApproximateTextMeasure measure;
    for (const auto& picture : app.pictures()) {
        const auto& view = app.app().panels()[static_cast<std::size_t>(picture.panel)];
        rope::plot::Style style = rope::plot::screen_style(view.key.theme, view.key.scale, presenting);
        style.focus = view.key.focus;
        rope::test::CompositionInput in;
        in.figure = view.figure;
        in.result = &view.result;
        in.style = &style;
        in.measure = &measure;
        const std::string key = where + " " + std::string(view.figure->name);
        const std::vector<std::string> problems = rope::test::composition_problems(in);
        dump_failing(key, problems, view.result, measure);
        findings.add(key, problems);
    }
}

class Composition : public rope::test::TempDirTest {
protected:
    void SetUp() override {
        TempDirTest::SetUp();
        setenv("XDG_STATE_HOME", path("state").c_str(), 1);
    }
};

void walk_lesson(bool presenting) {
    const int steps = static_cast<int>(rope::lessons::builtin_lesson().steps.size());
    Findings findings;
    for (const Size& size : kScreens) {
        HeadlessApp app({"--fresh"}, static_cast<float>(size.width), static_cast<float>(size.height));
        app.state().presentation = presenting;
        ASSERT_TRUE(app.settle());
        for (int n = 1; n <= steps; ++n) {
            app.key(GLFW_KEY_PAGE_DOWN);
            ASSERT_TRUE(app.settle()) << size.text() << " step " << n;
            const std::string where = std::string(presenting ? "presenting " : "window ") + size.text() + " step " + std::to_string(n);
            if (app.state().asking()) {  // the question and the picture before; then Page Down reveals
                screen_problems(app, presenting, where + " asked", findings);
                app.key(GLFW_KEY_PAGE_DOWN);
                ASSERT_TRUE(app.settle()) << where << " revealed";
            }
            screen_problems(app, presenting, where, findings);
        }
    }
    findings.check(presenting ? "presenting " : "window ");
}

}  // namespace

TEST_F(Composition, EveryLessonStepPresenting) { walk_lesson(true); }

TEST_F(Composition, EveryLessonStepInTheAppWindow) { walk_lesson(false); }

// Every figure with its defaults and with each lesson step's parameters, exported --clean at the sizes
// blog posts use.
TEST(CompositionExport, EveryFigureAtEveryExportSize) {
    const rope::exporting::CairoTextMeasure measure;
    rope::figures::FigureCache cache(rope::weights::folder_reader());
    std::vector<std::pair<std::string, const rope::figures::FigureDescriptor*>> cases;
    for (const auto* f : rope::figures::all_figures()) cases.emplace_back("defaults", f);
    const auto& steps = rope::lessons::builtin_lesson().steps;
    for (std::size_t i = 0; i < steps.size(); ++i) cases.emplace_back("step " + std::to_string(i + 1), steps[i].panel);
    Findings findings;
    for (std::size_t c = 0; c < cases.size(); ++c) {
        const std::size_t figures = rope::figures::all_figures().size();
        // the trained model panel draws its plots for a model folder (a synthetic one in a published shape)
        const rope::ParamSet params = c >= figures ? rope::lessons::step_parameters(steps[c - figures])
                                      : cases[c].second->name == "trained" ? rope::test::with_synthetic_model()
                                                                            : rope::ParamSet{};
        for (const Size& size : kExports) {
            rope::exporting::ExportOptions o;
            o.width = size.width;
            o.height = size.height;
            o.clean = true;
            const rope::figures::FigureResult r = rope::exporting::build_for_file(*cases[c].second, params, o, measure, false, cache);
            const rope::plot::Style style = rope::exporting::file_style_for(o);
            rope::test::CompositionInput in;
            in.figure = cases[c].second;
            in.result = &r;
            in.style = &style;
            in.measure = &measure;
            in.clean = true;
            in.min_text_px = 12.0f * static_cast<float>(size.width) / 700.0f;
            const std::string key = "export " + size.text() + " " + cases[c].first + " " + std::string(cases[c].second->name);
            const std::vector<std::string> problems = rope::test::composition_problems(in);
            dump_failing(key, problems, r, measure);
            findings.add(key, problems);
        }
    }
    findings.check("export ");
}

// A picture for a person to look at while working on the layout (not run by default), with the
// largest empty block outlined in red:
// ROPE_DUMP="figure WIDTH HEIGHT SCALE presenting(0/1) focus step(1-based or 0)" ROPE_DUMP_OUT=file.svg
// SCALE 0 builds it as `export --clean` does at that size (focus and presenting unused).
TEST(CompositionDump, DISABLED_OneFigureAsSvg) {
    const char* spec = std::getenv("ROPE_DUMP");
    const char* out = std::getenv("ROPE_DUMP_OUT");
    ASSERT_TRUE(spec && out);
    std::istringstream in(spec);
    std::string name, focus;
    float w = 0, h = 0, scale = 1;
    int presenting = 0, step = 0;
    in >> name >> w >> h >> scale >> presenting >> focus >> step;
    if (focus == "-") focus.clear();
    rope::figures::FigureCache cache(rope::weights::folder_reader());
    const rope::exporting::CairoTextMeasure measure;
    const rope::ParamSet params = step > 0 ? rope::lessons::step_parameters(rope::lessons::builtin_lesson().steps[static_cast<std::size_t>(step - 1)])
                                           : rope::ParamSet{};
    rope::figures::FigureResult result;
    if (scale == 0) {
        rope::exporting::ExportOptions o;
        o.width = static_cast<int>(w);
        o.height = static_cast<int>(h);
        o.clean = true;
        result = rope::exporting::build_for_file(rope::figures::figure(name), params, o, measure, false, cache);
    } else {
        rope::figures::FigureRequest r;
        r.figure = &rope::figures::figure(name);
        r.width = w;
        r.height = h;
        r.style = rope::plot::screen_style(rope::plot::ThemeId::light, scale, presenting != 0);
        r.style.focus = focus;
        r.style.fill_plot_area = true;
        r.measure = &measure;
        result = rope::figures::build_figure(r, params, cache);
    }
    const rope::plot::Rect empty = rope::test::largest_empty_rect(result, measure);
    result.list.commands.push_back(rope::plot::RectCmd{empty, {1, 0, 0, 0.15f}, {1, 0, 0, 1}, 2});
    std::printf("largest empty block %.0f%%; drawn:", 100 * rope::test::largest_empty_share(result, measure));
    for (const auto& g : result.plots)
        if (g.frame.width() > 0) std::printf(" %s", g.name.c_str());
    std::printf("\n");
    std::ofstream(out) << rope::exporting::render_svg(result.list, measure, name, {});
}
