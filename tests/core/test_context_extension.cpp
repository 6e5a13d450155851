// The context-extension view's core numbers: variant bands, wavelength <-> pair, attention-factor
// curves, the choice_list parameter, and the base-bound curve against the exact search.
#include <gtest/gtest.h>

#include <cmath>

#include "rope/bounds.hpp"
#include "rope/context_extension.hpp"
#include "rope/params.hpp"

using namespace rope;

TEST(ContextExtension, PairAtWavelengthInvertsTheWavelength) {
    const Eigen::VectorXd theta = base_frequencies(500000, 128);
    for (int i : {0, 7, 31, 63}) EXPECT_NEAR(pair_at_wavelength(kTwoPi / theta[i], 500000, 128), i, 1e-9);
}

TEST(ContextExtension, YarnBandIsTheRamp) {
    ParamSet p;
    p.set(P::preset, "qwen2.5-7b-yarn");
    const RopeConfig c = p.config();
    const FrequencyTable f = compute_frequencies(c);
    ScalingBand band;
    ASSERT_TRUE(scaling_band(c, band));
    EXPECT_EQ(band.first_pair, f.yarn_low);
    EXPECT_EQ(band.last_pair, f.yarn_high);
    EXPECT_EQ(f.yarn_low, 23);  // transformers: floor(find_correction_dim(32)) for d=128, base 1e6, L0 32768
    EXPECT_EQ(f.yarn_high, 40);
    // inside the ramp the frequency is between the two regimes; outside it is one or the other
    EXPECT_DOUBLE_EQ(f.theta[10], f.original_theta[10]);
    EXPECT_NEAR(f.theta[50], f.original_theta[50] / 4, 1e-18);
    EXPECT_LT(f.theta[30], f.original_theta[30]);
    EXPECT_GT(f.theta[30], f.original_theta[30] / 4);
}

TEST(ContextExtension, Llama3BandFollowsTheWavelengthThresholds) {
    ParamSet p;
    p.set(P::preset, "llama-3.1-8b");
    const RopeConfig c = p.config();
    const FrequencyTable f = compute_frequencies(c);
    ScalingBand band;
    ASSERT_TRUE(scaling_band(c, band));
    EXPECT_NEAR(band.short_wavelength, 8192.0 / 4, 1e-6);  // L0 / high_freq_factor
    EXPECT_NEAR(band.long_wavelength, 8192.0 / 1, 1e-6);   // L0 / low_freq_factor
    for (int i = 0; i < f.pairs(); ++i) {
        const double wl = kTwoPi / f.original_theta[i];
        if (i < band.first_pair) { EXPECT_EQ(f.theta[i], f.original_theta[i]) << i; }  // short wavelengths kept
        if (i > band.last_pair) { EXPECT_NEAR(f.theta[i], f.original_theta[i] / 8, 1e-18) << i; }  // long ones / factor
        if (wl < 2048) { EXPECT_LT(i, band.first_pair + 1e-9); }
    }
    ParamSet none;
    EXPECT_FALSE(scaling_band(none.config(), band));
}

TEST(ContextExtension, AttentionFactorCurves) {
    RopeConfig c;
    c.scaling = Scaling::yarn;
    const std::vector<double> s = {1, 4, 40, 1000};
    const std::vector<double> yarn = attention_factor_curve(c, s);
    for (std::size_t k = 0; k < s.size(); ++k) EXPECT_NEAR(yarn[k], s[k] > 1 ? 0.1 * std::log(s[k]) + 1 : 1.0, 1e-15);
    c.scaling = Scaling::longrope;
    c.original_max_position = 4096;
    const std::vector<double> lr = attention_factor_curve(c, s);
    for (std::size_t k = 1; k < s.size(); ++k) EXPECT_NEAR(lr[k], std::sqrt(1 + std::log(s[k]) / std::log(4096.0)), 1e-15);
    c.scaling = Scaling::linear;
    for (double v : attention_factor_curve(c, s)) EXPECT_EQ(v, 1.0);
}

TEST(ContextExtension, CompareIsAChoiceList) {
    ParamSet p;
    EXPECT_EQ(p.value_text(P::compare), "none");
    EXPECT_TRUE(p[P::compare].empty());
    p.set(P::compare, " yarn, linear,yarn ");
    EXPECT_EQ(p.value_text(P::compare), "linear,yarn");  // the table's order, each once
    EXPECT_EQ(p[P::compare], (std::vector<Scaling>{Scaling::linear, Scaling::yarn}));
    try {
        p.set(P::compare, "linear,rope2");
        FAIL() << "accepted an unknown variant";
    } catch (const ParamError& e) {
        EXPECT_EQ(e.key(), "compare");
        EXPECT_NE(std::string(e.what()).find("'rope2'"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("llama3"), std::string::npos) << e.what();
    }
    EXPECT_EQ(p.value_text(P::compare), "linear,yarn");  // unchanged after a refusal
    p.set(P::compare, "none");
    EXPECT_TRUE(p[P::compare].empty());
    EXPECT_THROW(p.set(P::compare_to, "llama-9"), ParamError);
    p.set(P::compare_to, "deepseek-v3");
    EXPECT_EQ(p.value_text(P::compare_to), "deepseek-v3");
}

TEST(ContextExtension, BoundCurveAgreesWithTheExactSearch) {
    const std::vector<std::int64_t> contexts = {256, 1024, 4096};
    const std::vector<double> curve = base_lower_bound_curve(64, contexts);
    ASSERT_EQ(curve.size(), contexts.size());
    for (std::size_t k = 0; k < contexts.size(); ++k) {
        const double exact = base_lower_bound(64, contexts[k]);
        EXPECT_NEAR(std::log10(curve[k]), std::log10(exact), 1e-4) << "L = " << contexts[k];
        if (k) { EXPECT_GE(curve[k], curve[k - 1]); }
    }
}

TEST(ContextExtension, CosineSumStartsAtThePairCount) {
    const Eigen::VectorXd theta = base_frequencies(10000, 64);
    double b[3];
    cosine_sum(theta, 0, 3, b);
    EXPECT_DOUBLE_EQ(b[0], 32.0);
    double direct = 0;
    for (int i = 0; i < 32; ++i) direct += std::cos(2.0 * theta[i]);
    EXPECT_NEAR(b[2], direct, 1e-13);
}
