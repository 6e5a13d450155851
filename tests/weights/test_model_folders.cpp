// `compute weights` on synthetic model folders in the exact shapes the models publish (config keys,
// tensor names, fused layouts), written by tests/weights/synthetic_model.py with an independent numpy
// reference of the table; and bad folders refused with one line naming the file and tensor.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "support/process.hpp"

namespace fs = std::filesystem;
using rope::test::run_process;

namespace {

struct Table {
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;
    int column(const std::string& name) const {
        for (std::size_t i = 0; i < header.size(); ++i)
            if (header[i] == name) return static_cast<int>(i);
        return -1;
    }
};

std::vector<std::string> split(const std::string& line) {
    std::vector<std::string> out;
    std::stringstream s(line);
    std::string cell;
    while (std::getline(s, cell, ',')) out.push_back(cell);
    if (!line.empty() && line.back() == ',') out.emplace_back();
    return out;
}

Table parse_csv(const std::string& text) {
    Table t;
    std::stringstream s(text);
    std::string line;
    while (std::getline(s, line)) {
        if (t.header.empty()) t.header = split(line);
        else t.rows.push_back(split(line));
    }
    return t;
}

std::string read(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

fs::path scratch(const std::string& name) {
    const fs::path dir = fs::temp_directory_path() / ("rope_weights_" + std::to_string(getpid()) + "_" + name);
    fs::remove_all(dir);
    return dir;
}

fs::path synthetic(const std::string& layout) {
    const fs::path dir = scratch(layout);
    const auto r = run_process({"/usr/bin/python3", ROPE_SYNTHETIC_MODEL_SCRIPT, "--layout", layout, "--out", dir.string()});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return dir;
}

rope::test::ProcessResult compute_weights(const fs::path& dir, const std::vector<std::string>& more = {}) {
    std::vector<std::string> argv = {ROPE_EXPLORER_BINARY, "compute", "weights", "--set", "model=" + dir.string()};
    argv.insert(argv.end(), more.begin(), more.end());
    return run_process(argv);
}

class EveryLayout : public ::testing::TestWithParam<const char*> {};

// The whole table against numpy's, each number within 1e-3 relative; the planted head's heaviest pair
// is the planted one.
TEST_P(EveryLayout, TheTableMatchesNumpyAndFindsThePlantedPair) {
    const fs::path dir = synthetic(GetParam());
    const auto r = compute_weights(dir);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const Table got = parse_csv(r.out), want = parse_csv(read(dir / "reference.csv"));
    ASSERT_EQ(got.rows.size(), want.rows.size());
    ASSERT_GT(got.rows.size(), 0u);
    for (const char* key : {"layer", "head", "kv_head", "pair"})
        for (std::size_t i = 0; i < got.rows.size(); ++i)
            ASSERT_EQ(got.rows[i][got.column(key)], want.rows[i][want.column(key)]) << key << " row " << i;
    double worst = 0;
    for (const char* key : {"original_wavelength", "q_norm", "k_norm", "usage", "share"})
        for (std::size_t i = 0; i < got.rows.size(); ++i) {
            const double a = std::stod(got.rows[i][got.column(key)]), b = std::stod(want.rows[i][want.column(key)]);
            worst = std::max(worst, std::abs(a - b) / std::abs(b));
        }
    EXPECT_LE(worst, 1e-3);
    // planted.json: {"layer": L, "head": H, "pair": P}
    const std::string planted = read(dir / "planted.json");
    auto field = [&](const std::string& k) { return std::stoi(planted.substr(planted.find("\"" + k + "\":") + k.size() + 3)); };
    int best = -1;
    double best_share = -1;
    for (const auto& row : got.rows)
        if (std::stoi(row[got.column("layer")]) == field("layer") && std::stoi(row[got.column("head")]) == field("head") &&
            std::stod(row[got.column("share")]) > best_share) {
            best_share = std::stod(row[got.column("share")]);
            best = std::stoi(row[got.column("pair")]);
        }
    EXPECT_EQ(best, field("pair"));
    EXPECT_GT(best_share, 0.5);
    fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Weights, EveryLayout,
                         ::testing::Values("llama_gqa", "llama_sharded", "qwen3", "gemma3", "phi3", "gpt_neox", "meta", "falcon_mq",
                                           "falcon_new"));

// One layer by --set layer=N: that layer's rows only, the same numbers.
TEST(ModelFolder, LayerNReadsOneLayer) {
    const fs::path dir = synthetic("llama_gqa");
    const auto all = compute_weights(dir), one = compute_weights(dir, {"--set", "layer=1"});
    ASSERT_EQ(one.exit_code, 0) << one.err;
    const Table a = parse_csv(all.out), b = parse_csv(one.out);
    ASSERT_EQ(b.rows.size() * 2, a.rows.size());
    for (std::size_t i = 0; i < b.rows.size(); ++i) EXPECT_EQ(b.rows[i], a.rows[i + b.rows.size()]);
    const auto bad = compute_weights(dir, {"--set", "layer=2"});
    EXPECT_EQ(bad.exit_code, 2);
    EXPECT_NE(bad.err.find("layer"), std::string::npos) << bad.err;
    fs::remove_all(dir);
}

void write_le64(std::fstream& f, std::uint64_t v) {
    char b[8];
    for (int i = 0; i < 8; ++i) b[i] = static_cast<char>((v >> (8 * i)) & 0xff);
    f.write(b, 8);
}

std::uint64_t header_size(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    unsigned char b[8] = {};
    in.read(reinterpret_cast<char*>(b), 8);
    std::uint64_t n = 0;
    for (int i = 7; i >= 0; --i) n = n << 8 | b[i];
    return n;
}

// Replaces `from` with `to` (same length) in the file's header.
void edit_header(const fs::path& file, const std::string& from, const std::string& to) {
    ASSERT_EQ(from.size(), to.size());
    std::string bytes = read(file);
    const std::size_t at = bytes.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    ASSERT_LT(at, 8 + header_size(file));
    bytes.replace(at, from.size(), to);
    std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes;
}

struct BadCase {
    std::string name;
    std::function<void(const fs::path&)> spoil;
    std::vector<std::string> says;  // what the one line must name
};

// Each bad folder: exit 2, one line naming the file (and the tensor where there is one), no table.
TEST(ModelFolder, BadFilesAreRefusedWithOneLineNamingFileAndTensor) {
    const std::string q0 = "model.layers.0.self_attn.q_proj.weight";
    const std::vector<BadCase> cases = {
        {"truncated", [](const fs::path& d) { fs::resize_file(d / "model.safetensors", fs::file_size(d / "model.safetensors") - 100); },
         {"model.safetensors", "past the end"}},
        {"header beyond the file",
         [](const fs::path& d) {
             std::fstream f(d / "model.safetensors", std::ios::in | std::ios::out | std::ios::binary);
             write_le64(f, fs::file_size(d / "model.safetensors"));
         },
         {"model.safetensors", "beyond the file"}},
        {"a few bytes", [](const fs::path& d) { fs::resize_file(d / "model.safetensors", 5); }, {"model.safetensors", "truncated"}},
        {"unknown dtype", [&](const fs::path& d) { edit_header(d / "model.safetensors", "\"BF16\"", "\"BX16\""); }, {"model.safetensors", "unknown dtype 'BX16'"}},
        {"wrong shape",
         [&](const fs::path& d) {
             // q_proj [128,128] said as [64, 256]: the same bytes, the wrong rows
             std::string bytes = read(d / "model.safetensors");
             const std::size_t shape = bytes.find("[128,128]", bytes.find("\"" + q0 + "\""));
             ASSERT_NE(shape, std::string::npos);
             bytes.replace(shape, 9, "[64, 256]");
             std::ofstream(d / "model.safetensors", std::ios::binary | std::ios::trunc) << bytes;
         },
         {"model.safetensors", q0, "shape [64, 256]"}},
        {"overlapping offsets",
         [&](const fs::path& d) {
             const std::string bytes = read(d / "model.safetensors");
             const std::size_t at = bytes.find("\"data_offsets\":[0,");
             ASSERT_NE(at, std::string::npos);
             const std::size_t second = bytes.find("\"data_offsets\":[", at + 10);
             const std::size_t comma = bytes.find(',', second);
             // the second tensor moved one element earlier, begin and end: it overlaps the first
             const std::size_t close = bytes.find(']', second);
             const std::string begin = bytes.substr(second + 16, comma - second - 16), end = bytes.substr(comma + 1, close - comma - 1);
             auto earlier = [](const std::string& v) {
                 const std::string e = std::to_string(std::stoull(v) - 2);
                 return e + std::string(v.size() - e.size(), ' ');
             };
             edit_header(d / "model.safetensors", "[" + begin + "," + end + "]", "[" + earlier(begin) + "," + earlier(end) + "]");
         },
         {"model.safetensors", "overlaps"}},
        {"missing config", [](const fs::path& d) { fs::remove(d / "config.json"); }, {"no config.json"}},
        {"unknown architecture", [&](const fs::path& d) { edit_header(d / "config.json", "\"llama\"", "\"cohea\""); }, {"config.json", "'cohea'", "llama"}},
    };
    for (const BadCase& c : cases) {
        SCOPED_TRACE(c.name);
        const fs::path dir = synthetic("llama_gqa");
        c.spoil(dir);
        const auto r = compute_weights(dir);
        EXPECT_EQ(r.exit_code, 2) << r.err;
        EXPECT_EQ(r.out, "");
        std::string line = r.err;
        while (line.rfind("rope-explorer: warning:", 0) == 0) line = line.substr(line.find('\n') + 1);
        EXPECT_EQ(std::count(line.begin(), line.end(), '\n'), 1) << line;
        for (const std::string& s : c.says) EXPECT_NE(line.find(s), std::string::npos) << s << " in: " << line;
        fs::remove_all(dir);
    }
}

TEST(ModelFolder, AMissingShardIsNamedWithATensorItHolds) {
    const fs::path dir = synthetic("llama_sharded");
    fs::remove(dir / "model-00002-of-00002.safetensors");
    const auto r = compute_weights(dir);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("model-00002-of-00002.safetensors"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("missing"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("tensor '"), std::string::npos) << r.err;
    fs::remove_all(dir);
}

}  // namespace
