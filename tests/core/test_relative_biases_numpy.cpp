// ALiBi's slopes and T5's relative-position buckets against an independent numpy version written the
// way the models' code computes them (tests/reference/relative_bias_reference.py: BLOOM's
// build_alibi_tensor and T5Attention._relative_position_bucket, lines cited there).
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "rope/frequencies.hpp"
#include "rope/mla.hpp"
#include "rope/multi_axis.hpp"
#include "rope/relative_biases.hpp"
#include "support/python_reference.hpp"

using nlohmann::json;

// The head counts of the issue, powers of two and not (BLOOM-176B's 112, 40, 30, 12): our exact powers of
// two against numpy's repeated float64 powers (1e-14) and BLOOM's float32 ones (1e-6, float32's rounding).
TEST(RelativeBiasNumpy, AlibiSlopesAreBloomsForEveryHeadCount) {
    const std::vector<int> heads = {1, 2, 3, 8, 12, 16, 30, 32, 40, 64, 96, 112, 128};
    json cases = json::array();
    for (int n : heads) cases.push_back({{"kind", "alibi"}, {"heads", n}});
    const json ref = rope::test::run_python_reference(ROPE_RELATIVE_BIAS_REFERENCE_SCRIPT, cases);
    for (std::size_t c = 0; c < heads.size(); ++c) {
        const std::vector<double> slopes = rope::alibi_slopes(heads[c]);
        ASSERT_EQ(slopes.size(), ref[c]["double"].size()) << heads[c] << " heads";
        for (std::size_t h = 0; h < slopes.size(); ++h) {
            const double want = ref[c]["double"][h], torch = ref[c]["float32"][h];
            EXPECT_NEAR(slopes[h], want, 1e-14 * want) << heads[c] << " heads, head " << h;
            EXPECT_NEAR(slopes[h], torch, 1e-6 * want) << heads[c] << " heads, head " << h << " (BLOOM's float32)";
        }
    }
}

// MPT's layout (build_mpt_alibi_tensor): the next power of two, odd heads first; MPT-7B's bias max 8
// and a storywriter's 16, for the head counts.
TEST(RelativeBiasNumpy, MptAlibiSlopesAreMptsForEveryHeadCount) {
    const std::vector<int> heads = {1, 3, 8, 12, 16, 30, 32, 40, 64, 112};
    json cases = json::array();
    for (double bias_max : {8.0, 16.0})
        for (int n : heads) cases.push_back({{"kind", "mpt_alibi"}, {"heads", n}, {"bias_max", bias_max}});
    const json ref = rope::test::run_python_reference(ROPE_RELATIVE_BIAS_REFERENCE_SCRIPT, cases);
    for (std::size_t c = 0; c < cases.size(); ++c) {
        const int n = cases[c]["heads"];
        const double bias_max = cases[c]["bias_max"];
        const std::vector<double> slopes = rope::alibi_slopes(n, rope::AlibiLayout::mpt, bias_max);
        ASSERT_EQ(slopes.size(), ref[c]["double"].size()) << n << " heads";
        for (std::size_t h = 0; h < slopes.size(); ++h) {
            const double want = ref[c]["double"][h], torch = ref[c]["float32"][h];
            EXPECT_NEAR(slopes[h], want, 1e-14 * want) << n << " heads, bias max " << bias_max << ", head " << h;
            EXPECT_NEAR(slopes[h], torch, 1e-6 * want) << n << " heads, head " << h << " (MPT's float32)";
        }
    }
    // bias max 8: BLOOM's and MPT's slopes are one list for any head count (MPT's odd steps of 16 for
    // 12 heads are BLOOM's eight powers, its even ones BLOOM's four extra heads)
    for (int n : {12, 32, 112}) EXPECT_EQ(rope::alibi_slopes(n, rope::AlibiLayout::mpt, 8), rope::alibi_slopes(n)) << n << " heads";
    // bias max 16 (MPT-7B-StoryWriter): every slope is squared
    EXPECT_DOUBLE_EQ(rope::alibi_slopes(32, rope::AlibiLayout::mpt, 16)[0], std::pow(rope::alibi_slopes(32)[0], 2));
}

// Both directions, T5's defaults and others, every relative position out to well past max_distance.
TEST(RelativeBiasNumpy, T5BucketsAreT5AttentionsInBothDirections) {
    struct Case {
        int buckets;
        std::int64_t max_distance;
        bool bidirectional;
    };
    const std::vector<Case> settings = {{32, 128, true}, {32, 128, false}, {64, 256, true}, {64, 256, false},
                                        {8, 20, true},   {3, 128, false},  {128, 1000, true}};
    const int reach = 3000;
    json cases = json::array();
    for (const Case& s : settings)
        cases.push_back({{"kind", "t5"}, {"num_buckets", s.buckets}, {"max_distance", s.max_distance}, {"bidirectional", s.bidirectional}, {"reach", reach}});
    const json ref = rope::test::run_python_reference(ROPE_RELATIVE_BIAS_REFERENCE_SCRIPT, cases);
    for (std::size_t c = 0; c < settings.size(); ++c) {
        const rope::T5BucketSettings s{settings[c].buckets, settings[c].max_distance, settings[c].bidirectional};
        int wrong = 0;
        for (std::size_t k = 0; k < ref[c]["positions"].size(); ++k) {
            const std::int64_t r = ref[c]["positions"][k];
            const int want = ref[c]["buckets"][k];
            if (rope::t5_bucket(r, s) != want && ++wrong <= 5)
                ADD_FAILURE() << s.num_buckets << " buckets, max " << s.max_distance << (s.bidirectional ? " both ways" : " causal")
                              << ": position " << r << " bucket " << rope::t5_bucket(r, s) << ", T5 " << want;
        }
        EXPECT_EQ(wrong, 0);
    }
}

// MLA's softmax scale as DeepSeek's code computes it, for DeepSeek-V3 (factor 40, mscale_all_dim 1),
// DeepSeek-V2-Lite's 0.707, Kimi K2's factors 32 and 64, and no extension (the plain 1/sqrt(192)).
TEST(RelativeBiasNumpy, MlaSoftmaxScaleIsDeepSeeks) {
    struct Case {
        double factor, mscale_all_dim;
    };
    const std::vector<Case> cases = {{40, 1}, {40, 0.707}, {32, 1}, {64, 1}, {1, 1}, {40, 0}};
    json in = json::array();
    for (const Case& c : cases)
        in.push_back({{"kind", "mla"}, {"nope", 128}, {"rope", 64}, {"factor", c.factor}, {"mscale_all_dim", c.mscale_all_dim}});
    const json ref = rope::test::run_python_reference(ROPE_RELATIVE_BIAS_REFERENCE_SCRIPT, in);
    for (std::size_t k = 0; k < cases.size(); ++k) {
        rope::RopeConfig config;
        config.dim = 64;
        if (cases[k].factor > 1) {
            config.scaling = rope::Scaling::yarn;
            config.factor = cases[k].factor;
            config.original_max_position = 4096;
            config.mscale = cases[k].mscale_all_dim;
            config.mscale_all_dim = cases[k].mscale_all_dim;
        }
        const rope::MlaScales s = rope::mla_scales({128, 64}, config);
        const double want = ref[k]["softmax_scale"];
        EXPECT_NEAR(s.softmax, want, 1e-15) << "factor " << cases[k].factor << ", mscale_all_dim " << cases[k].mscale_all_dim;
        EXPECT_NEAR(s.plain_softmax, 1 / std::sqrt(192.0), 1e-16);
        // mscale = mscale_all_dim: cos and sin keep their length; both 0 (unset): transformers' plain
        // get_mscale(factor) goes on cos and sin, and the softmax keeps 1/sqrt(192)
        const bool corrected = cases[k].factor > 1 && cases[k].mscale_all_dim != 0;
        EXPECT_NEAR(s.rotary, corrected || cases[k].factor <= 1 ? 1.0 : rope::yarn_mscale(cases[k].factor), 1e-15);
        // the placements the mla panel draws, from the same numbers: right, both parts x the softmax's
        // correction; on cos and sin, the part without rotation x 1; the latent's 512 + 64 dims instead of 192
        const rope::MlaPlacements p = rope::mla_placements({128, 64}, 512, config);
        const double correction = want * std::sqrt(192.0);
        EXPECT_NEAR(p.right_nope, correction, 1e-14);
        EXPECT_NEAR(p.right_rope, correction * s.rotary * s.rotary, 1e-14);
        EXPECT_EQ(p.on_cos_sin_nope, 1.0);
        EXPECT_NEAR(p.from_latent, ref[k]["latent_softmax_scale"].get<double>() * std::sqrt(192.0), 1e-14);
    }
}

// FLUX.1's axes and ids as diffusers computes them: FluxPosEmbed's per-axis frequencies for
// axes_dims_rope (16, 56, 56) and theta 10000, and for a 1024 x 1024 image with 512 text tokens the
// pipeline's ids: 512 x (0, 0, 0), then (0, row, col) over 64 x 64 packed latent tokens.
TEST(RelativeBiasNumpy, FluxAxesAndIdsAreDiffusers) {
    const json ref = rope::test::run_python_reference(
        ROPE_RELATIVE_BIAS_REFERENCE_SCRIPT,
        json::array({{{"kind", "flux"}, {"axes_dim", {16, 56, 56}}, {"theta", 10000}, {"height", 1024}, {"width", 1024}, {"text_tokens", 512}}}))[0];
    const rope::AxisLayout layout = rope::flux_layout(10000, {16, 56, 56});
    ASSERT_EQ(layout.pairs(), 64);
    for (int j = 0; j < 64; ++j) {
        const double want = ref["theta"][static_cast<std::size_t>(j)];
        EXPECT_NEAR(layout.theta[j], want, 1e-15 * want) << "pair " << j;
        EXPECT_EQ(static_cast<int>(layout.axis[static_cast<std::size_t>(j)]), ref["axis"][static_cast<std::size_t>(j)].get<int>()) << "pair " << j;
    }
    const int rows = ref["rows"], cols = ref["cols"];
    ASSERT_EQ(rows, 64);
    ASSERT_EQ(cols, 64);
    const std::vector<rope::SequenceToken> tokens = rope::flux_sequence(512, rows, cols, 0);
    ASSERT_EQ(tokens.size(), ref["ids"].size());
    int wrong = 0;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const json& id = ref["ids"][i];
        const rope::PositionId& got = tokens[i].id;
        if ((got.t != id[0].get<double>() || got.h != id[1].get<double>() || got.w != id[2].get<double>()) && ++wrong <= 5)
            ADD_FAILURE() << "token " << i << ": (" << got.t << ", " << got.h << ", " << got.w << "), diffusers " << id.dump();
    }
    EXPECT_EQ(wrong, 0);
}
