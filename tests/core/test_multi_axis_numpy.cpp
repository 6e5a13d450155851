// RoPE on several position axes against an independent numpy implementation written the way the
// models' code does it (tests/reference/mrope_reference.py: transformers' get_rope_index, Qwen2-VL's
// apply_multimodal_rotary_pos_emb, Qwen3-VL's apply_interleaved_mrope, rope-vit's compute_axial_cis,
// Pixtral's rotary table): position ids, per-pair angles, scores and patch similarities, and the
// frequency spread each M-RoPE layout gives each axis.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <set>

#include "rope/frequencies.hpp"
#include "rope/multi_axis.hpp"
#include "rope/params.hpp"
#include "rope/rotation.hpp"
#include "support/process.hpp"
#include "support/random_vector.hpp"
#include "support/python_reference.hpp"

using namespace rope;
using nlohmann::json;

namespace {

std::vector<double> to_std(const Eigen::VectorXd& v) { return std::vector<double>(v.data(), v.data() + v.size()); }

// numpy's pow is a few ulp off glibc's: angles and frequencies agree to ~1e-14 relative
void expect_close(double core, double numpy, double scale, const std::string& what) {
    EXPECT_NEAR(core, numpy, 1e-12 * std::max({1.0, std::abs(numpy), scale})) << what;
}

struct MropeCase {
    int head_dim;
    double base;
    MropeSection section;
    bool interleaved;
};

const std::vector<MropeCase>& mrope_cases() {
    static const std::vector<MropeCase> cases = {
        {128, 1e6, {16, 24, 24}, false},  // Qwen2-VL-7B, Qwen2.5-VL-7B
        {128, 5e6, {24, 20, 20}, true},   // Qwen3-VL-8B
        {64, 1e4, {8, 12, 12}, false},
        {96, 1e4, {16, 16, 16}, true},    // every third pair to h and to w, none left for t at the end
        {128, 1e6, {0, 32, 32}, false},   // no t pairs at all
        {128, 5e6, {40, 12, 12}, true},   // a long tail of t pairs
        {16, 100, {3, 3, 2}, true},
    };
    return cases;
}

json mrope_json(const MropeCase& c, const std::vector<SequenceToken>& tokens, Pairing pairing, const Eigen::VectorXd& q,
                const Eigen::VectorXd& k) {
    json ids = json::array();
    for (const SequenceToken& t : tokens) ids.push_back({t.id.t, t.id.h, t.id.w});
    return {{"kind", "mrope"}, {"head_dim", c.head_dim}, {"base", c.base}, {"section", c.section},
            {"interleaved", c.interleaved}, {"pairing", pairing == Pairing::half ? "half" : "interleaved"},
            {"ids", ids}, {"q", to_std(q)}, {"k", to_std(k)}};
}

AxisLayout core_mrope(const MropeCase& c) { return mrope_layout(base_frequencies(c.base, c.head_dim), c.section, c.interleaved); }

std::set<int> indices(const json& list) {
    std::set<int> s;
    for (const auto& v : list) s.insert(v.get<int>());
    return s;
}

std::set<int> core_axis_set(const AxisLayout& l, PositionAxis a) {
    std::set<int> s;
    for (int j = 0; j < l.pairs(); ++j)
        if (l.axis[static_cast<std::size_t>(j)] == a) s.insert(j);
    return s;
}

}  // namespace

TEST(MultiAxisNumpy, PositionIdsMatchGetRopeIndex) {
    const std::vector<std::array<int, 4>> sequences = {{3, 2, 3, 2}, {0, 1, 1, 0}, {0, 4, 2, 5}, {5, 1, 7, 0},
                                                       {1, 12, 16, 2}, {2, 7, 3, 4}, {0, 3, 3, 3}, {64, 5, 1, 64}};
    json cases = json::array();
    for (const auto& s : sequences)
        cases.push_back({{"kind", "rope_index"}, {"text_before", s[0]}, {"rows", s[1]}, {"cols", s[2]}, {"text_after", s[3]}});
    const json results = rope::test::run_python_reference(ROPE_MROPE_REFERENCE_SCRIPT, cases);
    ASSERT_EQ(results.size(), sequences.size());
    for (std::size_t n = 0; n < sequences.size(); ++n) {
        const auto& s = sequences[n];
        const std::vector<SequenceToken> tokens = mrope_sequence(s[0], s[1], s[2], s[3]);
        const json& ids = results[n]["ids"];
        ASSERT_EQ(tokens.size(), ids.size()) << cases[n].dump();
        int patch = 0;
        for (std::size_t i = 0; i < tokens.size(); ++i) {
            const SequenceToken& t = tokens[i];
            EXPECT_EQ(t.id.t, ids[i][0].get<std::int64_t>()) << cases[n].dump() << " token " << i;
            EXPECT_EQ(t.id.h, ids[i][1].get<std::int64_t>()) << cases[n].dump() << " token " << i;
            EXPECT_EQ(t.id.w, ids[i][2].get<std::int64_t>()) << cases[n].dump() << " token " << i;
            EXPECT_EQ(t.kind == TokenKind::image ? "image" : "text", results[n]["kinds"][i].get<std::string>());
            if (t.kind == TokenKind::image) {  // the processor's row-major patch order
                EXPECT_EQ(t.row, patch / s[2]);
                EXPECT_EQ(t.col, patch % s[2]);
                ++patch;
            }
        }
        EXPECT_EQ(patch, s[1] * s[2]);
    }
}

TEST(MultiAxisNumpy, MropeAnglesCosSinAndScoresOfTextAndPatchTokens) {
    const std::vector<SequenceToken> tokens = mrope_sequence(3, 4, 5, 2);
    json cases = json::array();
    std::vector<std::pair<Eigen::VectorXd, Eigen::VectorXd>> qk;
    for (std::size_t n = 0; n < mrope_cases().size(); ++n) {
        const MropeCase& c = mrope_cases()[n];
        for (Pairing pairing : {Pairing::half, Pairing::interleaved}) {
            const auto seed = static_cast<unsigned>(10 * n + (pairing == Pairing::half ? 1 : 2));
            qk.emplace_back(rope::test::random_normal_vector(c.head_dim, seed), rope::test::random_normal_vector(c.head_dim, seed + 100));
            json j = mrope_json(c, tokens, pairing, qk.back().first, qk.back().second);
            json at = json::array();
            for (std::size_t a = 0; a < tokens.size(); ++a)
                for (std::size_t b = 0; b < tokens.size(); ++b) at.push_back({a, b});
            j["score_at"] = at;
            cases.push_back(j);
        }
    }
    const json results = rope::test::run_python_reference(ROPE_MROPE_REFERENCE_SCRIPT, cases);
    ASSERT_EQ(results.size(), cases.size());
    for (std::size_t n = 0; n < cases.size(); ++n) {
        const MropeCase& c = mrope_cases()[n / 2];
        const Pairing pairing = n % 2 == 0 ? Pairing::half : Pairing::interleaved;
        const json& r = results[n];
        const AxisLayout l = core_mrope(c);
        const std::string what = cases[n]["section"].dump() + (c.interleaved ? " interleaved" : " chunked");
        ASSERT_EQ(l.pairs(), static_cast<int>(r["theta"].size())) << what;
        for (int j = 0; j < l.pairs(); ++j) expect_close(l.theta[j], r["theta"][j].get<double>(), 0, what + " theta");
        EXPECT_EQ(core_axis_set(l, PositionAxis::t), indices(r["axes"]["t"])) << what;
        EXPECT_EQ(core_axis_set(l, PositionAxis::h), indices(r["axes"]["h"])) << what;
        EXPECT_EQ(core_axis_set(l, PositionAxis::w), indices(r["axes"]["w"])) << what;
        // per token and pair: theta_j * the position along the pair's axis; the model's cos/sin at both dims of the pair
        const int d = c.head_dim;
        for (std::size_t i = 0; i < tokens.size(); ++i) {
            for (int j = 0; j < l.pairs(); ++j) {
                const PositionAxis axis = l.axis[static_cast<std::size_t>(j)];
                const double angle = l.theta[j] * static_cast<double>(tokens[i].id.along(axis));
                const std::string at = what + " token " + std::to_string(i) + " pair " + std::to_string(j);
                expect_close(angle, r["angles"][i][j].get<double>(), 0, at);
                const auto [x, y] = pair_dims(Pairing::half, d, j);  // the models' rotate_half layout
                EXPECT_NEAR(std::cos(angle), r["cos"][i][x].get<double>(), 1e-12) << at;
                EXPECT_NEAR(std::cos(angle), r["cos"][i][y].get<double>(), 1e-12) << at;
                EXPECT_NEAR(std::sin(angle), r["sin"][i][x].get<double>(), 1e-12) << at;
                EXPECT_NEAR(std::sin(angle), r["sin"][i][y].get<double>(), 1e-12) << at;
            }
        }
        const auto& [q, k] = qk[n];
        const double scale = q.norm() * k.norm();
        std::size_t s = 0;
        for (std::size_t a = 0; a < tokens.size(); ++a)
            for (std::size_t b = 0; b < tokens.size(); ++b, ++s)
                EXPECT_NEAR(multi_axis_score(l, pairing, q, tokens[a].id, k, tokens[b].id), r["scores"][s].get<double>(), 1e-12 * scale)
                    << what << " q at " << a << " k at " << b;
    }
}

TEST(MultiAxisNumpy, MropePatchSimilarityOnGrids) {
    struct Grid {
        int rows, cols, qr, qc;
    };
    const std::vector<Grid> grids = {{1, 1, 0, 0}, {4, 5, 2, 2}, {12, 16, 6, 8}, {7, 3, 0, 2}, {3, 9, 2, 0}, {16, 16, 15, 15}};
    json cases = json::array();
    struct Run {
        MropeCase c;
        Pairing pairing;
        Grid g;
        Eigen::VectorXd q, k;
    };
    std::vector<Run> runs;
    unsigned seed = 7;
    for (const MropeCase& c : mrope_cases())
        for (Pairing pairing : {Pairing::half, Pairing::interleaved})
            for (const Grid& g : grids) {
                runs.push_back({c, pairing, g, rope::test::random_normal_vector(c.head_dim, seed), rope::test::random_normal_vector(c.head_dim, seed + 1)});
                seed += 2;
                json j = mrope_json(c, {}, pairing, runs.back().q, runs.back().k);
                j["grid"] = {{"rows", g.rows}, {"cols", g.cols}, {"query", {g.qr, g.qc}}};
                cases.push_back(j);
            }
    const json results = rope::test::run_python_reference(ROPE_MROPE_REFERENCE_SCRIPT, cases);
    ASSERT_EQ(results.size(), runs.size());
    for (std::size_t n = 0; n < runs.size(); ++n) {
        const Run& run = runs[n];
        const Eigen::MatrixXd sim = patch_similarity(core_mrope(run.c), run.pairing, run.q, run.k, run.g.rows, run.g.cols, run.g.qr, run.g.qc);
        for (int r = 0; r < run.g.rows; ++r)
            for (int c = 0; c < run.g.cols; ++c)
                EXPECT_NEAR(sim(r, c), results[n]["similarity"][r][c].get<double>(), 1e-12) << cases[n].dump().substr(0, 160) << " at " << r << "," << c;
    }
}

TEST(MultiAxisNumpy, AxialAnglesAndSimilarityForEverySchedule) {
    struct Axial {
        AxialFrequencies schedule;
        const char* numpy_name;
        int dim;
        double base;
    };
    const std::vector<Axial> schedules = {
        {AxialFrequencies::per_axis, "heo", 64, 100},  {AxialFrequencies::per_axis, "heo", 32, 10000},
        {AxialFrequencies::alternating, "pixtral", 64, 10000}, {AxialFrequencies::alternating, "pixtral", 16, 100},
        {AxialFrequencies::split, "split", 64, 100},   {AxialFrequencies::split, "split", 8, 10000}};
    struct Grid {
        int rows, cols, qr, qc;
    };
    const std::vector<Grid> grids = {{14, 14, 7, 7}, {1, 6, 0, 3}, {5, 1, 4, 0}, {9, 13, 0, 12}};
    json cases = json::array();
    struct Run {
        Axial a;
        Pairing pairing;
        Grid g;
        Eigen::VectorXd q, k;
    };
    std::vector<Run> runs;
    unsigned seed = 500;
    for (const Axial& a : schedules)
        for (Pairing pairing : {Pairing::half, Pairing::interleaved})
            for (const Grid& g : grids) {
                runs.push_back({a, pairing, g, rope::test::random_normal_vector(a.dim, seed), rope::test::random_normal_vector(a.dim, seed + 1)});
                seed += 2;
                cases.push_back({{"kind", "axial"}, {"schedule", a.numpy_name}, {"head_dim", a.dim}, {"base", a.base},
                                 {"pairing", pairing == Pairing::half ? "half" : "interleaved"}, {"rows", g.rows}, {"cols", g.cols},
                                 {"query", {g.qr, g.qc}}, {"q", to_std(runs.back().q)}, {"k", to_std(runs.back().k)}});
            }
    const json results = rope::test::run_python_reference(ROPE_MROPE_REFERENCE_SCRIPT, cases);
    ASSERT_EQ(results.size(), runs.size());
    for (std::size_t n = 0; n < runs.size(); ++n) {
        const Run& run = runs[n];
        const std::string what = cases[n]["schedule"].get<std::string>() + " dim " + std::to_string(run.a.dim) + " " +
                                 cases[n]["pairing"].get<std::string>() + " grid " + std::to_string(run.g.rows) + "x" + std::to_string(run.g.cols);
        const AxisLayout l = axial_layout(run.a.schedule, run.a.base, run.a.dim);
        ASSERT_EQ(2 * l.pairs(), run.a.dim);
        EXPECT_EQ(l.count(PositionAxis::h), l.pairs() / 2) << what;
        EXPECT_EQ(l.count(PositionAxis::w), l.pairs() / 2) << what;
        EXPECT_EQ(l.count(PositionAxis::t), 0) << what;
        // angle of pair j at patch (row, col): theta_j times the column or the row
        for (int r = 0; r < run.g.rows; ++r)
            for (int c = 0; c < run.g.cols; ++c)
                for (int j = 0; j < l.pairs(); ++j) {
                    const double along = l.axis[static_cast<std::size_t>(j)] == PositionAxis::w ? c : r;
                    expect_close(l.theta[j] * along, results[n]["angles"][r * run.g.cols + c][j].get<double>(), 0,
                                 what + " patch " + std::to_string(r) + "," + std::to_string(c) + " pair " + std::to_string(j));
                }
        const Eigen::MatrixXd sim = patch_similarity(l, run.pairing, run.q, run.k, run.g.rows, run.g.cols, run.g.qr, run.g.qc);
        for (int r = 0; r < run.g.rows; ++r)
            for (int c = 0; c < run.g.cols; ++c)
                EXPECT_NEAR(sim(r, c), results[n]["similarity"][r][c].get<double>(), 1e-12) << what << " at " << r << "," << c;
    }
}

// The same through the parameter table, as the panels and the command line build their layouts.
TEST(MultiAxisNumpy, ParamSetAxisLayoutsMatchNumpy) {
    struct Setting {
        std::vector<std::pair<const char*, const char*>> sets;
        RopeAxes axes;
        bool interleaved;
        json numpy;
    };
    const Eigen::VectorXd q64 = rope::test::random_normal_vector(64, 1), k64 = rope::test::random_normal_vector(64, 2);
    const Eigen::VectorXd q128 = rope::test::random_normal_vector(128, 3), k128 = rope::test::random_normal_vector(128, 4);
    auto grid_case = [](json j) {
        j["grid"] = {{"rows", 6}, {"cols", 8}, {"query", {2, 5}}};
        return j;
    };
    auto axial_case = [&](const char* schedule, double base, const char* pairing) {
        return json{{"kind", "axial"}, {"schedule", schedule}, {"head_dim", 64}, {"base", base}, {"pairing", pairing},
                    {"rows", 6}, {"cols", 8}, {"query", {2, 5}}, {"q", to_std(q64)}, {"k", to_std(k64)}};
    };
    const std::vector<Setting> settings = {
        {{{"dim", "128"}, {"base", "1000000"}, {"rope_axes", "mrope"}, {"mrope_section", "16,24,24"}, {"pairing", "half"}}, RopeAxes::mrope, false,
         grid_case(mrope_json({128, 1e6, {16, 24, 24}, false}, {}, Pairing::half, q128, k128))},
        {{{"dim", "128"}, {"base", "5000000"}, {"rope_axes", "mrope"}, {"mrope_section", "24,20,20"}, {"mrope_interleaved", "true"}, {"pairing", "half"}},
         RopeAxes::mrope, true, grid_case(mrope_json({128, 5e6, {24, 20, 20}, true}, {}, Pairing::half, q128, k128))},
        // no mrope_section: Qwen's shares scaled to the head, [16, 24, 24] and [24, 20, 20] at 64 pairs
        {{{"dim", "128"}, {"base", "5000000"}, {"rope_axes", "mrope"}, {"pairing", "half"}}, RopeAxes::mrope, true,
         grid_case(mrope_json({128, 5e6, {24, 20, 20}, true}, {}, Pairing::half, q128, k128))},
        {{{"dim", "128"}, {"base", "1000000"}, {"rope_axes", "mrope"}, {"pairing", "interleaved"}}, RopeAxes::mrope, false,
         grid_case(mrope_json({128, 1e6, {16, 24, 24}, false}, {}, Pairing::interleaved, q128, k128))},
        {{{"dim", "64"}, {"base", "100"}, {"rope_axes", "2d_axial"}, {"axial_frequencies", "per_axis"}, {"pairing", "interleaved"}},
         RopeAxes::axial_2d, false, axial_case("heo", 100, "interleaved")},
        {{{"dim", "64"}, {"base", "10000"}, {"rope_axes", "2d_axial"}, {"axial_frequencies", "alternating"}, {"pairing", "half"}},
         RopeAxes::axial_2d, false, axial_case("pixtral", 10000, "half")},
        {{{"dim", "64"}, {"base", "10000"}, {"rope_axes", "2d_axial"}, {"axial_frequencies", "split"}, {"pairing", "half"}},
         RopeAxes::axial_2d, false, axial_case("split", 10000, "half")},
    };
    json cases = json::array();
    for (const Setting& s : settings) cases.push_back(s.numpy);
    const json results = rope::test::run_python_reference(ROPE_MROPE_REFERENCE_SCRIPT, cases);
    ASSERT_EQ(results.size(), settings.size());
    for (std::size_t n = 0; n < settings.size(); ++n) {
        ParamSet p;
        for (const auto& [k, v] : settings[n].sets) p.set(k, v);
        p.set(P::grid_rows, "6");
        p.set(P::grid_cols, "8");
        p.set(P::query_row, "2");
        p.set(P::query_col, "5");
        p.validate();
        const std::optional<AxisLayout> l = p.axis_layout(settings[n].axes, settings[n].interleaved);
        ASSERT_TRUE(l.has_value()) << n;
        const bool wide = p[P::dim] == 128;
        const auto [qr, qc] = p.query_patch();
        const Eigen::MatrixXd sim = patch_similarity(*l, p.config().pairing, wide ? q128 : q64, wide ? k128 : k64,
                                                     static_cast<int>(p[P::grid_rows]), static_cast<int>(p[P::grid_cols]), qr, qc);
        for (int r = 0; r < 6; ++r)
            for (int c = 0; c < 8; ++c)
                EXPECT_NEAR(sim(r, c), results[n]["similarity"][r][c].get<double>(), 1e-12) << "setting " << n << " at " << r << "," << c;
        if (settings[n].axes == RopeAxes::mrope) {
            EXPECT_EQ(core_axis_set(*l, PositionAxis::t), indices(results[n]["axes"]["t"])) << n;
            EXPECT_EQ(core_axis_set(*l, PositionAxis::w), indices(results[n]["axes"]["w"])) << n;
        }
    }
}

// The note's claim, with the axes' pair sets computed by numpy from the models' code: chunked
// [16, 24, 24] gives t only the 16 fastest pairs and w only the 24 slowest; interleaved [24, 20, 20]
// gives each of t, h, w pairs from the fastest and from the slowest eighth of the spectrum.
TEST(MultiAxisNumpy, FrequencySpreadOfChunkedAndInterleavedSections) {
    const Eigen::VectorXd dummy = Eigen::VectorXd::Ones(128);
    json cases = {mrope_json({128, 1e6, {16, 24, 24}, false}, {}, Pairing::half, dummy, dummy),
                  mrope_json({128, 5e6, {24, 20, 20}, true}, {}, Pairing::half, dummy, dummy)};
    const json results = rope::test::run_python_reference(ROPE_MROPE_REFERENCE_SCRIPT, cases);
    auto by_speed = [](const json& theta) {  // pair indices, fastest (largest theta) first
        std::vector<int> order(theta.size());
        for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return theta[a].get<double>() > theta[b].get<double>(); });
        return order;
    };
    // chunked
    {
        const json& r = results[0];
        const std::vector<int> order = by_speed(r["theta"]);
        const std::set<int> fastest16(order.begin(), order.begin() + 16), slowest24(order.end() - 24, order.end());
        EXPECT_EQ(indices(r["axes"]["t"]), fastest16);
        EXPECT_EQ(indices(r["axes"]["w"]), slowest24);
        const AxisLayout l = core_mrope({128, 1e6, {16, 24, 24}, false});
        EXPECT_EQ(core_axis_set(l, PositionAxis::t), fastest16);
        EXPECT_EQ(core_axis_set(l, PositionAxis::w), slowest24);
        // and so t has nothing from the slowest eighth, w nothing from the fastest
        const std::set<int> fast8(order.begin(), order.begin() + 8), slow8(order.end() - 8, order.end());
        for (int j : indices(r["axes"]["t"])) EXPECT_FALSE(slow8.count(j)) << j;
        for (int j : indices(r["axes"]["w"])) EXPECT_FALSE(fast8.count(j)) << j;
        // the spread the panels print: 2 pi / theta over numpy's sets
        const AxisSpread t = axis_spread(l, PositionAxis::t), w = axis_spread(l, PositionAxis::w);
        expect_close(t.shortest_wavelength, kTwoPi / r["theta"][order.front()].get<double>(), 0, "t shortest");
        expect_close(t.longest_wavelength, kTwoPi / r["theta"][order[15]].get<double>(), 0, "t longest");
        expect_close(w.shortest_wavelength, kTwoPi / r["theta"][order[40]].get<double>(), w.shortest_wavelength, "w shortest");
        expect_close(w.longest_wavelength, kTwoPi / r["theta"][order.back()].get<double>(), w.longest_wavelength, "w longest");
    }
    // interleaved
    {
        const json& r = results[1];
        const std::vector<int> order = by_speed(r["theta"]);
        const int eighth = static_cast<int>(order.size()) / 8;
        const std::set<int> fast(order.begin(), order.begin() + eighth), slow(order.end() - eighth, order.end());
        const AxisLayout l = core_mrope({128, 5e6, {24, 20, 20}, true});
        for (const char* axis : {"t", "h", "w"}) {
            const std::set<int> numpy_set = indices(r["axes"][axis]);
            const PositionAxis a = axis[0] == 't' ? PositionAxis::t : axis[0] == 'h' ? PositionAxis::h : PositionAxis::w;
            EXPECT_EQ(core_axis_set(l, a), numpy_set) << axis;
            EXPECT_TRUE(std::any_of(numpy_set.begin(), numpy_set.end(), [&](int j) { return fast.count(j) > 0; })) << axis;
            EXPECT_TRUE(std::any_of(numpy_set.begin(), numpy_set.end(), [&](int j) { return slow.count(j) > 0; })) << axis;
        }
    }
}
