#include "cli/arguments.hpp"

#include <iostream>

#include "rope/params.hpp"
#include "session/hf_config.hpp"
#include "session/session.hpp"
#include "weights/trained_weights.hpp"

namespace rope::cli {

bool ArgCursor::take_option(std::string_view flag, std::string& value) {
    if (done()) return false;
    const std::string& a = args_[pos_];
    if (a == flag) {
        if (pos_ + 1 >= args_.size()) throw UsageError(std::string(flag) + " needs a value");
        value = args_[pos_ + 1];
        pos_ += 2;
        return true;
    }
    if (a.size() > flag.size() && a.compare(0, flag.size(), flag) == 0 && a[flag.size()] == '=') {
        value = a.substr(flag.size() + 1);
        ++pos_;
        return true;
    }
    return false;
}

bool ArgCursor::take_flag(std::string_view flag) {
    if (done() || args_[pos_] != flag) return false;
    ++pos_;
    return true;
}

std::pair<std::string, std::string> split_assignment(std::string_view text) {
    const std::size_t eq = text.find('=');
    if (eq == std::string_view::npos || eq == 0)
        throw UsageError("--set '" + shorten_for_message(text) + "': expected key=value (see --help for the keys)");
    return {std::string(text.substr(0, eq)), std::string(text.substr(eq + 1))};
}

namespace {

// layer_type=NAME over a model with layers: its first layer of kind NAME (or of a kind "NAME/...",
// such as the NoPE layers "full_attention/nope"), loaded as `layer` loads it.
void select_layer_type(ParamSet& params, const std::string& name) {
    const ModelLayers model = params.model_layers();
    const std::string given = "--set layer_type=" + shorten_for_message(name) + ": ";
    if (model.empty()) throw UsageError(given + "the current model has no layer list; load a preset or config with layers first");
    int layer = model.first_layer_of(model.find_kind(name));
    for (int i = 0; i < model.layers() && layer < 0; ++i)
        if (model.kind(i).name.rfind(name + "/", 0) == 0) layer = i;
    if (layer < 0) {
        std::string kinds;
        for (const LayerKind& k : model.kinds) kinds += (kinds.empty() ? "" : ", ") + k.name;
        throw UsageError(given + "the model has no layer of that kind; its kinds: " + kinds);
    }
    params.set(P::layer, std::to_string(layer));
}

}  // namespace

void apply_sets(ParamSet& params, const std::vector<std::string>& assignments) {
    // config=PATH imports a Hugging Face config.json; layer_type=NAME picks the layer shown, the
    // first of that type, in the model that config= or preset= loads in the same command (without
    // one, in the current model, where it stands): command-line keys, expanded here into the table's keys
    std::string layer_type;
    bool loads_model = false;
    for (const std::string& a : assignments) {
        const auto [key, value] = split_assignment(a);
        if (key == "layer_type") layer_type = value;
        if (key == "config" || key == "model" || key == param_spec(P::preset).name) loads_model = true;
    }
    try {
        for (const std::string& a : assignments) {
            const auto [key, value] = split_assignment(a);
            if (key == "layer_type") {
                if (!loads_model) select_layer_type(params, value);
                continue;
            }
            if (key == "model" && value != "none" && !value.empty()) {
                // a model folder: its config (or params.json) as config= loads it, then model=DIR
                try {
                    std::vector<std::string> warnings;
                    params = weights::with_model_folder(params, value, &warnings);
                    if (!layer_type.empty()) select_layer_type(params, layer_type);
                    for (const std::string& w : warnings) std::cerr << "rope-explorer: warning: " << w << "\n";
                } catch (const weights::WeightsError& e) {
                    throw UsageError(std::string("--set model=") + value + ": " + e.what());
                } catch (const session::SessionError& e) {
                    throw UsageError(std::string("--set model=") + value + ": " + e.what());
                }
                continue;
            }
            if (key == "config") {
                try {
                    const session::ConfigImport imported = session::import_hf_config(value, layer_type);
                    params = session::with_config(params, imported, value);
                    for (const std::string& w : imported.warnings) std::cerr << "rope-explorer: warning: " << w << "\n";
                } catch (const session::SessionError& e) {
                    throw UsageError(std::string("--set ") + e.what());
                }
                continue;
            }
            params.set(key, value);
            if (key == param_spec(P::preset).name && !layer_type.empty() && value != "none") select_layer_type(params, layer_type);
        }
        params.validate();
    } catch (const ParamError& e) {
        throw UsageError(std::string("--set ") + e.what());
    }
}

}  // namespace rope::cli
