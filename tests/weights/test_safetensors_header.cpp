// The safetensors header reader (app/io/safetensors_header.*) against the format's rules: a good
// file's table, and one line naming the file and tensor for each way a file can be bad.
#include <gtest/gtest.h>

#include <string>

#include "io/safetensors_header.hpp"

namespace {

using rope::io::parse_safetensors_header;
using rope::io::SafetensorsError;

// A file: 8-byte little-endian size, the JSON (padded to `pad` spaces), then `data_bytes` zeros.
std::string file_of(const std::string& json, std::size_t data_bytes, std::size_t pad = 0) {
    const std::string header = json + std::string(pad, ' ');
    std::string f(8, '\0');
    for (int i = 0; i < 8; ++i) f[static_cast<std::size_t>(i)] = static_cast<char>((header.size() >> (8 * i)) & 0xff);
    return f + header + std::string(data_bytes, '\0');
}

rope::io::SafetensorsHeader parse(const std::string& f) {
    return parse_safetensors_header(reinterpret_cast<const std::uint8_t*>(f.data()), f.size(), f.size(), "model.safetensors");
}

std::string error_of(const std::string& f) {
    try {
        parse(f);
    } catch (const SafetensorsError& e) {
        return e.what();
    }
    return "";
}

const std::string kGood = R"({"__metadata__":{"format":"pt"},)"
                          R"("b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]},)"
                          R"("a":{"dtype":"BF16","shape":[2,1],"data_offsets":[0,4]}})";

TEST(SafetensorsHeader, AGoodFilesTableInDataOrder) {
    const auto h = parse(file_of(kGood, 12, 5));
    ASSERT_EQ(h.tensors.size(), 2u);
    EXPECT_EQ(h.tensors[0].name, "a");
    EXPECT_EQ(h.tensors[0].dtype, rope::io::SafetensorsDtype::bf16);
    EXPECT_EQ(h.tensors[0].elements(), 2u);
    EXPECT_EQ(h.tensors[1].name, "b");
    EXPECT_EQ(h.tensors[1].begin, 4u);
    EXPECT_EQ(h.data_start, 8 + kGood.size() + 5);
    EXPECT_EQ(h.metadata.at("format"), "pt");
    EXPECT_NE(h.find("b"), nullptr);
}

TEST(SafetensorsHeader, EachBadFileIsOneLineNamingTheFileAndTensor) {
    const std::string bad_size = std::string("\xff\xff\xff\xff\x00\x00\x00\x00", 8) + "{}";
    struct Case {
        std::string file, says;
    } cases[] = {
        {std::string(5, '\0'), "truncated"},
        {bad_size, "above the format's limit"},
        {file_of(kGood, 12).substr(0, 40), "beyond the file"},
        {file_of(R"(["a"])", 0), "does not begin with '{'"},
        {file_of(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]})", 8), "not a JSON object"},
        {file_of(R"({"a":{"dtype":"Q4","shape":[2],"data_offsets":[0,8]}})", 8), "tensor 'a': unknown dtype 'Q4'"},
        {file_of(R"({"a":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}})", 8), "tensor 'a': its shape and dtype make 12 bytes"},
        {file_of(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}})", 12),
         "tensor 'b': its data overlaps"},
        {file_of(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}})", 12), "tensor 'a': a hole of 4 bytes"},
        {file_of(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})", 4), "tensor 'a': its data ends past the end of the file"},
        {file_of(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})", 9), "1 bytes after the last tensor"},
        {file_of(R"({"a":{"dtype":"F32","shape":[-2],"data_offsets":[0,8]}})", 8), "tensor 'a': a shape entry is -2; it must be a whole number >= 0"},
        {file_of(R"({"a":{"dtype":"F32","shape":[4294967296,4294967296,16],"data_offsets":[0,8]}})", 8), "tensor 'a': its shape has more"},
    };
    for (const Case& c : cases) {
        const std::string e = error_of(c.file);
        EXPECT_EQ(e.rfind("'model.safetensors'", 0), 0u) << e;
        EXPECT_NE(e.find(c.says), std::string::npos) << e << " (want: " << c.says << ")";
        EXPECT_EQ(e.find('\n'), std::string::npos);
    }
}

}  // namespace
