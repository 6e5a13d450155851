// A local model folder's trained q and k weights, read for which rotated pairs each head uses
// (rope/pair_usage.hpp): config.json (or Meta's params.json) and its *.safetensors, one file or
// shards named by model.safetensors.index.json. Every tensor a table needs is checked (name,
// dtype, shape, the files' headers) before any data is read; then each layer's rows are streamed
// through short-lived memory maps, so a model of any size takes a few megabytes.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "figures/trained_reader.hpp"
#include "rope/pair_usage.hpp"
#include "rope/params.hpp"
#include "weights/architectures.hpp"

namespace rope::weights {

// One line naming the folder or file (and tensor) and what is wrong with it.
struct WeightsError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct ModelShape {
    std::string model_type;
    int layers = 0, heads = 0, kv_heads = 0, head_dim = 0, hidden = 0;
    QkLayout layout = QkLayout::separate;
    bool meta_format = false;  // params.json + consolidated*.safetensors
    bool attention_bias = false;  // q/k biases exist (not in the weight product)
};

class ModelFolder;

// Opens and checks a folder's config and headers (throws WeightsError). Cheap: no tensor data is read.
std::shared_ptr<const ModelFolder> open_model_folder(const std::string& dir);

// The parameters with the folder's RoPE loaded as config= loads a config.json (Meta's params.json:
// rope_theta, interleaved pairs, Llama 3's scaling when use_scaled_rope), and model=dir. A model
// without a layer list gets one of num_hidden_layers full-attention layers, so layer=N selects one.
ParamSet with_model_folder(const ParamSet& params, const std::string& dir, std::vector<std::string>* warnings = nullptr);

struct WeightUsage {
    std::string folder;
    ModelShape shape;
    const Architecture* architecture = nullptr;
    std::vector<LayerPairUsage> layers;  // every layer, or the one asked for
    std::uint64_t bytes_read = 0;    // of tensor data
};


// Reads the usage table: each layer's rotated dims from `params` (rotated_dims_by_layer), which must
// have the folder's head_dim. `progress(fraction)` is called between windows of rows; returning false
// cancels (throws WeightsCancelled). Throws WeightsError for data it cannot read.
struct WeightsCancelled : std::runtime_error {
    WeightsCancelled() : std::runtime_error("cancelled") {}
};
WeightUsage read_weight_usage(const ModelFolder& folder, const ParamSet& params, std::optional<int> only_layer = std::nullopt,
                              const std::function<bool(double)>& progress = {});

// The Trained model panel's reader of model folders on this machine's file system (the desktop's
// services: desktop_services.hpp).
figures::TrainedReader folder_reader();

}  // namespace rope::weights
