#include "io/safetensors_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstring>

namespace rope::io {

namespace {

// A window of the file mapped read-only, unmapped when it goes: the pages it touched stop counting
// as this process's memory then.
class MappedWindow {
public:
    MappedWindow(int fd, std::uint64_t offset, std::uint64_t bytes, const std::string& file) {
        static const std::uint64_t page = static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
        const std::uint64_t start = offset / page * page;
        length_ = bytes + (offset - start);
        // MAP_POPULATE maps the whole window from the page cache in one call, not a fault per page
        base_ = mmap(nullptr, length_, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, static_cast<off_t>(start));
        if (base_ == MAP_FAILED) throw_safetensors_error(file, "", std::string("cannot map its data: ") + std::strerror(errno));
        data_ = static_cast<const std::uint8_t*>(base_) + (offset - start);
    }
    ~MappedWindow() { munmap(base_, length_); }
    MappedWindow(const MappedWindow&) = delete;
    MappedWindow& operator=(const MappedWindow&) = delete;
    const std::uint8_t* data() const { return data_; }

private:
    void* base_ = nullptr;
    std::size_t length_ = 0;
    const std::uint8_t* data_ = nullptr;
};

constexpr std::uint64_t kWindowBytes = 8u << 20;  // the most a window maps at once (or one row, if longer)
constexpr std::uint64_t kGapBytes = 64u << 10;     // unwanted rows a window may span rather than start another

std::array<float, 65536> make_f16_table() {
    std::array<float, 65536> t{};
    for (std::uint32_t h = 0; h < 65536; ++h) {
        const std::uint32_t sign = h >> 15, exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
        float v;
        if (exponent == 0) v = std::ldexp(static_cast<float>(mantissa), -24);               // subnormal
        else if (exponent == 31) v = mantissa ? NAN : INFINITY;
        else v = std::ldexp(static_cast<float>(mantissa | 0x400), static_cast<int>(exponent) - 25);
        t[h] = sign ? -v : v;
    }
    return t;
}

// sum of squares of n elements of `size` bytes each, in 16 independent lanes the compiler keeps in
// vector registers; elements are read with memcpy, as the format does not align its data
template <std::size_t size, typename Decode>
double square_sum(const std::uint8_t* p, std::int64_t n, Decode decode) {
    constexpr int kLanes = 16;
    float lane[kLanes] = {};
    std::int64_t j = 0;
    for (; j + kLanes <= n; j += kLanes)
        for (int k = 0; k < kLanes; ++k) {
            const float x = decode(p + (j + k) * static_cast<std::int64_t>(size));
            lane[k] += x * x;
        }
    double sum = 0;
    for (; j < n; ++j) {
        const double x = decode(p + j * static_cast<std::int64_t>(size));
        sum += x * x;
    }
    for (float l : lane) sum += l;
    return sum;
}

std::uint16_t load_u16(const std::uint8_t* p) {
    std::uint16_t b;
    std::memcpy(&b, p, 2);
    return b;
}

float load_f32(const std::uint8_t* p) {
    float f;
    std::memcpy(&f, p, 4);
    return f;
}

double row_sum(SafetensorsDtype dtype, const std::uint8_t* row, std::int64_t cols) {
    switch (dtype) {
        case SafetensorsDtype::bf16: return square_sum<2>(row, cols, [](const std::uint8_t* p) { return bf16_to_float(load_u16(p)); });
        case SafetensorsDtype::f16: return square_sum<2>(row, cols, [](const std::uint8_t* p) { return f16_to_float(load_u16(p)); });
        case SafetensorsDtype::f32: return square_sum<4>(row, cols, load_f32);
        default: return 0;
    }
}

}  // namespace

float bf16_to_float(std::uint16_t bits) {
    const std::uint32_t u = static_cast<std::uint32_t>(bits) << 16;
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
}

float f16_to_float(std::uint16_t bits) {
    static const std::array<float, 65536> table = make_f16_table();
    return table[bits];
}

float f8_e4m3_to_float(std::uint8_t bits) {
    // E4M3 "fn": bias 7, no infinities, S.1111.111 is NaN
    const std::uint32_t sign = bits >> 7, exponent = (bits >> 3) & 0xf, mantissa = bits & 0x7;
    float v;
    if (exponent == 15 && mantissa == 7) v = NAN;
    else if (exponent == 0) v = std::ldexp(static_cast<float>(mantissa), -9);
    else v = std::ldexp(static_cast<float>(mantissa | 0x8), static_cast<int>(exponent) - 10);
    return sign ? -v : v;
}

SafetensorsFile::SafetensorsFile(const std::string& path) : path_(path) {
    fd_ = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) throw_safetensors_error(path, "", std::string("cannot open: ") + std::strerror(errno));
    struct stat st {};
    if (fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd_);
        throw_safetensors_error(path, "", "not a regular file");
    }
    size_ = static_cast<std::uint64_t>(st.st_size);
    // the size field, then exactly the header it announces (checked against the file's size first)
    std::vector<std::uint8_t> prefix(static_cast<std::size_t>(std::min<std::uint64_t>(size_, 8)));
    auto read_at = [&](std::uint8_t* to, std::size_t n, off_t at) {
        std::size_t done = 0;
        while (done < n) {
            const ssize_t r = pread(fd_, to + done, n - done, at + static_cast<off_t>(done));
            if (r <= 0) return false;
            done += static_cast<std::size_t>(r);
        }
        return true;
    };
    try {
        if (!read_at(prefix.data(), prefix.size(), 0)) throw_safetensors_error(path, "", "cannot read its header size");
        if (size_ >= 8) {
            const std::uint64_t n = read_u64_le(prefix.data());
            if (n <= kMaxSafetensorsHeader && n <= size_ - 8) {
                prefix.resize(static_cast<std::size_t>(8 + n));
                if (!read_at(prefix.data() + 8, static_cast<std::size_t>(n), 8)) throw_safetensors_error(path, "", "cannot read its header");
            }
        }
        header_ = parse_safetensors_header(prefix.data(), prefix.size(), size_, path);
    } catch (...) {
        close(fd_);
        throw;
    }
}

SafetensorsFile::~SafetensorsFile() {
    if (fd_ >= 0) close(fd_);
}

std::vector<double> SafetensorsFile::values(const SafetensorsTensor& t) const {
    const std::size_t n = static_cast<std::size_t>(t.elements());
    std::vector<double> out(n);
    if (n == 0) return out;
    const MappedWindow window(fd_, header_.data_start + t.begin, t.end - t.begin, path_);
    const std::uint8_t* p = window.data();
    for (std::size_t i = 0; i < n; ++i) {
        switch (t.dtype) {
            case SafetensorsDtype::bf16: out[i] = bf16_to_float(load_u16(p + 2 * i)); break;
            case SafetensorsDtype::f16: out[i] = f16_to_float(load_u16(p + 2 * i)); break;
            case SafetensorsDtype::f32: out[i] = load_f32(p + 4 * i); break;
            default:
                throw_safetensors_error(path_, t.name, std::string("dtype ") + dtype_name(t.dtype) + " where BF16, F16 or F32 is read");
        }
    }
    return out;
}

std::vector<double> SafetensorsFile::row_square_sums(const SafetensorsTensor& t, const std::vector<std::int64_t>& rows,
                                                     const std::vector<double>* scale_inv, BlockSize block,
                                                     const std::function<bool()>& go_on) const {
    if (t.shape.size() != 2) throw_safetensors_error(path_, t.name, "a projection's weight has 2 dimensions, this one " + std::to_string(t.shape.size()));
    const bool fp8 = t.dtype == SafetensorsDtype::f8_e4m3;
    if (fp8 && !scale_inv)
        throw_safetensors_error(path_, t.name, "F8_E4M3 weights without their weight_scale_inv block scales cannot be read");
    if (!fp8 && t.dtype != SafetensorsDtype::bf16 && t.dtype != SafetensorsDtype::f16 && t.dtype != SafetensorsDtype::f32)
        throw_safetensors_error(path_, t.name, std::string("dtype ") + dtype_name(t.dtype) + "; weights are read in BF16, F16, F32 or F8_E4M3 with block scales");
    const std::int64_t n_rows = t.shape[0], cols = t.shape[1];
    const std::uint64_t row_bytes = static_cast<std::uint64_t>(cols) * dtype_size(t.dtype);
    std::vector<double> out(rows.size());
    if (fp8 && (block.rows < 1 || block.cols < 1)) throw_safetensors_error(path_, t.name, "F8_E4M3 without a block size for its scales");
    // nearby wanted rows share a window of at most kWindowBytes; a gap of more than kGapBytes of rows
    // nobody asked for (the v rows between two heads' k rows, the unrotated dims) starts a new one
    for (std::size_t i = 0; i < rows.size();) {
        if (rows[i] < 0 || rows[i] >= n_rows) throw_safetensors_error(path_, t.name, "row " + std::to_string(rows[i]) + " of " + std::to_string(n_rows));
        if (go_on && !go_on()) throw ReadCancelled();
        std::size_t last = i;
        while (last + 1 < rows.size() && rows[last + 1] > rows[last] && rows[last + 1] < n_rows &&
               static_cast<std::uint64_t>(rows[last + 1] - rows[last] - 1) * row_bytes <= kGapBytes &&
               static_cast<std::uint64_t>(rows[last + 1] - rows[i] + 1) * row_bytes <= std::max(kWindowBytes, row_bytes))
            ++last;
        const std::uint64_t first_byte = static_cast<std::uint64_t>(rows[i]) * row_bytes;
        const MappedWindow window(fd_, header_.data_start + t.begin + first_byte,
                                  static_cast<std::uint64_t>(rows[last] - rows[i] + 1) * row_bytes, path_);
        for (std::size_t k = i; k <= last; ++k) {
            const std::uint8_t* row = window.data() + static_cast<std::uint64_t>(rows[k] - rows[i]) * row_bytes;
            if (!fp8) {
                out[k] = row_sum(t.dtype, row, cols);
                continue;
            }
            // each block of block.cols columns has its own scale: sum over blocks of scale^2 * sum x^2
            const std::int64_t block_cols = cols / block.cols + (cols % block.cols != 0);
            double sum = 0;
            for (std::int64_t b = 0; b < block_cols; ++b) {
                const double s = (*scale_inv)[static_cast<std::size_t>(rows[k] / block.rows * block_cols + b)];
                double part = 0;
                for (std::int64_t j = b * block.cols; j < std::min(cols, (b + 1) * block.cols); ++j) {
                    const double x = f8_e4m3_to_float(row[j]);
                    part += x * x;
                }
                sum += s * s * part;
            }
            out[k] = sum;
        }
        i = last + 1;
    }
    return out;
}

}  // namespace rope::io
