// Real models' RoPE settings (../shared/ROPE.md's table), each number with where it comes from.
// `--set preset=NAME` applies one: the RoPE keys go back to their defaults, then the preset's values.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rope/param_ids.hpp"

namespace rope {

struct Preset {
    std::string_view name;
    std::string_view model;
    std::vector<std::pair<ParamId, std::string_view>> values;  // as --set text
    std::string_view source;  // where the numbers come from (config.json keys)
};

const std::vector<Preset>& presets();
const Preset* find_preset(std::string_view name);
// The family a preset's model belongs to ("Llama", "Qwen", "Gemma", ...), by its name; "Other" for
// one of no family listed. The picker groups the presets by it, in the order the families first appear.
std::string_view preset_family(const Preset& preset);

// A model read from a file by the app (a config.json opened or given as model B): its --set values
// and a short name for captions and legends. The core reads no files: each program gives it the
// importer of its services (app/services/services.hpp).
struct ImportedModel {
    std::string source;  // as given: a path
    std::string label;   // "Meta-Llama-3-8B" (the config's folder), "my-config" (a file's stem)
    std::vector<std::pair<ParamId, std::string>> values;  // as --set text, in order
};
// Reads `source`: nullopt when no file is there (the text names no model at all); throws
// std::runtime_error, one line naming the file, for a file it cannot read as a model.
using ModelImporter = std::function<std::optional<ImportedModel>(const std::string& source)>;
void set_model_importer(ModelImporter importer);
// The model `source` names, read through the importer the first time it is asked for in this run
// (a path is read once; a second `--set compare_to=` of the same path reuses what was read), null
// when no importer is installed or no file is there. Throws what the importer throws.
std::shared_ptr<const ImportedModel> imported_model(const std::string& source);
// What was read before, or null: no file is read (figure builds on worker threads).
std::shared_ptr<const ImportedModel> find_imported_model(std::string_view source);

// A preset resets the parameters of the model scope (params.hpp's kModelScope) before its values.

}  // namespace rope
