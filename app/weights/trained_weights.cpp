#include "weights/trained_weights.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "figures/figure_cache.hpp"
#include "io/atomic_file.hpp"
#include "io/safetensors_file.hpp"
#include "rope/frequencies.hpp"
#include "rope/model_layers.hpp"
#include "rope/number_format.hpp"
#include "session/hf_config.hpp"
#include "session/session.hpp"

namespace rope::weights {

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

[[noreturn]] void fail(const std::string& where, const std::string& what) { throw WeightsError("'" + where + "': " + what); }

json read_json(const fs::path& path) {
    std::string text;
    try {
        text = io::read_file(path.string());
    } catch (const io::IoError& e) {
        throw WeightsError(e.what());
    }
    const json j = json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object()) fail(path.string(), "not a JSON object");
    return j;
}

// Whether a path exists, without throwing (a name too long, a folder we may not read: it does not).
bool path_exists(const fs::path& path) {
    std::error_code ec;
    return fs::exists(path, ec);
}

bool given(const json& j, const char* key) { return j.contains(key) && !j[key].is_null(); }

// A whole number the class reads (null or absent: `fallback`, which may be "required": -1).
int whole(const json& j, const char* key, int fallback, const std::string& file) {
    if (!given(j, key)) {
        if (fallback < 0) fail(file, std::string("no ") + key);
        return fallback;
    }
    const json& v = j[key];
    if (!v.is_number() || v.get<double>() != std::floor(v.get<double>()) || v.get<double>() < 1 || v.get<double>() > 1e6)
        fail(file, std::string(key) + " = " + v.dump() + "; a whole number from 1 to 1000000");
    return static_cast<int>(v.get<double>());
}

// Python's truth for a flag the class keeps as given (true/false, or 1/0 as some configs write them).
bool flag(const json& j, const char* key, bool fallback) {
    if (!given(j, key)) return fallback;
    const json& v = j[key];
    if (v.is_boolean()) return v.get<bool>();
    if (v.is_number()) return v.get<double>() != 0;
    return fallback;
}

std::string layer_name(std::string_view pattern, const std::string& prefix, int layer) {
    std::string s = prefix + std::string(pattern);
    const std::size_t at = s.find("{L}");
    if (at != std::string::npos) s.replace(at, 3, std::to_string(layer));
    return s;
}

}  // namespace

// A tensor and the file that holds it. Not in the anonymous namespace: ModelFolder (declared in the
// header) holds them.
struct Located {
    const io::SafetensorsFile* file = nullptr;
    const io::SafetensorsTensor* tensor = nullptr;
};

class ModelFolder {
public:
    std::string dir;
    ModelShape shape;
    const Architecture* arch = nullptr;
    std::string prefix;
    io::BlockSize fp8_block;  // quantization_config.weight_block_size [rows, cols]; 0 x 0 if none
    std::vector<std::unique_ptr<io::SafetensorsFile>> files;
    std::map<std::string, Located> tensors;

    const Located& tensor(const std::string& name) const {
        const auto at = tensors.find(name);
        if (at == tensors.end()) fail(dir, "no tensor '" + name + "' in its safetensors files");
        return at->second;
    }
    const Located* scale_of(const std::string& weight) const {
        const auto at = tensors.find(weight + "_scale_inv");
        return at == tensors.end() ? nullptr : &at->second;
    }
};

namespace {

// config.json read as the model's configuration class reads it: text_config for a multimodal model,
// num_key_value_heads None -> num_attention_heads, head_dim None -> hidden_size // heads, Falcon's
// multi_query and new_decoder_architecture deciding its key heads and layout.
void read_hf_shape(ModelFolder& m, const fs::path& path) {
    const json root = read_json(path);
    const std::string file = path.string();
    json c = root;
    if (given(root, "text_config") && root["text_config"].is_object() && !given(root, "num_attention_heads")) c = root["text_config"];
    std::string type;
    for (const json* j : std::initializer_list<const json*>{&c, &root})
        if (type.empty() && given(*j, "model_type") && (*j)["model_type"].is_string()) type = (*j)["model_type"].get<std::string>();
    if (type == "gemma3") type = "gemma3_text";
    m.arch = find_architecture(type);
    if (!m.arch || type == "meta")
        fail(file, "architecture '" + type + "' (model_type) is not one whose weights we read; we read: " + architecture_names());
    ModelShape& s = m.shape;
    s.model_type = type;
    const bool falcon = type == "falcon";
    // a key left out takes the class's default; one given as null the class's None handling
    const ClassShape& d = m.arch->defaults;
    auto shape_key = [&](const char* key, int class_default, int when_none) {
        if (!c.contains(key)) return class_default > 0 ? class_default : when_none;
        return given(c, key) ? whole(c, key, -1, file) : when_none;
    };
    s.hidden = shape_key("hidden_size", d.hidden, -1);
    s.heads = shape_key("num_attention_heads", d.heads, -1);
    s.layers = shape_key("num_hidden_layers", d.layers, -1);
    for (const auto& [key, value] : {std::pair<const char*, int>{"hidden_size", s.hidden}, {"num_attention_heads", s.heads}, {"num_hidden_layers", s.layers}})
        if (value < 1) fail(file, std::string(key) + " is " + (c.contains(key) ? c[key].dump().substr(0, 40) : std::string("missing")) + "; it must be a whole number >= 1");
    s.head_dim = shape_key("head_dim", d.head_dim, s.hidden / s.heads);
    s.kv_heads = shape_key("num_key_value_heads", d.kv_heads, s.heads);
    if (s.head_dim < 1) fail(file, "hidden_size " + std::to_string(s.hidden) + " / " + std::to_string(s.heads) + " heads gives no head dim");
    s.layout = m.arch->layout;
    // Qwen2 hard-codes its biases; Llama-family classes read attention_bias (default false), GPT-NeoX too (default true)
    s.attention_bias = type == "qwen2" || type == "qwen2_moe" ? true : flag(c, "attention_bias", m.arch->attention_bias);
    if (falcon) s.attention_bias = flag(c, "bias", false);
    if (type == "gpt_neox") s.kv_heads = s.heads;
    if (falcon) {
        if (flag(c, "alibi", false)) fail(file, "this Falcon uses ALiBi (alibi: true), not RoPE");
        if (flag(c, "new_decoder_architecture", false)) {
            s.kv_heads = whole(c, "num_kv_heads", s.heads, file);
            s.layout = QkLayout::grouped_qkv;
        } else if (flag(c, "multi_query", true)) {  // FalconAttention: 1 key head unless new decoder or not multi_query
            s.kv_heads = 1;
            s.layout = QkLayout::q_then_k;
        } else {
            s.kv_heads = s.heads;
        }
    }
    if (s.heads % s.kv_heads != 0)
        fail(file, std::to_string(s.heads) + " attention heads do not share " + std::to_string(s.kv_heads) + " key heads evenly");
    for (const json* j : std::initializer_list<const json*>{&c, &root})
        if (given(*j, "quantization_config") && (*j)["quantization_config"].is_object()) {
            const json& q = (*j)["quantization_config"];
            if (given(q, "weight_block_size")) {
                const json& b = q["weight_block_size"];
                if (!b.is_array() || b.size() != 2 || !b[0].is_number_unsigned() || !b[1].is_number_unsigned() || b[0].get<std::int64_t>() < 1 ||
                    b[1].get<std::int64_t>() < 1 || b[0].get<std::int64_t>() > 1000000 || b[1].get<std::int64_t>() > 1000000)
                    fail(file, "quantization_config.weight_block_size = " + b.dump() + "; two whole numbers from 1 to 1000000");
                m.fp8_block = {b[0].get<std::int64_t>(), b[1].get<std::int64_t>()};
            }
        }
}

// Meta's params.json (ModelArgs): dim, n_heads, n_kv_heads (None: n_heads), n_layers.
void read_meta_shape(ModelFolder& m, const fs::path& path) {
    const json p = read_json(path);
    const std::string file = path.string();
    m.arch = find_architecture("meta");
    ModelShape& s = m.shape;
    s.model_type = "meta";
    s.meta_format = true;
    s.hidden = whole(p, "dim", -1, file);
    s.heads = whole(p, "n_heads", -1, file);
    s.layers = whole(p, "n_layers", -1, file);
    s.kv_heads = whole(p, "n_kv_heads", s.heads, file);
    s.head_dim = whole(p, "head_dim", s.hidden / s.heads, file);  // Mistral's params.json gives it (Nemo: 128, not 5120 / 32)
    if (s.heads % s.kv_heads != 0)
        fail(file, std::to_string(s.heads) + " heads do not share " + std::to_string(s.kv_heads) + " key heads evenly");
}

// The safetensors files: the index's weight_map (each named file must be there and hold its
// tensors), else every *.safetensors in the folder.
void open_files(ModelFolder& m) {
    const fs::path dir(m.dir), index = dir / "model.safetensors.index.json";
    std::map<std::string, std::string> weight_map;
    std::vector<std::string> names;
    if (path_exists(index)) {
        const json j = read_json(index);
        if (!given(j, "weight_map") || !j["weight_map"].is_object()) fail(index.string(), "no weight_map object");
        for (auto it = j["weight_map"].begin(); it != j["weight_map"].end(); ++it) {
            if (!it->is_string()) fail(index.string(), "weight_map '" + it.key() + "' is not a file name");
            weight_map[it.key()] = it->get<std::string>();
            names.push_back(it->get<std::string>());
        }
        std::sort(names.begin(), names.end());
        names.erase(std::unique(names.begin(), names.end()), names.end());
        for (const std::string& n : names)
            if (n.find('/') != std::string::npos || n == "." || n == "..") fail(index.string(), "weight_map names '" + n + "', not a file of the folder");
    } else {
        std::error_code ec;
        for (fs::directory_iterator e(dir, ec), end; !ec && e != end; e.increment(ec))  // error_code: never throws
            if (e->path().extension() == ".safetensors") names.push_back(e->path().filename().string());
        if (ec) fail(m.dir, "cannot list its files: " + ec.message());
        std::sort(names.begin(), names.end());
        if (names.empty()) fail(m.dir, "no *.safetensors file (nor model.safetensors.index.json)");
    }
    for (const std::string& n : names) {
        const fs::path path = dir / n;
        if (!path_exists(path)) {
            std::string tensor;
            for (const auto& [t, f] : weight_map)
                if (f == n) {
                    tensor = t;
                    break;
                }
            fail(path.string(), "missing: model.safetensors.index.json puts tensor '" + tensor + "' in it");
        }
        try {
            m.files.push_back(std::make_unique<io::SafetensorsFile>(path.string()));
        } catch (const io::SafetensorsError& e) {
            throw WeightsError(e.what());
        }
        for (const io::SafetensorsTensor& t : m.files.back()->header().tensors) {
            if (!weight_map.empty()) {
                const auto said = weight_map.find(t.name);
                if (said == weight_map.end() || said->second != n) continue;  // the index decides which file holds it
            }
            m.tensors[t.name] = Located{m.files.back().get(), &t};
        }
    }
    for (const auto& [t, f] : weight_map)
        if (!m.tensors.count(t)) fail((dir / f).string(), "tensor '" + t + "' (from model.safetensors.index.json) is not in it");
}

bool readable(const io::SafetensorsTensor& t) {
    using D = io::SafetensorsDtype;
    return t.dtype == D::bf16 || t.dtype == D::f16 || t.dtype == D::f32;
}

// Rows a q or k tensor must have, by layout.
std::int64_t q_rows(const ModelShape& s) {
    switch (s.layout) {
        case QkLayout::separate: return std::int64_t(s.heads) * s.head_dim;
        case QkLayout::per_head_qkv: return 3 * std::int64_t(s.heads) * s.head_dim;
        case QkLayout::q_then_k:
        case QkLayout::grouped_qkv: return (std::int64_t(s.heads) + 2 * s.kv_heads) * s.head_dim;
    }
    return 0;
}

void check_projection(const ModelFolder& m, const std::string& name, std::int64_t rows) {
    const Located& at = m.tensor(name);
    const io::SafetensorsTensor& t = *at.tensor;
    auto shape_text = [&] {
        std::string s;
        for (std::int64_t d : t.shape) s += (s.empty() ? "" : ", ") + std::to_string(d);
        return "[" + s + "]";
    };
    if (t.shape.size() != 2 || t.shape[0] != rows || t.shape[1] != m.shape.hidden)
        fail(at.file->path(), "tensor '" + name + "' has shape " + shape_text() + "; the config makes it [" + std::to_string(rows) + ", " +
                                  std::to_string(m.shape.hidden) + "] (" + to_string(m.shape.layout) + ")");
    if (t.dtype == io::SafetensorsDtype::f8_e4m3) {
        const Located* scale = m.scale_of(name);
        if (!scale || m.fp8_block.rows <= 0)
            fail(at.file->path(), "tensor '" + name + "' is F8_E4M3 without " + (scale ? "quantization_config.weight_block_size" : "its weight_scale_inv") +
                                      ": FP8 weights are read only with their block scales");
        const io::BlockSize b = m.fp8_block;
        const std::int64_t want0 = t.shape[0] / b.rows + (t.shape[0] % b.rows != 0), want1 = t.shape[1] / b.cols + (t.shape[1] % b.cols != 0);
        if (scale->tensor->shape != std::vector<std::int64_t>{want0, want1} || !readable(*scale->tensor))
            fail(scale->file->path(), "tensor '" + name + "_scale_inv' is not [" + std::to_string(want0) + ", " + std::to_string(want1) +
                                          "] of BF16, F16 or F32 block scales");
        return;
    }
    if (!readable(t))
        fail(at.file->path(), "tensor '" + name + "' is " + io::dtype_name(t.dtype) + "; weights are read in BF16, F16, F32 (or F8_E4M3 with block scales)");
}

void check_norm(const ModelFolder& m, const std::string& name) {
    const Located& at = m.tensor(name);
    if (at.tensor->shape != std::vector<std::int64_t>{m.shape.head_dim} || !readable(*at.tensor))
        fail(at.file->path(), "tensor '" + name + "' is not [" + std::to_string(m.shape.head_dim) + "] of BF16, F16 or F32 (a per-head norm's weight)");
}

// Every layer's tensors named, shaped and typed as the table will read them.
void check_tensors(ModelFolder& m) {
    const Architecture& a = *m.arch;
    for (std::string_view p : tensor_prefixes())
        if (m.tensors.count(layer_name(a.q_tensor, std::string(p), 0))) {
            m.prefix = std::string(p);
            break;
        }
    if (m.tensors.empty()) fail(m.dir, "its safetensors files hold no tensor");
    if (!m.tensors.count(layer_name(a.q_tensor, m.prefix, 0)))
        fail(m.dir, "no tensor '" + layer_name(a.q_tensor, "model.", 0) + "' (or with another known prefix) for architecture " +
                        std::string(a.model_type));
    const ModelShape& s = m.shape;
    for (int layer = 0; layer < s.layers; ++layer) {
        const std::string q = layer_name(a.q_tensor, m.prefix, layer);
        check_projection(m, q, q_rows(s));
        if (s.layout == QkLayout::separate) check_projection(m, layer_name(a.k_tensor, m.prefix, layer), std::int64_t(s.kv_heads) * s.head_dim);
        if (a.norm != NormScale::none) {
            check_norm(m, layer_name(a.q_norm, m.prefix, layer));
            check_norm(m, layer_name(a.k_norm, m.prefix, layer));
        }
    }
}

// The row of the fused or separate tensor that holds dim j of query head h (or key head h).
std::int64_t q_row(const ModelShape& s, int h, int j) {
    const std::int64_t hd = s.head_dim;
    switch (s.layout) {
        case QkLayout::separate:
        case QkLayout::q_then_k: return h * hd + j;
        case QkLayout::per_head_qkv: return 3 * h * hd + j;
        case QkLayout::grouped_qkv: {
            const int per_group = s.heads / s.kv_heads;
            return (std::int64_t(h / per_group) * (per_group + 2) + h % per_group) * hd + j;
        }
    }
    return 0;
}

std::int64_t k_row(const ModelShape& s, int kv, int j) {
    const std::int64_t hd = s.head_dim;
    switch (s.layout) {
        case QkLayout::separate: return kv * hd + j;
        case QkLayout::q_then_k: return std::int64_t(s.heads) * hd + kv * hd + j;
        case QkLayout::per_head_qkv: return 3 * kv * hd + hd + j;
        case QkLayout::grouped_qkv: {
            const int per_group = s.heads / s.kv_heads;
            return (std::int64_t(kv) * (per_group + 2) + per_group) * hd + j;
        }
    }
    return 0;
}

}  // namespace

std::shared_ptr<const ModelFolder> open_model_folder(const std::string& dir) {
    auto m = std::make_shared<ModelFolder>();
    m->dir = dir;
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) fail(dir, "not a folder (a model folder holds config.json and *.safetensors)");
    const fs::path config = fs::path(dir) / "config.json", params = fs::path(dir) / "params.json";
    if (path_exists(config)) read_hf_shape(*m, config);
    else if (path_exists(params)) read_meta_shape(*m, params);
    else fail(dir, "no config.json (nor Meta's params.json)");
    open_files(*m);
    check_tensors(*m);
    return m;
}

ParamSet with_model_folder(const ParamSet& params, const std::string& dir, std::vector<std::string>* warnings) {
    const std::shared_ptr<const ModelFolder> m = open_model_folder(dir);
    const ModelShape& s = m->shape;
    ParamSet next;
    if (s.meta_format) {
        const json p = read_json(fs::path(dir) / "params.json");
        session::ConfigImport imported;
        imported.sets.emplace_back(P::dim, std::to_string(s.head_dim));
        imported.sets.emplace_back(P::pairing, "interleaved");
        // ModelArgs: rope_theta 10000 unless given; use_scaled_rope: apply_scaling's factor 8, 1, 4, 8192
        double theta = given(p, "rope_theta") && p["rope_theta"].is_number() ? p["rope_theta"].get<double>() : 10000.0;
        imported.sets.emplace_back(P::base, format_number(theta));
        if (flag(p, "use_scaled_rope", false)) {
            for (auto [id, v] : std::initializer_list<std::pair<ParamId, const char*>>{
                     {ParamId::scaling, "llama3"}, {ParamId::factor, "8"}, {ParamId::low_freq_factor, "1"},
                     {ParamId::high_freq_factor, "4"}, {ParamId::original_max_position, "8192"}})
                imported.sets.emplace_back(id, v);
        }
        next = session::with_config(params, imported, (fs::path(dir) / "params.json").string());
    } else {
        const session::ConfigImport imported = session::import_hf_config((fs::path(dir) / "config.json").string());
        if (warnings) *warnings = imported.warnings;
        next = session::with_config(params, imported, (fs::path(dir) / "config.json").string());
    }
    if (next.model_layers().empty()) {
        // every layer is the same: one kind, so layer=N can pick one
        std::string kind = "full_attention: attention=full";
        for (ParamId id : params_in(kLayerScope))
            if (next.has(id)) kind += " " + std::string(param_spec(id).name) + "=" + next.value_text(id);
        next.set(P::layer_kinds, kind);
        next.set(P::model_layers, std::to_string(s.layers) + "*full_attention");
    } else if (next.model_layers().layers() != s.layers) {
        fail(dir, "its config has " + std::to_string(next.model_layers().layers()) + " layer types and " + std::to_string(s.layers) + " layers");
    }
    // the absolute path: a session saved with it opens from any folder
    std::error_code ec;
    const fs::path absolute = fs::absolute(dir, ec);
    next.set(P::model, ec ? dir : absolute.lexically_normal().string());
    return next;
}

WeightUsage read_weight_usage(const ModelFolder& m, const ParamSet& params, std::optional<int> only_layer,
                              const std::function<bool(double)>& progress) {
    const ModelShape& s = m.shape;
    const Architecture& a = *m.arch;
    if (params[P::dim] != s.head_dim)
        fail(m.dir, "dim is " + std::to_string(params[P::dim]) + " but its head_dim is " + std::to_string(s.head_dim) +
                        " (set model= after the keys it loads)");
    if (only_layer && (*only_layer < 0 || *only_layer >= s.layers))
        fail(m.dir, "layer " + std::to_string(*only_layer) + "; it has layers 0 to " + std::to_string(s.layers - 1));
    const std::vector<int> rotated = rotated_dims_by_layer(params);
    WeightUsage out;
    out.folder = m.dir;
    out.shape = s;
    out.architecture = m.arch;
    const int first = only_layer ? *only_layer : 0, last = only_layer ? *only_layer : s.layers - 1;
    double done = 0;
    const double total = last - first + 1;
    // asked between windows of rows, so Cancel (and quitting) stops within a few megabytes
    const std::function<bool()> go_on = [&] { return !progress || progress(done / total); };
    for (int layer = first; layer <= last; ++layer) {
        LayerPairUsage u;
        u.layer = layer;
        const int r = rotated.size() == 1 ? rotated[0] : rotated[static_cast<std::size_t>(layer)];
        if (r < 2) fail(m.dir, "layer " + std::to_string(layer) + " rotates " + std::to_string(r) + " dims; a pair needs 2");
        u.rotated_dims = r;
        std::vector<std::int64_t> q_rows_wanted, k_rows_wanted;
        for (int h = 0; h < s.heads; ++h)
            for (int j = 0; j < r; ++j) q_rows_wanted.push_back(q_row(s, h, j));
        for (int h = 0; h < s.kv_heads; ++h)
            for (int j = 0; j < r; ++j) k_rows_wanted.push_back(k_row(s, h, j));
        auto sums = [&](const std::string& name, const std::vector<std::int64_t>& rows) {
            const Located& at = m.tensor(name);
            try {
                std::vector<double> scale;
                if (const Located* sc = m.scale_of(name); sc && at.tensor->dtype == io::SafetensorsDtype::f8_e4m3)
                    scale = sc->file->values(*sc->tensor);
                out.bytes_read += rows.size() * static_cast<std::uint64_t>(at.tensor->shape[1]) * io::dtype_size(at.tensor->dtype);
                return at.file->row_square_sums(*at.tensor, rows, scale.empty() ? nullptr : &scale, m.fp8_block, go_on);
            } catch (const io::ReadCancelled&) {
                throw WeightsCancelled();
            } catch (const io::SafetensorsError& e) {
                throw WeightsError(e.what());
            }
        };
        const std::vector<double> q = sums(layer_name(a.q_tensor, m.prefix, layer), q_rows_wanted);
        const std::vector<double> k = sums(layer_name(a.k_tensor, m.prefix, layer), k_rows_wanted);
        std::vector<double> q_scale, k_scale;
        if (a.norm != NormScale::none) {
            auto scale = [&](std::string_view pattern) {
                const Located& at = m.tensor(layer_name(pattern, m.prefix, layer));
                std::vector<double> g;
                try {
                    g = at.file->values(*at.tensor);
                } catch (const io::SafetensorsError& e) {
                    throw WeightsError(e.what());
                }
                if (a.norm == NormScale::one_plus_w)
                    for (double& x : g) x += 1.0;
                return g;
            };
            q_scale = scale(a.q_norm);
            k_scale = scale(a.k_norm);
        }
        u.pairs = pair_usage(q, k, s.heads, s.kv_heads, r, a.pairing, q_scale, k_scale);
        out.layers.push_back(std::move(u));
        done += 1;
    }
    if (progress) progress(1.0);
    return out;
}

figures::TrainedReader folder_reader() {
    return [](const ParamSet& params, const std::function<bool(double)>& progress) {
        const std::shared_ptr<const ModelFolder> folder = open_model_folder(params[P::model]);
        WeightUsage u = read_weight_usage(*folder, params, std::nullopt, progress);
        figures::TrainedModel m;
        m.folder = u.folder;
        m.architecture = u.shape.model_type;
        m.layout = to_string(u.shape.layout);
        m.norm = to_string(u.architecture->norm);
        m.layers = u.shape.layers;
        m.heads = u.shape.heads;
        m.kv_heads = u.shape.kv_heads;
        m.head_dim = u.shape.head_dim;
        m.attention_bias = u.shape.attention_bias;
        m.usage = std::move(u.layers);
        return m;
    };
}

}  // namespace rope::weights
