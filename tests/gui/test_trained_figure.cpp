// The Trained model figure and its background read (figures::FigureCache::trained_model): a cancelled
// read stays cancelled until Read again, moving the base re-reads nothing while another rotary fraction
// does, and the hover readout gives the planted head's numbers.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "figures/figure_cache.hpp"
#include "figures/registry.hpp"
#include "support/synthetic_model.hpp"

namespace {

using namespace rope;

figures::TrainedState settled(figures::FigureCache& cache, const ParamSet& p) {
    for (int i = 0; i < 500; ++i) {
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

}  // namespace
