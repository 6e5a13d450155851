// Error lines name the value they refuse. Every key of a lesson file (the lesson's, a step's, a
// question's), of a session (its parameters and view) and of a config.json (each key of real-shaped
// files, top level and rope_scaling) is given values of the wrong kind; each one refused is refused in
// one line that holds the value it got, so that a teacher or a reader sees what to change.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "lessons/lessons.hpp"
#include "rope/params.hpp"
#include "session/hf_config.hpp"
#include "session/session.hpp"

using nlohmann::json;

namespace {

// Wrong values of every JSON kind, each with the words its refusal may show (a list's refusal may name
// the item it refuses).
struct Wrong {
    json value;
    std::vector<std::string> shows;
};
const std::vector<Wrong>& wrong_values() {
    static const std::vector<Wrong> values = {
        {"zzq", {"zzq"}}, {4242.5, {"4242.5"}}, {-7, {"-7"}}, {json::array({42, "zzq"}), {"42", "zzq"}}, {true, {"true"}}, {json{{"zzq", 1}}, {"zzq"}},
        {nullptr, {"null"}},
    };
    return values;
}

// `parse` accepts the value, or refuses it in one line that shows it; a failed expectation names the key.
template <class Parse>
void expect_named(const std::string& key, const Wrong& wrong, const Parse& parse, int& refused) {
    try {
        parse();
    } catch (const rope::session::SessionError& e) {
        ++refused;
        const std::string line = e.what();
        EXPECT_EQ(line.find('\n'), std::string::npos) << key << "=" << wrong.value.dump() << ": " << line;
        EXPECT_TRUE(std::any_of(wrong.shows.begin(), wrong.shows.end(), [&](const std::string& w) { return line.find(w) != std::string::npos; }))
            << key << "=" << wrong.value.dump() << " refused without its value: " << line;
    }
}

json good_lesson() {
    return json::parse(R"({"version": 1, "title": "Mine", "steps": [
        {"title": "One", "text": "The pairs.", "panel": "vectors", "focus": "pair", "parameters": {"dim": 8}, "notes": "n",
         "question": {"ask": "Which?", "choices": ["a", "b"], "answer": "B", "why": "Because.", "before": {"dim": 4}}},
        {"title": "Two", "text": "A number.", "panel": "decay", "parameters": {"dim": 64},
         "question": {"ask": "Where?", "answer": 16.5, "tolerance": 0.5, "why": "(d/2 + 1)/2."}}]})");
}

}  // namespace

TEST(Refusals, EveryLessonFileKeyNamesTheValueItRefuses) {
    int refused = 0;
    const json good = good_lesson();
    ASSERT_NO_THROW(rope::lessons::parse_lesson(good.dump(), "mine.json"));
    std::vector<std::pair<std::string, json::json_pointer>> keys;
    for (const auto& [k, v] : good.items()) keys.push_back({k, json::json_pointer("/" + k)});
    for (int step = 0; step < 2; ++step) {
        const std::string at = "/steps/" + std::to_string(step);
        keys.push_back({"step " + std::to_string(step + 1), json::json_pointer(at)});
        for (const auto& [k, v] : good["steps"][static_cast<std::size_t>(step)].items()) keys.push_back({k, json::json_pointer(at + "/" + k)});
        for (const auto& [k, v] : good["steps"][static_cast<std::size_t>(step)]["question"].items())
            keys.push_back({k, json::json_pointer(at + "/question/" + k)});
    }
    for (const auto& [key, pointer] : keys)
        for (const Wrong& wrong : wrong_values()) {
            json bad = good;
            bad[pointer] = wrong.value;
            expect_named(key, wrong, [&] { rope::lessons::parse_lesson(bad.dump(), "mine.json"); }, refused);
        }
    EXPECT_GT(refused, static_cast<int>(keys.size()) * 3) << "too few values refused to tell";
}

TEST(Refusals, EverySessionKeyNamesTheValueItRefuses) {
    int refused = 0;
    for (const char* view_key : {"maximized", "page", "theme", "presentation", "lesson_step", "playing", "reduced_motion", "lesson_file", "speed"})
        for (const Wrong& wrong : wrong_values())
            expect_named(view_key, wrong, [&] {
                rope::session::parse_session_json(json{{"parameters", json::object()}, {"view", {{view_key, wrong.value}}}}.dump(), "s.json");
            }, refused);
    for (const Wrong& wrong : wrong_values()) {
        expect_named("view", wrong, [&] { rope::session::parse_session_json(json{{"parameters", json::object()}, {"view", wrong.value}}.dump(), "s.json"); },
                     refused);
        expect_named("parameters", wrong, [&] { rope::session::parse_session_json(json{{"parameters", wrong.value}}.dump(), "s.json"); }, refused);
    }
    for (const rope::ParamSpec& spec : rope::parameter_table())
        for (const Wrong& wrong : wrong_values()) {
            if (spec.name == "model" || spec.name == "config" || spec.name == "compare_to") continue;  // a path: "zzq" is a file that is not there, said as such
            expect_named(std::string(spec.name), wrong, [&] {
                rope::session::parse_session_json(json{{"parameters", {{std::string(spec.name), wrong.value}}}}.dump(), "s.json");
            }, refused);
        }
    EXPECT_GT(refused, 200);
}

TEST(Refusals, EveryConfigKeyNamesTheValueItRefuses) {
    const std::vector<json> configs = {
        json::parse(R"({"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32, "num_hidden_layers": 32,
            "max_position_embeddings": 131072, "rope_theta": 500000.0, "head_dim": 128,
            "rope_scaling": {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                             "original_max_position_embeddings": 8192}})"),
        json::parse(R"({"model_type": "qwen2", "hidden_size": 3584, "num_attention_heads": 28, "max_position_embeddings": 32768,
            "rope_theta": 1000000.0, "partial_rotary_factor": 0.5, "rope_scaling": {"type": "yarn", "factor": 4.0,
            "original_max_position_embeddings": 32768}})"),
    };
    int refused = 0;
    for (const json& good : configs) {
        ASSERT_NO_THROW(rope::session::import_hf_config_text(good.dump(), "config.json"));
        std::vector<json::json_pointer> keys;
        for (const auto& [k, v] : good.items()) keys.push_back(json::json_pointer("/" + k));
        for (const auto& [k, v] : good["rope_scaling"].items()) keys.push_back(json::json_pointer("/rope_scaling/" + k));
        for (const json::json_pointer& key : keys)
            for (const Wrong& wrong : wrong_values()) {
                if (wrong.value.is_null()) continue;  // null: the key left out, which its default fills
                json bad = good;
                bad[key] = wrong.value;
                expect_named(key.to_string(), wrong, [&] { rope::session::import_hf_config_text(bad.dump(), "config.json"); }, refused);
            }
    }
    EXPECT_GT(refused, 40);
}
