// The pair-usage arithmetic (rope/pair_usage.hpp) on hand-made rows, and the safetensors file reader's
// decoding (BF16 at an odd offset, F16, F32, FP8 with block scales) on files written here byte by byte.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "io/safetensors_file.hpp"
#include "rope/pair_usage.hpp"
#include "support/process.hpp"

namespace fs = std::filesystem;

namespace {

TEST(PairUsage, GroupedQueryHeadsReadTheirKeyHeadAndScalesMultiplyTheRows) {
    // 4 query heads, 2 key heads, 4 rotated dims (2 pairs), half pairing: pair 0 = dims 0, 2
    std::vector<double> q(4 * 4, 1.0), k(2 * 4, 1.0);
    q[3 * 4 + 1] = 9.0;  // head 3, dim 1 (pair 1 with dim 3)
    k[1 * 4 + 3] = 16.0; // key head 1, dim 3 (pair 1)
    const std::vector<double> scale = {2.0, 1.0, 1.0, 1.0};
    const rope::PairUsage u = rope::pair_usage(q, k, 4, 2, 4, rope::Pairing::half, scale, {});
    EXPECT_EQ(u.kv_head(3), 1);
    EXPECT_EQ(u.kv_head(1), 0);
    EXPECT_DOUBLE_EQ(u.at(u.q_norm, 0, 0), std::sqrt(4.0 + 1.0));      // g0^2 * 1 + 1
    EXPECT_DOUBLE_EQ(u.at(u.q_norm, 3, 1), std::sqrt(9.0 + 1.0));
    EXPECT_DOUBLE_EQ(u.at(u.k_norm, 3, 1), std::sqrt(1.0 + 16.0));
    EXPECT_DOUBLE_EQ(u.at(u.k_norm, 1, 1), std::sqrt(2.0));
    EXPECT_DOUBLE_EQ(u.at(u.usage, 3, 1), std::sqrt(10.0) * std::sqrt(17.0));
    EXPECT_DOUBLE_EQ(u.at(u.share, 3, 0) + u.at(u.share, 3, 1), 1.0);
    const rope::PairUsage inter = rope::pair_usage(q, k, 4, 2, 4, rope::Pairing::interleaved);
    EXPECT_DOUBLE_EQ(inter.at(inter.q_norm, 3, 0), std::sqrt(1.0 + 9.0));  // dims 0, 1
    EXPECT_THROW(rope::pair_usage(q, k, 4, 3, 4, rope::Pairing::half), std::invalid_argument);
}

// Concentration: each head's largest share, averaged over the heads; the most concentrated layer
// is the one whose heads lean most on one pair (not the one with the largest usage).
TEST(PairUsage, TheMostConcentratedLayerIsTheOneWhoseHeadsLeanOnOnePair) {
    // 2 query heads, 1 key head, 4 rotated dims (2 pairs), half pairing: pair 0 = dims 0, 2; pair 1 = dims 1, 3
    const std::vector<double> k(4, 1.0);
    const rope::PairUsage even = rope::pair_usage(std::vector<double>(8, 100.0), k, 2, 1, 4, rope::Pairing::half);
    std::vector<double> q(8, 1.0);
    q[1] = q[3] = 9.0;  // head 0 leans on pair 1: usage sqrt(18) against sqrt(2), share 0.75
    const rope::PairUsage leaning = rope::pair_usage(q, k, 2, 1, 4, rope::Pairing::half);
    EXPECT_DOUBLE_EQ(rope::concentration(even), 0.5);
    EXPECT_DOUBLE_EQ(rope::concentration(leaning), (0.75 + 0.5) / 2);
    std::vector<rope::LayerPairUsage> layers(3);
    layers[0].pairs = even, layers[1].pairs = leaning, layers[2].pairs = even;
    EXPECT_EQ(rope::most_concentrated(layers), 1u);
    EXPECT_EQ(rope::most_concentrated({}), 0u);
}

// A .safetensors file from (name, dtype, shape, bytes) in order, data starting at an odd offset
// when `odd` (the format does not align it).
std::string safetensors(const std::vector<std::tuple<std::string, std::string, std::vector<int>, std::string>>& tensors, bool odd) {
    std::string json = "{", data;
    if (odd) {
        json += "\"pad\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1]},";
        data += '\x7f';
    }
    for (const auto& [name, dtype, shape, bytes] : tensors) {
        std::string dims;
        for (int d : shape) dims += (dims.empty() ? "" : ",") + std::to_string(d);
        json += "\"" + name + "\":{\"dtype\":\"" + dtype + "\",\"shape\":[" + dims + "],\"data_offsets\":[" + std::to_string(data.size()) +
                "," + std::to_string(data.size() + bytes.size()) + "]},";
        data += bytes;
    }
    json.back() = '}';
    std::string f(8, '\0');
    for (int i = 0; i < 8; ++i) f[static_cast<std::size_t>(i)] = static_cast<char>((json.size() >> (8 * i)) & 0xff);
    return f + json + data;
}

template <typename T>
std::string bytes_of(const std::vector<T>& v) {
    return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
}

fs::path write_file(const std::string& name, const std::string& bytes) {
    const fs::path p = fs::temp_directory_path() / ("rope_pair_usage_" + std::to_string(getpid()) + "_" + name);
    std::ofstream(p, std::ios::binary) << bytes;
    return p;
}

TEST(SafetensorsFile, RowSquareSumsDecodeBf16F16F32ExactlyAtAnyOffset) {
    // bf16 1.5 = 0x3fc0, -2 = 0xc000; f16 1.5 = 0x3e00, 0.5 = 0x3800, subnormal 2^-24 = 0x0001
    const std::vector<std::uint16_t> bf16 = {0x3fc0, 0xc000, 0x3f80, 0x0000, 0x3f80, 0x3f80};  // [2, 3]
    const std::vector<std::uint16_t> f16 = {0x3e00, 0x3800, 0x0001, 0x3c00};                    // [2, 2]
    const std::vector<float> f32 = {3.0f, 4.0f};                                                // [1, 2]
    for (bool odd : {false, true}) {
        const fs::path p = write_file(odd ? "odd" : "even",
                                      safetensors({{"a", "BF16", {2, 3}, bytes_of(bf16)}, {"b", "F16", {2, 2}, bytes_of(f16)},
                                                   {"c", "F32", {1, 2}, bytes_of(f32)}},
                                                  odd));
        const rope::io::SafetensorsFile file(p.string());
        const auto& h = file.header();
        EXPECT_EQ(file.row_square_sums(*h.find("a"), {0, 1}), (std::vector<double>{1.5 * 1.5 + 4 + 1, 2.0}));
        const auto f = file.row_square_sums(*h.find("b"), {0, 1});
        EXPECT_DOUBLE_EQ(f[0], 2.25 + 0.25);
        EXPECT_DOUBLE_EQ(f[1], std::ldexp(1.0, -48) + 1.0);
        EXPECT_EQ(file.row_square_sums(*h.find("c"), {0}), std::vector<double>{25.0});
        EXPECT_EQ(file.values(*h.find("a"))[1], -2.0);
        fs::remove(p);
    }
}

TEST(SafetensorsFile, Fp8RowsAreScaledByTheirBlocksScaleInv) {
    // E4M3: 0x38 = 1.0, 0x40 = 2.0, 0xb8 = -1.0; a [3, 3] weight in blocks of 2: scales [2, 2]
    const std::vector<std::uint8_t> w = {0x38, 0x40, 0xb8, 0x40, 0x38, 0x38, 0x38, 0x00, 0x40};
    const std::vector<double> scale = {1.0, 10.0, 3.0, 0.5};
    const fs::path p = write_file("fp8", safetensors({{"w", "F8_E4M3", {3, 3}, bytes_of(w)}}, true));
    const rope::io::SafetensorsFile file(p.string());
    const auto sums = file.row_square_sums(*file.header().find("w"), {0, 1, 2}, &scale, {2, 2});
    EXPECT_DOUBLE_EQ(sums[0], 1 * (1 + 4) + 100 * 1);
    EXPECT_DOUBLE_EQ(sums[1], 1 * (4 + 1) + 100 * 1);
    EXPECT_DOUBLE_EQ(sums[2], 9 * 1 + 0.25 * 4);
    EXPECT_THROW(file.row_square_sums(*file.header().find("w"), {0}), rope::io::SafetensorsError);
    EXPECT_EQ(rope::io::f8_e4m3_to_float(0x7e), 448.0f);
    fs::remove(p);
}

// A folder whose q_proj is FP8 without its weight_scale_inv: compute weights refuses it by name.
TEST(ModelFolder, Fp8WithoutBlockScalesIsRefusedByName) {
    const fs::path dir = fs::temp_directory_path() / ("rope_fp8_" + std::to_string(getpid()));
    fs::create_directories(dir);
    std::ofstream(dir / "config.json") << R"({"model_type": "llama", "hidden_size": 4, "num_attention_heads": 1,
        "num_key_value_heads": 1, "num_hidden_layers": 1, "rope_theta": 10000.0, "max_position_embeddings": 64,
        "quantization_config": {"quant_method": "fp8", "weight_block_size": [128, 128]}})";
    std::ofstream(dir / "model.safetensors", std::ios::binary)
        << safetensors({{"model.layers.0.self_attn.q_proj.weight", "F8_E4M3", {4, 4}, std::string(16, '\x38')},
                        {"model.layers.0.self_attn.k_proj.weight", "F8_E4M3", {4, 4}, std::string(16, '\x38')}},
                       false);
    const auto r = rope::test::run_process({ROPE_EXPLORER_BINARY, "compute", "weights", "--set", "model=" + dir.string()});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("model.safetensors"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("q_proj"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("weight_scale_inv"), std::string::npos) << r.err;
    // with the scales, the table is read: every entry 1.0 x scale 2 -> q_norm = 2 sqrt(2 * 4)
    std::ofstream(dir / "model.safetensors", std::ios::binary | std::ios::trunc)
        << safetensors({{"model.layers.0.self_attn.q_proj.weight", "F8_E4M3", {4, 4}, std::string(16, '\x38')},
                        {"model.layers.0.self_attn.q_proj.weight_scale_inv", "F32", {1, 1}, bytes_of(std::vector<float>{2.0f})},
                        {"model.layers.0.self_attn.k_proj.weight", "F8_E4M3", {4, 4}, std::string(16, '\x38')},
                        {"model.layers.0.self_attn.k_proj.weight_scale_inv", "F32", {1, 1}, bytes_of(std::vector<float>{1.0f})}},
                       false);
    const auto ok = rope::test::run_process({ROPE_EXPLORER_BINARY, "compute", "weights", "--set", "model=" + dir.string()});
    ASSERT_EQ(ok.exit_code, 0) << ok.err;
    EXPECT_NE(ok.out.find("\n0,0,0,0,0,2,6.283185307179586,5.656854249492381,2.8284271247461903,16"), std::string::npos) << ok.out;
    fs::remove_all(dir);
}

}  // namespace
