// The figure registry: every figure is described once, and what the app keys its pictures by (the
// parameters a figure reads) is complete: a build reads no parameter its descriptor leaves out.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <set>
#include <string>

#include "figures/registry.hpp"
#include "lessons/lessons.hpp"
#include "rope/presets.hpp"
#include "support/synthetic_model.hpp"

using namespace rope;

namespace {

// States that reach every branch of the builders: the defaults, every lesson step, every preset,
// every scaling with comparisons, a key vector, another pairing, a zoomed heatmap, a partial rotary.
std::vector<ParamSet> varied_states() {
    std::vector<ParamSet> out(1);
    for (const auto& step : lessons::builtin_lesson().steps) out.push_back(lessons::step_parameters(step));
    for (const Preset& preset : presets()) {
        ParamSet p;
        p.set(P::preset, std::string(preset.name));
        p.set(P::compare, "linear,ntk,dynamic,yarn,llama3,longrope");
        // long contexts reach no other branch: kept short, so the base-bound search stays quick
        if (p[P::max_position] > 16384) p.set(P::max_position, "16384");
        if (p[P::max_distance] > 16384) p.set(P::max_distance, "16384");
        p.validate();
        out.push_back(p);
    }
    for (const char* scaling : {"linear", "ntk", "dynamic", "yarn", "llama3", "longrope"}) {
        ParamSet p;
        p.set(P::dim, "16");
        p.set(P::scaling, scaling);
        p.set(P::factor, "8");
        p.set(P::compare_to, "llama-3.1-8b");
        p.set(P::key_vector, "1,2,3,4,5,6,7,8,1,2,3,4,5,6,7,8");
        p.set(P::pairing, "half");
        p.set(P::heatmap_from, "10");
        p.set(P::heatmap_to, "300");
        p.set(P::heatmap_mode, "cos");
        p.set(P::decay_scale, "linear");
        p.set(P::rotary_fraction, "0.5");
        p.validate();
        out.push_back(p);
    }
    // model B as a second picture: images and video (M-RoPE chunked against interleaved), layers, 1D
    for (const auto& [a, b] : {std::pair<const char*, const char*>{"qwen2.5-vl-7b", "qwen3-vl-8b"}, {"gemma-3-12b", "gemma-4-31b"},
                               {"llama-2-7b", "llama-3-8b"}, {"rope-vit-deit-b", "qwen2.5-vl-7b"}}) {
        ParamSet p;
        p.set(P::preset, a);
        p.set(P::compare_to, b);
        p.set(P::media, "video");
        p.validate();
        out.push_back(p);
    }
    // proportional RoPE, a NoPE layer, and models with layers (Gemma-4-like; Llama-4-like with the
    // NoPE temperature, and a vector of the loaded layer's length, which loading another layer checks)
    auto numbers = [](int n, int period) {  // "1,2,...,period,1,2,..." n long
        std::string v;
        for (int i = 0; i < n; ++i) v += (i ? "," : "") + std::to_string(1 + i % period);
        return v;
    };
    auto with = [](std::vector<std::pair<std::string, std::string>> sets) {
        ParamSet p;
        for (const auto& [k, v] : sets) p.set(k, v);
        p.validate();
        return p;
    };
    out.push_back(with({{"dim", "512"}, {"scaling", "proportional"}, {"rotary_fraction", "0.25"}, {"base", "1000000"}, {"pairing", "half"}}));
    out.push_back(with({{"nope", "true"}}));
    out.push_back(with({{"layer_kinds", "sliding_attention: window=1024 dim=256 base=10000; full_attention: dim=512 base=1000000 "
                                        "scaling=proportional rotary_fraction=0.25"},
                        {"model_layers", "5*sliding_attention,full_attention"},
                        {"layer", "5"}}));
    out.push_back(with({{"layer_kinds", "chunked_attention: window=8192 base=500000; full_attention: nope=true"},
                        {"model_layers", "3*chunked_attention,full_attention"},
                        {"layer", "0"},
                        {"attn_temperature_tuning", "true"},
                        {"vector", numbers(128, 8)},
                        {"key_vector", numbers(128, 2)}}));
    // a trained model folder (the Trained model panel draws plots only for one), a layer selected
    out.push_back(test::with_synthetic_model());
    ParamSet second_layer = test::with_synthetic_model();
    second_layer.set(P::layer, "1");
    second_layer.set(P::pair, "6");
    out.push_back(second_layer);
    return out;
}

}  // namespace

TEST(Registry, EveryFigureIsDescribedOnce) {
    std::set<std::string> names;
    for (const figures::FigureDescriptor* d : figures::all_figures()) {
        EXPECT_TRUE(names.insert(std::string(d->name)).second) << d->name;
        EXPECT_EQ(figures::find_figure(d->name), d);
        EXPECT_EQ(&figures::figure_at(d->index), d);
        EXPECT_FALSE(d->title.empty()) << d->name;
        EXPECT_FALSE(d->csv_columns.empty()) << d->name;
        EXPECT_GE(d->export_width, 200) << d->name;
        // its build draws a picture
        figures::FigureCache cache(rope::weights::folder_reader());
        figures::FigureRequest r;
        r.figure = d;
        const figures::FigureResult fig = figures::build_figure(r, ParamSet(), cache);
        EXPECT_FALSE(fig.error) << d->name;
        EXPECT_GT(fig.list.commands.size(), 5u) << d->name;
    }
    for (int page = 0; page < static_cast<int>(figures::pages().size()); ++page)
        EXPECT_FALSE(figures::figures_on_page(page).empty()) << figures::pages()[static_cast<std::size_t>(page)];
    EXPECT_EQ(figures::find_figure("no-such-figure"), nullptr);
    EXPECT_THROW(figures::figure("no-such-figure"), std::invalid_argument);
    // number keys 1-9 then 0, the two keys beside them, then F2 ...: every panel has one, each its own
    EXPECT_EQ(figures::panel_key(0), "1");
    EXPECT_EQ(figures::panel_key(8), "9");
    EXPECT_EQ(figures::panel_key(9), "0");
    EXPECT_EQ(figures::panel_key(10), "-");
    EXPECT_EQ(figures::panel_key(11), "=");
    EXPECT_EQ(figures::panel_key(12), "F2");
    std::set<std::string> keys;
    for (int i = 0; i < figures::figure_count(); ++i) {
        EXPECT_FALSE(figures::panel_key(i).empty()) << "panel " << i + 1;
        EXPECT_TRUE(keys.insert(figures::panel_key(i)).second) << "panel " << i + 1;
    }
    EXPECT_EQ(keys.count("F11"), 0u) << "F11 is fullscreen";
}

// Every plot has a name of its own in its figure, and every lesson step's focus is what its text
// speaks of: each focused plot is named in the text by one of its lesson words.
TEST(Registry, PlotsAreDeclaredOnceAndLessonsSpeakOfTheirFocus) {
    for (const figures::FigureDescriptor* d : figures::all_figures()) {
        std::set<std::string> names;
        for (const figures::PlotDescriptor& p : d->plots) {
            EXPECT_TRUE(names.insert(std::string(p.name)).second) << d->name << ": " << p.name << " twice";
            EXPECT_FALSE(p.title.empty() || p.short_title.empty() || p.lesson_words.empty()) << p.name;
            EXPECT_GT(p.min_size.x, 0) << p.name;
        }
    }
    auto lower = [](std::string s) {
        for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return s;
    };
    int checked = 0;
    for (const lessons::Step& step : lessons::builtin_lesson().steps) {
        const std::string text = lower(lessons::displayed_text(step, plot::dark_theme()).text);  // plots named by their captions
        std::size_t at = 0;
        while (!step.focus.empty() && at <= step.focus.size()) {
            const std::size_t end = std::min(step.focus.find(',', at), step.focus.size());
            const figures::PlotDescriptor* plot = figures::find_plot(*step.panel, step.focus.substr(at, end - at));
            ASSERT_NE(plot, nullptr) << step.title;
            bool spoken = false;
            for (std::string_view w : plot->lesson_words) spoken = spoken || text.find(lower(std::string(w))) != std::string::npos;
            EXPECT_TRUE(spoken) << step.title << ": its focus " << plot->name << " is named by none of its words";
            ++checked;
            at = end + 1;
        }
    }
    EXPECT_GE(checked, 30);  // the built-in lesson's steps name about forty plots
    // and a lesson whose focus names no plot of its panel is refused with the names it could use
    const std::string bad = R"({"steps": [{"title": "t", "text": "x", "panel": "sweep", "focus": "sweep,swep", "parameters": {}}]})";
    try {
        lessons::parse_lesson(bad, "bad.json");
        ADD_FAILURE() << "a focus on no plot was accepted";
    } catch (const session::SessionError& e) {
        EXPECT_STREQ(e.what(), "lesson 'bad.json': step 1: \"focus\" names \"swep\", not a plot of sweep (sweep, sweep_decay, sweep_cosine, sweep_bound)");
    }
}

// The plots a figure lays out are the ones it declares, with the declared tag, pair axes where it
// says so, and each
// declared plot is laid out, at the figure's export size, in some state (the model anatomy's need a
// model, the context figure's before/after/difference a scaling).
TEST(Registry, EveryDeclaredPlotIsDrawnAndNoOther) {
    const std::vector<ParamSet> states = varied_states();
    for (const figures::FigureDescriptor* d : figures::all_figures()) {
        std::set<std::string> drawn;
        figures::FigureCache cache(rope::weights::folder_reader());
        for (const ParamSet& p : states) {
            figures::FigureRequest r;
            r.figure = d;
            r.width = d->export_width;  // at its export size every plot has room
            r.height = d->export_height;
            for (const figures::PlotGeometry& g : figures::build_figure(r, p, cache).plots) {
                const figures::PlotDescriptor* plot = figures::find_plot(*d, g.name);
                ASSERT_NE(plot, nullptr) << d->name << " lays out an undeclared plot " << g.name;
                EXPECT_EQ(&d->plots[static_cast<std::size_t>(g.tag)], plot) << g.name;
                // an axis the descriptor says shows pairs spans pair indices (linked hovers read it so)
                // (model B's too, when the context figure compares against a preset)
                double pairs = static_cast<double>(p[P::dim]) / 2;
                if (const std::optional<ParamSet> b = p.compared_model())  // its layer's head, for a model with layers
                    pairs = std::max(pairs, static_cast<double>((*b)[P::dim]) / 2);
                if (plot->x_role == figures::AxisRole::pair) {
                    EXPECT_TRUE(g.x_min >= -1 && g.x_max <= pairs + 1) << d->name << " " << g.name << " x " << g.x_min << ".." << g.x_max << " dim " << pairs * 2;
                }
                if (plot->y_role == figures::AxisRole::pair) {
                    EXPECT_TRUE(g.y_min >= -1 && g.y_max <= pairs + 1) << d->name << " " << g.name << " y " << g.y_min << ".." << g.y_max << " dim " << pairs * 2;
                }
                drawn.insert(g.name);
            }
        }
        for (const figures::PlotDescriptor& p : d->plots) EXPECT_TRUE(drawn.count(std::string(p.name))) << d->name << ": " << p.name << " is never drawn";
    }
}

// The CSV header each descriptor documents (docs/reference.md's figure list) is the one the figure writes.
TEST(Registry, CsvColumnsAreTheOnesWritten) {
    for (const figures::FigureDescriptor* d : figures::all_figures()) {
        figures::FigureCache cache(rope::weights::folder_reader());
        figures::FigureRequest r;
        r.figure = d;
        r.with_table = true;
        // the model anatomy's table needs a model with layers (without one its CSV is refused)
        ParamSet p;
        if (d->name == "model_anatomy") {
            p.set(P::layer_kinds, "sliding_attention: window=512; full_attention: nope=true");
            p.set(P::model_layers, "3*sliding_attention,full_attention");
        }
        const figures::FigureResult fig = figures::build_figure(r, p, cache);
        std::string header;
        for (const std::string& c : fig.table.columns) header += (header.empty() ? "" : ",") + c;
        const std::string documented(d->csv_columns);
        // the context figure's columns go on with one per compared variant ("theta_<variant>...")
        const std::string fixed = documented.substr(0, documented.find(",theta_<variant>"));
        EXPECT_EQ(header.substr(0, fixed.size()), fixed) << d->name;
        if (fixed == documented) {
            EXPECT_EQ(header, documented) << d->name;
        }
    }
}

// A panel's picture is keyed by the values of the parameters its descriptor lists: if a build read
// any other, a change of it would leave a stale picture on screen. Every build, over states that
// reach every branch, reads only what is listed.
TEST(Registry, BuildsReadOnlyTheParametersTheyDeclare) {
    const std::vector<ParamSet> states = varied_states();
    for (const figures::FigureDescriptor* d : figures::all_figures()) {
        std::set<std::string> declared;
        for (const ParamId k : d->reads) declared.emplace(param_spec(k).name);
        std::set<std::string> read;
        for (const ParamSet& p : states) {
            figures::FigureCache cache(rope::weights::folder_reader());  // a new cache each time: every read happens
            figures::FigureRequest r;
            r.figure = d;
            r.width = 900;
            r.height = 520;
            r.with_table = !(d->name == "model_anatomy" && p.model_layers().empty());  // refused without a model
            // with model B, also where both pictures have room
            const bool b = p.value_text(P::compare_to) != "unscaled";
            for (const float scale : {1.0f, 2.0f}) {
                if (scale > 1 && !b) continue;
                r.width = 900 * scale;
                r.height = 520 * scale * scale;
                ParamReadLog log(p);
                try {
                    figures::build_figure(r, p, cache);
                } catch (const std::invalid_argument&) {  // a table model B has none of (layers)
                    EXPECT_TRUE(b) << d->name;
                }
                for (const std::string& k : log.keys()) read.insert(k);
            }
        }
        for (const std::string& k : read) EXPECT_TRUE(declared.count(k)) << d->name << " reads '" << k << "' but does not declare it";
        // and declares nothing it never reads (a declared key only costs rebuilds, but says something false)
        for (const std::string& k : declared) EXPECT_TRUE(read.count(k)) << d->name << " declares '" << k << "' but never reads it";
    }
}

// The read log itself: reads of the set and of its copies, not of other sets; nested logs both see them.
TEST(Registry, ReadLogRecordsReads) {
    ParamSet p, other;
    ParamReadLog outer(p);
    {
        ParamReadLog inner(p);
        p[P::dim];
        other[P::pair];
        EXPECT_EQ(inner.keys(), std::vector<std::string>{"dim"});
    }
    const ParamSet copy = p;
    copy[P::base];
    EXPECT_EQ(outer.keys(), (std::vector<std::string>{"dim", "base"}));
}
