#include "session/hf_config.hpp"

#include <cmath>
#include <nlohmann/json.hpp>
#include <set>

#include "io/atomic_file.hpp"
#include "rope/number_format.hpp"
#include "rope/presets.hpp"
#include "session/session.hpp"

namespace rope::session {

namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string& name, const std::string& what) {
    throw SessionError("config '" + name + "': " + what);
}

double number(const json& j, const std::string& key, const std::string& name) {
    const json& v = j.at(key);
    if (!v.is_number()) fail(name, "\"" + key + "\" must be a number, got " + std::string(v.type_name()));
    const double d = v.get<double>();
    if (!std::isfinite(d)) fail(name, "\"" + key + "\" must be finite");
    return d;
}

bool has(const json& j, const std::string& key) { return j.is_object() && j.contains(key) && !j.at(key).is_null(); }

std::string list_text(const json& v, const std::string& key, const std::string& name) {
    if (!v.is_array()) fail(name, "\"" + key + "\" must be a list of numbers");
    std::string s;
    for (const json& x : v) {
        if (!x.is_number()) fail(name, "\"" + key + "\" must be a list of numbers");
        s += (s.empty() ? "" : ",") + format_number(x.get<double>());
    }
    return s;
}

}  // namespace

ConfigImport import_hf_config_text(const std::string& text, const std::string& name, const std::string& layer_type) {
    json root;
    try {
        root = json::parse(text);
    } catch (const json::exception& e) {  // syntax errors, and numbers too big for a double
        std::string what = e.what();
        const std::size_t id_end = what.find("] ");
        fail(name, "not valid JSON (" + (id_end == std::string::npos ? what : what.substr(id_end + 2)) + ")");
    }
    if (!root.is_object()) fail(name, "expected a JSON object");
    ConfigImport out;
    // multimodal configs keep the language model's settings in text_config
    json c = root;
    if (has(root, "text_config") && root["text_config"].is_object() && !has(root, "num_attention_heads") &&
        !has(root, "head_dim")) {
        c = root["text_config"];
        out.warnings.push_back("config '" + name + "': using text_config; the other sections (vision, audio) are not shown");
    }
    for (const char* section : {"vision_config", "audio_config"})
        if (has(root, section)) out.warnings.push_back("config '" + name + "': \"" + section + "\" is not supported and is ignored");

    // the RoPE dict: newer rope_parameters (maybe per layer type), else legacy rope_scaling
    json rope = json::object();
    bool per_layer_type = false;
    if (has(c, "rope_parameters")) {
        const json& rp = c["rope_parameters"];
        if (!rp.is_object()) fail(name, "\"rope_parameters\" must be an object");
        if (rp.contains("full_attention") || rp.contains("sliding_attention")) {
            per_layer_type = true;
            if (!rp.contains(layer_type)) fail(name, "\"rope_parameters\" has no \"" + layer_type + "\" entry");
            if (!rp[layer_type].is_object()) fail(name, "\"rope_parameters\".\"" + layer_type + "\" must be an object");
            rope = rp[layer_type];
        } else {
            rope = rp;
        }
    } else if (has(c, "rope_scaling")) {
        if (!c["rope_scaling"].is_object()) fail(name, "\"rope_scaling\" must be an object or null");
        rope = c["rope_scaling"];
    }
    // Sliding-attention layers in the older layout: Gemma 3 gives them their own base
    // (rope_local_base_freq) and no scaling; elsewhere every layer shares the one setting.
    bool local_base = false;
    if (layer_type == "sliding_attention" && !per_layer_type) {
        if (has(c, "rope_local_base_freq")) {
            local_base = true;
            rope = json::object();
        } else {
            out.warnings.push_back("config '" + name + "': no separate RoPE settings for sliding-attention layers; every layer uses these");
        }
    }

    // head dim: head_dim (may be absent or null), else hidden_size // num_attention_heads, else GPT-J's
    double head_dim = 0;
    if (has(c, "qk_rope_head_dim")) {  // DeepSeek V2/V3: only this part of each head rotates (transformers' head_dim)
        head_dim = number(c, "qk_rope_head_dim", name);
    } else if (has(c, "head_dim")) {
        head_dim = number(c, "head_dim", name);
    } else if (has(c, "hidden_size") && has(c, "num_attention_heads")) {
        const double heads = number(c, "num_attention_heads", name);
        if (heads <= 0) fail(name, "\"num_attention_heads\" must be positive");
        head_dim = std::floor(number(c, "hidden_size", name) / heads);
    } else if (has(c, "n_embd") && has(c, "n_head")) {
        const double heads = number(c, "n_head", name);
        if (heads <= 0) fail(name, "\"n_head\" must be positive");
        head_dim = std::floor(number(c, "n_embd", name) / heads);
    } else {
        fail(name, "no head dimension: needs \"head_dim\", or \"hidden_size\" and \"num_attention_heads\" (or \"n_embd\" and \"n_head\")");
    }
    // checked before the conversion: a float outside int's range would be undefined behaviour
    if (!(head_dim >= 1 && head_dim <= 1e6) || head_dim != std::floor(head_dim))
        fail(name, "head dimension " + format_number(head_dim) + " is not a whole number from 1 to 1000000");
    out.sets.emplace_back("dim", std::to_string(static_cast<int>(head_dim)));

    // base
    double base = 10000;
    if (local_base) base = number(c, "rope_local_base_freq", name);
    else if (has(rope, "rope_theta")) base = number(rope, "rope_theta", name);
    else if (has(c, "rope_theta")) base = number(c, "rope_theta", name);
    else if (has(c, "rotary_emb_base")) base = number(c, "rotary_emb_base", name);
    out.sets.emplace_back("base", format_number(base));

    // partial rotary
    if (has(rope, "partial_rotary_factor")) out.sets.emplace_back("rotary_fraction", format_number(number(rope, "partial_rotary_factor", name)));
    else if (has(c, "partial_rotary_factor")) out.sets.emplace_back("rotary_fraction", format_number(number(c, "partial_rotary_factor", name)));
    else if (has(c, "rotary_pct")) out.sets.emplace_back("rotary_fraction", format_number(number(c, "rotary_pct", name)));
    else if (has(c, "rotary_dim")) out.sets.emplace_back("rotary_fraction", format_number(number(c, "rotary_dim", name) / head_dim));

    // layouts: GPT-J (and DeepSeek's interleaved rope) pair neighbours; the HF Llama family and NeoX use rotate_half
    const std::string model_type = has(c, "model_type") && c["model_type"].is_string() ? c["model_type"].get<std::string>() : "";
    bool interleaved = model_type == "gptj" || model_type == "deepseek_v3" || model_type == "deepseek_v2";
    if (has(c, "rope_interleave")) {  // DeepSeek's switch (true by default there)
        if (!c["rope_interleave"].is_boolean()) fail(name, "\"rope_interleave\" must be true or false");
        interleaved = c["rope_interleave"].get<bool>();
    }
    out.sets.emplace_back("pairing", interleaved ? "interleaved" : "half");

    double max_positions = 0;
    if (has(c, "max_position_embeddings")) max_positions = number(c, "max_position_embeddings", name);
    else if (has(c, "n_positions")) max_positions = number(c, "n_positions", name);
    if (max_positions >= 1) out.sets.emplace_back("max_position", format_number(std::floor(max_positions)));

    // scaling
    std::string type = "none";
    if (has(rope, "rope_type")) {
        if (!rope["rope_type"].is_string()) fail(name, "\"rope_type\" must be a string");
        type = rope["rope_type"];
    } else if (has(rope, "type")) {
        if (!rope["type"].is_string()) fail(name, "\"type\" must be a string");
        type = rope["type"];
    }
    if (type == "default" || type == "mrope") {
        if (type == "mrope") out.warnings.push_back("config '" + name + "': multimodal rope (mrope) is shown as plain RoPE");
        type = "none";
    }
    if (type == "su") type = "longrope";
    if (model_type == "phi3" && type == "yarn") type = "longrope";  // Phi3Config's alias for its early configs
    static const std::set<std::string> supported = {"none", "linear", "dynamic", "yarn", "llama3", "longrope"};
    if (!supported.count(type)) fail(name, "rope type \"" + type + "\" is not supported (supported: default, linear, dynamic, yarn, llama3, longrope)");
    out.sets.emplace_back("scaling", type);

    // L0, the training length: the critical dimension's L for every type, the reference of the scaled
    // ones. Dynamic NTK scales against max_position_embeddings (transformers ignores any original
    // there); longrope reads the top-level value first (Phi-3), the others the dict's first.
    const bool top_original = has(c, "original_max_position_embeddings");
    const bool dict_original = has(rope, "original_max_position_embeddings");
    const double top_value = top_original ? number(c, "original_max_position_embeddings", name) : 0;
    const double dict_value = dict_original ? number(rope, "original_max_position_embeddings", name) : 0;
    double original = max_positions;  // dynamic's, always
    if (type == "longrope") original = top_original ? top_value : dict_original ? dict_value : max_positions;
    else if (type != "dynamic") original = dict_original ? dict_value : top_original ? top_value : max_positions;
    // The sequence length of transformers' rope init (no sequence yet): L0, so that longrope starts
    // on its short factors and dynamic NTK on its own base (L0 = M there); raise it to see longer ones.
    if (original >= 1) {
        out.sets.emplace_back("original_max_position", format_number(std::floor(original)));
        out.sets.emplace_back("sequence_length", format_number(std::floor(original)));
    }

    if (type != "none") {
        double factor = 1.0;
        if (has(rope, "factor")) factor = number(rope, "factor", name);
        else if (type != "longrope") fail(name, "rope type \"" + type + "\" needs \"factor\"");
        if (factor < 1) fail(name, "\"factor\" " + format_number(factor) + " must be at least 1 (it stretches the context)");
        // longrope with a stated L0 takes its factor from the two lengths, as Phi-3 does (<= 1: none)
        if (type == "longrope" && (top_original || dict_original) && original >= 1 && max_positions >= 1)
            factor = std::max(1.0, max_positions / original);
        out.sets.emplace_back("factor", format_number(factor));
        if (type == "llama3") {
            for (const char* k : {"low_freq_factor", "high_freq_factor"}) {
                if (!has(rope, k)) fail(name, "rope type llama3 needs \"" + std::string(k) + "\"");
                out.sets.emplace_back(k, format_number(number(rope, k, name)));
            }
        }
        if (type == "yarn") {
            // transformers reads `beta_fast or 32`: a 0 means the default
            for (const char* k : {"beta_fast", "beta_slow", "mscale", "mscale_all_dim"})
                if (has(rope, k) && !(std::string(k).rfind("beta", 0) == 0 && number(rope, k, name) == 0))
                    out.sets.emplace_back(k, format_number(number(rope, k, name)));
            if (has(rope, "truncate")) {
                if (!rope["truncate"].is_boolean()) fail(name, "\"truncate\" must be true or false");
                out.sets.emplace_back("truncate", rope["truncate"].get<bool>() ? "true" : "false");
            }
        }
        if (type == "longrope") {
            if (!has(rope, "long_factor") || !has(rope, "short_factor"))
                fail(name, "rope type longrope needs \"long_factor\" and \"short_factor\" lists");
            out.sets.emplace_back("long_factors", list_text(rope["long_factor"], "long_factor", name));
            out.sets.emplace_back("short_factors", list_text(rope["short_factor"], "short_factor", name));
        }
    }
    if (has(rope, "attention_factor")) {
        const double attention = number(rope, "attention_factor", name);
        if (type == "yarn" || type == "longrope")
            out.sets.emplace_back("attention_factor", format_number(attention));
        else
            out.warnings.push_back("config '" + name + "': \"attention_factor\" is ignored for rope type " +
                                   (type == "none" ? std::string("default") : type) + " (transformers uses 1)");
    }
    static const std::set<std::string> understood = {
        "rope_type", "type", "factor", "original_max_position_embeddings", "low_freq_factor", "high_freq_factor", "beta_fast",
        "beta_slow", "mscale", "mscale_all_dim", "truncate", "long_factor", "short_factor", "attention_factor", "rope_theta",
        "partial_rotary_factor"};
    for (const auto& [k, v] : rope.items())
        if (!understood.count(k)) out.warnings.push_back("config '" + name + "': rope key \"" + k + "\" is not supported and is ignored");
    // top-level keys about RoPE that this import does not read (the rest of a config is not RoPE's)
    static const std::set<std::string> read_top_level = {
        "rope_theta", "rope_scaling", "rope_parameters", "rotary_emb_base", "rotary_pct", "rotary_dim", "qk_rope_head_dim",
        "rope_interleave", "rope_local_base_freq", "partial_rotary_factor"};
    for (const auto& [k, v] : c.items()) {
        const bool about_rope = k.rfind("rope", 0) == 0 || k.find("_rope") != std::string::npos || k.find("rotary") != std::string::npos;
        if (about_rope && !read_top_level.count(k))
            out.warnings.push_back("config '" + name + "': \"" + k + "\" is not supported and is ignored");
    }
    return out;
}

ConfigImport import_hf_config(const std::string& path, const std::string& layer_type) {
    std::string text;
    try {
        text = io::read_file(path);
    } catch (const io::IoError& e) {
        fail(path, std::string(e.what()).find("No such file") != std::string::npos ? "no such file" : e.what());
    }
    return import_hf_config_text(text, path, layer_type);
}

ParamSet with_config(const ParamSet& params, const ConfigImport& imported, const std::string& name) {
    ParamSet next = params;
    try {
        next.set("preset", "none");
        for (std::string_view k : preset_keys()) next.reset(k);
        for (const auto& [k, v] : imported.sets) next.set(k, v);
        next.validate();
    } catch (const ParamError& e) {
        fail(name, e.what());
    }
    return next;
}

}  // namespace rope::session
