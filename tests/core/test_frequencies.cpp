#include <gtest/gtest.h>

#include <cmath>

#include "rope/frequencies.hpp"

using namespace rope;

TEST(Frequencies, DefinitionAndWavelengths) {
    RopeConfig c;  // d = 128, base 10000
    const FrequencyTable f = compute_frequencies(c);
    ASSERT_EQ(f.pairs(), 64);
    EXPECT_EQ(f.theta[0], 1.0);
    EXPECT_DOUBLE_EQ(f.wavelength(0), 2.0 * kPi);
    for (int i = 0; i < 64; ++i) EXPECT_DOUBLE_EQ(f.theta[i], std::pow(10000.0, -2.0 * i / 128.0));
    // 2 pi base^((d-2)/d), not 2 pi base
    EXPECT_NEAR(f.wavelength(63), 54410.14313, 1e-5);
    EXPECT_NEAR(longest_wavelength(10000.0, 128), 54410.14313, 1e-5);
    EXPECT_EQ(f.attention_factor, 1.0);
}

TEST(Frequencies, RotatedDimsFollowTheReference) {
    RopeConfig c;
    c.dim = 96;
    c.rotary_fraction = 0.4;  // Phi-2 style: int(96 * 0.4) = 38
    EXPECT_EQ(c.rotated_dims(), 38);
    c.dim = 128;
    c.rotary_fraction = 0.25;
    EXPECT_EQ(c.rotated_dims(), 32);
    c.dim = 10;
    c.rotary_fraction = 0.5;  // 5 -> largest even is 4
    EXPECT_EQ(c.rotated_dims(), 4);
}

TEST(Frequencies, LinearDividesByFactor) {
    RopeConfig c;
    c.scaling = Scaling::linear;
    c.factor = 4;
    const FrequencyTable f = compute_frequencies(c);
    for (int i = 0; i < f.pairs(); ++i) EXPECT_DOUBLE_EQ(f.theta[i], f.original_theta[i] / 4.0);
}

TEST(Frequencies, NtkRaisesTheBase) {
    RopeConfig c;
    c.scaling = Scaling::ntk;
    c.factor = 8;
    const FrequencyTable f = compute_frequencies(c);
    EXPECT_DOUBLE_EQ(f.effective_base, 10000.0 * std::pow(8.0, 128.0 / 126.0));
    EXPECT_EQ(f.theta[0], 1.0);  // the fastest pair is untouched
    // the slowest pair is slowed by exactly the factor
    EXPECT_NEAR(f.original_theta[63] / f.theta[63], 8.0, 1e-12);
}

TEST(Frequencies, DynamicEqualsDefaultWithinTheOriginalContext) {
    RopeConfig c;
    c.scaling = Scaling::dynamic;
    c.factor = 4;
    c.original_max_position = 4096;
    c.sequence_length = 1000;  // s' = max(s, M) = M: base unchanged
    EXPECT_DOUBLE_EQ(compute_frequencies(c).effective_base, 10000.0);
    c.sequence_length = 8192;
    EXPECT_DOUBLE_EQ(compute_frequencies(c).effective_base, 10000.0 * std::pow(4.0 * 2.0 - 3.0, 128.0 / 126.0));
}

TEST(Frequencies, YarnRampBoundsAndAttentionFactor) {
    RopeConfig c;
    c.scaling = Scaling::yarn;
    c.factor = 4;
    c.original_max_position = 32768;
    c.base = 1e6;  // Qwen2.5 7B's opt-in yarn
    const FrequencyTable f = compute_frequencies(c);
    const double low = std::floor(128 * std::log(32768 / (32 * 2 * kPi)) / (2 * std::log(1e6)));
    const double high = std::ceil(128 * std::log(32768 / (1 * 2 * kPi)) / (2 * std::log(1e6)));
    EXPECT_EQ(f.yarn_low, low);
    EXPECT_EQ(f.yarn_high, high);
    EXPECT_DOUBLE_EQ(f.attention_factor, 0.1 * std::log(4.0) + 1.0);
    for (int i = 0; i < f.pairs(); ++i) {
        if (i <= low) { EXPECT_DOUBLE_EQ(f.theta[i], f.original_theta[i]) << i; }
        if (i >= high) { EXPECT_NEAR(f.theta[i], f.original_theta[i] / 4.0, 1e-18) << i; }
    }
}

TEST(Frequencies, YarnMscaleAndOverride) {
    RopeConfig c;
    c.dim = 64;
    c.scaling = Scaling::yarn;
    c.factor = 40;
    c.mscale = 1.0;
    c.mscale_all_dim = 1.0;  // DeepSeek-V3: the ratio is 1
    EXPECT_DOUBLE_EQ(compute_frequencies(c).attention_factor, 1.0);
    c.mscale = 0.707;
    EXPECT_DOUBLE_EQ(compute_frequencies(c).attention_factor, (0.1 * 0.707 * std::log(40.0) + 1) / (0.1 * std::log(40.0) + 1));
    c.attention_factor = 1.5;
    EXPECT_EQ(compute_frequencies(c).attention_factor, 1.5);
}

TEST(Frequencies, Llama3Bands) {
    RopeConfig c;  // Llama 3.1 8B
    c.base = 500000;
    c.scaling = Scaling::llama3;
    c.factor = 8;
    c.low_freq_factor = 1;
    c.high_freq_factor = 4;
    c.original_max_position = 8192;
    const FrequencyTable f = compute_frequencies(c);
    for (int i = 0; i < f.pairs(); ++i) {
        const double wl = 2 * kPi / f.original_theta[i];
        if (wl < 8192.0 / 4) {
            EXPECT_EQ(f.theta[i], f.original_theta[i]);
        }
        if (wl > 8192.0) {
            EXPECT_DOUBLE_EQ(f.theta[i], f.original_theta[i] / 8);
        }
        if (wl >= 2048 && wl <= 8192) {
            EXPECT_LE(f.theta[i], f.original_theta[i]);
            EXPECT_GE(f.theta[i], f.original_theta[i] / 8);
        }
    }
}

TEST(Frequencies, LongropeAttentionFactorPhi3) {
    RopeConfig c;
    c.dim = 96;
    c.scaling = Scaling::longrope;
    c.factor = 32;  // 131072 / 4096
    c.original_max_position = 4096;
    EXPECT_NEAR(compute_frequencies(c).attention_factor, 1.19024, 1e-5);
    c.factor = 1;
    EXPECT_EQ(compute_frequencies(c).attention_factor, 1.0);
    c.long_factors.assign(48, 2.0);
    c.short_factors.assign(48, 1.0);
    c.sequence_length = 8192;
    const FrequencyTable f = compute_frequencies(c);
    EXPECT_TRUE(f.uses_long_factors);
    EXPECT_DOUBLE_EQ(f.theta[5], f.original_theta[5] / 2.0);
}

TEST(Frequencies, RefusesWhatTheMathCannotTake) {
    RopeConfig c;
    c.dim = 2;
    c.scaling = Scaling::ntk;
    EXPECT_THROW(compute_frequencies(c), std::invalid_argument);
    c.scaling = Scaling::none;
    c.base = 1.0;
    EXPECT_THROW(compute_frequencies(c), std::invalid_argument);
}
