// Every scaling variant, the decay bound and the angle table against an independent float64 numpy
// implementation (tests/reference/rope_reference.py, run with the system python and Debian's numpy).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>

#include "figures/registry.hpp"
#include "rope/bounds.hpp"
#include "rope/decay.hpp"
#include "rope/frequencies.hpp"
#include "rope/nope_temperature.hpp"
#include "rope/params.hpp"
#include "rope/partial_layouts.hpp"
#include "rope/rotation.hpp"
#include "rope/phasor.hpp"
#include "support/process.hpp"
#include "support/python_reference.hpp"

using namespace rope;
using nlohmann::json;

namespace {

struct Case {
    std::vector<std::pair<std::string, std::string>> sets;
};

std::vector<Case> variant_cases() {
    std::vector<Case> cases;
    for (const char* scaling : {"none", "linear", "ntk", "dynamic", "yarn", "llama3", "longrope"}) {
        for (const char* dim : {"64", "128", "96"}) {
            for (const char* factor : {"1", "4", "32"}) {
                cases.push_back({{{"scaling", scaling}, {"dim", dim}, {"factor", factor}}});
            }
        }
    }
    // real-shaped configurations
    cases.push_back({{{"base", "500000"}, {"scaling", "llama3"}, {"factor", "8"}, {"original_max_position", "8192"}}});
    cases.push_back({{{"dim", "64"}, {"base", "500000"}, {"scaling", "llama3"}, {"factor", "32"}, {"original_max_position", "8192"}}});
    cases.push_back({{{"base", "1000000"}, {"scaling", "yarn"}, {"factor", "4"}, {"original_max_position", "32768"}}});
    cases.push_back({{{"dim", "64"}, {"base", "150000"}, {"scaling", "yarn"}, {"factor", "32"},
                      {"original_max_position", "4096"}, {"truncate", "false"}}});
    cases.push_back({{{"dim", "64"}, {"scaling", "yarn"}, {"factor", "40"}, {"original_max_position", "4096"},
                      {"mscale", "0.707"}, {"mscale_all_dim", "1"}}});
    cases.push_back({{{"dim", "128"}, {"scaling", "yarn"}, {"factor", "16"}, {"beta_fast", "64"}, {"beta_slow", "2"}}});
    cases.push_back({{{"dim", "128"}, {"scaling", "dynamic"}, {"factor", "2"}, {"sequence_length", "20000"}}});
    cases.push_back({{{"dim", "128"}, {"rotary_fraction", "0.25"}, {"scaling", "ntk"}, {"factor", "3"}}});
    cases.push_back({{{"dim", "96"}, {"rotary_fraction", "0.4"}, {"scaling", "linear"}, {"factor", "2"}}});
    cases.push_back({{{"scaling", "linear"}, {"factor", "2"}, {"attention_factor", "1.3"}}});
    std::string long_list, short_list;
    for (int i = 0; i < 48; ++i) {
        long_list += (i ? "," : "") + std::to_string(1.0 + 0.5 * i);
        short_list += (i ? "," : "") + std::to_string(1.0 + 0.01 * i);
    }
    for (const char* seq : {"4096", "8192"})
        cases.push_back({{{"dim", "96"}, {"scaling", "longrope"}, {"factor", "32"}, {"original_max_position", "4096"},
                          {"sequence_length", seq}, {"long_factors", long_list}, {"short_factors", short_list}}});
    return cases;
}

json to_json_config(const ParamSet& p) {
    const RopeConfig c = p.config();
    json j = {{"dim", c.dim},
              {"base", c.base},
              {"rotary_fraction", c.rotary_fraction},
              {"scaling", std::string(to_string(c.scaling))},
              {"factor", c.factor},
              {"original_max_position", c.original_max_position},
              {"sequence_length", c.sequence_length},
              {"low_freq_factor", c.low_freq_factor},
              {"high_freq_factor", c.high_freq_factor},
              {"beta_fast", c.beta_fast},
              {"beta_slow", c.beta_slow},
              {"truncate", c.truncate},
              {"long_factors", c.long_factors},
              {"short_factors", c.short_factors}};
    if (c.mscale) j["mscale"] = *c.mscale;
    if (c.mscale_all_dim) j["mscale_all_dim"] = *c.mscale_all_dim;
    if (c.attention_factor) j["attention_factor"] = *c.attention_factor;
    return j;
}

}  // namespace

TEST(ReferenceNumpy, EveryScalingVariant) {
    std::vector<ParamSet> sets;
    json cases = json::array();
    for (const Case& c : variant_cases()) {
        ParamSet p;
        for (const auto& [k, v] : c.sets) p.set(k, v);
        p.validate();
        sets.push_back(p);
        cases.push_back({{"kind", "freqs"}, {"config", to_json_config(p)}});
    }
    const json results = rope::test::run_python_reference(ROPE_REFERENCE_SCRIPT, cases);
    ASSERT_EQ(results.size(), sets.size());
    for (std::size_t i = 0; i < sets.size(); ++i) {
        const FrequencyTable f = compute_frequencies(sets[i].config());
        const auto& theta = results[i]["theta"];
        ASSERT_EQ(static_cast<int>(theta.size()), f.pairs()) << cases[i].dump();
        for (int k = 0; k < f.pairs(); ++k) {
            const double expect = theta[k].get<double>();
            // numpy's SIMD pow is a few ulp off glibc's (correctly rounded) pow: allow 1e-14 relative
            EXPECT_LE(std::abs(f.theta[k] - expect), 1e-14 * std::abs(expect)) << cases[i].dump() << " pair " << k;
        }
        EXPECT_NEAR(f.attention_factor, results[i]["attention_factor"].get<double>(), 1e-15) << cases[i].dump();
    }
}

TEST(ReferenceNumpy, DecayBoundAndAngles) {
    const Eigen::VectorXd theta = base_frequencies(10000.0, 128);
    std::vector<double> rs;
    for (double r = 0; r < 300; ++r) rs.push_back(r);
    for (double r : {4095.0, 4096.0, 65536.0, 131071.0, 1048576.0, 999999.0}) rs.push_back(r);
    const std::vector<double> th(theta.data(), theta.data() + theta.size());
    const std::vector<double> ms = {0, 1, 2, 3, 63, 64, 65, 1000, 131071, 1000000};
    const json results = rope::test::run_python_reference(ROPE_REFERENCE_SCRIPT, json::array({{{"kind", "decay"}, {"theta", th}, {"r", rs}},
                                                    {{"kind", "angles"}, {"theta", th}, {"m", ms}}}));
    DecayBound bound(theta);
    for (std::size_t i = 0; i < rs.size(); ++i) {
        double b = 0;
        bound.compute(static_cast<std::int64_t>(rs[i]), 1, &b);
        EXPECT_NEAR(b, results[0]["bound"][i].get<double>(), 1e-12) << "r = " << rs[i];
    }
    PhasorGenerator gen(theta);
    for (std::size_t i = 0; i < ms.size(); ++i) {
        double c[64], s[64];
        gen.fill(static_cast<std::int64_t>(ms[i]), 1, c, s, 64);
        for (int k = 0; k < 64; ++k) {
            const std::size_t at = i * 64 + static_cast<std::size_t>(k);
            EXPECT_NEAR(c[k], results[1]["cos"][at].get<double>(), 1e-14);
            EXPECT_NEAR(s[k], results[1]["sin"][at].get<double>(), 1e-14);
            const double wrapped = wrap_angle(ms[i] * theta[k]);
            const double ref = results[1]["wrapped"][at].get<double>();
            // compare on the circle: pi and -pi are the same angle
            EXPECT_NEAR(std::remainder(wrapped - ref, 2 * kPi), 0.0, 1e-12) << ms[i] << " " << k;
        }
    }
}

// The context-extension panel's numbers: every compared variant's frequencies, as the panel's data
// table (what its CSV export writes) holds them, against numpy.
TEST(ReferenceNumpy, ContextPanelVariants) {
    for (const char* preset : {"llama-3.1-8b", "qwen2.5-7b-yarn", "deepseek-v3", "gpt-oss", "llama-3.2-1b", "phi-3-mini-128k"}) {
        ParamSet p;
        p.set(P::preset, preset);
        p.set(P::compare, "linear,ntk,dynamic,yarn,llama3,longrope");
        p.validate();
        figures::FigureCache cache;
        figures::FigureRequest request;
        request.figure = &figures::figure("context");
        request.with_table = true;
        const figures::FigureResult fig = figures::build_figure(request, p, cache);
        const figures::DataTable& t = fig.table;
        json cases = json::array();
        std::vector<std::string> columns;
        for (const char* v : {"none", "linear", "ntk", "dynamic", "yarn", "llama3", "longrope"}) {
            ParamSet q = p;
            q.set(P::scaling, v);
            cases.push_back({{"kind", "freqs"}, {"config", to_json_config(q)}});
            columns.push_back(q.value_text(P::scaling) == p.value_text(P::scaling) ? "theta" : std::string("theta_") + v);
        }
        columns[0] = "original_theta";
        const json results = rope::test::run_python_reference(ROPE_REFERENCE_SCRIPT, cases);
        for (std::size_t c = 0; c < columns.size(); ++c) {
            const auto col = std::find(t.columns.begin(), t.columns.end(), columns[c]);
            ASSERT_NE(col, t.columns.end()) << preset << " " << columns[c];
            const std::vector<double>& got = t.values[static_cast<std::size_t>(col - t.columns.begin())];
            const auto& want = results[c]["theta"];
            ASSERT_EQ(got.size(), want.size()) << preset << " " << columns[c];
            for (std::size_t i = 0; i < got.size(); ++i)
                EXPECT_NEAR(got[i], want[i].get<double>(), 1e-14 * want[i].get<double>()) << preset << " " << columns[c] << " pair " << i;
        }
    }
}

// d = 128, L = 4096 (Llama 2): the true smallest base, 26952, sits on an island about 20 wide; numpy
// agrees it is feasible and that no base on a fine grid below it is.
TEST(ReferenceNumpy, BaseLowerBoundIslandOfLlama2) {
    const double bound = base_lower_bound(128, 4096);
    json grid = json::array();
    for (int k = 0; k < 400; ++k) grid.push_back(bound / 1.1 * std::pow(1.1 * (1 - 1e-6), k / 399.0));  // bound/1.1 .. just below
    const json results = rope::test::run_python_reference(ROPE_REFERENCE_SCRIPT, json::array({{{"kind", "base_feasible"}, {"bases", json::array({bound})}, {"rotated", 128}, {"context", 4096}},
                                                    {{"kind", "base_feasible"}, {"bases", grid}, {"rotated", 128}, {"context", 4096}}}));
    EXPECT_NEAR(bound, 26952.34, 0.01);
    EXPECT_TRUE(results[0]["feasible"][0].get<bool>()) << "bound " << bound << " is not feasible in numpy";
    for (std::size_t k = 0; k < grid.size(); ++k)
        EXPECT_FALSE(results[1]["feasible"][k].get<bool>()) << "numpy finds base " << grid[k] << " < bound " << bound << " feasible";
}

// Men et al.: sum_i cos(m theta_i) and its first negative m; the lower bound of the base is feasible
// and no base below it on a fine grid is (the feasible set is not an interval).
TEST(ReferenceNumpy, CosineSumAndBaseLowerBound) {
    const Eigen::VectorXd theta = base_frequencies(10000, 128);
    std::vector<double> mine(4097);
    cosine_sum(theta, 0, 4097, mine.data());
    const json th(std::vector<double>(theta.data(), theta.data() + theta.size()));
    const int d = 32;
    const std::int64_t context = 2000;
    const double bound = base_lower_bound(d, context);
    json grid = json::array();
    for (int k = 0; k < 600; ++k) grid.push_back(2.0 * std::pow(bound * 0.9999 / 2.0, k / 599.0));  // 2 .. just below
    const json results = rope::test::run_python_reference(ROPE_REFERENCE_SCRIPT, json::array({{{"kind", "cosine_sum"}, {"theta", th}, {"context", 4096}},
                                                    {{"kind", "base_feasible"}, {"bases", json::array({bound})}, {"rotated", d}, {"context", context}},
                                                    {{"kind", "base_feasible"}, {"bases", grid}, {"rotated", d}, {"context", context}}}));
    const auto& want = results[0]["values"];
    for (std::size_t m = 0; m < mine.size(); ++m) EXPECT_NEAR(mine[m], want[m].get<double>(), 1e-11) << "m = " << m;
    EXPECT_EQ(first_negative_position(theta, 4096), results[0]["first_negative"].get<std::int64_t>());
    EXPECT_EQ(first_negative_position(theta, 4096), 1707);  // base 10^4, d = 128: negative before 4096
    EXPECT_TRUE(results[1]["feasible"][0].get<bool>()) << "bound " << bound << " is not feasible in numpy";
    for (std::size_t k = 0; k < grid.size(); ++k)
        EXPECT_FALSE(results[2]["feasible"][k].get<bool>()) << "numpy finds base " << grid[k] << " < bound " << bound << " feasible";
}

namespace {

// The heatmap figure's data table (its CSV) as built for an 800x480 file.
figures::DataTable heatmap_table(const std::vector<std::pair<std::string, std::string>>& sets) {
    ParamSet p;
    for (const auto& [k, v] : sets) p.set(k, v);
    p.validate();
    figures::FigureCache cache;
    figures::FigureRequest request;
    request.figure = &figures::figure("heatmap");
    request.with_table = true;
    return figures::build_figure(request, p, cache).table;
}

std::size_t column(const figures::DataTable& t, const std::string& name) {
    const auto at = std::find(t.columns.begin(), t.columns.end(), name);
    if (at == t.columns.end()) throw std::runtime_error("no column " + name);
    return static_cast<std::size_t>(at - t.columns.begin());
}

}  // namespace

// Every heatmap cell is the mean of e^{i m theta} over the positions (and pairs) it covers: numpy
// sums it position by position for sampled cells at d = 16 over 4096 positions, 1M positions, a
// zoomed range and cells holding several pairs (512 pairs in fewer pixel rows).
TEST(ReferenceNumpy, HeatmapCellsAreMeansOverTheirPositions) {
    const std::vector<std::vector<std::pair<std::string, std::string>>> states = {
        {{"dim", "16"}, {"max_position", "4096"}},
        {{"dim", "128"}, {"max_position", "1048576"}},
        {{"dim", "64"}, {"max_position", "1048576"}, {"heatmap_from", "500000"}, {"heatmap_to", "510017"}},
        {{"dim", "1024"}, {"max_position", "65536"}, {"heatmap_mode", "cos"}},
    };
    for (const auto& state : states) {
        const figures::DataTable t = heatmap_table(state);
        ParamSet p;
        for (const auto& [k, v] : state) p.set(k, v);
        const FrequencyTable f = compute_frequencies(p.config());
        const std::vector<double> theta(f.theta.data(), f.theta.data() + f.theta.size());
        const std::size_t p0 = column(t, "position_from"), p1 = column(t, "position_to"), k0 = column(t, "pair_from"),
                          k1 = column(t, "pair_to"), mc = column(t, "mean_cos"), ms = column(t, "mean_sin");
        json cells = json::array();
        std::vector<std::size_t> rows;
        const std::size_t step = std::max<std::size_t>(1, t.rows() / 61);
        for (std::size_t r = 0; r < t.rows(); r += step) {
            rows.push_back(r);
            cells.push_back({t.values[p0][r], t.values[p1][r], t.values[k0][r], t.values[k1][r]});
        }
        rows.push_back(t.rows() - 1);
        cells.push_back({t.values[p0].back(), t.values[p1].back(), t.values[k0].back(), t.values[k1].back()});
        const json results = rope::test::run_python_reference(ROPE_REFERENCE_SCRIPT, json::array({{{"kind", "cell_means"}, {"theta", theta}, {"cells", cells}}}));
        bool several_pairs = false;
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const std::size_t r = rows[i];
            several_pairs |= t.values[k1][r] - t.values[k0][r] > 1;
            // fl(m theta) near 1e6 rad is 1e-10 from m theta: both sides carry that rounding
            EXPECT_NEAR(t.values[mc][r], results[0]["cos"][i].get<double>(), 1e-9) << cells[i].dump() << " " << state[0].second;
            EXPECT_NEAR(t.values[ms][r], results[0]["sin"][i].get<double>(), 1e-9) << cells[i].dump() << " " << state[0].second;
        }
        EXPECT_EQ(t.values[p0][0], state.size() > 2 && state[2].first == "heatmap_from" ? 500000.0 : 0.0);
        if (state[0].second == "1024") {
            EXPECT_TRUE(several_pairs) << "512 pairs should share pixel rows";
        }
    }
}

// Proportional RoPE (Gemma 4's full-attention layers) and ordinary partial rotary with the same
// fraction, against numpy written from transformers' _compute_proportional_rope_parameters, the
// partial_rotary_factor rope-init code and rotate_half: frequencies, rotated vectors (element-wise,
// matrix and complex forms), which dims pair and which turn, and q.k scores.
namespace {

struct LayoutCase {
    int dim;
    double fraction;
    double base;
    double factor;
};

std::vector<double> random_values(int n, unsigned seed) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    std::vector<double> v(static_cast<std::size_t>(n));
    for (double& x : v) x = u(gen);
    return v;
}

Eigen::VectorXd as_vector(const std::vector<double>& v) {
    return Eigen::Map<const Eigen::VectorXd>(v.data(), static_cast<Eigen::Index>(v.size()));
}

double max_abs_difference(const Eigen::VectorXd& a, const json& b) {
    double worst = 0.0;
    for (Eigen::Index i = 0; i < a.size(); ++i) worst = std::max(worst, std::abs(a[i] - b[static_cast<std::size_t>(i)].get<double>()));
    return worst;
}

}  // namespace

TEST(ReferenceNumpy, ProportionalAndPartialRotaryLayouts) {
    const std::vector<LayoutCase> shapes = {{512, 0.25, 1e6, 1.0},  // Gemma 4 global: 64 live + 192 zeros
                                            {10, 0.3, 1e4, 1.0},   // int(0.3 * 10 // 2) = 1 live pair
                                            {256, 0.25, 1e6, 2.0},  // inv_freq /= factor
                                            {128, 1.0, 1e4, 1.0},   // everything turns
                                            {96, 0.4, 5e5, 1.0}};
    const std::vector<double> positions = {0, 1, 7, 1000, 123456};
    const std::vector<std::pair<double, double>> score_at = {{0, 0}, {0, 5}, {3, 8}, {100, 105}, {4000, 4100}, {7, 2}};
    json cases = json::array();
    struct Expected {
        RopeConfig config;
        RotaryLayout layout;
        std::vector<double> x, q, k;
    };
    std::vector<Expected> expected;
    unsigned seed = 10;
    for (const LayoutCase& s : shapes) {
        for (RotaryLayout layout : {RotaryLayout::proportional, RotaryLayout::partial}) {
            for (Pairing pairing : {Pairing::half, Pairing::interleaved}) {
                RopeConfig c = layout_config(layout, s.dim, s.fraction, s.base, pairing);
                c.factor = s.factor;
                if (s.factor > 1.0 && layout == RotaryLayout::partial) c.scaling = Scaling::linear;
                Expected e{c, layout, random_values(s.dim, seed), random_values(s.dim, seed + 1), random_values(s.dim, seed + 2)};
                seed += 3;
                json at = json::array();
                for (const auto& [m, n] : score_at) at.push_back({m, n});
                cases.push_back({{"kind", "layout"},
                                 {"layout", layout == RotaryLayout::proportional ? "proportional" : "partial"},
                                 {"head_dim", s.dim}, {"fraction", s.fraction}, {"base", s.base}, {"factor", s.factor},
                                 {"pairing", pairing == Pairing::half ? "half" : "interleaved"},
                                 {"x", e.x}, {"q", e.q}, {"k", e.k}, {"positions", positions},
                                 {"matrix_positions", s.dim <= 128 ? positions : std::vector<double>{}},
                                 {"score_at", at}});
                expected.push_back(e);
            }
        }
    }
    const json results = rope::test::run_python_reference(ROPE_REFERENCE_SCRIPT, cases);
    ASSERT_EQ(results.size(), expected.size());
    for (std::size_t c = 0; c < expected.size(); ++c) {
        const Expected& e = expected[c];
        const json& r = results[c];
        const std::string what = cases[c]["layout"].get<std::string>() + " " + cases[c]["pairing"].get<std::string>() +
                                 " d=" + std::to_string(e.config.dim) + " f=" + std::to_string(e.config.rotary_fraction);
        const FrequencyTable f = compute_frequencies(e.config);
        // frequencies: same count (d/2 for proportional, r/2 for partial), same values, zero tail
        ASSERT_EQ(static_cast<int>(r["theta"].size()), f.pairs()) << what;
        int live = 0;
        for (int i = 0; i < f.pairs(); ++i) {
            const double expect = r["theta"][static_cast<std::size_t>(i)].get<double>();
            EXPECT_LE(std::abs(f.theta[i] - expect), 1e-14 * std::abs(expect)) << what << " pair " << i;
            EXPECT_EQ(f.rotates(i), expect != 0.0) << what << " pair " << i;
            live += expect != 0.0;
        }
        EXPECT_EQ(f.rotating_pairs, live) << what;
        // which dims pair (numpy reads it off the rotation matrix) and which turn
        const LayoutTable table = layout_table(e.layout, e.config.dim, e.config.rotary_fraction, e.config.base, e.config.pairing);
        std::vector<int> partner(static_cast<std::size_t>(e.config.dim), -1);
        for (int i = 0; i < f.rotated_dims / 2; ++i) {
            const PairDims p = pair_dims(e.config.pairing, f.rotated_dims, i);
            partner[static_cast<std::size_t>(p.first)] = p.second;
            partner[static_cast<std::size_t>(p.second)] = p.first;
            EXPECT_EQ(r["moves"][static_cast<std::size_t>(p.first)].get<bool>(), f.rotates(i)) << what << " pair " << i;
        }
        EXPECT_EQ(partner, r["partner"].get<std::vector<int>>()) << what;
        EXPECT_EQ(table.partner, r["partner"].get<std::vector<int>>()) << what;
        // rotation in all three forms, and the per-dim tables
        const Eigen::VectorXd x = as_vector(e.x);
        for (std::size_t i = 0; i < positions.size(); ++i) {
            const double m = positions[i];
            const json& ref = r["rotated"][i];
            // numpy's pow is a few ulp off glibc's: the angle m*theta differs by ~m ulp of theta
            const double tol = 1e-12 * (1.0 + m / 1000.0);
            EXPECT_LE(max_abs_difference(rotate(f, e.config.pairing, x, m), ref), tol) << what << " m=" << m;
            EXPECT_LE(max_abs_difference(rotate_complex(f, e.config.pairing, x, m), ref), tol) << what << " m=" << m;
            EXPECT_LE(max_abs_difference(rotation_matrix(f, e.config.pairing, m) * x, ref), tol) << what << " m=" << m;
            if (e.config.factor == 1.0) {
                EXPECT_LE(max_abs_difference(rotate_with_tables(table, table, x, m), ref), tol) << what << " m=" << m;
            }
            if (i < r["matrices"].size()) {
                const Eigen::MatrixXd R = rotation_matrix(f, e.config.pairing, m);
                const Eigen::MatrixXd Rt = R.transpose();  // column-major storage of R^T = numpy's row-major ravel of R
                EXPECT_LE(max_abs_difference(Eigen::Map<const Eigen::VectorXd>(Rt.data(), Rt.size()), r["matrices"][i]), tol)
                    << what << " m=" << m;
            }
        }
        for (std::size_t i = 0; i < score_at.size(); ++i) {
            const double s = attention_score(f, e.config.pairing, as_vector(e.q), score_at[i].first, as_vector(e.k), score_at[i].second);
            EXPECT_NEAR(s, r["scores"][i].get<double>(), 1e-11) << what << " at " << score_at[i].first << "," << score_at[i].second;
        }
    }
}

// The proportional and the ordinary-partial layout of one head differ (what the porting bugs mix up):
// pinned against numpy so neither side can drift toward the other.
TEST(ReferenceNumpy, ProportionalIsNotOrdinaryPartial) {
    const json results = rope::test::run_python_reference(ROPE_REFERENCE_SCRIPT, json::array(
        {{{"kind", "layout"}, {"layout", "proportional"}, {"head_dim", 512}, {"fraction", 0.25}, {"base", 1e6}, {"pairing", "half"}, {"x", random_values(512, 1)}},
         {{"kind", "layout"}, {"layout", "partial"}, {"head_dim", 512}, {"fraction", 0.25}, {"base", 1e6}, {"pairing", "half"}, {"x", random_values(512, 1)}}}));
    const json& prop = results[0];
    const json& part = results[1];
    EXPECT_EQ(prop["theta"].size(), 256u);  // 64 live + 192 zeros
    EXPECT_EQ(part["theta"].size(), 64u);   // 64 live, exponent over the 128 rotated dims
    EXPECT_EQ(prop["theta"][64].get<double>(), 0.0);
    EXPECT_NE(prop["theta"][1].get<double>(), part["theta"][1].get<double>());
    EXPECT_EQ(prop["partner"][0].get<int>(), 256);
    EXPECT_EQ(part["partner"][0].get<int>(), 64);
    EXPECT_EQ(part["partner"][128].get<int>(), -1);
    ParamSet p;
    p.set(P::dim, "512");
    p.set(P::base, "1000000");
    p.set(P::rotary_fraction, "0.25");
    p.set(P::scaling, "proportional");
    p.set(P::pairing, "half");
    const FrequencyTable f = compute_frequencies(p.config());
    EXPECT_EQ(f.pairs(), 256);
    EXPECT_EQ(f.rotating_pairs, 64);
    EXPECT_EQ(pair_dims(Pairing::half, f.rotated_dims, 0).second, 256);
    EXPECT_LE(std::abs(f.theta[1] - prop["theta"][1].get<double>()), 1e-14 * f.theta[1]);
}

// Llama 4's NoPE temperature: transformers' log1p(floor((p + 1) / floor_scale)) * attn_scale + 1.
TEST(ReferenceNumpy, NopeAttentionTemperature) {
    const std::vector<std::int64_t> positions = {0, 1, 8190, 8191, 8192, 16382, 16383, 100000, 1000000, 10485759};
    for (const auto& [floor_scale, attn_scale] : std::vector<std::pair<std::int64_t, double>>{{8192, 0.1}, {4096, 0.25}, {1, 1.0}}) {
        const json r = rope::test::run_python_reference(ROPE_REFERENCE_SCRIPT, json::array(
            {{{"kind", "temperature"}, {"positions", positions}, {"floor_scale", floor_scale}, {"attn_scale", attn_scale}}}));
        for (std::size_t i = 0; i < positions.size(); ++i)
            EXPECT_NEAR(nope_attention_scale(positions[i], floor_scale, attn_scale), r[0]["scale"][i].get<double>(), 1e-15 * r[0]["scale"][i].get<double>() * 2)
                << positions[i] << " floor_scale " << floor_scale;
    }
    EXPECT_EQ(nope_attention_scale(8190, 8192, 0.1), 1.0);
    EXPECT_NEAR(nope_attention_scale(8191, 8192, 0.1), 1.0 + 0.1 * std::log(2.0), 1e-15);
}
