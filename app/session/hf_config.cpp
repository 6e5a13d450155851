#include "session/hf_config.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "io/atomic_file.hpp"
#include "rope/model_layers.hpp"
#include "rope/multi_axis.hpp"
#include "rope/number_format.hpp"
#include "rope/number_parse.hpp"
#include "rope/presets.hpp"
#include "session/session.hpp"

namespace rope::session {

namespace {

using nlohmann::json;
using KeyValues = std::vector<std::pair<ParamId, std::string>>;

[[noreturn]] void fail_config(const std::string& name, const std::string& what) {
    throw SessionError("config '" + name + "': " + what);
}

// A value as a refusal names it: as the file writes it, shortened to a line.
std::string refused_value(const json& v) { return shorten_for_message(v.dump()); }

double number(const json& j, const std::string& key, const std::string& name) {
    const json& v = j.at(key);
    if (!v.is_number()) fail_config(name, "\"" + key + "\" is " + refused_value(v) + "; it must be a number");
    const double d = v.get<double>();
    if (!std::isfinite(d)) fail_config(name, "\"" + key + "\" is " + refused_value(v) + "; it must be a finite number");
    return d;
}

bool has(const json& j, const std::string& key) { return j.is_object() && j.contains(key) && !j.at(key).is_null(); }

// A count such as num_hidden_layers: a whole number from `low` to `high`.
int whole_number(const json& j, const std::string& key, const std::string& name, int low, int high) {
    const double d = number(j, key, name);
    if (!(d >= low && d <= high) || d != std::floor(d))
        fail_config(name, "\"" + key + "\" is " + format_number(d) + "; it must be a whole number from " + std::to_string(low) +
                       " to " + std::to_string(high));
    return static_cast<int>(d);
}

std::string list_text(const json& v, const std::string& key, const std::string& name) {
    if (!v.is_array()) fail_config(name, "\"" + key + "\" is " + refused_value(v) + "; it must be a list of numbers");
    std::string s;
    for (const json& x : v) {
        if (!x.is_number()) fail_config(name, "\"" + key + "\" has " + refused_value(x) + "; it must be a list of numbers");
        s += (s.empty() ? "" : ",") + format_number(x.get<double>());
    }
    return s;
}

std::string joined(const std::vector<std::string>& items) {
    std::string s;
    for (const std::string& i : items) s += (s.empty() ? "" : ", ") + i;
    return s;
}

void warn(std::vector<std::string>& warnings, const std::string& line) {
    if (std::find(warnings.begin(), warnings.end(), line) == warnings.end()) warnings.push_back(line);
}

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

// A JSON bool, or a number where transformers tests the value for truth (`if config.key:`): 0 is
// false, any other number true (Llama 4 configs saved by transformers 4.51 carry
// "attn_temperature_tuning": 4). Anything else is refused: one line naming the key and the value.
bool truthy(const json& v, const std::string& where, const std::string& name) {
    if (v.is_boolean()) return v.get<bool>();
    if (v.is_number()) return v.get<double>() != 0;
    fail_config(name, "\"" + where + "\" is " + refused_value(v) + "; it must be true or false (or a number: 0 is false, any other true)");
}

// The defaults of a model type's transformers configuration class for the keys the import reads,
// used where the file leaves a key out (or gives null), as the class does. Only the classes whose
// defaults differ from the generic reading (base 10000, no layers) are listed. Commits are
// huggingface/transformers'.
struct ClassDefaults {
    std::vector<std::string> model_types;
    const char* config_class;
    std::vector<std::pair<const char*, json>> values;
};

const std::vector<ClassDefaults> kClassDefaults = {
    // configuration_llama4.py (008e5743) lines 111-172
    {{"llama4", "llama4_text"}, "Llama4TextConfig",
     {{"num_hidden_layers", 48}, {"head_dim", 128}, {"rope_theta", 500000}, {"max_position_embeddings", 131072},
      {"no_rope_layer_interval", 4}, {"attention_chunk_size", 8192}}},
    // configuration_smollm3.py (008e5743) lines 55-90
    {{"smollm3"}, "SmolLM3Config",
     {{"num_hidden_layers", 36}, {"hidden_size", 2048}, {"num_attention_heads", 16}, {"rope_theta", 2000000},
      {"max_position_embeddings", 32768}, {"no_rope_layer_interval", 4}}},
    // Gemma3TextConfig.__init__, configuration_gemma3.py (008f5c8c)
    {{"gemma3", "gemma3_text"}, "Gemma3TextConfig",
     {{"num_hidden_layers", 26}, {"head_dim", 256}, {"rope_theta", 1000000}, {"max_position_embeddings", 131072},
      {"rope_local_base_freq", 10000}, {"sliding_window", 4096}}},
    // configuration_gemma4.py (008e5743): the fields, and __post_init__'s kwargs.pop("global_head_dim", 512)
    // (layer_types and rope_parameters: gemma4_defaults)
    {{"gemma4", "gemma4_text"}, "Gemma4TextConfig",
     {{"num_hidden_layers", 30}, {"head_dim", 256}, {"global_head_dim", 512}, {"max_position_embeddings", 131072},
      {"sliding_window", 512}}},
    // Qwen2VLTextConfig.__init__ and Qwen2_5_VLTextConfig.__init__ (018c8e03): kwargs.get("rope_theta",
    // 1000000.0); sliding_window is kept only if use_sliding_window (layers: qwen_window_layers)
    {{"qwen2_vl", "qwen2_vl_text"}, "Qwen2VLTextConfig",
     {{"hidden_size", 8192}, {"num_attention_heads", 64}, {"rope_theta", 1000000}, {"max_position_embeddings", 32768},
      {"use_sliding_window", false}}},
    {{"qwen2_5_vl", "qwen2_5_vl_text"}, "Qwen2_5_VLTextConfig",
     {{"hidden_size", 8192}, {"num_attention_heads", 64}, {"rope_theta", 1000000}, {"max_position_embeddings", 32768},
      {"use_sliding_window", false}}},
    // Qwen3VLTextConfig.__init__, configuration_qwen3_vl.py (000c33fd): default_theta 500000
    {{"qwen3_vl", "qwen3_vl_text"}, "Qwen3VLTextConfig",
     {{"hidden_size", 4096}, {"num_attention_heads", 32}, {"head_dim", 128}, {"rope_theta", 500000},
      {"max_position_embeddings", 128000}}},
    // configuration_qwen3_vl_moe.py (008e5743): default_theta 500000; head_dim None -> hidden_size // heads
    {{"qwen3_vl_moe", "qwen3_vl_moe_text"}, "Qwen3VLMoeTextConfig",
     {{"hidden_size", 2048}, {"num_attention_heads", 16}, {"rope_theta", 500000}, {"max_position_embeddings", 128000}}},
    // configuration_qwen3_next.py (008e5743): the fields, and __post_init__'s
    // setdefault("partial_rotary_factor", 0.25) and pop("full_attention_interval", 4)
    {{"qwen3_next"}, "Qwen3NextConfig",
     {{"num_hidden_layers", 48}, {"hidden_size", 2048}, {"num_attention_heads", 16}, {"head_dim", 256},
      {"max_position_embeddings", 32768}, {"partial_rotary_factor", 0.25}, {"full_attention_interval", 4}}},
    // configuration_phi3.py (008e5743)
    {{"phi3"}, "Phi3Config",
     {{"hidden_size", 3072}, {"num_attention_heads", 32}, {"max_position_embeddings", 4096},
      {"original_max_position_embeddings", 4096}}},
    // DeepseekV3Config.__init__, configuration_deepseek_v3.py (001f85b3)
    {{"deepseek_v3"}, "DeepseekV3Config",
     {{"qk_rope_head_dim", 64}, {"max_position_embeddings", 4096}, {"qk_nope_head_dim", 128}, {"v_head_dim", 128}, {"kv_lora_rank", 512}}},
    // configuration_gpt_neox.py (008e5743): setdefault("partial_rotary_factor", kwargs.pop("rotary_pct", 0.25))
    {{"gpt_neox"}, "GPTNeoXConfig",
     {{"hidden_size", 6144}, {"num_attention_heads", 64}, {"max_position_embeddings", 2048}, {"rotary_pct", 0.25}}},
    // GPTJConfig.__init__, configuration_gptj.py (0bedd330)
    {{"gptj"}, "GPTJConfig", {{"n_embd", 4096}, {"n_head", 16}, {"n_positions", 2048}, {"rotary_dim", 64}}},
    // Glm4MoeConfig.__init__, configuration_glm4_moe.py (008c726d)
    {{"glm4_moe"}, "Glm4MoeConfig", {{"partial_rotary_factor", 0.5}, {"max_position_embeddings", 131072}}},
    // configuration_qwen3.py (008e5743): sliding_window kept only if use_sliding_window
    {{"qwen3"}, "Qwen3Config",
     {{"hidden_size", 4096}, {"num_attention_heads", 32}, {"head_dim", 128}, {"max_position_embeddings", 32768},
      {"use_sliding_window", false}}},
    // configuration_gemma.py (008e5743)
    {{"gemma"}, "GemmaConfig",
     {{"hidden_size", 3072}, {"num_attention_heads", 16}, {"head_dim", 256}, {"max_position_embeddings", 8192}}},
    // Qwen3_5TextConfig, configuration_qwen3_5.py (008e5743) lines 89-120: head_dim 256, max_position_embeddings
    // 32768; __post_init__'s setdefault("partial_rotary_factor", 0.25) and pop("full_attention_interval", 4)
    // (the MoE class, configuration_qwen3_5_moe.py, has the same post-init)
    {{"qwen3_5", "qwen3_5_text", "qwen3_5_moe", "qwen3_5_moe_text"}, "Qwen3_5TextConfig",
     {{"head_dim", 256}, {"max_position_embeddings", 32768}, {"partial_rotary_factor", 0.25}, {"full_attention_interval", 4}}},
    // DeepseekV4Config, configuration_deepseek_v4.py (015c0781) lines 150-162
    {{"deepseek_v4"}, "DeepseekV4Config", {{"rope_theta", 10000}, {"compress_rope_theta", 160000}, {"sliding_window", 128}}},
    // KimiLinearConfig, configuration_kimi_linear.py (0bc4dd0d) lines 105-133: qk_rope_head_dim 64,
    // qk_nope_head_dim 128, model_max_length 1048576 (attribute_map: max_position_embeddings), mla_use_nope false
    {{"kimi_linear"}, "KimiLinearConfig",
     {{"qk_rope_head_dim", 64}, {"qk_nope_head_dim", 128}, {"model_max_length", 1048576}, {"mla_use_nope", false}}},
    // Cohere2Config.__init__, configuration_cohere2.py (transformers def9a7ef) lines 156-181 and 219-228
    // (sliding_window_pattern: kwargs.get(..., 4), read only when layer_types is None)
    {{"cohere2"}, "Cohere2Config",
     {{"hidden_size", 8192}, {"num_attention_heads", 64}, {"num_hidden_layers", 40}, {"max_position_embeddings", 8192},
      {"rope_theta", 10000}, {"sliding_window", 4096}, {"sliding_window_pattern", 4}}},
    // Glm4vTextConfig.__init__, configuration_glm4v.py (def9a7ef) lines 223-243: no partial_rotary_factor
    // (the rope init's getattr default 1.0)
    {{"glm4v", "glm4v_text"}, "Glm4vTextConfig",
     {{"hidden_size", 4096}, {"num_attention_heads", 32}, {"max_position_embeddings", 32768}, {"rope_theta", 10000}}},
    // Glm4vMoeTextConfig.__init__, configuration_glm4v_moe.py (def9a7ef) lines 248-261
    {{"glm4v_moe", "glm4v_moe_text", "Glm4vMoe_text"}, "Glm4vMoeTextConfig",
     {{"hidden_size", 4096}, {"num_attention_heads", 96}, {"partial_rotary_factor", 0.5}, {"max_position_embeddings", 65536},
      {"rope_theta", 10000}}},
    // Ernie4_5_VL_MoeTextConfig, configuration_ernie4_5_vl_moe.py (transformers 147b7aa0) lines 170-205:
    // default_theta 500000, hidden_size 2560, 28 layers, 20 heads (head dim 128), max_position_embeddings 131072
    {{"ernie4_5_vl_moe", "ernie4_5_vl_moe_text", "ernie4_5_moe_vl"}, "Ernie4_5_VL_MoeTextConfig",
     {{"hidden_size", 2560}, {"num_hidden_layers", 28}, {"num_attention_heads", 20}, {"max_position_embeddings", 131072},
      {"rope_theta", 500000}}},
    // configuration_gpt_oss.py (02b8f42b): default_theta 150000 (layer_types and rope_parameters: gpt_oss_defaults)
    {{"gpt_oss"}, "GptOssConfig",
     {{"num_hidden_layers", 36}, {"hidden_size", 2880}, {"num_attention_heads", 64}, {"head_dim", 64},
      {"rope_theta", 150000}, {"max_position_embeddings", 131072}, {"sliding_window", 128}}},
};

const ClassDefaults* class_defaults(const std::string& model_type) {
    for (const ClassDefaults& c : kClassDefaults)
        if (std::find(c.model_types.begin(), c.model_types.end(), model_type) != c.model_types.end()) return &c;
    return nullptr;
}

// The config's view of one kind of layer: its RoPE dict, and Gemma 3's local base for sliding layers.
struct RopeSource {
    json rope = json::object();
    bool local_base = false;  // base from rope_local_base_freq, no scaling (Gemma 3's sliding layers)
    std::string where;        // "rope_parameters.full_attention" etc., for messages
};

// What one kind of layer (or the whole model) reads: the layer-level keys, and its L0.
struct RopeValues {
    KeyValues values;
    double original = 0;  // original_max_position, 0 if none
};

class ConfigReader {
public:
    ConfigReader(const std::string& text, const std::string& name) : name_(name) { parse(text); }

    ConfigImport read(const std::string& layer_type);

private:
    void parse(const std::string& text);
    void apply_class_defaults();
    bool default_not_used(const std::string& key) const;
    void gemma4_defaults(std::vector<std::string>& used);
    void gpt_oss_defaults(std::vector<std::string>& used);
    void qwen_window_layers(std::vector<std::string>& used);
    int head_dim() const;
    bool cohere_pairs() const { return model_type_ == "cohere" || model_type_ == "cohere2"; }
    bool hunyuan() const { return starts_with(model_type_, "hunyuan"); }
    bool hunyuan_alpha(const json& rope) const;
    double fraction(const RopeSource& src, int dim) const;
    RopeValues rope_values(const RopeSource& src, int dim);
    std::string rope_type(const RopeSource& src, int dim, double f) const;
    double original_context(const json& rope, const std::string& type) const;
    void scaling_values(const json& rope, const std::string& type, double original, KeyValues& out) const;
    void check_factor_lists(const RopeSource& src, int dim, double f) const;
    void attention_and_unread_keys(const json& rope, const std::string& type, KeyValues& out);
    KeyValues model_values() const;
    int layer_count() const;  // num_hidden_layers, 0 if not given
    void plan_layers();
    void read_no_rope_layers();
    void kimi_linear_layers();
    void deepseek_v4_layers();
    void model_nope_layers();
    RopeSource deepseek_v4_source(const std::string& layer_type);
    bool nested_rope() const;
    RopeSource source_for(const std::string& layer_type);
    void read_layers(const std::string& layer_type);
    int sliding_window();
    void read_flat(const std::string& layer_type);
    void read_temperature();
    void read_axes();
    void read_mrope(const RopeSource& src);
    bool ernie_vl() const { return starts_with(model_type_, "ernie4_5") && model_type_.find("vl") != std::string::npos; }
    void read_ernie_3d(const RopeSource& src);
    void read_video(bool qwen3_vl);
    void read_pixtral_grid();
    void warn_unread_keys();
    std::string bias_model() const;
    void read_bias_model(const std::string& kind);
    void read_alibi_bloom();
    void read_alibi_mpt();
    void read_t5();
    double count_of(std::initializer_list<const char*> keys, double fallback, double high);

    std::string name_;
    json root_, c_;
    std::string model_type_;
    double max_positions_ = 0;
    ConfigImport out_;
    // the layers, when the config says how they differ
    std::vector<std::string> types_;  // per layer: its layer type (layer_types' names)
    std::vector<bool> nope_;          // per layer: no RoPE (no_rope_layers' 0)
    std::set<std::string> read_;      // top-level keys read (the rest about RoPE or attention is warned)
};

void ConfigReader::parse(const std::string& text) {
    try {
        root_ = json::parse(text);
    } catch (const json::exception& e) {  // syntax errors, and numbers too big for a double
        std::string what = e.what();
        const std::size_t id_end = what.find("] ");
        fail_config(name_, "not valid JSON (" + (id_end == std::string::npos ? what : what.substr(id_end + 2)) + ")");
    }
    if (!root_.is_object()) fail_config(name_, "the file holds " + refused_value(root_) + "; a config.json is a JSON object");
    // multimodal configs keep the language model's settings in text_config
    c_ = root_;
    if (has(root_, "text_config") && root_["text_config"].is_object() && !has(root_, "num_attention_heads") &&
        !has(root_, "head_dim")) {
        c_ = root_["text_config"];
        out_.warnings.push_back("config '" + name_ + "': using text_config; the other sections (vision, audio) are not shown");
    }
    for (const char* section : {"vision_config", "audio_config"})
        if (has(root_, section))
            out_.warnings.push_back("config '" + name_ + "': \"" + section + "\" is not shown" +
                                    (std::string(section) == "vision_config" ? " (a Qwen VL config's temporal_patch_size and tokens_per_second are read)" : ""));
    for (const json* j : {&c_, &root_})
        if (model_type_.empty() && has(*j, "model_type") && (*j)["model_type"].is_string()) model_type_ = (*j)["model_type"].get<std::string>();
    apply_class_defaults();
    if (has(c_, "max_position_embeddings")) max_positions_ = number(c_, "max_position_embeddings", name_);
    else if (has(c_, "n_positions")) max_positions_ = number(c_, "n_positions", name_);
    else if (model_type_ == "kimi_linear" && has(c_, "model_max_length")) max_positions_ = number(c_, "model_max_length", name_);
    read_.insert("model_max_length");
}

// Whether a class default is left unused because other keys of the file decide instead.
bool ConfigReader::default_not_used(const std::string& key) const {
    const auto in_rope_dict = [&](const char* k) {
        for (const char* dict : {"rope_parameters", "rope_scaling"})
            if (has(c_, dict) && c_[dict].is_object() && has(c_[dict], k)) return true;
        return false;
    };
    if (key == "rope_theta") return has(c_, "rope_parameters");  // v5: the base is inside
    if (key == "no_rope_layer_interval")                          // the list says
        return has(c_, "no_rope_layers") && c_["no_rope_layers"].is_array() && !c_["no_rope_layers"].empty();
    if (key == "full_attention_interval" || key == "sliding_window_pattern") return has(c_, "layer_types");  // only when deriving them
    if (key == "partial_rotary_factor") return in_rope_dict("partial_rotary_factor");  // setdefault: the dict wins
    if (key == "rotary_pct") return has(c_, "partial_rotary_factor") || in_rope_dict("partial_rotary_factor");
    return false;
}

// Keys the file leaves out take the model class's defaults, said in one warning. A key given as
// null is not defaulted: the class keeps the None (Llama 4's head_dim then comes from hidden_size).
void ConfigReader::apply_class_defaults() {
    const ClassDefaults* defaults = class_defaults(model_type_);
    if (!defaults || !c_.is_object()) return;
    std::vector<std::string> used;
    for (const auto& [key, value] : defaults->values) {
        if (c_.contains(key) || default_not_used(key)) continue;
        c_[key] = value;
        used.push_back(std::string(key) + " " + (value.is_number() ? format_number(value.get<double>()) : value.dump()));
    }
    if (starts_with(model_type_, "gemma4")) gemma4_defaults(used);
    if (model_type_ == "gpt_oss") gpt_oss_defaults(used);
    if (starts_with(model_type_, "qwen2_vl") || starts_with(model_type_, "qwen2_5_vl") || model_type_ == "qwen3") qwen_window_layers(used);
    if (!used.empty())
        out_.warnings.push_back("config '" + name_ + "': not in the file, so transformers' " + defaults->config_class +
                                " defaults are used: " + joined(used));
}

// Gemma4TextConfig.__post_init__: layer_types None (left out or null) -> every 6th layer full, the
// others sliding; rope_parameters None -> proportional RoPE (a quarter of the pairs, base 1e6) on
// full layers, default RoPE (base 1e4) on sliding ones.
void ConfigReader::gemma4_defaults(std::vector<std::string>& used) {
    if (!has(c_, "layer_types")) {
        const int layers = layer_count();
        if (layers == 0)
            fail_config(name_, "\"num_hidden_layers\" is null and \"layer_types\" is not given; Gemma 4 derives the layer types from "
                        "the layer count: give num_hidden_layers (1 to " + std::to_string(kMaxLayers) + ") or layer_types");
        json types = json::array();
        for (int i = 0; i < layers; ++i) types.push_back((i + 1) % 6 ? "sliding_attention" : "full_attention");
        c_["layer_types"] = types;
        used.push_back("layer_types (every 6th of " + std::to_string(layers) + " layers full_attention)");
    }
    if (has(c_, "rope_parameters") && c_["rope_parameters"].is_object() && c_["rope_parameters"].empty())
        fail_config(name_, "\"rope_parameters\" is {}; Gemma 4 reads rope_parameters[layer_type] for every layer: give an entry per "
                    "layer type, or leave the key out (or null) for Gemma4TextConfig's defaults");
    if (!has(c_, "rope_parameters")) {
        c_["rope_parameters"] = {{"sliding_attention", {{"rope_type", "default"}, {"rope_theta", 10000.0}}},
                                 {"full_attention", {{"rope_type", "proportional"}, {"partial_rotary_factor", 0.25}, {"rope_theta", 1000000.0}}}};
        used.push_back("rope_parameters (full_attention: proportional, partial_rotary_factor 0.25, rope_theta 1000000; "
                       "sliding_attention: default, rope_theta 10000)");
    }
}

// Qwen2VLTextConfig, Qwen2_5_VLTextConfig and Qwen3Config: with use_sliding_window true, layer_types
// None gives sliding attention from layer max_window_layers on (default 80 for the VL classes, 28 for
// Qwen3), full attention before; with it false the window is None and every layer attends fully.
void ConfigReader::qwen_window_layers(std::vector<std::string>& used) {
    read_.insert("use_sliding_window");
    const bool on = has(c_, "use_sliding_window") && truthy(c_["use_sliding_window"], "use_sliding_window", name_);
    if (!on || !has(c_, "sliding_window") || has(c_, "layer_types") || layer_count() == 0) return;
    int first_sliding = model_type_ == "qwen3" ? 28 : 80;
    if (has(c_, "max_window_layers")) first_sliding = whole_number(c_, "max_window_layers", name_, 0, kMaxLayers);
    else used.push_back("max_window_layers " + std::to_string(first_sliding));
    read_.insert("max_window_layers");
    json types = json::array();
    for (int i = 0; i < layer_count(); ++i) types.push_back(i >= first_sliding ? "sliding_attention" : "full_attention");
    c_["layer_types"] = types;
}

// GptOssConfig.__post_init__: layer_types None -> sliding and full layers taking turns (sliding
// first); rope_parameters None, and no rope_scaling (which the mixin prefers: `rope_scaling or
// rope_parameters`) -> yarn, factor 32, beta_fast 32, beta_slow 1, truncate false, L0 4096.
void ConfigReader::gpt_oss_defaults(std::vector<std::string>& used) {
    if (!has(c_, "layer_types") && layer_count() > 0) {
        json types = json::array();
        for (int i = 0; i < layer_count(); ++i) types.push_back((i + 1) % 2 ? "sliding_attention" : "full_attention");
        c_["layer_types"] = types;
        used.push_back("layer_types (sliding and full_attention taking turns, " + std::to_string(layer_count()) + " layers)");
    }
    const bool scaling_given = has(c_, "rope_scaling") && !(c_["rope_scaling"].is_object() && c_["rope_scaling"].empty());
    if (!has(c_, "rope_parameters") && !scaling_given) {
        c_.erase("rope_scaling");
        c_["rope_parameters"] = {{"rope_type", "yarn"}, {"factor", 32.0}, {"beta_fast", 32.0}, {"beta_slow", 1.0},
                                 {"truncate", false}, {"original_max_position_embeddings", 4096}};
        used.push_back("rope_parameters (yarn, factor 32, beta_fast 32, beta_slow 1, truncate false, original_max_position_embeddings 4096)");
    }
}

// head_dim (may be absent or null), else hidden_size // num_attention_heads, else GPT-J's
int ConfigReader::head_dim() const {
    double d = 0;
    std::string from;  // the keys and values it comes from, as a refusal names them
    // HunYuanMoEV1Config / HunYuanDenseV1Config: head_dim defaults to None and the rotary embedding reads
    // config.head_dim (modeling_hunyuan_v1_moe.py, def9a7ef, line 400): without it the model cannot be built
    if (starts_with(model_type_, "hunyuan_v1") && !has(c_, "head_dim"))
        fail_config(name_, "\"head_dim\" is missing or null; " + model_type_ + "'s configuration class leaves it None and its rotary embedding "
                    "reads config.head_dim: give head_dim (a whole number, 128 for Hunyuan-A13B)");
    // Tencent's own modeling_hunyuan.py (model_type "hunyuan", line 544): hidden_size // num_attention_heads,
    // whatever head_dim or attention_head_dim say
    const bool tencent_hunyuan = model_type_ == "hunyuan" && has(c_, "hidden_size") && has(c_, "num_attention_heads");
    if (tencent_hunyuan) {
        const double heads = number(c_, "num_attention_heads", name_), width = number(c_, "hidden_size", name_);
        if (heads <= 0) fail_config(name_, "\"num_attention_heads\" is " + format_number(heads) + "; it must be positive");
        d = std::floor(width / heads);
        from = "\"hidden_size\" " + format_number(width) + " // \"num_attention_heads\" " + format_number(heads) + " = " + format_number(d);
    } else if (has(c_, "qk_rope_head_dim")) {  // DeepSeek V2/V3: only this part of each head rotates (transformers' head_dim)
        d = number(c_, "qk_rope_head_dim", name_);
        from = "\"qk_rope_head_dim\" " + format_number(d);
    } else if (has(c_, "head_dim")) {
        d = number(c_, "head_dim", name_);
        from = "\"head_dim\" " + format_number(d);
    } else if ((has(c_, "hidden_size") && has(c_, "num_attention_heads")) || (has(c_, "n_embd") && has(c_, "n_head"))) {
        const bool gpt2 = !(has(c_, "hidden_size") && has(c_, "num_attention_heads"));
        const std::string width_key = gpt2 ? "n_embd" : "hidden_size", heads_key = gpt2 ? "n_head" : "num_attention_heads";
        const double heads = number(c_, heads_key, name_), width = number(c_, width_key, name_);
        if (heads <= 0) fail_config(name_, "\"" + heads_key + "\" is " + format_number(heads) + "; it must be positive");
        d = std::floor(width / heads);
        from = "\"" + width_key + "\" " + format_number(width) + " // \"" + heads_key + "\" " + format_number(heads) + " = " + format_number(d);
    } else {
        fail_config(name_, "no head dimension: needs \"head_dim\", or \"hidden_size\" and \"num_attention_heads\" (or \"n_embd\" and \"n_head\")");
    }
    // checked before the conversion: a float outside int's range would be undefined behaviour
    if (!(d >= 1 && d <= 1e6) || d != std::floor(d))
        fail_config(name_, "head dimension " + from + ": it must be a whole number from 1 to 1000000");
    return static_cast<int>(d);
}

// partial rotary: inside the RoPE dict first (transformers v5), then the top level; 1 if none
double ConfigReader::fraction(const RopeSource& src, int dim) const {
    std::string key, where;
    double f = 1;
    if (has(src.rope, "partial_rotary_factor")) {
        key = "partial_rotary_factor", where = src.where + ".partial_rotary_factor";
        f = number(src.rope, key, name_);
    } else if (has(c_, "partial_rotary_factor")) {
        key = where = "partial_rotary_factor";
        f = number(c_, key, name_);
    } else if (has(c_, "rotary_pct")) {
        key = where = "rotary_pct";
        f = number(c_, key, name_);
    } else if (has(c_, "rotary_dim")) {
        key = where = "rotary_dim";
        f = number(c_, key, name_) / dim;
        if (!(f > 0 && f <= 1))
            fail_config(name_, "\"rotary_dim\" is " + format_number(number(c_, key, name_)) + "; it must be from 1 to the head dimension " +
                            std::to_string(dim));
    } else {
        return 1;
    }
    if (!(f > 0 && f <= 1))
        fail_config(name_, "\"" + where + "\" is " + format_number(f) + "; it must be in (0, 1] (the share of the head that rotates)");
    return f;
}

RopeValues ConfigReader::rope_values(const RopeSource& src, int dim) {
    const json& rope = src.rope;
    RopeValues r;
    KeyValues& out = r.values;
    out.emplace_back(P::dim, std::to_string(dim));

    double base = 10000;
    if (src.local_base) base = number(c_, "rope_local_base_freq", name_);
    else if (has(rope, "rope_theta")) base = number(rope, "rope_theta", name_);
    else if (has(c_, "rope_theta")) base = number(c_, "rope_theta", name_);
    else if (has(c_, "rotary_emb_base")) base = number(c_, "rotary_emb_base", name_);
    out.emplace_back(P::base, format_number(base));

    const double f = fraction(src, dim);
    const bool partial = has(rope, "partial_rotary_factor") || has(c_, "partial_rotary_factor") || has(c_, "rotary_pct") ||
                         has(c_, "rotary_dim");
    if (partial) out.emplace_back(P::rotary_fraction, format_number(f));

    if (hunyuan_alpha(rope)) {
        // HunYuanMoEV1RotaryEmbedding (modeling_hunyuan_v1_moe.py, transformers def9a7ef, lines 398-403; the
        // dense model's lines 320-324; Tencent's HunYuanDynamicNTKAlphaRotaryEmbedding, modeling_hunyuan.py
        // line 358): base = rope_theta x alpha^(d/(d-2)), the static NTK-aware base with alpha as its factor
        const double alpha = number(rope, "alpha", name_);
        if (!(alpha >= 1)) fail_config(name_, "\"" + src.where + ".alpha\" is " + format_number(alpha) + "; it must be at least 1 (it raises the base)");
        out.emplace_back(P::scaling, "ntk");
        out.emplace_back(P::factor, format_number(alpha));
        if (max_positions_ >= 1) {
            r.original = std::floor(max_positions_);
            out.emplace_back(P::original_max_position, format_number(r.original));
        }
        const std::string past = model_type_ == "hunyuan"
            ? "Tencent's modeling_hunyuan.py keeps this base at every length"
            : "past max_position_embeddings transformers' dynamic update recomputes the frequencies from rope_theta and factor "
              "without alpha (_compute_dynamic_ntk_parameters), which the app does not show";
        warn(out_.warnings, "config '" + name_ + "': rope type dynamic with \"alpha\" " + format_number(alpha) + ": base = rope_theta x alpha^(d/(d-2)), "
                            "shown as ntk scaling with factor " + format_number(alpha) + "; " + past);
        return r;
    }
    const std::string type = rope_type(src, dim, f);
    out.emplace_back(P::scaling, type);
    const double original = original_context(rope, type);
    if (original >= 1) {
        r.original = std::floor(original);
        out.emplace_back(P::original_max_position, format_number(r.original));
    }
    if (type == "longrope") check_factor_lists(src, dim, f);
    if (type != "none") scaling_values(rope, type, original, out);
    attention_and_unread_keys(rope, type, out);
    return r;
}

// Hunyuan's NTK-alpha: a dynamic rope dict with a truthy "alpha" (transformers' `rope_type == "dynamic"
// and config.rope_scaling["alpha"]`; Tencent's `scaling_type == "dynamic" and scaling_alpha`).
bool ConfigReader::hunyuan_alpha(const json& rope) const {
    if (!hunyuan() || !has(rope, "alpha")) return false;
    const json& type = has(rope, "rope_type") ? rope["rope_type"] : has(rope, "type") ? rope["type"] : json();
    if (type != "dynamic") return false;
    return truthy(rope["alpha"], "alpha", name_);
}

// The rope type transformers reads (rope_type, else type), its aliases mapped; refused if not one of ours.
std::string ConfigReader::rope_type(const RopeSource& src, int dim, double f) const {
    const json& rope = src.rope;
    std::string type = "none";
    if (has(rope, "rope_type")) {
        if (!rope["rope_type"].is_string()) fail_config(name_, "\"rope_type\" is " + refused_value(rope["rope_type"]) + "; it must be a string");
        type = rope["rope_type"];
    } else if (has(rope, "type")) {
        if (!rope["type"].is_string()) fail_config(name_, "\"type\" is " + refused_value(rope["type"]) + "; it must be a string");
        type = rope["type"];
    }
    if (type == "default" || type == "mrope") type = "none";  // mrope: the frequencies are 1D RoPE's (read_axes reads the axes)
    if (type == "su") type = "longrope";
    if (model_type_ == "phi3" && type == "yarn") type = "longrope";  // Phi3Config's alias for its early configs
    if (ernie_vl() && type != "none")  // modeling_ernie4_5_vl_moe.py (147b7aa0) lines 61-64: a ValueError
        fail_config(name_, "\"" + src.where + "\" has rope type \"" + type + "\"; ERNIE-4.5-VL requires the default rope type");
    // Phi3Config.validate_rope raises ValueError for any other type
    if (model_type_ == "phi3" && type != "none" && type != "longrope")
        fail_config(name_, "\"" + src.where + "\" has rope type \"" + type + "\"; Phi3Config allows only longrope (also written su or yarn) or default");
    static const std::set<std::string> supported = {"none", "linear", "dynamic", "yarn", "llama3", "longrope", "proportional"};
    if (!supported.count(type))
        fail_config(name_, "rope type \"" + type + "\" is not supported (supported: default, linear, dynamic, yarn, llama3, longrope, proportional)");
    // transformers' int(partial_rotary_factor * head_dim // 2) pairs turn, the rest get frequency 0
    if (type == "proportional" && static_cast<int>(std::floor(dim * f / 2)) < 1)
        fail_config(name_, src.where + " has rope type proportional with partial_rotary_factor " + format_number(f) + " and head dimension " +
                        std::to_string(dim) + ": no pair turns (int(" + std::to_string(dim) + " x " + format_number(f) +
                        ") // 2 = 0); the factor must be at least " + format_number(2.0 / dim));
    return type;
}

// L0, the training length: the critical dimension's L for every type, the reference of the scaled
// ones. Dynamic NTK scales against max_position_embeddings (transformers ignores any original
// there); longrope reads the top-level value first (Phi-3), the others the dict's first.
double ConfigReader::original_context(const json& rope, const std::string& type) const {
    const bool top_original = has(c_, "original_max_position_embeddings");
    const bool dict_original = has(rope, "original_max_position_embeddings");
    const double top_value = top_original ? number(c_, "original_max_position_embeddings", name_) : 0;
    const double dict_value = dict_original ? number(rope, "original_max_position_embeddings", name_) : 0;
    double original = max_positions_;  // dynamic's, always
    if (type == "longrope") original = top_original ? top_value : dict_original ? dict_value : max_positions_;
    else if (type != "dynamic") original = dict_original ? dict_value : top_original ? top_value : max_positions_;
    return original;
}

// A scaled type's own keys: the factor, and llama3's, yarn's or longrope's parameters.
void ConfigReader::scaling_values(const json& rope, const std::string& type, double original, KeyValues& out) const {
    double factor = 1.0;
    if (has(rope, "factor")) factor = number(rope, "factor", name_);
    else if (type != "longrope" && type != "proportional") fail_config(name_, "rope type \"" + type + "\" needs \"factor\"");
    if (factor < 1) fail_config(name_, "\"factor\" " + format_number(factor) + " must be at least 1 (it stretches the context)");
    // longrope with a stated L0 takes its factor from the two lengths, as Phi-3 does (<= 1: none)
    const bool stated = has(c_, "original_max_position_embeddings") || has(rope, "original_max_position_embeddings");
    if (type == "longrope" && stated && original >= 1 && max_positions_ >= 1)
        factor = std::max(1.0, max_positions_ / original);
    out.emplace_back(P::factor, format_number(factor));
    if (type == "llama3") {
        for (const auto& [k, id] : {std::pair<const char*, ParamId>{"low_freq_factor", P::low_freq_factor}, {"high_freq_factor", P::high_freq_factor}}) {
            if (!has(rope, k)) fail_config(name_, "rope type llama3 needs \"" + std::string(k) + "\"");
            out.emplace_back(id, format_number(number(rope, k, name_)));
        }
    }
    if (type == "yarn") {
        // transformers reads `beta_fast or 32`: a 0 means the default
        for (const auto& [k, id] : {std::pair<const char*, ParamId>{"beta_fast", P::beta_fast}, {"beta_slow", P::beta_slow},
                                    {"mscale", P::mscale}, {"mscale_all_dim", P::mscale_all_dim}})
            if (has(rope, k) && !(std::string(k).rfind("beta", 0) == 0 && number(rope, k, name_) == 0))
                out.emplace_back(id, format_number(number(rope, k, name_)));
        if (has(rope, "truncate"))  // _compute_yarn_parameters: `if truncate:`
            out.emplace_back(P::truncate, truthy(rope["truncate"], "truncate", name_) ? "true" : "false");
    }
    if (type == "longrope") {
        if (!has(rope, "long_factor") || !has(rope, "short_factor"))
            fail_config(name_, "rope type longrope needs \"long_factor\" and \"short_factor\" lists");
        out.emplace_back(P::long_factors, list_text(rope["long_factor"], "long_factor", name_));
        out.emplace_back(P::short_factors, list_text(rope["short_factor"], "short_factor", name_));
    }
}

// Longrope's lists scale the rotated pairs one by one: transformers multiplies a tensor of
// int(head_dim x partial_rotary_factor) // 2 inverse frequencies by each list, so any other length
// fails there (_compute_longrope_parameters; its validation names the length it expects).
void ConfigReader::check_factor_lists(const RopeSource& src, int dim, double f) const {
    const int pairs = static_cast<int>(std::floor(dim * f)) / 2;
    for (const char* key : {"short_factor", "long_factor"}) {
        if (!has(src.rope, key) || !src.rope[key].is_array()) continue;  // scaling_values says what is missing
        const std::size_t given = src.rope[key].size();
        if (given != static_cast<std::size_t>(pairs))
            fail_config(name_, "\"" + src.where + "." + key + "\" has " + std::to_string(given) + " numbers; longrope needs one per rotated pair: " +
                            std::to_string(pairs) + " (int(head_dim " + std::to_string(dim) + " x partial_rotary_factor " + format_number(f) +
                            ") // 2)");
    }
}

// The attention factor (yarn and longrope only), and a warning for each rope key not read.
void ConfigReader::attention_and_unread_keys(const json& rope, const std::string& type, KeyValues& out) {
    if (has(rope, "attention_factor")) {
        const double attention = number(rope, "attention_factor", name_);
        if (type == "yarn" || type == "longrope")
            out.emplace_back(P::attention_factor, format_number(attention));
        else
            warn(out_.warnings, "config '" + name_ + "': \"attention_factor\" is ignored for rope type " +
                                    (type == "none" ? std::string("default") : type) + " (transformers uses 1)");
    }
    static const std::set<std::string> understood = {
        "rope_type", "type", "factor", "original_max_position_embeddings", "low_freq_factor", "high_freq_factor", "beta_fast",
        "beta_slow", "mscale", "mscale_all_dim", "truncate", "long_factor", "short_factor", "attention_factor", "rope_theta",
        "partial_rotary_factor", "mrope_section", "mrope_interleaved"};
    for (const auto& [k, v] : rope.items())
        if (!understood.count(k)) warn(out_.warnings, "config '" + name_ + "': rope key \"" + k + "\" is not supported and is ignored");
}

// The keys every layer shares: the pair layout and the context shown.
KeyValues ConfigReader::model_values() const {
    KeyValues out;
    // layouts: GPT-J, DeepSeek's interleaved rope (and Kimi K2, which runs DeepSeek-V3's code) and
    // Llama 4 (complex multiplication on neighbouring dims, transformers' apply_rotary_emb) pair
    // neighbours; the HF Llama family and NeoX use rotate_half
    // DeepSeek-V4 (apply_rotary_emb on view_as_complex(x.unflatten(-1, (-1, 2))), its inference/model.py
    // lines 232-244), Cohere and Cohere2 (modeling_cohere2.py, transformers def9a7ef, line 72
    // repeat_interleave(freqs, 2) and lines 134-139 rotate_half on x[..., ::2], x[..., 1::2]) and GLM-4.1V
    // (modeling_glm4v.py, def9a7ef, line 472 repeat_interleave and rotate_half_llm, lines 427-431) too.
    // GLM-4.5V's modeling_glm4v_moe.py (def9a7ef lines 168-218) uses rotate_half on halves: half.
    bool interleaved = model_type_ == "gptj" || model_type_ == "deepseek_v3" || model_type_ == "deepseek_v2" ||
                       model_type_ == "kimi_k2" || starts_with(model_type_, "llama4") || model_type_ == "deepseek_v4" ||
                       cohere_pairs() || model_type_ == "glm4v" || model_type_ == "glm4v_text" || ernie_vl();
    if (has(c_, "rope_interleave"))  // DeepSeek's switch (true by default there; the attention tests it for truth)
        interleaved = truthy(c_["rope_interleave"], "rope_interleave", name_);
    out.emplace_back(P::pairing, interleaved ? "interleaved" : "half");
    if (max_positions_ >= 1) out.emplace_back(P::max_position, format_number(std::floor(max_positions_)));
    // MLA (DeepSeek-V2/V3, Kimi K2): the head's part without rotation beside qk_rope_head_dim, its value dims
    // and the latent's rank
    if (has(c_, "qk_rope_head_dim") && has(c_, "qk_nope_head_dim")) {
        out.emplace_back(P::qk_nope_head_dim, format_number(number(c_, "qk_nope_head_dim", name_)));
        if (has(c_, "v_head_dim")) out.emplace_back(P::v_head_dim, format_number(number(c_, "v_head_dim", name_)));
        if (has(c_, "kv_lora_rank")) out.emplace_back(P::kv_lora_rank, format_number(number(c_, "kv_lora_rank", name_)));
    }
    return out;
}

int ConfigReader::layer_count() const {
    return has(c_, "num_hidden_layers") ? whole_number(c_, "num_hidden_layers", name_, 1, kMaxLayers) : 0;
}

// layer_types as written, else the layer types each model's configuration class derives
// (transformers' Llama4TextConfig, Qwen3NextConfig, Gemma3TextConfig, SmolLM3Config); none if the
// config does not say how its layers differ.
void ConfigReader::plan_layers() {
    if (model_type_ == "kimi_linear") kimi_linear_layers();
    if (model_type_ == "deepseek_v4") deepseek_v4_layers();
    const bool llama4 = starts_with(model_type_, "llama4");
    bool says_layers = llama4;  // else the layer count is not needed (and not checked)
    for (const char* k : {"layer_types", "no_rope_layers", "no_rope_layer_interval", "full_attention_interval", "rope_local_base_freq",
                          "sliding_window_pattern", "_sliding_window_pattern"})
        says_layers = says_layers || has(c_, k);
    if (!says_layers) return;
    const int count = layer_count();
    if (has(c_, "layer_types")) {
        const json& list = c_["layer_types"];
        if (!list.is_array() || list.empty())
            fail_config(name_, "\"layer_types\" is " + list.dump().substr(0, 40) + "; it must be a list of layer type names, one per layer");
        if (count > 0 && static_cast<int>(list.size()) != count)
            fail_config(name_, "\"layer_types\" has " + std::to_string(list.size()) + " entries; it must have one per layer (num_hidden_layers: " +
                            std::to_string(count) + ")");
        if (static_cast<int>(list.size()) > kMaxLayers)
            fail_config(name_, "\"layer_types\" has " + std::to_string(list.size()) + " entries; at most " + std::to_string(kMaxLayers) + " are shown");
        for (std::size_t i = 0; i < list.size(); ++i) {
            const json& t = list[i];
            const std::string type = t.is_string() ? t.get<std::string>() : "";
            const bool ok = !type.empty() && type.size() <= 48 && std::all_of(type.begin(), type.end(), [](char ch) {
                return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_' || ch == '-' || ch == '.';
            });
            if (!ok)
                fail_config(name_, "\"layer_types\" item " + std::to_string(i) + " is " + t.dump().substr(0, 40) +
                                "; a layer type is a name of a-z, 0-9, _ - . (at most 48 characters)");
            types_.push_back(type);
        }
        // Gemma4TextConfig.__post_init__: "Last layer must use `full_attention`" (a warning, then forced)
        if (starts_with(model_type_, "gemma4") && types_.back() != "full_attention") {
            warn(out_.warnings, "config '" + name_ + "': the last of \"layer_types\" is " + types_.back() +
                                    "; Gemma4TextConfig makes the last layer full_attention, and so does the import");
            types_.back() = "full_attention";
        }
        read_.insert("layer_types");
    }
    read_no_rope_layers();
    if (types_.empty() && (count > 0 || !nope_.empty())) {
        const int n = count > 0 ? count : static_cast<int>(nope_.size());  // else the list's length
        if (llama4) {
            // Llama4TextConfig: RoPE layers attend in chunks, the NoPE ones to everything
            if (nope_.empty()) nope_.assign(static_cast<std::size_t>(n), false);
            for (int i = 0; i < n; ++i) types_.push_back(nope_[static_cast<std::size_t>(i)] ? "full_attention" : "chunked_attention");
        } else if (has(c_, "full_attention_interval")) {
            // Qwen3NextConfig: linear attention, with full attention every interval-th layer
            const int every = whole_number(c_, "full_attention_interval", name_, 1, kMaxLayers);
            for (int i = 0; i < n; ++i) types_.push_back((i + 1) % every ? "linear_attention" : "full_attention");
        } else if (has(c_, "rope_local_base_freq") || has(c_, "sliding_window_pattern") || has(c_, "_sliding_window_pattern")) {
            // Gemma3TextConfig: pattern-1 sliding layers, then one full (pattern 6 when not given)
            int every = 6;
            for (const char* k : {"sliding_window_pattern", "_sliding_window_pattern"})
                if (has(c_, k)) every = whole_number(c_, k, name_, 1, kMaxLayers);
            for (int i = 0; i < n; ++i) types_.push_back((i + 1) % every ? "sliding_attention" : "full_attention");
        } else if (!nope_.empty()) {
            types_.assign(static_cast<std::size_t>(n), "full_attention");  // SmolLM3: every layer attends fully
        }
    }
    for (const char* k : {"full_attention_interval", "sliding_window_pattern", "_sliding_window_pattern"}) read_.insert(k);
    if (!types_.empty() && nope_.empty()) nope_.assign(types_.size(), false);
    if (!types_.empty() && nope_.size() != types_.size())
        fail_config(name_, "\"no_rope_layers\" has " + std::to_string(nope_.size()) + " entries; it must have one per layer (" +
                        std::to_string(types_.size()) + ")");
    model_nope_layers();
}

// KimiLinearConfig (configuration_kimi_linear.py, transformers 0bc4dd0d, lines 148-169): with both of
// linear_attn_config's lists, layer_types[layer - 1] (1-based) is full_attention for full_attn_layers
// (MLA) and linear_attention for kda_layers (Kimi Delta Attention); without them every 4th layer is
// full. A layer in neither list or in both is refused (the model builds KDA for one and MLA for the
// other: vLLM's is_kda_layer, kimi_linear.py (vllm 01d99586) line 306).
void ConfigReader::kimi_linear_layers() {
    read_.insert("linear_attn_config");
    if (has(c_, "layer_types")) return;
    const int count = layer_count();
    if (count == 0) fail_config(name_, "\"num_hidden_layers\" is missing; Kimi Linear lays out its layers by number (1 to " + std::to_string(kMaxLayers) + ")");
    std::vector<std::string> types(static_cast<std::size_t>(count));
    const json none = json::object();
    const json& lac = has(c_, "linear_attn_config") ? c_["linear_attn_config"] : none;
    if (!lac.is_object()) fail_config(name_, "\"linear_attn_config\" is " + refused_value(lac) + "; it must be an object");
    if (has(lac, "full_attn_layers") && has(lac, "kda_layers")) {
        for (const auto& [key, type] : {std::pair<const char*, const char*>{"full_attn_layers", "full_attention"}, {"kda_layers", "linear_attention"}}) {
            const json& list = lac[key];
            if (!list.is_array()) fail_config(name_, "\"linear_attn_config." + std::string(key) + "\" is " + refused_value(list) + "; it must be a list of layer numbers (1-based)");
            for (const json& v : list) {
                const bool whole = v.is_number() && v.get<double>() >= 1 && v.get<double>() <= count && v.get<double>() == std::floor(v.get<double>());
                if (!whole)
                    fail_config(name_, "\"linear_attn_config." + std::string(key) + "\" has " + refused_value(v) + "; each must be a layer number from 1 to " +
                                    std::to_string(count) + " (num_hidden_layers)");
                std::string& slot = types[static_cast<std::size_t>(v.get<double>()) - 1];
                if (!slot.empty())
                    fail_config(name_, "layer " + format_number(v.get<double>()) + " is in both \"linear_attn_config.full_attn_layers\" and \"kda_layers\"");
                slot = type;
            }
        }
        for (int i = 0; i < count; ++i)
            if (types[static_cast<std::size_t>(i)].empty())
                fail_config(name_, "layer " + std::to_string(i + 1) + " is in neither \"linear_attn_config.full_attn_layers\" nor \"kda_layers\"; "
                                "each of the " + std::to_string(count) + " layers must be in one");
    } else {
        for (int i = 0; i < count; ++i) types[static_cast<std::size_t>(i)] = (i + 1) % 4 ? "linear_attention" : "full_attention";
        warn(out_.warnings, "config '" + name_ + "': no \"linear_attn_config\" with full_attn_layers and kda_layers; KimiLinearConfig "
                            "then makes every 4th layer full attention (MLA), the rest linear (KDA)");
    }
    c_["layer_types"] = types;
}

// DeepseekV4Config (configuration_deepseek_v4.py, transformers 015c0781, lines 28-32 and 245-271): the
// published compress_ratios become layer_types, 0 sliding_attention, 4 compressed_sparse_attention,
// 128 heavily_compressed_attention, cut to num_hidden_layers (the entries after it are the MTP
// block's); without either, the class's own pattern (two heavily compressed layers, then the two
// compressed kinds taking turns), said in a warning.
void ConfigReader::deepseek_v4_layers() {
    read_.insert("compress_ratios");
    read_.insert("compress_rope_theta");
    read_.insert("sliding_window");  // every layer has the window; the compressed ones see the rest through compressed entries
    if (has(c_, "layer_types")) return;
    const int count = layer_count();
    if (count == 0) fail_config(name_, "\"num_hidden_layers\" is missing; DeepSeek-V4's layers are numbered by it (1 to " + std::to_string(kMaxLayers) + ")");
    json types = json::array();
    if (has(c_, "compress_ratios")) {
        const json& ratios = c_["compress_ratios"];
        if (!ratios.is_array() || static_cast<int>(ratios.size()) < count)
            fail_config(name_, "\"compress_ratios\" is " + refused_value(ratios) + "; it must be a list of 0, 4 or 128 with at least one entry per layer (" +
                            std::to_string(count) + ")");
        for (int i = 0; i < count; ++i) {
            const json& r = ratios[static_cast<std::size_t>(i)];
            const double v = r.is_number() ? r.get<double>() : -1;
            if (v == 0) types.push_back("sliding_attention");
            else if (v == 4) types.push_back("compressed_sparse_attention");
            else if (v == 128) types.push_back("heavily_compressed_attention");
            else fail_config(name_, "\"compress_ratios\" item " + std::to_string(i) + " is " + refused_value(r) + "; each must be 0, 4 or 128");
        }
    } else {
        for (int i = 0; i < count; ++i)
            types.push_back(i < 2 || i % 2 == 0 ? "heavily_compressed_attention" : "compressed_sparse_attention");
        warn(out_.warnings, "config '" + name_ + "': no \"compress_ratios\" or \"layer_types\"; DeepseekV4Config's own pattern is used "
                            "(layers 0 and 1 heavily compressed, then compressed_sparse and heavily_compressed taking turns)");
    }
    c_["layer_types"] = types;
}

// Layers whose model code applies no RoPE although their config gives one:
//  - Kimi Linear's MLA layers (modeling_kimi.py, KimiMLAAttention: `assert self.use_nope`, and q_rot and
//    k_rot are split off and concatenated back unrotated; vLLM kimi_linear.py (01d99586) lines 215 and
//    254: `assert self.use_nope is True`, `rotary_emb=None`). A config with mla_use_nope false is
//    refused: the model has no RoPE path for it.
//  - Cohere2's full-attention layers (modeling_cohere2.py: `if self.sliding_window is not None:
//    query_states, key_states = apply_rotary_pos_emb(...)`, and sliding_window is None on layers whose
//    layer type is not sliding_attention).
void ConfigReader::model_nope_layers() {
    if (model_type_ == "kimi_linear") {
        read_.insert("mla_use_nope");
        if (!truthy(c_["mla_use_nope"], "mla_use_nope", name_))
            fail_config(name_, "\"mla_use_nope\" is false; Kimi Linear's MLA layers have no RoPE path (modeling_kimi.py asserts use_nope): it must be true");
        for (std::size_t i = 0; i < types_.size(); ++i) nope_[i] = true;
        warn(out_.warnings, "config '" + name_ + "': no layer of Kimi Linear rotates (its KDA layers are linear attention, its MLA layers "
                            "NoPE): the RoPE keys (rope_theta) are read but turn nothing");
    }
    if (model_type_ == "cohere2") {
        const bool no_window = c_.contains("sliding_window") && c_["sliding_window"].is_null();  // then no layer has one
        if (no_window)
            warn(out_.warnings, "config '" + name_ + "': \"sliding_window\" is null, so no layer of Cohere2 has a window and none "
                                "rotates (modeling_cohere2.py applies RoPE only where sliding_window is set)");
        for (std::size_t i = 0; i < types_.size(); ++i) nope_[i] = nope_[i] || no_window || !starts_with(types_[i], "sliding");
    }
}

// no_rope_layers (1 = RoPE, 0 = NoPE, transformers' convention), else the interval form: every
// interval-th layer is NoPE (Llama 4 and SmolLM3 default to 4, as their config classes do).
// Llama4TextConfig keeps the list only if it is non-empty (`no_rope_layers if no_rope_layers else
// default`), so Llama 4 Scout's published `[]` means the interval form; SmolLM3Config derives the
// list only for None and then indexes the empty one per layer, which fails: refused.
void ConfigReader::read_no_rope_layers() {
    int count = layer_count();
    std::string counted_by = "num_hidden_layers";
    if (!types_.empty()) count = static_cast<int>(types_.size()), counted_by = "layer_types";
    read_.insert("no_rope_layers");
    read_.insert("no_rope_layer_interval");
    const bool llama4 = starts_with(model_type_, "llama4");
    const bool empty_means_interval = llama4 && has(c_, "no_rope_layers") && c_["no_rope_layers"].is_array() && c_["no_rope_layers"].empty();
    if (has(c_, "no_rope_layers") && !empty_means_interval) {
        const json& list = c_["no_rope_layers"];
        if (!list.is_array()) fail_config(name_, "\"no_rope_layers\" is " + refused_value(list) + "; it must be a list of 1 (RoPE) and 0 (NoPE), one per layer");
        if (list.empty())
            fail_config(name_, "\"no_rope_layers\" is []; it must have one entry per layer (" + counted_by + ": " + std::to_string(count) +
                            "), or be left out for every no_rope_layer_interval-th layer NoPE (only Llama 4 reads [] so)");
        if (count > 0 && static_cast<int>(list.size()) != count)
            fail_config(name_, "\"no_rope_layers\" has " + std::to_string(list.size()) + " entries; it must have one per layer (" +
                            counted_by + ": " + std::to_string(count) + ")");
        if (list.empty() || static_cast<int>(list.size()) > kMaxLayers)
            fail_config(name_, "\"no_rope_layers\" has " + std::to_string(list.size()) + " entries; it must have one per layer (1 to " +
                            std::to_string(kMaxLayers) + ")");
        for (std::size_t i = 0; i < list.size(); ++i) {
            const json& v = list[i];
            const bool one = (v.is_number() && v.get<double>() == 1) || (v.is_boolean() && v.get<bool>());
            const bool zero = (v.is_number() && v.get<double>() == 0) || (v.is_boolean() && !v.get<bool>());
            if (!one && !zero)
                fail_config(name_, "\"no_rope_layers\" item " + std::to_string(i) + " is " + v.dump().substr(0, 40) +
                                "; each must be 1 (the layer uses RoPE) or 0 (NoPE)");
            nope_.push_back(zero);
        }
        return;
    }
    const bool interval_given = has(c_, "no_rope_layer_interval");
    if (count == 0 && empty_means_interval)
        fail_config(name_, "\"no_rope_layers\" is [] and \"num_hidden_layers\" is null; Llama 4 derives the list from the layer count: "
                    "give num_hidden_layers (1 to " + std::to_string(kMaxLayers) + ") or one entry per layer");
    if (count == 0 || !(interval_given || llama4)) return;
    const int every = interval_given ? whole_number(c_, "no_rope_layer_interval", name_, 1, kMaxLayers) : 4;
    for (int i = 0; i < count; ++i) nope_.push_back((i + 1) % every == 0);
}

// transformers' standardize_rope_params: rope_parameters is per layer type iff its keys are layer
// types. Without layers, the two names transformers writes mark it.
bool ConfigReader::nested_rope() const {
    if (!has(c_, "rope_parameters")) return false;
    const json& rp = c_["rope_parameters"];
    if (!rp.is_object()) fail_config(name_, "\"rope_parameters\" is " + refused_value(rp) + "; it must be an object");
    if (rp.contains("full_attention") || rp.contains("sliding_attention")) return true;
    if (types_.empty() || rp.empty()) return false;
    for (const auto& [k, v] : rp.items())
        if (std::find(types_.begin(), types_.end(), k) == types_.end()) return false;
    return true;
}

RopeSource ConfigReader::source_for(const std::string& layer_type) {
    if (model_type_ == "deepseek_v4") return deepseek_v4_source(layer_type);
    RopeSource src;
    if (nested_rope()) {
        const json& rp = c_["rope_parameters"];
        std::vector<std::string> entries;
        for (const auto& [k, v] : rp.items()) entries.push_back(k);
        if (!rp.contains(layer_type))
            fail_config(name_, "layer type \"" + layer_type + "\" has no entry in \"rope_parameters\" (its entries: " + joined(entries) + ")");
        if (!rp[layer_type].is_object())
            fail_config(name_, "\"rope_parameters\".\"" + layer_type + "\" is " + refused_value(rp[layer_type]) + "; it must be an object");
        src.rope = rp[layer_type];
        src.where = "rope_parameters." + layer_type;
        return src;
    }
    if (has(c_, "rope_parameters")) {
        src.rope = c_["rope_parameters"];
        src.where = "rope_parameters";
    } else if (has(c_, "rope_scaling")) {
        if (!c_["rope_scaling"].is_object()) fail_config(name_, "\"rope_scaling\" is " + refused_value(c_["rope_scaling"]) + "; it must be an object or null");
        src.rope = c_["rope_scaling"];
        src.where = "rope_scaling";
    } else {
        src.where = "the config";
    }
    // Sliding-attention layers in the older layout: Gemma 3 gives them their own base
    // (rope_local_base_freq) and no scaling; elsewhere every layer shares the one setting.
    if (starts_with(layer_type, "sliding") && has(c_, "rope_local_base_freq")) {
        src.rope = json::object();
        src.local_base = true;
        src.where = "rope_local_base_freq";
    }
    return src;
}

// DeepseekV4Config.__post_init__ (configuration_deepseek_v4.py, 015c0781, lines 289-316): the sliding
// layers' "main" RoPE is the default one at rope_theta, YaRN off ("disable YaRN and use base rope_theta
// in pure sliding-window attention", DeepSeek's inference/model.py lines 475-481); the compressed
// layers' is the config's rope_scaling at compress_rope_theta, with attention_factor 1 unless given
// (the reference multiplies cos and sin by no mscale, model.py line 228).
RopeSource ConfigReader::deepseek_v4_source(const std::string& layer_type) {
    RopeSource src;
    if (starts_with(layer_type, "sliding")) {
        src.rope = {{"rope_type", "default"}, {"rope_theta", c_.value("rope_theta", json(10000))}};
        src.where = "rope_theta (sliding layers, no scaling)";
        return src;
    }
    for (const char* dict : {"rope_parameters", "rope_scaling"}) {
        if (!has(c_, dict)) continue;
        if (!c_[dict].is_object()) fail_config(name_, "\"" + std::string(dict) + "\" is " + refused_value(c_[dict]) + "; it must be an object or null");
        src.rope = c_[dict];
        src.where = std::string(dict) + " with compress_rope_theta (compressed layers)";
        break;
    }
    if (src.where.empty()) src.where = "compress_rope_theta (compressed layers)";
    src.rope["rope_theta"] = c_["compress_rope_theta"];
    const json& type = src.rope.contains("rope_type") ? src.rope["rope_type"] : src.rope.contains("type") ? src.rope["type"] : json();
    if (type == "yarn" && !has(src.rope, "attention_factor")) src.rope["attention_factor"] = 1.0;
    return src;
}

// The sliding layers' window. Gemma4TextConfig.__post_init__ with use_bidirectional_attention "all"
// sets it to sliding_window // 2 + 1 ("due to fa we set exclusive bounds").
int ConfigReader::sliding_window() {
    const int window = whole_number(c_, "sliding_window", name_, 0, 1 << 30);
    read_.insert("use_bidirectional_attention");
    const bool bidirectional = has(c_, "use_bidirectional_attention") && c_["use_bidirectional_attention"] == "all";
    return starts_with(model_type_, "gemma4") && bidirectional ? window / 2 + 1 : window;
}

// Every layer type becomes a kind (its NoPE layers a kind of their own, "TYPE/nope", when the type
// also has layers with RoPE); the layer shown is loaded from its kind.
void ConfigReader::read_layers(const std::string& layer_type) {
    const int dim = head_dim();
    int global_dim = dim;  // Gemma 4: the full-attention layers' heads are wider
    if (has(c_, "global_head_dim")) global_dim = whole_number(c_, "global_head_dim", name_, 2, 4096);
    read_.insert("global_head_dim");
    std::vector<LayerKind> kinds;
    std::vector<std::string> kind_of_layer;
    double selected_original = 0;
    std::vector<double> originals;
    for (std::size_t i = 0; i < types_.size(); ++i) {
        const std::string& type = types_[i];
        const bool linear = starts_with(type, "linear");
        bool mixed = false;  // the type has layers with RoPE and without
        for (std::size_t j = 0; j < types_.size(); ++j) mixed = mixed || (types_[j] == type && nope_[j] != nope_[i]);
        const std::string kind_name = nope_[i] && mixed && !linear ? type + "/nope" : type;
        kind_of_layer.push_back(kind_name);
        if (std::any_of(kinds.begin(), kinds.end(), [&](const LayerKind& k) { return k.name == kind_name; })) continue;
        LayerKind kind;
        kind.name = kind_name;
        kind.attention = starts_with(type, "sliding") ? Attention::sliding
                         : starts_with(type, "chunked") ? Attention::chunked
                         : linear                       ? Attention::linear
                                                        : Attention::full;
        if (kind.attention == Attention::sliding && has(c_, "sliding_window")) kind.window = sliding_window();
        if (kind.attention == Attention::chunked && has(c_, "attention_chunk_size"))
            kind.window = whole_number(c_, "attention_chunk_size", name_, 0, 1 << 30);
        const RopeValues rv = rope_values(source_for(type), kind.attention == Attention::full ? global_dim : dim);
        kind.values = rv.values;
        if (nope_[i] || linear) kind.values.emplace_back(P::nope, "true");
        kinds.push_back(std::move(kind));
        originals.push_back(rv.original);
    }
    // the windows count where a kind uses them; elsewhere they are warned as not read
    for (const LayerKind& k : kinds) {
        if (k.attention == Attention::sliding) read_.insert("sliding_window");
        if (k.attention == Attention::chunked) read_.insert("attention_chunk_size");
    }
    // entries of a nested dict that no layer uses: said, not silently dropped
    if (nested_rope())
        for (const auto& [k, v] : c_["rope_parameters"].items())
            if (std::find(types_.begin(), types_.end(), k) == types_.end())
                warn(out_.warnings, "config '" + name_ + "': \"rope_parameters\".\"" + k + "\" is not a type in the config's layers and is ignored");

    int selected = -1;
    if (!layer_type.empty()) {
        for (std::size_t i = 0; i < types_.size() && selected < 0; ++i)
            if (types_[i] == layer_type || kind_of_layer[i] == layer_type) selected = static_cast<int>(i);
        if (selected < 0) {
            std::vector<std::string> names;
            for (const LayerKind& k : kinds) names.push_back(k.name);
            fail_config(name_, "layer_type=" + shorten_for_message(layer_type) + ": the config has no layer of that type (its layer types: " +
                            joined(names) + ")");
        }
    } else {
        for (std::size_t i = 0; i < types_.size() && selected < 0; ++i) {
            const LayerKind& k = *std::find_if(kinds.begin(), kinds.end(), [&](const LayerKind& x) { return x.name == kind_of_layer[i]; });
            if (k.attention == Attention::full && !k.value(P::nope)) selected = static_cast<int>(i);
        }
        if (selected < 0) selected = 0;
    }
    for (std::size_t k = 0; k < kinds.size(); ++k)
        if (kinds[k].name == kind_of_layer[static_cast<std::size_t>(selected)]) selected_original = originals[k];

    out_.sets.emplace_back(P::layer_kinds, format_layer_kinds(kinds));
    out_.sets.emplace_back(P::model_layers, format_layer_list(kind_of_layer));
    out_.sets.emplace_back(P::layer, std::to_string(selected));
    for (const auto& kv : model_values()) out_.sets.push_back(kv);
    // The sequence length of transformers' rope init (no sequence yet): L0, so that longrope starts
    // on its short factors and dynamic NTK on its own base (L0 = M there); raise it to see longer ones.
    if (selected_original >= 1) out_.sets.emplace_back(P::sequence_length, format_number(selected_original));
}

// A config that does not say how its layers differ: one setting (or the per-layer-type entry asked for).
void ConfigReader::read_flat(const std::string& layer_type) {
    const std::string type = layer_type.empty() ? "full_attention" : layer_type;
    if (nested_rope()) {
        std::vector<std::string> entries;
        for (const auto& [k, v] : c_["rope_parameters"].items()) entries.push_back(k);
        if (!c_["rope_parameters"].contains(type))
            fail_config(name_, "\"rope_parameters\" has no \"" + type + "\" entry (its entries: " + joined(entries) + ")");
    } else if (type != "full_attention" && type != "sliding_attention") {
        fail_config(name_, "layer_type=" + shorten_for_message(type) +
                        ": the config lists no layer types; layer_type may be full_attention or sliding_attention");
    } else if (type == "sliding_attention" && !has(c_, "rope_local_base_freq")) {
        out_.warnings.push_back("config '" + name_ + "': no separate RoPE settings for sliding-attention layers; every layer uses these");
    }
    const RopeValues rv = rope_values(source_for(type), head_dim());
    for (const auto& kv : rv.values) out_.sets.push_back(kv);
    for (const auto& kv : model_values()) out_.sets.push_back(kv);
    if (rv.original >= 1) out_.sets.emplace_back(P::sequence_length, format_number(rv.original));
    if (has(c_, "sliding_window") && !(c_["sliding_window"].is_boolean() && !c_["sliding_window"].get<bool>()) &&
        !(has(c_, "use_sliding_window") && c_["use_sliding_window"].is_boolean() && !c_["use_sliding_window"].get<bool>()))
        warn(out_.warnings, "config '" + name_ + "': \"sliding_window\" is not shown: the config does not say which layers use it (no \"layer_types\")");
    read_.insert("sliding_window");
}

// Llama 4's attention temperature on NoPE layers: model-level keys. Llama 4 configs usually leave
// them out; transformers' Llama4TextConfig then uses attn_temperature_tuning true, floor_scale 8192,
// attn_scale 0.1, and so does the import (said in a warning).
void ConfigReader::read_temperature() {
    for (const char* k : {"attn_temperature_tuning", "floor_scale", "attn_scale"}) read_.insert(k);
    const bool llama4 = starts_with(model_type_, "llama4");
    std::vector<std::string> defaulted;
    if (has(c_, "attn_temperature_tuning")) {
        // Llama4TextAttention: `if self.attn_temperature_tuning and not self.use_rope` (4.51 wrote 4)
        const bool on = truthy(c_["attn_temperature_tuning"], "attn_temperature_tuning", name_);
        out_.sets.emplace_back(P::attn_temperature_tuning, on ? "true" : "false");
    } else if (llama4) {
        out_.sets.emplace_back(P::attn_temperature_tuning, "true");
        defaulted.push_back("attn_temperature_tuning true");
    }
    if (has(c_, "floor_scale")) {
        out_.sets.emplace_back(P::floor_scale, format_number(number(c_, "floor_scale", name_)));
    } else if (llama4) {
        out_.sets.emplace_back(P::floor_scale, "8192");
        defaulted.push_back("floor_scale 8192");
    }
    if (has(c_, "attn_scale")) {
        out_.sets.emplace_back(P::attn_scale, format_number(number(c_, "attn_scale", name_)));
    } else if (llama4) {
        out_.sets.emplace_back(P::attn_scale, "0.1");
        defaulted.push_back("attn_scale 0.1");
    }
    if (!defaulted.empty())
        out_.warnings.push_back("config '" + name_ + "': not in the file, so transformers' Llama4TextConfig defaults are used: " +
                                joined(defaulted));
}

// Top-level keys about RoPE or attention layout that this import does not read (the rest of a
// config is not RoPE's); switched-off ones (null, false) change nothing and are not mentioned.
void ConfigReader::warn_unread_keys() {
    static const std::set<std::string> read_always = {
        "rope_theta", "rope_scaling", "rope_parameters", "rotary_emb_base", "rotary_pct", "rotary_dim", "qk_rope_head_dim",
        "rope_interleave", "rope_local_base_freq", "partial_rotary_factor"};
    const bool sliding_off = has(c_, "use_sliding_window") && c_["use_sliding_window"].is_boolean() && !c_["use_sliding_window"].get<bool>();
    for (const auto& [k, v] : c_.items()) {
        if (read_always.count(k) || read_.count(k) || v.is_null() || (v.is_boolean() && !v.get<bool>())) continue;
        const bool about_rope = k.rfind("rope", 0) == 0 || k.find("_rope") != std::string::npos || k.find("rotary") != std::string::npos ||
                                k == "freq_allocation";  // ERNIE-4.5-VL's 3D RoPE: pairs given to time
        const bool about_layout = k.find("window") != std::string::npos || k.find("chunk") != std::string::npos ||
                                  k.find("layer_types") != std::string::npos || k.find("temperature") != std::string::npos;
        if (about_layout && sliding_off && k.find("window") != std::string::npos) continue;  // Qwen's switched-off window
        if (about_rope || about_layout) warn(out_.warnings, "config '" + name_ + "': \"" + k + "\" is not supported and is ignored");
    }
}

// Positions on several axes: M-RoPE (Qwen2-VL, Qwen2.5-VL, Qwen3-VL text models) from the RoPE
// dict of the full-attention layers, and Pixtral's vision encoder (2D RoPE on its patch grid).
void ConfigReader::read_axes() {
    if (model_type_ == "pixtral") return read_pixtral_grid();
    if (ernie_vl()) return read_ernie_3d(source_for("full_attention"));
    if (!nested_rope()) return read_mrope(source_for("full_attention"));
    if (c_["rope_parameters"].contains("full_attention")) read_mrope(source_for("full_attention"));
}

// transformers: Qwen2-VL / Qwen2.5-VL split the pairs by rope_scaling["mrope_section"] (chunked;
// the config class turns type "mrope" into "default"); Qwen3-VL always interleaves, with
// rope_parameters.get("mrope_section", [24, 20, 20]). The section must give every rotated pair an axis.
void ConfigReader::read_mrope(const RopeSource& src) {
    const json& rope = src.rope;
    // Qwen3.5's text layers too: Qwen3_5TextRotaryEmbedding (modeling_qwen3_5.py, transformers 009e78d6)
    // always interleaves (recomposition_frequencies) and reads .get("mrope_section", [11, 11, 10])
    const bool qwen3_5 = starts_with(model_type_, "qwen3_5");
    const bool qwen3_vl = starts_with(model_type_, "qwen3_vl") || qwen3_5;
    const bool qwen2_vl = starts_with(model_type_, "qwen2_vl") || starts_with(model_type_, "qwen2_5_vl");
    // GLM-4.1V and GLM-4.5V: the attention reads rope_scaling["mrope_section"] (modeling_glm4v.py, def9a7ef,
    // lines 537-540): required
    const bool glm4v = starts_with(model_type_, "glm4v") || starts_with(model_type_, "Glm4vMoe");
    const bool typed_mrope = (has(rope, "type") && rope["type"] == "mrope") || (has(rope, "rope_type") && rope["rope_type"] == "mrope");
    if (!(has(rope, "mrope_section") || has(rope, "mrope_interleaved") || typed_mrope || qwen3_vl || glm4v)) return;
    const std::string family = qwen3_5 ? "Qwen3.5" : "Qwen3-VL";
    bool interleaved = qwen3_vl;
    if (has(rope, "mrope_interleaved")) {
        if (!rope["mrope_interleaved"].is_boolean())
            fail_config(name_, "\"" + src.where + ".mrope_interleaved\" is " + rope["mrope_interleaved"].dump().substr(0, 40) + "; it must be true or false");
        const bool given = rope["mrope_interleaved"].get<bool>();
        if (qwen3_vl && !given)
            warn(out_.warnings, "config '" + name_ + "': \"mrope_interleaved\" is false, but " + family + "'s code interleaves the axes whatever it says; shown interleaved");
        // Qwen2-VL's and Qwen2.5-VL's apply_multimodal_rotary_pos_emb split the pairs in chunks and never read the key
        if (qwen2_vl && given)
            warn(out_.warnings, "config '" + name_ + "': \"mrope_interleaved\" is true, but Qwen2-VL's and Qwen2.5-VL's code split the pairs "
                                "in chunks whatever it says; shown chunked");
        interleaved = interleaved || (given && !qwen2_vl);
    }
    const int dim = head_dim();
    const int rotated = static_cast<int>(std::floor(dim * fraction(src, dim)));
    const int pairs = (rotated - rotated % 2) / 2;
    const std::string where = src.where + ".mrope_section";
    const std::string allowed = "3 whole numbers >= 0 (pairs for t, h, w) adding up to the " + std::to_string(pairs) +
                                " rotated pairs (head dim " + std::to_string(dim) + (rotated == dim ? "" : " x partial_rotary_factor") + " / 2)";
    MropeSection section = qwen3_5 ? MropeSection{11, 11, 10} : MropeSection{24, 20, 20};
    if (has(rope, "mrope_section")) {
        const json& v = rope["mrope_section"];
        const bool shape = v.is_array() && v.size() == 3 && std::all_of(v.begin(), v.end(), [](const json& x) {
            return x.is_number() && x.get<double>() >= 0 && x.get<double>() <= 1e6 && x.get<double>() == std::floor(x.get<double>());
        });
        if (!shape) fail_config(name_, "\"" + where + "\" is " + v.dump().substr(0, 60) + "; it must be " + allowed);
        for (int i = 0; i < 3; ++i) section[static_cast<std::size_t>(i)] = static_cast<int>(v[static_cast<std::size_t>(i)].get<double>());
    } else if (qwen3_vl) {
        warn(out_.warnings, "config '" + name_ + "': no \"mrope_section\"; using " + family + "'s code default [" + std::to_string(section[0]) + ", " +
                                std::to_string(section[1]) + ", " + std::to_string(section[2]) + "]");
    } else {
        fail_config(name_, "\"" + src.where + "\" has " + (glm4v ? std::string("no \"mrope_section\", which GLM-4V's attention reads") : "rope type mrope but no \"mrope_section\"") +
                        " (" + allowed + ")");
    }
    if (const std::string problem = mrope_section_problem(section, pairs, interleaved); !problem.empty())
        fail_config(name_, "\"" + where + "\" is [" + std::to_string(section[0]) + ", " + std::to_string(section[1]) + ", " +
                        std::to_string(section[2]) + "]" + (interleaved ? " (interleaved)" : "") + "; it must be " + allowed + ": " + problem);
    out_.sets.emplace_back(P::rope_axes, "mrope");
    out_.sets.emplace_back(interleaved ? ParamId::mrope_section_interleaved : ParamId::mrope_section, std::to_string(section[0]) + "," + std::to_string(section[1]) + "," + std::to_string(section[2]));
    out_.sets.emplace_back(P::mrope_interleaved, interleaved ? "true" : "false");
    read_video(qwen3_vl);
}

// ERNIE-4.5-VL's 3D RoPE. transformers (modeling_ernie4_5_vl_moe.py @ 147b7aa0): rope_parameters'
// mrope_section is [h, w, t], default [22, 22, 20] (lines 102-104); pairs 0 .. h+w-1 alternate h and w,
// the last t turn with t (recomposition_to_3d, lines 132-136); any rope type but default is a ValueError
// (lines 61-64); pairs are neighbours (repeat_interleave, rotate_half_text, lines 176-180). vLLM's
// ernie45_vl_moe.py (b66a7464) lines 148-160 reads the released config's freq_allocation instead
// (getattr(config, "freq_allocation", 20); h = w = (head_dim // 2 - freq_allocation) // 2) and
// ernie45_vl_rope.py asserts h == w. Ids: Ernie4_5_VL_MoeModel.get_rope_index (lines 1109-1235), the
// M-RoPE rule, video time = the temporal patch's index (temporal_merge_size or temporal_conv_size 2).
void ConfigReader::read_ernie_3d(const RopeSource& src) {
    const json& rope = src.rope;
    for (const char* k : {"freq_allocation", "rope_3d", "spatial_conv_size", "temporal_conv_size"}) read_.insert(k);
    if (has(c_, "rope_3d") && c_["rope_3d"].is_boolean() && !c_["rope_3d"].get<bool>())
        warn(out_.warnings, "config '" + name_ + "': \"rope_3d\" is false, but neither transformers nor vLLM reads it: shown as 3D RoPE");
    const int dim = head_dim();
    const int pairs = static_cast<int>(std::floor(dim * fraction(src, dim))) / 2;
    int t = 20, h = 0, w = 0;
    std::string where;
    if (has(rope, "mrope_section")) {
        where = src.where + ".mrope_section";
        const json& v = rope["mrope_section"];
        const bool shape = v.is_array() && v.size() == 3 && std::all_of(v.begin(), v.end(), [](const json& x) {
            return x.is_number() && x.get<double>() >= 0 && x.get<double>() <= 4096 && x.get<double>() == std::floor(x.get<double>());
        });
        if (!shape) fail_config(name_, "\"" + where + "\" is " + refused_value(v) + "; ERNIE-4.5-VL's is 3 whole numbers [h, w, t]");
        h = v[0].get<int>(), w = v[1].get<int>(), t = v[2].get<int>();
    } else {
        if (has(c_, "freq_allocation")) t = whole_number(c_, "freq_allocation", name_, 0, pairs);
        where = has(c_, "freq_allocation") ? "freq_allocation" : "freq_allocation (vLLM's default 20)";
        h = w = (pairs - t) / 2;
    }
    if (h != w || h + w + t != pairs)
        fail_config(name_, "\"" + where + "\" gives h " + std::to_string(h) + ", w " + std::to_string(w) + ", t " + std::to_string(t) +
                        "; ERNIE-4.5-VL needs h = w and h + w + t = the " + std::to_string(pairs) + " rotated pairs (head dim " + std::to_string(dim) + " / 2)");
    out_.sets.emplace_back(P::rope_axes, "ernie_3d");
    out_.sets.emplace_back(P::mrope_section, std::to_string(t) + "," + std::to_string(h) + "," + std::to_string(w));
    out_.sets.emplace_back(P::video_time_ids, "frame_index");
    const json none = json::object();
    const json& vision = has(root_, "vision_config") && root_["vision_config"].is_object() ? root_["vision_config"] : none;
    double temporal = 2;
    for (const auto& [j, key] : {std::pair<const json*, const char*>{&vision, "temporal_merge_size"}, {&c_, "temporal_conv_size"}})
        if (has(*j, key)) temporal = whole_number(*j, key, name_, 1, 16);
    out_.sets.emplace_back(P::temporal_patch_size, format_number(temporal));
}

// The video rule of the model's get_rope_index, and what it reads from vision_config: Qwen2.5-VL's
// time ids per second (config.vision_config.tokens_per_second; Qwen2_5_VLVisionConfig's default 4,
// the published configs say 2) and the temporal patch (each vision config's temporal_patch_size,
// default 2). Qwen2-VL numbers temporal patches; Qwen3-VL writes timestamps.
void ConfigReader::read_video(bool qwen3_vl) {
    const bool qwen2_5_vl = starts_with(model_type_, "qwen2_5_vl");
    const bool qwen2_vl = starts_with(model_type_, "qwen2_vl");
    if (!(qwen3_vl || qwen2_5_vl || qwen2_vl)) return;
    out_.sets.emplace_back(P::video_time_ids, qwen3_vl ? "timestamps" : qwen2_5_vl ? "seconds" : "frame_index");
    const json none = json::object();
    const json& vision = has(root_, "vision_config") && root_["vision_config"].is_object() ? root_["vision_config"] : none;
    auto whole = [&](const char* key, double fallback, double lo, double hi) {
        if (!has(vision, key)) return fallback;
        const json& v = vision[key];
        if (!v.is_number() || v.is_boolean() || !(v.get<double>() >= lo && v.get<double>() <= hi))
            fail_config(name_, "\"vision_config." + std::string(key) + "\" is " + v.dump().substr(0, 40) + "; it must be a number from " +
                            format_number(lo) + " to " + format_number(hi));
        return v.get<double>();
    };
    const double patch = whole("temporal_patch_size", 2, 1, 16);
    if (patch != std::floor(patch)) fail_config(name_, "\"vision_config.temporal_patch_size\" is " + format_number(patch) + "; it must be a whole number");
    out_.sets.emplace_back(P::temporal_patch_size, format_number(patch));
    if (qwen2_5_vl) out_.sets.emplace_back(P::tokens_per_second, format_number(whole("tokens_per_second", 4, 0, 1000)));
}

// transformers' PixtralRotaryEmbedding: the row turns with the 1D frequencies' even entries, the
// column with the odd ones (rotate_half); positions run to image_size // patch_size per side.
void ConfigReader::read_pixtral_grid() {
    out_.sets.emplace_back(P::rope_axes, "2d_axial");
    out_.sets.emplace_back(P::axial_frequencies, "alternating");
    if (!has(c_, "image_size") || !has(c_, "patch_size")) return;
    const int image = whole_number(c_, "image_size", name_, 1, 1 << 20), patch = whole_number(c_, "patch_size", name_, 1, 1 << 20);
    const int side = image / patch;
    if (side < 1)
        fail_config(name_, "\"image_size\" " + std::to_string(image) + " is smaller than \"patch_size\" " + std::to_string(patch) +
                        "; the image must hold at least one patch");
    const int largest = static_cast<int>(param_spec(P::grid_rows).max);
    const std::string grid = std::to_string(std::min(side, largest));
    if (side > largest)
        warn(out_.warnings, "config '" + name_ + "': image_size / patch_size = " + std::to_string(side) + " patches per side; the grid shows " + grid);
    out_.sets.emplace_back(P::grid_rows, grid);
    out_.sets.emplace_back(P::grid_cols, grid);
    if (max_positions_ < 1) out_.sets.emplace_back(P::max_position, std::to_string(side));  // positions along one axis
}

// Models that bias the score by the distance instead of rotating q and k: "alibi_bloom" (BLOOM,
// and Falcon with "alibi": true, which uses BLOOM's build_alibi_tensor), "alibi_mpt" (MPT), "t5"
// (T5 and its kin; old T5 files have no model_type, but only T5 has relative_attention_num_buckets),
// else "".
std::string ConfigReader::bias_model() const {
    if (model_type_ == "bloom") return "alibi_bloom";
    if (model_type_ == "mpt") return "alibi_mpt";
    if ((model_type_ == "falcon" || model_type_ == "RefinedWeb" || model_type_ == "RefinedWebModel") && has(c_, "alibi") &&
        truthy(c_["alibi"], "alibi", name_))
        return "alibi_bloom";
    if (model_type_ == "t5" || model_type_ == "mt5" || model_type_ == "umt5" || has(c_, "relative_attention_num_buckets")) return "t5";
    return "";
}

// A count the class reads under any of `keys` (attribute_map aliases), or its default.
double ConfigReader::count_of(std::initializer_list<const char*> keys, double fallback, double high) {
    for (const char* k : keys)
        if (has(c_, k)) {
            read_.insert(k);
            return whole_number(c_, k, name_, 1, static_cast<int>(high));
        }
    return fallback;
}

void ConfigReader::read_bias_model(const std::string& kind) {
    if (kind == "alibi_bloom") read_alibi_bloom();
    else if (kind == "alibi_mpt") read_alibi_mpt();
    else read_t5();
    out_.sets.emplace_back(P::nope, "true");  // nothing turns: the rotation panels say so
}

// One context length for the three keys the panels read.
void set_context(KeyValues& sets, double length) {
    const std::string text = format_number(std::floor(length));
    for (ParamId k : {ParamId::max_position, ParamId::original_max_position, ParamId::sequence_length}) sets.emplace_back(k, text);
}

// transformers' BloomConfig (configuration_bloom.py@d94ee404): n_head (attribute_map: num_attention_heads)
// default 8, hidden_size default 64 (n_embed, the original files' name, popped into it, L124-L126); no
// position key: ALiBi has no table of positions, so seq_length (which the class passes through) is the
// length it was trained on when the file gives it. FalconConfig: num_attention_heads (71), hidden_size
// (4544) and max_position_embeddings (2048).
void ConfigReader::read_alibi_bloom() {
    const double heads = count_of({"n_head", "num_attention_heads"}, model_type_ == "bloom" ? 8 : 71, 4096);
    const double hidden = count_of({"n_embed", "hidden_size"}, model_type_ == "bloom" ? 64 : 4544, 1 << 20);
    out_.sets.emplace_back(P::position_encoding, "alibi");
    out_.sets.emplace_back(P::alibi_layout, "bloom");
    out_.sets.emplace_back(P::heads, format_number(heads));
    out_.sets.emplace_back(P::dim, format_number(std::floor(hidden / heads)));
    if (has(c_, "seq_length")) {
        read_.insert("seq_length");
        set_context(out_.sets, whole_number(c_, "seq_length", name_, 1, 1 << 30));
    } else if (model_type_ != "bloom") {  // FalconConfig's max_position_embeddings (default 2048)
        set_context(out_.sets, max_positions_ >= 1 ? max_positions_ : 2048);
    } else {
        out_.warnings.push_back("config '" + name_ + "': no \"seq_length\": ALiBi has no table of positions, so the training length "
                                "shown is 2048 (BLOOM's)");
        set_context(out_.sets, 2048);
    }
}

// transformers' MptConfig (configuration_mpt.py@05699a76): d_model 2048, n_heads 16, max_seq_len 2048
// (L181-L185); attn_config a dict read as MptAttentionConfig(**attn_config) (L203-L206) with alibi
// True and alibi_bias_max 8 (L77-L78).
void ConfigReader::read_alibi_mpt() {
    const double heads = count_of({"n_heads", "num_attention_heads"}, 16, 4096);
    const double hidden = count_of({"d_model", "hidden_size"}, 2048, 1 << 20);
    const double context = count_of({"max_seq_len"}, 2048, 1 << 30);
    double bias_max = 8;
    if (has(c_, "attn_config")) {
        read_.insert("attn_config");
        const json& a = c_["attn_config"];
        if (!a.is_object()) fail_config(name_, "\"attn_config\" is " + refused_value(a) + "; it must be an object");
        if (has(a, "alibi") && !truthy(a["alibi"], "attn_config.alibi", name_))
            fail_config(name_, "\"attn_config.alibi\" is false: this MPT learns absolute position embeddings, which the app does not show");
        if (has(a, "alibi_bias_max")) {
            bias_max = number(a, "alibi_bias_max", name_);
            if (!(bias_max >= 1 && bias_max <= 64))
                fail_config(name_, "\"attn_config.alibi_bias_max\" is " + format_number(bias_max) + "; it must be from 1 to 64");
        }
    }
    out_.sets.emplace_back(P::position_encoding, "alibi");
    out_.sets.emplace_back(P::alibi_layout, "mpt");
    out_.sets.emplace_back(P::alibi_bias_max, format_number(bias_max));
    out_.sets.emplace_back(P::heads, format_number(heads));
    out_.sets.emplace_back(P::dim, format_number(std::floor(hidden / heads)));
    set_context(out_.sets, context);
}

// transformers' T5Config (configuration_t5.py@038869d4): d_kv 64, num_heads 8,
// relative_attention_num_buckets 32, relative_attention_max_distance 128 (L84-L90; older files have
// no such key and mean 128); n_positions (512 in Google's files) passes through as the training length.
// The encoder's buckets go both ways; the file describes both halves, and the encoder's are shown.
void ConfigReader::read_t5() {
    const double heads = count_of({"num_heads", "num_attention_heads"}, 8, 4096);
    const double head_dim = count_of({"d_kv"}, 64, 4096);
    const double buckets = count_of({"relative_attention_num_buckets"}, 32, 4096);
    const double max_distance = count_of({"relative_attention_max_distance"}, 128, 1 << 30);
    if (buckets < 2) fail_config(name_, "\"relative_attention_num_buckets\" is 1; T5's buckets need at least 2");
    const double context = count_of({"n_positions"}, 512, 1 << 30);
    out_.sets.emplace_back(P::position_encoding, "t5");
    out_.sets.emplace_back(P::heads, format_number(heads));
    out_.sets.emplace_back(P::dim, format_number(head_dim + std::fmod(head_dim, 2)));
    out_.sets.emplace_back(P::t5_num_buckets, format_number(buckets));
    out_.sets.emplace_back(P::t5_max_distance, format_number(max_distance));
    out_.sets.emplace_back(P::t5_bidirectional, "true");
    set_context(out_.sets, context);
}

ConfigImport ConfigReader::read(const std::string& layer_type) {
    if (const std::string kind = bias_model(); !kind.empty()) {
        read_bias_model(kind);
        return out_;
    }
    plan_layers();
    if (model_type_ == "deepseek_v4" && has(c_, "head_dim") && has(c_, "qk_rope_head_dim"))
        warn(out_.warnings, "config '" + name_ + "': each head has head_dim " + format_number(number(c_, "head_dim", name_)) +
                                " dims; only its last qk_rope_head_dim " + format_number(number(c_, "qk_rope_head_dim", name_)) +
                                " rotate, and those are what is shown");
    if (!types_.empty()) read_layers(layer_type);
    else read_flat(layer_type);
    if (hunyuan()) {  // Tencent's attention applies RoPE only `if self.use_rotary_pos_emb` (modeling_hunyuan.py)
        read_.insert("use_rotary_pos_emb");
        if (has(c_, "use_rotary_pos_emb") && !truthy(c_["use_rotary_pos_emb"], "use_rotary_pos_emb", name_)) out_.sets.emplace_back(P::nope, "true");
    }
    read_axes();
    read_temperature();
    warn_unread_keys();
    return out_;
}

}  // namespace

ConfigImport import_hf_config_text(const std::string& text, const std::string& name, const std::string& layer_type) {
    ConfigReader reader(text, name);
    return reader.read(layer_type);
}

ConfigImport import_hf_config(const std::string& path, const std::string& layer_type) {
    std::string text;
    try {
        text = io::read_file(path);
    } catch (const io::IoError& e) {
        fail_config(path, std::string(e.what()).find("No such file") != std::string::npos ? "no such file" : e.what());
    }
    return import_hf_config_text(text, path, layer_type);
}

namespace {

// "Meta-Llama-3-8B" for .../Meta-Llama-3-8B/config.json (or Meta's params.json), "my-model" for my-model.json.
std::string config_label(const std::string& path) {
    const std::filesystem::path p = std::filesystem::absolute(path).lexically_normal();
    const std::string stem = p.stem().string(), folder = p.parent_path().filename().string();
    return (p.filename() == "config.json" || p.filename() == "params.json") && !folder.empty() ? folder : stem;
}

}  // namespace

ParamSet with_config(const ParamSet& params, const ConfigImport& imported, const std::string& name) {
    ParamSet next = params;
    try {
        next.set(P::preset, "none");
        for (ParamId k : params_in(kModelScope)) next.reset(k);
        for (const auto& [k, v] : imported.sets) next.set(k, v);
        if (const std::string label = config_label(name); !label.empty()) next.set(P::model_name, label.substr(0, 80));
        next.validate();
    } catch (const ParamError& e) {
        fail_config(name, e.what());
    }
    return next;
}

ModelImporter config_importer() {
    return [](const std::string& source) -> std::optional<ImportedModel> {
        std::error_code ec;
        if (!std::filesystem::exists(source, ec)) return std::nullopt;
        const ConfigImport imported = import_hf_config(source);
        with_config(ParamSet(), imported, source);  // refuses a config that does not hold together
        return ImportedModel{source, config_label(source), imported.sets};
    };
}

}  // namespace rope::session
