// Video position ids and VideoRoPE's layout against an independent numpy implementation written the
// way the models' code does it (tests/reference/video_reference.py: transformers' get_rope_index of
// Qwen2-VL, Qwen's get_rope_index_25 for Qwen2.5-VL with the float32 product torch computes and the
// transformers 4.52-5.x integer cast, Qwen3-VL's processor timestamps and per-frame layout,
// VideoRoPE's get_t_scale_rope_index and apply_m_modify_multimodal_rotary_pos_emb): every token's kind,
// temporal patch and (t, h, w), the pairs' axes, and the similarity of a query patch to every token.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <random>

#include "rope/frequencies.hpp"
#include "rope/video_positions.hpp"
#include "support/process.hpp"
#include "support/python_reference.hpp"

using namespace rope;
using nlohmann::json;

namespace {

json case_of(const VideoSpec& s) {
    return {{"kind", "video_index"},  {"rule", s.diagonal ? std::string("videorope") : std::string(to_string(s.rule))},
            {"text_before", s.text_before}, {"rows", s.rows}, {"cols", s.cols}, {"frames", s.frames},
            {"temporal_patch_size", s.temporal_patch_size}, {"fps", s.fps}, {"tokens_per_second", s.tokens_per_second},
            {"text_after", s.text_after}, {"int_bug", s.integer_seconds_bug}, {"spacing", s.spacing}};
}

std::string describe(const VideoSpec& s) {
    return std::string(s.diagonal ? "videorope" : to_string(s.rule)) + " F=" + std::to_string(s.frames) + " p=" +
           std::to_string(s.temporal_patch_size) + " fps=" + std::to_string(s.fps) + " tps=" + std::to_string(s.tokens_per_second) +
           (s.integer_seconds_bug ? " (int bug)" : "") + " " + std::to_string(s.rows) + "x" + std::to_string(s.cols) + " text " +
           std::to_string(s.text_before) + "+" + std::to_string(s.text_after);
}

std::vector<VideoSpec> specs() {
    std::vector<VideoSpec> out;
    auto add = [&](VideoTimeIds rule, int frames, int patch, double fps, double tps, int rows, int cols, int before, int after,
                   bool bug = false, bool diagonal = false, double spacing = 2) {
        VideoSpec s;
        s.rule = rule, s.frames = frames, s.temporal_patch_size = patch, s.fps = fps, s.tokens_per_second = tps;
        s.rows = rows, s.cols = cols, s.text_before = before, s.text_after = after, s.integer_seconds_bug = bug;
        s.diagonal = diagonal, s.spacing = spacing;
        out.push_back(s);
    };
    using V = VideoTimeIds;
    add(V::frame_index, 8, 2, 2, 2, 3, 4, 3, 2);
    add(V::frame_index, 7, 2, 2, 2, 2, 5, 0, 0);     // an odd frame count: the last frame repeated
    add(V::frame_index, 31, 2, 2, 2, 1, 1, 5, 3);    // more temporal patches than rows or columns
    add(V::seconds, 8, 2, 2, 2, 3, 4, 3, 2);
    add(V::seconds, 9, 2, 0.84, 2, 2, 3, 1, 4);      // fractional seconds x tokens_per_second
    add(V::seconds, 13, 2, 0.25, 2, 4, 4, 2, 2);
    add(V::seconds, 21, 2, 3, 2, 2, 2, 2, 1);        // fps > 2: second_per_grid_t < 1
    add(V::seconds, 21, 2, 3, 2, 2, 2, 2, 1, true);  // ... and the integer cast: every patch at s
    add(V::seconds, 17, 2, 0.84, 2, 3, 3, 3, 3, true);
    add(V::seconds, 10, 3, 1.7, 4, 2, 2, 0, 1);
    add(V::seconds, 48, 2, 0.5, 2, 1, 2, 2, 2);
    add(V::timestamps, 8, 2, 2, 2, 3, 4, 3, 2);
    add(V::timestamps, 7, 2, 0.84, 2, 2, 3, 1, 1);   // odd frames, fractional fps
    add(V::timestamps, 64, 2, 0.5, 2, 2, 2, 0, 2);   // timestamps past 10 and 100 seconds: more digits
    add(V::timestamps, 5, 3, 1, 2, 1, 4, 2, 0);
    add(V::frame_index, 8, 2, 2, 2, 4, 5, 3, 2, false, true, 2);   // VideoRoPE: spacing 2, even rows
    add(V::frame_index, 5, 2, 2, 2, 3, 3, 2, 2, false, true, 1);
    add(V::frame_index, 9, 2, 2, 2, 2, 6, 1, 3, false, true, 0.5); // fractional spacing
    return out;
}

}  // namespace

TEST(VideoNumpy, PositionIdsKindsAndFramesMatchTheModelsCode) {
    const std::vector<VideoSpec> all = specs();
    json cases = json::array();
    for (const VideoSpec& s : all) cases.push_back(case_of(s));
    const json ref = rope::test::run_python_reference(ROPE_VIDEO_REFERENCE_SCRIPT, cases);
    ASSERT_EQ(ref.size(), all.size());
    for (std::size_t c = 0; c < all.size(); ++c) {
        const std::vector<SequenceToken> mine = video_sequence(all[c]);
        const json& want = ref[c];
        ASSERT_EQ(mine.size(), want["ids"].size()) << describe(all[c]);
        for (std::size_t i = 0; i < mine.size(); ++i) {
            const SequenceToken& t = mine[i];
            const json& id = want["ids"][i];
            ASSERT_EQ(t.id.t, id[0].get<double>()) << describe(all[c]) << " token " << i;
            ASSERT_EQ(t.id.h, id[1].get<double>()) << describe(all[c]) << " token " << i;
            ASSERT_EQ(t.id.w, id[2].get<double>()) << describe(all[c]) << " token " << i;
            ASSERT_EQ(std::string(enum_name(t.kind)), want["kinds"][i].get<std::string>()) << describe(all[c]) << " token " << i;
            const int frame = want["frames"][i].is_null() ? -1 : want["frames"][i].get<int>();
            ASSERT_EQ(t.frame, frame) << describe(all[c]) << " token " << i;
        }
    }
}

TEST(VideoNumpy, SecondsTruncateAfterTheProductAndTheBugCollapsesTime) {
    // fps 3: second_per_grid_t = 2/3 < 1, so the integer cast gives every temporal patch t = s, where
    // the product truncated after it steps 0, 1, 2, 4, 5, 6, ...
    VideoSpec s;
    s.rule = VideoTimeIds::seconds;
    s.fps = 3;
    s.frames = 12;
    s.rows = s.cols = 1;
    s.text_before = s.text_after = 0;
    s.integer_seconds_bug = true;
    for (int k = 0; k < temporal_patches(s); ++k) EXPECT_EQ(seconds_offset(s, k), 0) << k;
    s.integer_seconds_bug = false;
    const std::vector<std::int64_t> want = {0, 1, 2, 4, 5, 6};
    for (int k = 0; k < 6; ++k) EXPECT_EQ(seconds_offset(s, k), want[static_cast<std::size_t>(k)]) << k;
}

TEST(VideoNumpy, VideoRopeGivesTheSlowestPairsToTimeAsItsCodeDoes) {
    const std::vector<MropeSection> sections = {{16, 24, 24}, {24, 20, 20}, {8, 12, 12}, {2, 3, 3}};
    json cases = json::array();
    for (const MropeSection& s : sections) cases.push_back({{"kind", "videorope_axes"}, {"section", {s[0], s[1], s[2]}}});
    const json ref = rope::test::run_python_reference(ROPE_VIDEO_REFERENCE_SCRIPT, cases);
    for (std::size_t c = 0; c < sections.size(); ++c) {
        const MropeSection& s = sections[c];
        const int pairs = s[0] + s[1] + s[2];
        const AxisLayout layout = videorope_layout(base_frequencies(1e6, 2 * pairs), s);
        ASSERT_EQ(static_cast<int>(ref[c]["axes"].size()), pairs);
        for (int j = 0; j < pairs; ++j)
            EXPECT_EQ(std::string(to_string(layout.axis[static_cast<std::size_t>(j)])), ref[c]["axes"][static_cast<std::size_t>(j)].get<std::string>())
                << "section " << s[0] << "," << s[1] << "," << s[2] << " pair " << j;
        EXPECT_EQ(layout.count(PositionAxis::t), s[0]);  // the slowest s_t pairs
        for (int j = pairs - s[0]; j < pairs; ++j) EXPECT_EQ(layout.axis[static_cast<std::size_t>(j)], PositionAxis::t);
    }
}

TEST(VideoNumpy, SimilarityOverFramesMatches) {
    std::mt19937 gen(7);
    std::normal_distribution<double> normal;
    Eigen::VectorXd q(64), k(64);
    for (int i = 0; i < 64; ++i) q[i] = normal(gen), k[i] = normal(gen);
    const Eigen::VectorXd theta = base_frequencies(1e6, 64);
    struct Layout {
        const char* name;
        AxisLayout layout;
        bool diagonal;
    };
    const std::vector<Layout> layouts = {{"chunked", mrope_layout(theta, {8, 12, 12}, false), false},
                                         {"interleaved", mrope_layout(theta, {12, 10, 10}, true), false},
                                         {"videorope", videorope_layout(theta, {8, 12, 12}), true}};
    for (const Layout& l : layouts) {
        for (VideoTimeIds rule : {VideoTimeIds::frame_index, VideoTimeIds::seconds, VideoTimeIds::timestamps}) {
            VideoSpec s;
            s.rule = rule;
            s.frames = 9;
            s.fps = 0.84;
            s.rows = 3, s.cols = 4;
            s.diagonal = l.diagonal;
            const std::vector<SequenceToken> tokens = video_sequence(s);
            std::size_t query = 0;
            while (!(tokens[query].kind == TokenKind::video && tokens[query].frame == 2 && tokens[query].row == 1 && tokens[query].col == 2)) ++query;
            json ids = json::array(), axes = json::array();
            for (const SequenceToken& t : tokens) ids.push_back({t.id.t, t.id.h, t.id.w});
            for (PositionAxis a : l.layout.axis) axes.push_back(std::string(to_string(a)));
            const json ref = rope::test::run_python_reference(ROPE_VIDEO_REFERENCE_SCRIPT, json::array({{{"kind", "video_scores"}, {"head_dim", 64}, {"base", 1e6}, {"axes", axes},
                                                         {"ids", ids}, {"q", std::vector<double>(q.data(), q.data() + 64)},
                                                         {"k", std::vector<double>(k.data(), k.data() + 64)}, {"query", query}}}));
            const std::vector<double> mine = sequence_similarity(l.layout, Pairing::half, q, k, tokens, query);
            for (std::size_t i = 0; i < tokens.size(); ++i)
                ASSERT_NEAR(mine[i], ref[0]["similarity"][i].get<double>(), 1e-12) << l.name << " " << to_string(rule) << " token " << i;
        }
    }
}

// The budget's closed forms against the sequences themselves (ids: where the text after resumes).
TEST(VideoCost, ClosedFormsAgreeWithTheSequence) {
    for (const VideoSpec& base : specs()) {
        VideoSpec s = base;
        s.text_before = 0;
        s.text_after = 1;
        const std::vector<SequenceToken> tokens = video_sequence(s);
        const VideoCost c = video_cost(s);
        EXPECT_EQ(c.tokens, static_cast<std::int64_t>(tokens.size()) - 1) << describe(s);
        EXPECT_EQ(c.ids, tokens.back().id.t) << describe(s);
    }
}

TEST(VideoCost, PatchIdsAndIndicesAndTheBudgetAgreeWithTheSequence) {
    for (const VideoSpec& s : specs()) {
        const std::vector<SequenceToken> tokens = video_sequence(s);
        for (std::size_t i = 0; i < tokens.size(); ++i) {
            const SequenceToken& t = tokens[i];
            if (t.kind != TokenKind::video) continue;
            const PositionId id = video_patch_id(s, t.frame, t.row, t.col);
            ASSERT_EQ(id.t, t.id.t) << describe(s) << " token " << i;
            ASSERT_EQ(id.h, t.id.h) << describe(s) << " token " << i;
            ASSERT_EQ(id.w, t.id.w) << describe(s) << " token " << i;
            ASSERT_EQ(video_patch_index(s, t.frame, t.row, t.col), static_cast<std::int64_t>(i)) << describe(s);
        }
        // the budget's curves: seconds that give these frames
        VideoSpec one = s;
        one.text_before = one.text_after = 0;
        const std::vector<VideoCost> many = video_costs(one, {s.frames / s.fps});
        const VideoCost c = video_cost(one);
        EXPECT_EQ(many[0].tokens, c.tokens) << describe(s);
        EXPECT_EQ(many[0].ids, c.ids) << describe(s);
    }
}

// The token count of "<t seconds>" without formatting t (the fast path) equals the count from the
// text itself, at every tenth up to 100000 s, at values a hair either side of each rounding
// boundary (x.x5, 9.95, 99.95, ...), and at the timestamps of real specs.
TEST(VideoCost, TimestampTokensEqualTheFormattedTextsLength) {
    auto from_text = [](double t) { return static_cast<int>(timestamp_text(t).size()) - 7; };  // "<", ".", the tenth, " seconds>": digits + 12
    std::vector<double> values;
    for (int i = 0; i <= 1000000; ++i) values.push_back(i / 10.0);
    for (double p = 1; p <= 1e7; p *= 10)
        for (double d : {-0.05, -0.05 + 1e-12, -0.05 - 1e-12, -0.1, -0.0500000001, -0.04999999, 0.0})
            for (double x = p + d, k = 0; k < 3; ++k, x = std::nextafter(x, 1e9)) values.push_back(x);
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> any(0, 1e6);
    for (int i = 0; i < 200000; ++i) values.push_back(any(rng));
    for (double fps : {1.0, 2.0, 3.0, 23.976, 29.97}) {
        VideoSpec s;
        s.fps = fps;
        s.frames = 1 << 20;
        for (int k = 0; k < 50000; ++k) values.push_back(timestamp_seconds(s, k));
    }
    for (double t : values) ASSERT_EQ(timestamp_tokens(t), from_text(t)) << std::setprecision(17) << t << " " << timestamp_text(t);
}
