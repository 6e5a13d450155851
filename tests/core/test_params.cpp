#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "rope/number_format.hpp"
#include "rope/frequencies.hpp"
#include "rope/params.hpp"
#include "rope/presets.hpp"

using namespace rope;

TEST(Params, DefaultsFromTheTable) {
    ParamSet p;
    EXPECT_EQ(p[P::dim], 128);
    EXPECT_EQ(p[P::base], 10000.0);
    EXPECT_EQ(p[P::rotary_fraction], 1.0);
    EXPECT_EQ(p.value_text(P::pairing), "interleaved");
    EXPECT_EQ(p[P::position], 0);
    EXPECT_EQ(p[P::max_position], 4096);
    EXPECT_EQ(p[P::max_distance], 4096);
    EXPECT_EQ(p.value_text(P::scaling), "none");
    EXPECT_EQ(p[P::factor], 1.0);
    EXPECT_EQ(p[P::original_max_position], 4096);
    EXPECT_EQ(p[P::sequence_length], 4096);
    EXPECT_EQ(p[P::low_freq_factor], 1.0);
    EXPECT_EQ(p[P::high_freq_factor], 4.0);
    EXPECT_EQ(p[P::beta_fast], 32.0);
    EXPECT_EQ(p[P::beta_slow], 1.0);
    EXPECT_FALSE(p.has(P::attention_factor));
    EXPECT_EQ(p.vector(), std::vector<double>(128, 1.0));
    EXPECT_NO_THROW(p.validate());
}

TEST(Params, EveryRowIsComplete) {
    std::set<std::string_view> names;
    for (const ParamSpec& s : parameter_table()) {
        EXPECT_TRUE(names.insert(s.name).second) << s.name;
        EXPECT_FALSE(s.help.empty()) << s.name;
        EXPECT_FALSE(s.allowed().empty()) << s.name;
        if (!s.optional) {
            ParamSet p;
            EXPECT_NO_THROW(p.set(s.name, s.default_text)) << s.name;
        }
    }
}

TEST(Params, RefusesWithOneLineNamingKeyValueAndRule) {
    struct Bad {
        const char* key;
        const char* value;
        const char* expect;
    };
    const Bad bad[] = {
        {"dim", "7", "even integer from 2 to 4096"},      {"dim", "0", "even integer"},
        {"dim", "4098", "from 2 to 4096"},                {"dim", "12.5", "even integer"},
        {"dim", "abc", "not a number"},                   {"base", "1", "(1, 1000000000000]"},
        {"base", "nan", "(1, 1000000000000]"},            {"base", "inf", "(1, 1000000000000]"},
        {"base", "-5", "(1, 1000000000000]"},                            {"base", "", "not a number"},
        {"rotary_fraction", "0", "(0, 1]"},               {"rotary_fraction", "1.5", "(0, 1]"},
        {"pairing", "neox", "interleaved, half"},         {"position", "-1", "integer"},
        {"position", "2.5", "integer"},                   {"max_position", "0", "from 1"},
        {"max_distance", "-3", "integer"},                {"scaling", "rope", "none, linear, ntk"},
        {"factor", "0.5", "from 1 to 1000"},                        {"vector", "1,x,3", "item 2"},
        {"vector", "1,,3", "item 2"},                     {"long_factors", "1,-2", "from 1e-06 to 1000000"},
        {"truncate", "maybe", "true or false"},           {"attention_factor", "0", "(0, 100]"},
        {"base", "2e12", "(1, 1000000000000]"},           {"factor", "1001", "from 1 to 1000"},
        {"vector", "1,1e7,3", "item 2"},                  {"mscale", "101", "from 0 to 100"},
    };
    for (const Bad& b : bad) {
        ParamSet p;
        const ParamSet before = p;
        try {
            p.set(b.key, b.value);
            ADD_FAILURE() << b.key << "=" << b.value << " was accepted";
        } catch (const ParamError& e) {
            const std::string msg = e.what();
            EXPECT_EQ(e.key(), b.key);
            EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
            EXPECT_EQ(msg.rfind(std::string(b.key) + "=" + b.value + ":", 0), 0u) << msg;
            EXPECT_NE(msg.find(b.expect), std::string::npos) << msg;
        }
        EXPECT_TRUE(p == before);
    }
}

TEST(Params, CrossKeyChecks) {
    auto fails = [](std::vector<std::pair<std::string, std::string>> sets, const std::string& key) {
        ParamSet p;
        for (const auto& [k, v] : sets) p.set(k, v);
        try {
            p.validate();
        } catch (const ParamError& e) {
            return e.key() == key;
        }
        return false;
    };
    EXPECT_TRUE(fails({{"vector", "1,2,3"}}, "vector"));
    EXPECT_TRUE(fails({{"dim", "4"}, {"vector", "1,2,3"}}, "vector"));
    EXPECT_FALSE(fails({{"dim", "4"}, {"vector", "1,2,3,4"}}, "vector"));
    EXPECT_TRUE(fails({{"rotary_fraction", "0.01"}}, "rotary_fraction"));
    EXPECT_TRUE(fails({{"dim", "2"}, {"scaling", "ntk"}}, "scaling"));
    EXPECT_TRUE(fails({{"dim", "2"}, {"scaling", "dynamic"}}, "scaling"));
    EXPECT_TRUE(fails({{"scaling", "llama3"}, {"high_freq_factor", "0.5"}}, "high_freq_factor"));
    EXPECT_FALSE(fails({{"scaling", "llama3"}, {"high_freq_factor", "1"}}, "high_freq_factor"));  // Llama 4 Scout: a hard cut
    EXPECT_TRUE(fails({{"dim", "8"}, {"long_factors", "1,2,3"}}, "long_factors"));
    EXPECT_FALSE(fails({{"dim", "8"}, {"long_factors", "1,2,3,4"}}, "long_factors"));
    EXPECT_TRUE(fails({{"pair", "64"}}, "pair"));
}

TEST(Params, KeyValueRoundTrip) {
    ParamSet p;
    p.set(P::base, "500000");
    p.set(P::scaling, "yarn");
    p.set(P::factor, "4");
    p.set(P::dim, "4");
    p.set(P::vector, "0.1, 2, -3e-5, 4");
    p.set(P::attention_factor, "1.25");
    ParamSet q;
    for (const auto& [k, v] : p.to_key_values()) q.set(k, v);
    EXPECT_TRUE(p == q);
    EXPECT_EQ(p.value_text(P::base), "500000");
    EXPECT_EQ(p.value_text(P::vector), "0.1,2,-3e-05,4");
    p.set(P::attention_factor, "none");
    EXPECT_FALSE(p.has(P::attention_factor));
}

// Sets are compared by their values: two sets each changed the same number of times are different
// when their values are (the lesson bug of a per-object change counter), equal when their values are.
TEST(Params, EqualityIsByValueNotByHistory) {
    ParamSet p, q;
    p.set(P::dim, "64");
    q.set(P::position, "5");
    EXPECT_FALSE(p == q);
    q = p;
    EXPECT_TRUE(p == q);
    ParamSet r;
    r.set(P::dim, "32");
    r.set(P::dim, "64");
    EXPECT_TRUE(r == p);
    EXPECT_EQ(r.value(P::dim), p.value(P::dim));
    p.set_number(P::base, 20000);
    EXPECT_EQ(p[P::base], 20000);
    EXPECT_THROW(p.set_number(P::dim, 3), ParamError);
}

TEST(NumberFormat, ShortestRoundTrip) {
    EXPECT_EQ(format_number(500000.0), "500000");
    EXPECT_EQ(format_number(10000.0), "10000");
    EXPECT_EQ(format_number(0.1), "0.1");
    EXPECT_EQ(format_number(1.0 / 3.0), "0.3333333333333333");
    EXPECT_EQ(format_number(-2.5), "-2.5");
    EXPECT_EQ(format_number(0.0), "0");
    EXPECT_EQ(format_number(1e-5), "1e-05");
    EXPECT_EQ(format_number(0.0001), "0.0001");
    EXPECT_EQ(format_number(1e16), "1e+16");
    EXPECT_EQ(format_number(123456789012345.0), "123456789012345");
    EXPECT_EQ(format_number(6.283185307179586), "6.283185307179586");
    for (double v : {3.14159, 1e-300, 1.7976931348623157e308, 54410.14313077675, -0.000123}) {
        const std::string s = format_number(v);
        EXPECT_EQ(std::stod(s), v) << s;
    }
}

TEST(Presets, EveryPresetIsAValidState) {
    for (const Preset& preset : presets()) {
        ParamSet p;
        ASSERT_NO_THROW(p.set(P::preset, preset.name)) << preset.name;
        EXPECT_NO_THROW(p.validate()) << preset.name;
        EXPECT_FALSE(preset.source.empty());
        EXPECT_NO_THROW(compute_frequencies(p.config())) << preset.name;
    }
}

// Phi-3 mini 128k: LongRoPE with the 48 long and 48 short factors of its config.json; at its full
// context the long list applies and the attention factor is sqrt(1 + ln 32 / ln 4096).
TEST(Presets, Phi3Mini128kUsesItsLongFactors) {
    ParamSet p;
    p.set(P::preset, "phi-3-mini-128k");
    p.validate();
    ASSERT_EQ(p[P::long_factors].size(), 48u);
    ASSERT_EQ(p[P::short_factors].size(), 48u);
    EXPECT_EQ(p[P::long_factors].front(), 1.0299999713897705);
    EXPECT_EQ(p[P::long_factors].back(), 64.81001281738281);
    EXPECT_EQ(p[P::short_factors].back(), 2.9499999999999975);
    const FrequencyTable f = compute_frequencies(p.config());
    EXPECT_TRUE(f.uses_long_factors);
    EXPECT_NEAR(f.attention_factor, 1.19024, 1e-5);
    for (int i = 0; i < 48; ++i)
        EXPECT_DOUBLE_EQ(f.theta[i], 1.0 / (p[P::long_factors][static_cast<std::size_t>(i)] * std::pow(10000.0, 2.0 * i / 96)));
    p.set(P::sequence_length, "4096");  // within the original context: the short list
    EXPECT_FALSE(compute_frequencies(p.config()).uses_long_factors);
}

TEST(Presets, ApplyThenRefineAndReplay) {
    ParamSet p;
    p.set(P::dim, "16");
    p.set(P::preset, "llama-3.1-8b");
    EXPECT_EQ(p[P::dim], 128);  // the preset resets what it sets
    EXPECT_EQ(p.value_text(P::scaling), "llama3");
    EXPECT_EQ(p[P::factor], 8);
    EXPECT_EQ(p[P::original_max_position], 8192);
    p.set(P::base, "20000");  // refined afterwards
    ParamSet q;
    for (const auto& [k, v] : p.to_key_values()) q.set(k, v);  // table order: preset first
    EXPECT_TRUE(p == q);
    EXPECT_EQ(q[P::base], 20000);
    ParamSet gptj;
    gptj.set(P::preset, "gpt-j-6b");
    EXPECT_EQ(gptj.config().rotated_dims(), 64);
    EXPECT_EQ(gptj.value_text(P::pairing), "interleaved");
}
