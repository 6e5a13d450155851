// Every figure's text is readable at every state and size: no two texts overlap, no data line runs
// through a text, every text lies inside its figure, and every axis has at least three labelled
// ticks. Read from the display lists the figures build, with the font the files are drawn in.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "export/cairo_canvas.hpp"
#include "figures/registry.hpp"
#include "lessons/lessons.hpp"
#include "plot/label_placer.hpp"
#include "plot/plot.hpp"
#include "plot/short_forms.hpp"
#include "rope/presets.hpp"

using namespace rope;

namespace {

constexpr float kTolerance = 0.5f;

struct State {
    std::string name;
    ParamSet params;
};

ParamSet with(std::vector<std::pair<std::string, std::string>> sets) {
    ParamSet p;
    for (const auto& [k, v] : sets) p.set(k, v);
    p.validate();
    return p;
}

std::vector<State> states() {
    std::vector<State> out;
    out.push_back({"defaults", ParamSet{}});
    const lessons::Lesson& lesson = lessons::builtin_lesson();
    for (std::size_t i = 0; i < lesson.steps.size(); ++i)
        out.push_back({"lesson step " + std::to_string(i + 1), lessons::step_parameters(lesson.steps[i])});
    for (const Preset& p : presets()) out.push_back({"preset " + std::string(p.name), with({{"preset", std::string(p.name)}})});
    out.push_back({"scaling=yarn factor=8", with({{"scaling", "yarn"}, {"factor", "8"}, {"original_max_position", "4096"}})});
    out.push_back({"scaling=linear factor=4", with({{"scaling", "linear"}, {"factor", "4"}, {"original_max_position", "2048"}})});
    out.push_back({"scaling=ntk factor=4", with({{"scaling", "ntk"}, {"factor", "4"}})});
    out.push_back({"dim=2", with({{"dim", "2"}, {"vector", "1,0.5"}})});
    out.push_back({"1M positions", with({{"max_position", "1000000"}, {"position", "999999"}, {"max_distance", "1000000"}})});
    out.push_back({"linear decay", with({{"decay_scale", "linear"}, {"max_distance", "20000"}})});
    // proportional RoPE (pairs of frequency 0), a NoPE layer, and models with layers
    out.push_back({"proportional 512 x 0.25", with({{"dim", "512"}, {"scaling", "proportional"}, {"rotary_fraction", "0.25"},
                                                     {"base", "1000000"}, {"pairing", "half"}, {"pair", "100"}})});
    out.push_back({"nope", with({{"nope", "true"}})});
    // q and k at one position (m = n): their arrows coincide
    out.push_back({"m = n = 3", with({{"position", "3"}, {"key_position", "3"}})});
    // model B set (compare_to): two generations of a family, other head dims and pair counts
    for (const auto& [a, b] : std::vector<std::pair<std::string, std::string>>{
             {"llama-2-7b", "llama-3-8b"}, {"qwen2.5-vl-7b", "qwen3-vl-8b"}, {"gemma-3-12b", "gemma-4-31b"}, {"pythia-12b", "gemma-7b"},
             {"llama-3.2-1b", "gpt-j-6b"}, {"rope-vit-deit-b", "qwen2.5-vl-7b"}, {"phi-3-mini-128k", "deepseek-v3"}})
        out.push_back({"A " + a + " B " + b, with({{"preset", a}, {"compare_to", b}})});
    out.push_back({"A dim=16 B gemma-4-31b", with({{"dim", "16"}, {"compare_to", "gemma-4-31b"}})});
    const std::string gemma_kinds =
        "sliding_attention: window=1024 dim=256 base=10000; full_attention: dim=512 base=1000000 scaling=proportional rotary_fraction=0.25";
    std::string gemma_layers;
    for (int i = 0; i < 10; ++i) gemma_layers += std::string(i ? "," : "") + "5*sliding_attention,full_attention";
    out.push_back({"Gemma-4-like, 60 layers", with({{"layer_kinds", gemma_kinds}, {"model_layers", gemma_layers},
                                                    {"layer", "5"}})});
    out.push_back({"Llama-4-like", with({{"layer_kinds", "chunked_attention: window=8192 base=500000; full_attention: nope=true"},
                                         {"model_layers", "3*chunked_attention,full_attention,3*chunked_attention,full_attention"},
                                         {"layer", "3"}, {"attn_temperature_tuning", "true"}, {"max_position", "1048576"}})});
    return out;
}

struct Size {
    std::string name;
    float width, height, scale;
    bool screen;  // the panels' style (no titles, larger type) rather than a file's
    bool presenting = false;  // presentation mode's panel: nothing smaller than the tick labels
};

const std::vector<Size>& sizes() {
    static const std::vector<Size> list = {
        {"800x480", 800, 480, 1, false},     {"1280x720", 1280, 720, 1, false}, {"560x300", 560, 300, 1, false},
        {"1920x1080", 1920, 1080, 1, false}, {"800x480 scale 2", 800, 480, 2, false},
        {"panel 620x380", 620, 380, 1, true}, {"panel 940x560 scale 1.5", 940, 560, 1.5f, true},
        // presentation mode's lesson panel beside the lesson at 1280x720, 1024x768 and 1920x1080
        // (880x670, 560x715 and 1380x1010 pixels)
        {"presenting 704x536 scale 1.25", 704, 536, 1.25f, true, true},
        {"presenting 407x520 scale 1.375", 407, 520, 1.375f, true, true},
        {"presenting 736x539 scale 1.875", 736, 539, 1.875f, true, true},
    };
    return list;
}

// The panels' style or a file's, exactly as the app and the export use them.
plot::Style style_for(const Size& s) {
    plot::Style st = s.screen ? plot::screen_style(plot::ThemeId::light, s.scale, s.presenting) : plot::file_style(plot::ThemeId::light);
    st.scale = s.scale;
    return st;
}

struct Text {
    const plot::TextCmd* cmd;
    plot::Rect box;
};

std::string quote(const std::string& s) { return "'" + s + "'"; }

std::string describe(const plot::Rect& r) {
    std::ostringstream o;
    o << "[" << r.x0 << "," << r.y0 << " - " << r.x1 << "," << r.y1 << "]";
    return o.str();
}

// Every problem with the list's text, one line each.
std::vector<std::string> problems(const figures::FigureResult& fig, const plot::TextMeasure& measure) {
    std::vector<std::string> out;
    const plot::DisplayList& list = fig.list;
    std::vector<Text> texts;
    struct Line {
        const plot::PolylineCmd* cmd;
        plot::Rect clip;  // what of it shows (a plot's data is clipped to its area)
    };
    std::vector<Line> lines;
    std::vector<plot::Rect> clips{{-1e9f, -1e9f, 1e9f, 1e9f}};
    for (const plot::Command& c : list.commands) {
        if (const auto* t = std::get_if<plot::TextCmd>(&c)) {
            if (!t->text.empty()) texts.push_back({t, plot::text_box(*t, measure)});
        } else if (const auto* l = std::get_if<plot::PolylineCmd>(&c)) {
            if (l->role == plot::Role::data) lines.push_back({l, clips.back()});
        } else if (const auto* k = std::get_if<plot::ClipCmd>(&c)) {
            if (k->push) clips.push_back(k->rect);
            else if (clips.size() > 1) clips.pop_back();
        }
    }
    for (const Text& t : texts) {
        const plot::Rect& b = t.box;
        if (b.x0 < -kTolerance || b.y0 < -kTolerance || b.x1 > list.width + kTolerance || b.y1 > list.height + kTolerance)
            out.push_back("text " + quote(t.cmd->text) + " " + describe(b) + " leaves the figure");
    }
    for (std::size_t i = 0; i < texts.size(); ++i)
        for (std::size_t j = i + 1; j < texts.size(); ++j)
            if (plot::overlaps(texts[i].box, texts[j].box, kTolerance))
                out.push_back("texts " + quote(texts[i].cmd->text) + " " + describe(texts[i].box) + " and " +
                              quote(texts[j].cmd->text) + " " + describe(texts[j].box) + " overlap");
    for (const Line& line : lines) {
        const plot::PolylineCmd* l = line.cmd;
        if (l->points.size() < 2) continue;
        plot::Rect bb{l->points[0].x, l->points[0].y, l->points[0].x, l->points[0].y};
        for (const plot::Vec2& p : l->points) {
            bb.x0 = std::min(bb.x0, p.x);
            bb.y0 = std::min(bb.y0, p.y);
            bb.x1 = std::max(bb.x1, p.x);
            bb.y1 = std::max(bb.y1, p.y);
        }
        bb = {bb.x0 - 1, bb.y0 - 1, bb.x1 + 1, bb.y1 + 1};
        for (const Text& t : texts) {
            if (!plot::overlaps(bb, t.box) || !plot::overlaps(line.clip, t.box)) continue;
            const plot::Rect shown{std::max(t.box.x0, line.clip.x0), std::max(t.box.y0, line.clip.y0), std::min(t.box.x1, line.clip.x1),
                                   std::min(t.box.y1, line.clip.y1)};
            for (std::size_t k = 1; k < l->points.size(); ++k)
                if (plot::segment_crosses(l->points[k - 1], l->points[k], shown, kTolerance)) {
                    std::ostringstream o;
                    o << "text " << quote(t.cmd->text) << " " << describe(t.box) << " is crossed by a data line through ("
                      << l->points[k - 1].x << "," << l->points[k - 1].y << ")-(" << l->points[k].x << "," << l->points[k].y << ")";
                    out.push_back(o.str());
                    break;
                }
        }
    }
    // ticks: an axis drawn (tick marks on it) has at least three labels
    for (const figures::PlotGeometry& g : fig.plots) {
        const plot::Rect& a = g.area;
        int x_marks = 0, y_marks = 0, x_labels = 0, y_labels = 0;
        for (const plot::Command& c : list.commands)
            if (const auto* l = std::get_if<plot::PolylineCmd>(&c); l && l->role == plot::Role::axis && l->points.size() == 2) {
                const plot::Vec2 p = l->points[0], q = l->points[1];
                if (std::abs(p.y - a.y1) < 1 && p.x >= a.x0 - 1 && p.x <= a.x1 + 1 && std::abs(p.x - q.x) < 0.01f) ++x_marks;
                if (std::abs(q.x - a.x0) < 1 && q.y >= a.y0 - 1 && q.y <= a.y1 + 1 && std::abs(p.y - q.y) < 0.01f) ++y_marks;
            }
        for (const Text& t : texts) {
            const float cx = (t.box.x0 + t.box.x1) / 2, cy = (t.box.y0 + t.box.y1) / 2;
            if (t.cmd->role == plot::Role::tick_x && cx >= a.x0 - 1 && cx <= a.x1 + 1 && t.box.y0 >= a.y1) ++x_labels;
            if (t.cmd->role == plot::Role::tick_y && cy >= a.y0 - 1 && cy <= a.y1 + 1 && t.box.x1 <= a.x0) ++y_labels;
        }
        // a pair or index axis is labelled at whole numbers only: one pair (one row of patches) has one label
        auto needed = [](figures::AxisRole role, double lo, double hi) {
            if (role != figures::AxisRole::pair && role != figures::AxisRole::index) return 3;
            return static_cast<int>(std::min(3.0, std::floor(hi) - std::ceil(lo) + 1));
        };
        if (x_marks > 0 && x_labels < needed(g.x_role, g.x_min, g.x_max))
            out.push_back("plot " + g.name + ": x axis has " + std::to_string(x_labels) + " labelled ticks");
        if (y_marks > 0 && y_labels < needed(g.y_role, g.y_min, g.y_max))
            out.push_back("plot " + g.name + ": y axis has " + std::to_string(y_labels) + " labelled ticks");
    }
    return out;
}

}  // namespace

TEST(LabelLayout, NoTextOverlapsTextOrDataAndEveryAxisHasThreeLabels) {
    const exporting::CairoTextMeasure measure;
    figures::FigureCache cache;
    std::vector<std::string> report;
    std::size_t failures = 0, lists = 0;
    // ROPE_LABEL_REPORT=FILE writes every problem there, not just the first few
    const char* report_path = std::getenv("ROPE_LABEL_REPORT");
    std::ofstream all_problems;
    if (report_path) all_problems.open(report_path);
    // ROPE_LABEL_FIGURE=NAME checks that figure only; ROPE_LABEL_DUMP=DIR writes an SVG of each case with a problem
    const char* only = std::getenv("ROPE_LABEL_FIGURE");
    const char* dump = std::getenv("ROPE_LABEL_DUMP");
    for (const State& state : states())
        for (const figures::FigureDescriptor* figure : figures::all_figures())
            for (const Size& size : sizes()) {
                if (only && figure->name != only) continue;
                figures::FigureRequest r;
                r.figure = figure;
                r.width = size.width * size.scale;
                r.height = size.height * size.scale;
                r.style = style_for(size);
                r.measure = &measure;
                const figures::FigureResult fig = figures::build_figure(r, state.params, cache);
                ++lists;
                const std::vector<std::string> found = problems(fig, measure);
                if (dump && !found.empty())
                    std::ofstream(std::string(dump) + "/" + std::string(figure->name) + "-" + std::to_string(failures) + ".svg")
                        << exporting::render_svg(fig.list, measure, std::string(figure->name), {});
                for (const std::string& p : found) {
                    ++failures;
                    const std::string line = std::string(figure->name) + " | " + state.name + " | " + size.name + ": " + p;
                    if (report.size() < 60) report.push_back(line);
                    if (all_problems) all_problems << line << "\n";
                }
            }
    std::string all;
    for (const std::string& line : report) all += line + "\n";
    EXPECT_EQ(failures, 0u) << failures << " problems in " << lists << " figures; the first:\n" << all;
}

// Where two arrows coincide or nearly (q and k at m = n, alone and beside model B, at every position,
// pair and size), their labels lie apart: neither text box overlaps the other, nor covers an arrow's tip.
TEST(LabelLayout, LabelsOfCoincidingArrowsLieApart) {
    const exporting::CairoTextMeasure measure;
    figures::FigureCache cache;
    for (const std::string b : {"", "llama-3-8b"})
        for (const char* m : {"0", "3", "100", "2000"})
            for (const char* pair : {"0", "5", "40"})
                for (const Size& size : sizes()) {
                    std::vector<std::pair<std::string, std::string>> sets{{"position", m}, {"key_position", m}, {"pair", pair}};
                    if (!b.empty()) sets.push_back({"compare_to", b});
                    figures::FigureRequest r;
                    r.figure = &figures::figure("vectors");
                    r.width = size.width * size.scale;
                    r.height = size.height * size.scale;
                    r.style = style_for(size);
                    r.measure = &measure;
                    const figures::FigureResult fig = figures::build_figure(r, with(sets), cache);
                    const std::string where = std::string("m = n = ") + m + ", pair " + pair + (b.empty() ? "" : ", with B") + ", " + size.name;
                    const figures::PlotGeometry* qk = fig.plot("qk");
                    if (!qk) continue;  // a size too small for the q-k view
                    std::vector<plot::Rect> labels;
                    std::vector<plot::Vec2> tips;  // an arrowhead's first corner is its tip
                    for (const plot::Command& c : fig.list.commands) {
                        if (const auto* t = std::get_if<plot::TextCmd>(&c); t && (t->text == "q" || t->text == "k")) labels.push_back(plot::text_box(*t, measure));
                        if (const auto* h = std::get_if<plot::PolygonCmd>(&c); h && !h->points.empty() && qk->area.contains(h->points[0])) tips.push_back(h->points[0]);
                    }
                    ASSERT_EQ(labels.size(), 2u) << where;
                    EXPECT_FALSE(plot::overlaps(labels[0], labels[1])) << where << ": q's and k's labels overlap";
                    for (const plot::Rect& box : labels)
                        for (const plot::Vec2& tip : tips)
                            EXPECT_FALSE(tip.x > box.x0 && tip.x < box.x1 && tip.y > box.y0 && tip.y < box.y1) << where << ": a label covers an arrow's tip";
                }
}

// The checks can fail: a text put on a curve and one on another text are caught.
TEST(LabelLayout, TheChecksSeeOverlapsAndCrossings) {
    const plot::ApproximateTextMeasure measure;
    figures::FigureResult fig;
    fig.list.width = 400;
    fig.list.height = 300;
    fig.list.line({{10, 100}, {390, 100}}, {}, 2);
    fig.list.text({200, 100}, "on the line", 14, {}, plot::HAlign::center, plot::VAlign::middle);
    fig.list.text({20, 20}, "first", 14, {});
    fig.list.text({30, 25}, "second", 14, {});
    fig.list.text({390, 290}, "outside", 14, {});
    const std::vector<std::string> found = problems(fig, measure);
    auto has = [&](const std::string& words) {
        return std::any_of(found.begin(), found.end(), [&](const std::string& s) { return s.find(words) != std::string::npos; });
    };
    EXPECT_TRUE(has("'on the line'"));
    EXPECT_TRUE(has("'first'"));
    EXPECT_TRUE(has("'outside'"));
}

// A text's shorter forms (used instead of a "…" cut) drop whole clauses and asides, never part of a
// bracket: "interleaved [12, 10, 10]" must not become "interleaved [12, 10".
TEST(LabelLayout, ShortFormsKeepBracketsWhole) {
    for (const std::string text : {"M-RoPE interleaved [24, 20, 20] (Qwen3-VL)", "chunked [16, 24, 24]", "score ⟨q at m, k at n⟩"}) {
        const std::vector<std::string> forms = plot::short_forms(text);
        for (const std::string& f : forms) {
            EXPECT_EQ(std::count(f.begin(), f.end(), '['), std::count(f.begin(), f.end(), ']')) << text << " -> " << f;
            EXPECT_EQ(std::count(f.begin(), f.end(), '('), std::count(f.begin(), f.end(), ')')) << text << " -> " << f;
        }
    }
    EXPECT_EQ(plot::short_forms("M-RoPE interleaved [24, 20, 20] (Qwen3-VL)").front(), "M-RoPE interleaved [24, 20, 20]");
}

// A legend named at setup reflows with its plot's cell: in rows above the plot; beside it in a wide
// cell where it would take more than a row above; at the lines' ends where rows above would take more
// than a third of a short plot's height and the names are short.
TEST(LabelLayout, LegendsReflowBesideAboveOrAtTheLinesEnds) {
    const exporting::CairoTextMeasure measure;
    const plot::Style st = plot::file_style(plot::ThemeId::light);
    enum class Place { above, beside, ends };
    auto place_in = [&](plot::Rect cell, const std::vector<std::string>& names, std::vector<std::string>& drawn) {
        plot::DisplayList list;
        list.width = cell.x1, list.height = cell.y1;
        plot::Plot p(list, measure, st, cell);
        p.setup_x({"x", 0, 7});
        p.setup_y({"y", 0, 8});
        p.setup_legend_above(names);
        const std::vector<double> x{0, 1, 2, 3, 4, 5, 6, 7};
        for (std::size_t k = 0; k < names.size(); ++k) {
            std::vector<double> y(x.size());
            for (std::size_t i = 0; i < x.size(); ++i) y[i] = 1 + 2.5 * static_cast<double>(k) + 0.1 * static_cast<double>(i);
            p.line(x.data(), y.data(), x.size(), 1, st.theme.series[k % st.theme.series.size()], names[k]);
        }
        const plot::Rect area = p.area();
        p.finish();
        bool samples = false;
        float lowest_name = 0, leftmost_name = 1e9f;
        drawn.clear();
        for (const plot::Command& c : list.commands) {
            if (const auto* l = std::get_if<plot::PolylineCmd>(&c)) samples = samples || l->role == plot::Role::legend;
            if (const auto* t = std::get_if<plot::TextCmd>(&c))
                if (std::find(names.begin(), names.end(), t->text) != names.end()) {
                    lowest_name = std::max(lowest_name, t->pos.y);
                    leftmost_name = std::min(leftmost_name, t->pos.x);
                    drawn.push_back(t->text);
                }
        }
        if (const char* dir = std::getenv("ROPE_DUMP_LEGENDS"))  // to look at: one SVG a case
            std::ofstream(std::string(dir) + "/legend-" + std::to_string(static_cast<int>(cell.x1)) + ".svg")
                << exporting::render_svg(list, measure, "legend", {});
        if (!samples) return Place::ends;
        return leftmost_name > area.x1 ? Place::beside : lowest_name < area.y0 ? Place::above : Place::ends;
    };
    const std::vector<std::string> long_names{"original (unscaled)", "linear interpolation ×4", "NTK-aware ×4", "YaRN ×4 with its ramp"};
    const std::vector<std::string> short_names{"original", "ntk ×4", "yarn ×4"};
    std::vector<std::string> drawn;
    EXPECT_EQ(place_in({0, 0, 300, 420}, long_names, drawn), Place::above);
    EXPECT_EQ(drawn.size(), long_names.size());
    EXPECT_EQ(place_in({0, 0, 700, 420}, long_names, drawn), Place::beside);
    EXPECT_EQ(drawn.size(), long_names.size());
    EXPECT_EQ(place_in({0, 0, 300, 130}, short_names, drawn), Place::ends);
    EXPECT_EQ(drawn.size(), short_names.size());  // every line named
}
