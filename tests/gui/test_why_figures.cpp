// The four "why it works" figures as the panels build them: their data tables hold the core's
// numbers, the pictures name their plots for the mouse, and extreme settings draw without NaN.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <limits>
#include <map>

#include "figures/registry.hpp"
#include "rope/encodings.hpp"
#include "rope/precision.hpp"
#include "rope/rotation.hpp"
#include "support/figure_build.hpp"

using namespace rope;

namespace {

figures::FigureResult build_why(const figures::FigureDescriptor& id, const ParamSet& p, figures::FigureCache& cache, float w = 900, float h = 520) {
    figures::FigureRequest r;
    r.figure = &id;
    r.width = w;
    r.height = h;
    r.with_table = true;
    return figures::build_figure(r, p, cache);
}

using rope::test::params;

const std::vector<double>& column(const figures::DataTable& t, const std::string& name) {
    for (std::size_t c = 0; c < t.columns.size(); ++c)
        if (t.columns[c] == name) return t.values[c];
    throw std::runtime_error("no column " + name);
}

Eigen::VectorXd vec(const ParamSet& p) {
    const std::vector<double> v = p.vector();
    return Eigen::Map<const Eigen::VectorXd>(v.data(), static_cast<Eigen::Index>(v.size()));
}

}  // namespace

TEST(WhyFigures, ScoresTableIsTheCoreScoreMatrix) {
    figures::FigureCache cache;
    const ParamSet p = params({{"dim", "16"}, {"max_position", "40"}, {"position", "10"}, {"key_position", "20"},
                               {"vector", "1,-2,0.5,3,1,1,-1,2,0,1,2,-3,1,0.25,1,-1"}});
    const auto fig = build_why(figures::figure("scores"), p, cache);
    ASSERT_NE(fig.plot("scores"), nullptr);
    ASSERT_NE(fig.plot("scores_mixed"), nullptr);
    const auto& t = fig.table;
    ASSERT_EQ(t.rows(), 40u * 40u);
    const auto freqs = cache.frequencies(p);
    const FrequencyTable& f = *freqs;
    const Eigen::VectorXd x = vec(p);
    for (std::size_t row : {0u, 41u, 10u * 40 + 20, 1599u}) {
        const double m = column(t, "m")[row], n = column(t, "n")[row];
        EXPECT_NEAR(column(t, "score")[row], attention_score(f, Pairing::interleaved, x, m, x, n), 1e-10);
        EXPECT_NEAR(column(t, "score_mixed")[row], mixed_layout_score(f, Pairing::half, Pairing::interleaved, x, m, x, n), 1e-10);
    }
    // Toeplitz for the matched layouts, not for the mixed ones
    EXPECT_NEAR(column(t, "score")[5 * 40 + 9], column(t, "score")[25 * 40 + 29], 1e-10);
    EXPECT_GT(std::abs(column(t, "score_mixed")[5 * 40 + 9] - column(t, "score_mixed")[25 * 40 + 29]), 1e-6);

    // a key of its own: still Toeplitz, no longer symmetric (n - m and m - n differ)
    ParamSet pk = p;
    pk.set(P::key_vector, "0,1,2,-1,1,0,0,1,1,1,-2,0,1,3,0,1");
    pk.validate();
    const auto fk = build_why(figures::figure("scores"), pk, cache);
    const auto& tk = fk.table;
    const std::vector<double> k = pk.key_vector();
    const Eigen::VectorXd kv = Eigen::Map<const Eigen::VectorXd>(k.data(), 16);
    for (std::size_t row : {1u, 10u * 40 + 20, 20u * 40 + 10}) {
        const double m = column(tk, "m")[row], n = column(tk, "n")[row];
        EXPECT_NEAR(column(tk, "score")[row], attention_score(f, Pairing::interleaved, x, m, kv, n), 1e-10);
    }
    EXPECT_NEAR(column(tk, "score")[5 * 40 + 9], column(tk, "score")[25 * 40 + 29], 1e-10);
    EXPECT_GT(std::abs(column(tk, "score")[10 * 40 + 20] - column(tk, "score")[20 * 40 + 10]), 1e-3);
}

// With a context-extension variant cos and sin carry its attention factor, so every score figure
// (matrix, shifted pairs, RoPE beside sinusoidal, the q-k readout) grows by its square.
TEST(WhyFigures, ScoresCarryTheAttentionFactor) {
    figures::FigureCache cache;
    const ParamSet p = params({{"dim", "16"}, {"max_position", "40"}, {"scaling", "yarn"}, {"factor", "8"},
                               {"original_max_position", "1024"}});
    const auto freqs = cache.frequencies(p);
    const FrequencyTable& f = *freqs;
    ASSERT_NEAR(f.attention_factor, 0.1 * std::log(8.0) + 1, 1e-15);
    const Eigen::VectorXd x = vec(p);
    const double unscaled = attention_score(f, Pairing::interleaved, x, 3, x, 3);
    EXPECT_NEAR(unscaled, 16, 1e-12);  // |x|^2 for x = all ones
    const auto scores = build_why(figures::figure("scores"), p, cache);
    EXPECT_NEAR(column(scores.table, "score")[0], 16 * f.attention_factor * f.attention_factor, 1e-10);
    const auto pairing = build_why(figures::figure("pairing"), p, cache);
    const auto& m = column(pairing.table, "m");
    const auto& n = column(pairing.table, "n");
    EXPECT_NEAR(column(pairing.table, "score_matched")[0], attention_score(f, Pairing::interleaved, x, m[0], x, n[0], f.attention_factor), 1e-10);
    const auto sinusoidal = build_why(figures::figure("sinusoidal"), p, cache);
    const auto& sm = column(sinusoidal.table, "m");
    const auto& sn = column(sinusoidal.table, "n");
    EXPECT_NEAR(column(sinusoidal.table, "rope_score")[5],
                attention_score(f, Pairing::interleaved, x, sm[5], x, sn[5], f.attention_factor), 1e-9);
}

TEST(WhyFigures, PairingTableShiftsBothTokens) {
    figures::FigureCache cache;
    const ParamSet p = params({{"dim", "16"}, {"pairing", "half"}, {"position", "5"}, {"key_position", "9"},
                               {"max_position", "64"}});
    const auto fig = build_why(figures::figure("pairing"), p, cache);
    ASSERT_NE(fig.plot("pairing_shift"), nullptr);
    const auto& t = fig.table;
    const auto freqs = cache.frequencies(p);
    const FrequencyTable& f = *freqs;
    const Eigen::VectorXd x = vec(p);
    const auto& m = column(t, "m");
    const auto& n = column(t, "n");
    const auto& matched = column(t, "score_matched");
    const auto& mixed = column(t, "score_mixed");
    ASSERT_EQ(m.size(), 64u);
    double drift = 0;
    for (std::size_t i = 0; i < 64; ++i) {
        EXPECT_EQ(n[i] - m[i], 4);
        EXPECT_NEAR(matched[i], attention_score(f, Pairing::half, x, m[i], x, n[i]), 1e-10);
        EXPECT_NEAR(mixed[i], mixed_layout_score(f, Pairing::interleaved, Pairing::half, x, m[i], x, n[i]), 1e-10);
        EXPECT_NEAR(matched[i], matched[0], 1e-10);
        drift = std::max(drift, std::abs(mixed[i] - mixed[0]));
    }
    EXPECT_GT(drift, 0.1);
}

TEST(WhyFigures, PrecisionTableHoldsTheRoundedAngles) {
    figures::FigureCache cache;
    const ParamSet p = params({{"pair", "0"}, {"position", "100000"}, {"base", "500000"}});
    const auto fig = build_why(figures::figure("precision"), p, cache);
    for (const char* name : {"precision_angle", "precision_positions", "precision_pairs", "precision_vector"})
        EXPECT_NE(fig.plot(name), nullptr) << name;
    // long layout: format (0 float32, 1 bf16, 2 fp16, 3 theta cast to bf16 first), m, pair, ...
    const auto& t = fig.table;
    const auto& format = column(t, "format");
    const auto& m = column(t, "m");
    const auto& pair = column(t, "pair");
    auto value = [&](const char* name, double fmt, double at_m, double at_pair) {
        for (std::size_t i = 0; i < m.size(); ++i)
            if (format[i] == fmt && m[i] == at_m && pair[i] == at_pair) return column(t, name)[i];
        return std::numeric_limits<double>::quiet_NaN();
    };
    EXPECT_EQ(value("angle_exact", 1, 257, 0), 257);  // theta_0 = 1
    EXPECT_EQ(value("angle", 0, 257, 0), 257);
    EXPECT_EQ(value("angle", 1, 257, 0), 256);  // bf16 cannot hold 257
    EXPECT_EQ(value("angle", 2, 257, 0), 257);
    EXPECT_EQ(value("error", 1, 257, 0), -1);  // signed: angle - angle_exact
    EXPECT_EQ(value("spacing", 1, 257, 0), 2);
    // fp16 cannot hold position 100000: no fp16 rows there (never an inf or nan in the table)
    EXPECT_TRUE(std::isnan(value("angle", 2, 100000, 5)));
    // but 65510 rounds to 65504, finite: fp16 overflows from 65520 on
    const auto near_top = build_why(figures::figure("precision"), params({{"pair", "0"}, {"position", "65510"}}), cache);
    bool fp16_row = false;
    for (std::size_t i = 0; i < column(near_top.table, "m").size(); ++i)
        if (column(near_top.table, "format")[i] == 2 && column(near_top.table, "m")[i] == 65510 &&
            column(near_top.table, "pair")[i] == 0) {
            fp16_row = true;
            EXPECT_EQ(column(near_top.table, "angle")[i], 65504);  // pair 0: theta = 1
            EXPECT_EQ(column(near_top.table, "spacing")[i], 32);
        }
    EXPECT_TRUE(fp16_row);
    EXPECT_FALSE(std::isnan(value("angle", 0, 100000, 5)));
    for (const auto& col : t.values)
        for (double v : col) ASSERT_TRUE(std::isfinite(v));
    // every pair's error at the current position is the core's
    const auto freqs = cache.frequencies(p);
    const FrequencyTable& f = *freqs;
    for (int i : {1, 10, 63})
        EXPECT_EQ(value("error", 3, 1e5, i), angle_with_theta_cast(NumberFormat::bfloat16, NumberFormat::float32, 1e5, f.theta[i]) -
                                                 1e5 * f.theta[i]);
}

TEST(WhyFigures, SinusoidalTableIsTheCoreEncoding) {
    figures::FigureCache cache;
    // RoPE at base 500000; the sinusoidal encoding stays Vaswani et al.'s, base 10000
    const ParamSet p = params({{"dim", "32"}, {"max_position", "100"}, {"position", "7"}, {"key_position", "40"}, {"base", "500000"}});
    const auto fig = build_why(figures::figure("sinusoidal"), p, cache);
    ASSERT_NE(fig.plot("sinusoidal_absolute"), nullptr);
    ASSERT_NE(fig.plot("sinusoidal_rope"), nullptr);
    // one row per (query m, key n); two query positions, m1 = position and m2 = m1 + reach
    const auto& t = fig.table;
    const auto& m = column(t, "m");
    const auto& n = column(t, "n");
    const auto& r = column(t, "distance");
    const auto freqs = cache.frequencies(p);
    const FrequencyTable& f = *freqs;
    const Eigen::VectorXd x = vec(p);
    const double m1 = m.front(), m2 = m.back();
    EXPECT_EQ(m1, 7);
    EXPECT_GT(m2, m1);
    std::map<double, double> rope1, add1, rope2, add2;
    for (std::size_t i = 0; i < r.size(); ++i) {
        EXPECT_EQ(n[i] - m[i], r[i]);
        EXPECT_GE(n[i], 0);  // keys before position 0 do not exist
        EXPECT_NEAR(column(t, "pe_dot")[i], sinusoidal_dot(m[i], n[i], 32, 10000), 1e-9);
        EXPECT_NEAR(column(t, "rope_score")[i], attention_score(f, Pairing::interleaved, x, m[i], x, n[i]), 1e-9);
        EXPECT_NEAR(column(t, "additive_score")[i], additive_score(x, m[i], x, n[i], 10000), 1e-9);
        (m[i] == m1 ? rope1 : rope2)[r[i]] = column(t, "rope_score")[i];
        (m[i] == m1 ? add1 : add2)[r[i]] = column(t, "additive_score")[i];
    }
    EXPECT_EQ(rope1.begin()->first, -7);
    // RoPE: the same score at both query positions; the added encoding: not
    double differs = 0;
    for (const auto& [d, s1] : rope1) {
        EXPECT_NEAR(s1, rope2.at(d), 1e-9);
        differs = std::max(differs, std::abs(add1.at(d) - add2.at(d)));
    }
    EXPECT_GT(differs, 0.1);
}

TEST(WhyFigures, ExtremeSettingsDrawWithoutNaN) {
    const std::vector<std::vector<std::pair<std::string, std::string>>> cases = {
        {}, {{"dim", "4096"}}, {{"dim", "2"}}, {{"base", "1.0001"}}, {{"position", "1000000000000"}},
        {{"max_position", "1"}}, {{"key_position", "1000000000000"}}, {{"dim", "64"}, {"rotary_fraction", "0.25"}}};
    for (const auto& c : cases) {
        const ParamSet p = params(c);
        for (const char* name : {"scores", "pairing", "precision", "sinusoidal"}) {
            const figures::FigureDescriptor& id = figures::figure(name);
            figures::FigureCache cache;
            for (auto [w, h] : {std::pair{600.f, 400.f}, std::pair{1920.f, 1080.f}, std::pair{500.f, 1000.f}}) {
                const auto fig = build_why(id, p, cache, w, h);
                EXPECT_FALSE(fig.error) << id.name;
                EXPECT_EQ(plot::first_non_finite(fig.list), "") << id.name << " " << (c.empty() ? "" : c[0].first);
            }
        }
    }
    // how long a slider move takes to rebuild at dim 128 (printed; about 1-3 ms here)
    const ParamSet p;
    figures::FigureCache cache;
    for (const char* name : {"scores", "pairing", "precision", "sinusoidal"}) {
        const figures::FigureDescriptor& id = figures::figure(name);
        build_why(id, p, cache);
        const auto t0 = std::chrono::steady_clock::now();
        figures::FigureRequest r;
        r.figure = &id;
        r.width = 1200;
        r.height = 700;
        figures::build_figure(r, p, cache);
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        std::printf("%s: %.2f ms\n", std::string(id.name).c_str(), ms);
    }
}
