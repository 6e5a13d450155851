// The Trained model figure and its background read (figures::FigureCache::trained_model): a cancelled
// read stays cancelled until Read again, moving the base re-reads nothing while another rotary fraction
// does, and the hover readout gives the planted head's numbers.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <thread>

#include "export/cairo_canvas.hpp"
#include "figures/figure_cache.hpp"
#include "figures/registry.hpp"
#include "support/synthetic_model.hpp"

namespace {

using namespace rope;

// The read's end, waited for by the clock (two minutes: a sanitizer build on a busy machine reads
// slowly), not by a count of polls whose length depends on the machine.
figures::TrainedState settled(figures::FigureCache& cache, const ParamSet& p) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (std::chrono::steady_clock::now() < until) {
        const figures::TrainedState s = cache.trained_model(p, false);
        if (!s.loading) return s;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return cache.trained_model(p, false);
}

TEST(TrainedModel, ACancelledReadStaysCancelledUntilReadAgain) {
    std::atomic<int> reads{0};
    const figures::TrainedReader never_ends = [&](const ParamSet&, const std::function<bool(double)>& progress) -> figures::TrainedModel {
        ++reads;
        while (progress(0.5)) std::this_thread::sleep_for(std::chrono::milliseconds(1));  // a model that never ends
        throw std::runtime_error("cancelled");
    };
    ParamSet p;
    p.set(P::model, "/a/large/model");
    {
        figures::FigureCache cache(never_ends);
        EXPECT_TRUE(cache.trained_model(p, false).loading);
        cache.cancel_trained();
        const figures::TrainedState s = settled(cache, p);
        EXPECT_FALSE(s.loading);
        EXPECT_EQ(s.error, "cancelled");
        EXPECT_EQ(s.model, nullptr);
        for (int i = 0; i < 5; ++i) EXPECT_FALSE(cache.trained_model(p, false).loading);  // not started again
        EXPECT_EQ(reads.load(), 1);
        cache.cancel_trained(true);  // Read again
        EXPECT_TRUE(cache.trained_model(p, false).loading);
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        EXPECT_TRUE(cache.trained_model(p, false).loading);  // reading until stopped
        EXPECT_EQ(reads.load(), 2);
    }  // the cache's end stops the read (the destructor joins it)
}

TEST(TrainedModel, MovingTheBaseReReadsNothingAnotherRotaryFractionDoes) {
    ParamSet p = test::with_synthetic_model();
    p.set(P::layer, "1");  // the keys set after it are layer 1's
    figures::FigureCache cache(rope::weights::folder_reader());
    const figures::TrainedState first = cache.trained_model(p, true);
    ASSERT_NE(first.model, nullptr) << first.error;
    ParamSet based = p;
    based.set(P::base, "500000");
    EXPECT_EQ(cache.trained_model(based, true).model, first.model);
    ParamSet partial = p;
    partial.set(P::rotary_fraction, "0.5");
    const figures::TrainedState half = cache.trained_model(partial, true);
    ASSERT_NE(half.model, nullptr) << half.error;
    EXPECT_NE(half.model, first.model);
    EXPECT_EQ(half.model->usage[0].pairs.pairs, 8);  // layer 0 keeps its kind's RoPE
    EXPECT_EQ(half.model->usage[1].pairs.pairs, 4);  // head dim 16, half of it turns: 4 pairs
}

TEST(TrainedModel, TheReadoutGivesThePlantedHeadsNumbers) {
    ParamSet p = test::with_synthetic_model();  // planted: layer 1, query head 1, pair 6
    p.set(P::layer, "1");
    figures::FigureCache cache(rope::weights::folder_reader());
    figures::FigureRequest r;
    r.figure = &figures::figure("trained");
    r.width = 1000;
    r.height = 640;
    const figures::FigureResult fig = figures::build_figure(r, p, cache);
    const figures::PlotGeometry* heads = fig.plot("trained_heads");
    ASSERT_NE(heads, nullptr);
    int grab = 0;
    figures::PanelContext panel{p, cache, fig, [](const std::string&, const std::function<void(ParamSet&)>&) {}, grab};
    const std::string text = figures::figure("trained").readout(panel, *heads, 6, 1);
    EXPECT_NE(text.find("layer 1, pair i = 6"), std::string::npos) << text;
    EXPECT_NE(text.find("query head 1 (key head 0)"), std::string::npos) << text;
    EXPECT_NE(text.find("share of the head = 0.99"), std::string::npos) << text;
    EXPECT_NE(text.find("wavelength = 6283.2 tokens"), std::string::npos) << text;
}

// The figure as a file (interactive = false) or a panel shows it, with the files' font.
figures::FigureResult trained_at(const ParamSet& p, float w, float h, bool interactive, figures::FigureCache& cache,
                                 const plot::TextMeasure& measure) {
    figures::FigureRequest r;
    r.figure = &figures::figure("trained");
    r.width = w;
    r.height = h;
    r.interactive = interactive;
    r.measure = &measure;
    return figures::build_figure(r, p, cache);
}

std::vector<const plot::TextCmd*> texts_of(const figures::FigureResult& fig) {
    std::vector<const plot::TextCmd*> out;
    for (const auto& c : fig.list.commands)
        if (const auto* t = std::get_if<plot::TextCmd>(&c)) out.push_back(t);
    return out;
}

const plot::TextCmd* text_with(const figures::FigureResult& fig, const std::string& part) {
    for (const plot::TextCmd* t : texts_of(fig))
        if (t->text.find(part) != std::string::npos) return t;
    return nullptr;
}

// The box a text takes (horizontal text, as the files draw it).
plot::Rect box_of(const plot::TextCmd& t, const plot::TextMeasure& measure) {
    const float w = measure.measure(t.text, t.size).x;
    const float x0 = t.halign == plot::HAlign::left ? t.pos.x : t.halign == plot::HAlign::center ? t.pos.x - w / 2 : t.pos.x - w;
    const float y0 = t.valign == plot::VAlign::top ? t.pos.y : t.valign == plot::VAlign::middle ? t.pos.y - t.size / 2 : t.pos.y - t.size;
    return {x0, y0, x0 + w, y0 + t.size};
}

bool overlap(const plot::Rect& a, const plot::Rect& b) { return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1; }

const std::vector<std::pair<float, float>> kTrainedSizes = {{1000, 640}, {700, 448}, {1600, 900}, {640, 720}};

// The words under the plots name the folder the weights came from and say what usage and share are
// as the numbers follow them (share = usage ÷ the head's total), at every size, on screen and in files.
TEST(TrainedModel, TheCaptionNamesTheFolderAndDefinesUsageAndShare) {
    const ParamSet p = test::with_synthetic_model();
    const std::string folder = std::filesystem::path(test::synthetic_model_folder()).filename().string();
    figures::FigureCache cache(rope::weights::folder_reader());
    const exporting::CairoTextMeasure measure;
    for (bool interactive : {true, false})
        for (const auto& [w, h] : kTrainedSizes) {
            const figures::FigureResult fig = trained_at(p, w, h, interactive, cache, measure);
            std::string words;  // the texts in drawing order, a wrapped caption's lines joined again
            for (const plot::TextCmd* t : texts_of(fig)) words += t->text + " ";
            EXPECT_NE(words.find("folder " + folder), std::string::npos) << w << "x" << h;
            EXPECT_NE(words.find("usage = ‖q pair‖·‖k pair‖"), std::string::npos) << w << "x" << h;
            EXPECT_NE(words.find("share = usage ÷ the head's total"), std::string::npos) << w << "x" << h;
            EXPECT_EQ(words.find("share = ‖"), std::string::npos) << w << "x" << h;  // the product is usage, not share
            EXPECT_NE(text_with(fig, "each head's share of usage by pair"), nullptr) << w << "x" << h;
            for (const plot::TextCmd* t : texts_of(fig)) {  // every text inside the picture
                if (t->vertical) continue;
                EXPECT_TRUE(box_of(*t, measure).x0 >= -1 && box_of(*t, measure).x1 <= w + 1) << t->text << " at " << w << "x" << h;
            }
        }
}

// With no layer set, the figure opens on the layer whose heads lean most on one pair (the planted
// layer 1), and whichever layer it shows it says where that one is: on screen, in a file and in the
// alt text alike.
TEST(TrainedModel, OpensOnTheMostConcentratedLayerAndSaysWhereItIs) {
    const ParamSet unset = test::with_synthetic_model();  // planted: layer 1, query head 1, pair 6
    ParamSet first = unset;
    first.set(P::layer, "0");
    figures::FigureCache cache(rope::weights::folder_reader());
    const exporting::CairoTextMeasure measure;
    for (bool interactive : {true, false}) {
        const figures::FigureResult opened = trained_at(unset, 1000, 640, interactive, cache, measure);
        EXPECT_NE(text_with(opened, "each head's share of usage by pair, layer 1 (the most concentrated)"), nullptr);
        EXPECT_NE(text_with(opened, "layer 1: mean usage share against wavelength"), nullptr);
        EXPECT_NE(figures::figure("trained").describe(unset, opened).find("layer 1 ("), std::string::npos);
        const figures::FigureResult other = trained_at(first, 1000, 640, interactive, cache, measure);
        EXPECT_NE(text_with(other, "by pair, layer 0 (most concentrated: layer 1)"), nullptr);
        EXPECT_NE(text_with(other, "each layer's heads (most concentrated: layer 1)"), nullptr);  // the layers map's title
        EXPECT_NE(figures::figure("trained").describe(first, other).find("the most concentrated layer is 1"), std::string::npos);
        const figures::PlotGeometry* heads = opened.plot("trained_heads");
        ASSERT_NE(heads, nullptr);
        int grab = 0;
        figures::PanelContext panel{unset, cache, opened, [](const std::string&, const std::function<void(ParamSet&)>&) {}, grab};
        EXPECT_NE(figures::figure("trained").readout(panel, *heads, 6, 1).find("layer 1, pair i = 6"), std::string::npos);
    }
}

// The heads map's two reference lines are named apart from its cells and from each other (in a
// legend above the map), at every size: not as tags on one line over the data.
TEST(TrainedModel, ItsReferenceLinesAreNamedApartFromTheCellsAndEachOther) {
    const ParamSet p = test::with_synthetic_model();
    figures::FigureCache cache(rope::weights::folder_reader());
    const exporting::CairoTextMeasure measure;
    for (bool interactive : {true, false})
        for (const auto& [w, h] : kTrainedSizes) {
            const figures::FigureResult fig = trained_at(p, w, h, interactive, cache, measure);
            const figures::PlotGeometry* heads = fig.plot("trained_heads");
            ASSERT_NE(heads, nullptr) << w << "x" << h;
            const plot::TextCmd* context = text_with(fig, "λ = context");
            const plot::TextCmd* critical = text_with(fig, "critical dim");
            ASSERT_NE(context, nullptr) << w << "x" << h;
            ASSERT_NE(critical, nullptr) << w << "x" << h;
            EXPECT_FALSE(overlap(box_of(*context, measure), heads->area)) << w << "x" << h;
            EXPECT_FALSE(overlap(box_of(*critical, measure), heads->area)) << w << "x" << h;
            EXPECT_FALSE(overlap(box_of(*context, measure), box_of(*critical, measure))) << w << "x" << h;
        }
}

}  // namespace
