// One .safetensors file opened for reading: its checked header, and each tensor's rows read through a
// memory map of just that tensor, dropped again as soon as its rows are read (a mapped page that was
// touched counts as the process's memory until it is unmapped), so a model of any size is streamed
// in the page cache's pages, never held.
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "io/safetensors_header.hpp"

namespace rope::io {

// FP8 block scales: each block of rows x cols weights shares one weight_scale_inv entry.
struct BlockSize {
    std::int64_t rows = 0, cols = 0;
};

// A read stopped because its go_on callback said so.
struct ReadCancelled : std::runtime_error {
    ReadCancelled() : std::runtime_error("cancelled") {}
};

class SafetensorsFile {
public:
    // Opens and checks the header (throws SafetensorsError naming `path`).
    explicit SafetensorsFile(const std::string& path);
    ~SafetensorsFile();
    SafetensorsFile(const SafetensorsFile&) = delete;
    SafetensorsFile& operator=(const SafetensorsFile&) = delete;

    const std::string& path() const { return path_; }
    const SafetensorsHeader& header() const { return header_; }

    // For a tensor of shape [rows, cols] (BF16, F16 or F32; F8_E4M3 with `scale_inv` given):
    // sum_j w[r, j]^2 for each r of `rows` (increasing), in order, decoded exactly and summed in float
    // lanes, then double. `scale_inv` (FP8 block scales, [ceil(rows/B.rows), ceil(cols/B.cols)])
    // multiplies each block as the checkpoint's dequantisation does. `go_on` is asked before each
    // window of rows is mapped: false throws ReadCancelled.
    std::vector<double> row_square_sums(const SafetensorsTensor& tensor, const std::vector<std::int64_t>& rows,
                                        const std::vector<double>* scale_inv = nullptr, BlockSize block = {},
                                        const std::function<bool()>& go_on = {}) const;
    // A whole small tensor's values as doubles (norm weights, block scales), decoded exactly.
    std::vector<double> values(const SafetensorsTensor& tensor) const;

private:
    std::string path_;
    int fd_ = -1;
    std::uint64_t size_ = 0;
    SafetensorsHeader header_;
};

// Decoding one element exactly: bf16 and f16 widen to float without rounding.
float bf16_to_float(std::uint16_t bits);
float f16_to_float(std::uint16_t bits);
float f8_e4m3_to_float(std::uint8_t bits);

}  // namespace rope::io
