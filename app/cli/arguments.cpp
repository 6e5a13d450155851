#include "cli/arguments.hpp"

#include <iostream>

#include "session/hf_config.hpp"
#include "session/session.hpp"

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

void apply_sets(ParamSet& params, const std::vector<std::string>& assignments) {
    // config=PATH imports a Hugging Face config.json (layer_type picks the per-layer entry of
    // rope_parameters): command-line keys, expanded here into the table's keys
    std::string layer_type = "full_attention";
    for (const std::string& a : assignments) {
        const auto [key, value] = split_assignment(a);
        if (key == "layer_type") {
            if (value != "full_attention" && value != "sliding_attention")
                throw UsageError("--set layer_type=" + shorten_for_message(value) +
                                 ": layer_type must be one of: full_attention, sliding_attention");
            layer_type = value;
        }
    }
    try {
        for (const std::string& a : assignments) {
            const auto [key, value] = split_assignment(a);
            if (key == "layer_type") continue;
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
        }
        params.validate();
    } catch (const ParamError& e) {
        throw UsageError(std::string("--set ") + e.what());
    }
}

}  // namespace rope::cli
