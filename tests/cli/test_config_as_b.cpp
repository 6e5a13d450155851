// A config.json as model B (`--set compare_to=PATH`): every compute table's b rows are the table of
// `--set config=PATH` alone, its a rows that of A alone; a missing or bad file is one line, exit 2,
// nothing written; a session keeps the path and reopens on the same B.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "rope/params.hpp"
#include "services/services.hpp"
#include "session/hf_config.hpp"
#include "session/session.hpp"
#include "support/app_cli.hpp"
#include "support/config_import.hpp"
#include "support/process.hpp"

namespace P = rope::P;

using rope::ParamSet;
using rope::test::ProcessResult;
using rope::test::run_process;

namespace {

using rope::test::compute;
using rope::test::published_config;

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

}  // namespace

TEST(ConfigAsB, EveryTablesBRowsAreTheConfigAlone) {
    for (const char* file : {"qwen3-8b.json", "gemma-4-31b-transcribed.json", "qwen2.5-vl-7b-instruct.json", "phi-3-mini-128k-instruct.json"})
        for (const char* table : {"freqs", "rotate", "decay", "summary", "base-bounds", "layers", "temperature", "axes", "position-ids"}) {
            SCOPED_TRACE(std::string(file) + ": " + table);
            // max_position is A's (a model key): B's is its config's, as `config=` after it gives
            const std::string a = "preset=llama-2-7b", limits = "max_position=64";
            const ProcessResult ra = compute(table, {a, limits}), rb = compute(table, {limits, "config=" + published_config(file)}),
                                r = compute(table, {a, limits, "compare_to=" + published_config(file)});
            if (ra.exit_code != 0 || rb.exit_code != 0) {  // a table one of them refuses (layers of a model without)
                EXPECT_EQ(r.exit_code, 2) << r.err;
                EXPECT_TRUE(r.out.empty());
                continue;
            }
            ASSERT_EQ(r.exit_code, 0) << r.err;
            const auto alone_a = lines_of(ra.out), alone_b = lines_of(rb.out), lines = lines_of(r.out);
            ASSERT_EQ(lines.size(), alone_a.size() + alone_b.size() - 1);
            EXPECT_EQ(lines[0], "model," + alone_a[0]);
            for (std::size_t i = 1; i < alone_a.size(); ++i) ASSERT_EQ(lines[i], "a," + alone_a[i]) << i;
            for (std::size_t i = 1; i < alone_b.size(); ++i) ASSERT_EQ(lines[alone_a.size() + i - 1], "b," + alone_b[i]) << i;
        }
}

TEST(ConfigAsB, MissingOrBadFileIsOneLineAndNothingWritten) {
    const std::string bad = ::testing::TempDir() + "/rope-bad-b.json";
    std::ofstream(bad) << R"({"head_dim": 63, "rope_theta": 10000})";
    const std::string missing = ::testing::TempDir() + "/rope-missing-b.json";
    for (const auto& [value, says] : std::vector<std::pair<std::string, std::string>>{
             {missing, "no preset of that name and no file there"}, {bad, "config '" + bad + "'"}, {"lama-3", "or the path of a Hugging Face config.json"}}) {
        SCOPED_TRACE(value);
        const ProcessResult r = compute("freqs", {"compare_to=" + value});
        EXPECT_EQ(r.exit_code, 2);
        EXPECT_TRUE(r.out.empty());
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
        EXPECT_NE(r.err.find("compare_to=" + value), std::string::npos) << r.err;
        EXPECT_NE(r.err.find(says), std::string::npos) << r.err;
    }
    std::remove(bad.c_str());
}

// In this process (answering model imports with the config importer, as the programs do at start):
// B named by its file, its numbers the config's, and a session that keeps the path.
TEST(ConfigAsB, SessionKeepsThePathAndBsNumbers) {
    rope::answer_model_imports({rope::session::config_importer(), {}});
    ParamSet a;
    a.set(P::preset, "llama-2-7b");
    a.set(P::compare_to, published_config("qwen3-8b.json"));
    EXPECT_EQ(a.compared_model_name(), "qwen3-8b");
    const std::optional<ParamSet> b = a.compared_model();
    ASSERT_TRUE(b.has_value());
    EXPECT_EQ((*b)[P::base], 1000000.0);
    EXPECT_EQ(b->value_text(P::preset), "none");
    const ParamSet alone = rope::session::with_config(ParamSet(), rope::session::import_hf_config(published_config("qwen3-8b.json")), "qwen3-8b");
    EXPECT_EQ(b->config().base, alone.config().base);
    EXPECT_EQ(b->config().dim, alone.config().dim);

    rope::session::Session s;
    s.params = a;
    const std::string file = ::testing::TempDir() + "/rope-session-b.json";
    rope::session::save_session(file, s);
    const rope::session::Session back = rope::session::load_session(file);
    EXPECT_TRUE(back.params == a);
    EXPECT_EQ(back.params.value_text(P::compare_to), published_config("qwen3-8b.json"));
    std::remove(file.c_str());
}
