#include "io/safetensors_header.hpp"

#include <algorithm>
#include <limits>
#include <nlohmann/json.hpp>

namespace rope::io {

namespace {

// A value as a refusal names it: as the file writes it, cut to a line.
std::string shown(const nlohmann::json& v) {
    const std::string text = v.dump();
    return text.size() > 48 ? text.substr(0, 45) + "..." : text;
}

struct DtypeInfo {
    SafetensorsDtype dtype;
    const char* name;
    std::size_t size;
};

// The format's dtypes and their sizes in bytes.
constexpr DtypeInfo kDtypes[] = {
    {SafetensorsDtype::bool_, "BOOL", 1}, {SafetensorsDtype::u8, "U8", 1},         {SafetensorsDtype::i8, "I8", 1},
    {SafetensorsDtype::f8_e4m3, "F8_E4M3", 1}, {SafetensorsDtype::f8_e5m2, "F8_E5M2", 1}, {SafetensorsDtype::i16, "I16", 2},
    {SafetensorsDtype::u16, "U16", 2},    {SafetensorsDtype::f16, "F16", 2},       {SafetensorsDtype::bf16, "BF16", 2},
    {SafetensorsDtype::i32, "I32", 4},    {SafetensorsDtype::u32, "U32", 4},       {SafetensorsDtype::f32, "F32", 4},
    {SafetensorsDtype::i64, "I64", 8},    {SafetensorsDtype::u64, "U64", 8},       {SafetensorsDtype::f64, "F64", 8},
};

const DtypeInfo& info(SafetensorsDtype d) {
    for (const DtypeInfo& i : kDtypes)
        if (i.dtype == d) return i;
    return kDtypes[0];
}

SafetensorsTensor read_tensor(const std::string& file, const std::string& name, const nlohmann::json& t) {
    SafetensorsTensor out;
    out.name = name;
    if (!t.is_object()) throw_safetensors_error(file, name, "its entry is " + shown(t) + "; it must be an object with dtype, shape and data_offsets");
    const auto dtype = t.find("dtype");
    if (dtype == t.end()) throw_safetensors_error(file, name, "no dtype");
    if (!dtype->is_string()) throw_safetensors_error(file, name, "dtype is " + shown(*dtype) + "; it must be a string (BF16, F16, F32, ...)");
    const std::string dname = dtype->get<std::string>();
    const auto known = std::find_if(std::begin(kDtypes), std::end(kDtypes), [&](const DtypeInfo& i) { return dname == i.name; });
    if (known == std::end(kDtypes)) throw_safetensors_error(file, name, "unknown dtype '" + dname + "' (BF16, F16, F32, ... as the format names them)");
    out.dtype = known->dtype;
    const auto shape = t.find("shape");
    if (shape == t.end()) throw_safetensors_error(file, name, "no shape");
    if (!shape->is_array()) throw_safetensors_error(file, name, "shape is " + shown(*shape) + "; it must be a list of whole numbers");
    for (const nlohmann::json& d : *shape) {
        if (!d.is_number_unsigned()) throw_safetensors_error(file, name, "a shape entry is " + shown(d) + "; it must be a whole number >= 0");
        const std::uint64_t v = d.get<std::uint64_t>();
        if (v > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) throw_safetensors_error(file, name, "a shape entry, " + std::to_string(v) + ", is too large");
        out.shape.push_back(static_cast<std::int64_t>(v));
    }
    const auto offsets = t.find("data_offsets");
    if (offsets == t.end() || !offsets->is_array() || offsets->size() != 2 || !(*offsets)[0].is_number_unsigned() ||
        !(*offsets)[1].is_number_unsigned())
        throw_safetensors_error(file, name, "data_offsets is " + (offsets == t.end() ? std::string("missing") : shown(*offsets)) +
                                                "; it must be [begin, end], two whole numbers");
    out.begin = (*offsets)[0].get<std::uint64_t>();
    out.end = (*offsets)[1].get<std::uint64_t>();
    if (out.end < out.begin) throw_safetensors_error(file, name, "data_offsets " + shown(*offsets) + " end before they begin");
    // element count x dtype size must be the byte count, without overflow
    std::uint64_t elements = 1;
    for (const std::int64_t d : out.shape) {
        if (d != 0 && elements > std::numeric_limits<std::uint64_t>::max() / static_cast<std::uint64_t>(d))
            throw_safetensors_error(file, name, "its shape has more elements than a file can hold");
        elements *= static_cast<std::uint64_t>(d);
    }
    if (elements > std::numeric_limits<std::uint64_t>::max() / known->size) throw_safetensors_error(file, name, "its shape has more bytes than a file can hold");
    if (elements * known->size != out.end - out.begin)
        throw_safetensors_error(file, name, "its shape and dtype make " + std::to_string(elements * known->size) + " bytes, its data_offsets " +
                             std::to_string(out.end - out.begin));
    return out;
}

}  // namespace

void throw_safetensors_error(const std::string& file, const std::string& tensor, const std::string& what) {
    throw SafetensorsError("'" + file + "'" + (tensor.empty() ? "" : ", tensor '" + tensor + "'") + ": " + what);
}

std::uint64_t read_u64_le(const std::uint8_t* p) {
    std::uint64_t v = 0;
    for (int i = 7; i >= 0; --i) v = v << 8 | p[i];
    return v;
}

std::uint64_t SafetensorsTensor::elements() const {
    std::uint64_t n = 1;
    for (const std::int64_t d : shape) n *= static_cast<std::uint64_t>(d);
    return n;
}

const SafetensorsTensor* SafetensorsHeader::find(const std::string& name) const {
    for (const SafetensorsTensor& t : tensors)
        if (t.name == name) return &t;
    return nullptr;
}

std::size_t dtype_size(SafetensorsDtype dtype) { return info(dtype).size; }
const char* dtype_name(SafetensorsDtype dtype) { return info(dtype).name; }

SafetensorsHeader parse_safetensors_header(const std::uint8_t* prefix, std::size_t prefix_size, std::uint64_t file_size,
                                           const std::string& file) {
    if (file_size < 8 || prefix_size < 8) throw_safetensors_error(file, "", "truncated: " + std::to_string(file_size) + " bytes, no 8-byte header size");
    SafetensorsHeader h;
    h.header_bytes = read_u64_le(prefix);
    if (h.header_bytes > kMaxSafetensorsHeader)
        throw_safetensors_error(file, "", "header size " + std::to_string(h.header_bytes) + " is above the format's limit of 100000000 bytes");
    if (h.header_bytes > file_size - 8)
        throw_safetensors_error(file, "", "header size " + std::to_string(h.header_bytes) + " is beyond the file's " + std::to_string(file_size) + " bytes");
    if (prefix_size < 8 + h.header_bytes) throw_safetensors_error(file, "", "the header was not read whole");
    h.data_start = 8 + h.header_bytes;
    const char* text = reinterpret_cast<const char*>(prefix + 8);
    if (h.header_bytes == 0 || text[0] != '{') throw_safetensors_error(file, "", "the header does not begin with '{'");
    std::size_t length = h.header_bytes;
    while (length > 0 && text[length - 1] == ' ') --length;  // padding
    const nlohmann::json j = nlohmann::json::parse(text, text + length, nullptr, false);
    if (j.is_discarded() || !j.is_object()) throw_safetensors_error(file, "", "the header is not a JSON object");
    for (auto it = j.begin(); it != j.end(); ++it) {
        if (it.key() == "__metadata__") {
            if (!it->is_object()) throw_safetensors_error(file, "", "__metadata__ is not an object of strings");
            for (auto m = it->begin(); m != it->end(); ++m) {
                if (!m->is_string()) throw_safetensors_error(file, "", "__metadata__ '" + m.key() + "' is not a string");
                h.metadata[m.key()] = m->get<std::string>();
            }
            continue;
        }
        h.tensors.push_back(read_tensor(file, it.key(), *it));
    }
    // the tensors tile the data: sorted by offset, each begins where the last ended, the last ends at the file's end
    std::sort(h.tensors.begin(), h.tensors.end(), [](const SafetensorsTensor& a, const SafetensorsTensor& b) {
        return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
    });
    std::uint64_t at = 0;
    for (const SafetensorsTensor& t : h.tensors) {
        if (t.begin < at) throw_safetensors_error(file, t.name, "its data overlaps the tensor before it");
        if (t.begin > at) throw_safetensors_error(file, t.name, "a hole of " + std::to_string(t.begin - at) + " bytes before its data");
        at = t.end;
    }
    const std::uint64_t data_bytes = file_size - h.data_start;
    if (at > data_bytes) throw_safetensors_error(file, h.tensors.empty() ? "" : h.tensors.back().name, "its data ends past the end of the file");
    if (at < data_bytes) throw_safetensors_error(file, "", std::to_string(data_bytes - at) + " bytes after the last tensor's data");
    return h;
}

}  // namespace rope::io
