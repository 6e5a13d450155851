// How the Trained model panel gets a model folder's pair usage: a function the running program
// supplies (services/services.hpp), since the figures library reads no files.
#pragma once

#include <functional>

namespace rope {
class ParamSet;
}

namespace rope::figures {

struct TrainedModel;  // figure_cache.hpp

// Reads a model folder for these parameters (`model` and the RoPE it loaded), calling progress(fraction)
// between tensors; progress returning false cancels. Throws std::exception with a one-line message.
using TrainedReader = std::function<TrainedModel(const ParamSet&, const std::function<bool(double)>& progress)>;

}  // namespace rope::figures
