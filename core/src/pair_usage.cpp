#include "rope/pair_usage.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "rope/model_layers.hpp"
#include <stdexcept>
#include <string>

namespace rope {

namespace {

// ||diag(g_a, g_b) W[a, b]||_F from the rows' squared norms
double pair_norm(const std::vector<double>& square, const std::vector<double>& scale, int head, int rotated_dims,
                 PairDims dims) {
    auto term = [&](int j) {
        const double g = scale.empty() ? 1.0 : scale[static_cast<std::size_t>(j)];
        return g * g * square[static_cast<std::size_t>(head * rotated_dims + j)];
    };
    return std::sqrt(term(dims.first) + term(dims.second));
}

}  // namespace

PairUsage pair_usage(const std::vector<double>& q_square, const std::vector<double>& k_square, int heads, int kv_heads,
                     int rotated_dims, Pairing pairing, const std::vector<double>& q_scale, const std::vector<double>& k_scale) {
    if (heads < 1 || kv_heads < 1 || heads % kv_heads != 0)
        throw std::invalid_argument(std::to_string(heads) + " query heads do not share " + std::to_string(kv_heads) + " key heads evenly");
    if (rotated_dims < 2 || rotated_dims % 2 != 0) throw std::invalid_argument("rotated dims must be even and at least 2");
    const std::size_t r = static_cast<std::size_t>(rotated_dims);
    if (q_square.size() != static_cast<std::size_t>(heads) * r || k_square.size() != static_cast<std::size_t>(kv_heads) * r)
        throw std::invalid_argument("row norms do not match heads x rotated dims");
    if ((!q_scale.empty() && q_scale.size() < r) || (!k_scale.empty() && k_scale.size() < r))
        throw std::invalid_argument("a norm scale is shorter than the rotated dims");
    PairUsage u;
    u.heads = heads;
    u.kv_heads = kv_heads;
    u.pairs = rotated_dims / 2;
    const std::size_t n = static_cast<std::size_t>(heads * u.pairs);
    u.q_norm.resize(n);
    u.k_norm.resize(n);
    u.usage.resize(n);
    u.share.resize(n);
    for (int h = 0; h < heads; ++h) {
        double total = 0;
        for (int i = 0; i < u.pairs; ++i) {
            const auto dims = pair_dims(pairing, rotated_dims, i);
            const std::size_t at = static_cast<std::size_t>(h * u.pairs + i);
            u.q_norm[at] = pair_norm(q_square, q_scale, h, rotated_dims, dims);
            u.k_norm[at] = pair_norm(k_square, k_scale, u.kv_head(h), rotated_dims, dims);
            u.usage[at] = u.q_norm[at] * u.k_norm[at];
            total += u.usage[at];
        }
        for (int i = 0; i < u.pairs; ++i) {
            const std::size_t at = static_cast<std::size_t>(h * u.pairs + i);
            u.share[at] = total > 0 ? u.usage[at] / total : 0.0;
        }
    }
    return u;
}

double concentration(const PairUsage& u) {
    if (u.heads < 1 || u.pairs < 1) return 0;
    double sum = 0;
    for (int h = 0; h < u.heads; ++h) {
        double largest = 0;
        for (int i = 0; i < u.pairs; ++i) largest = std::max(largest, u.at(u.share, h, i));
        sum += largest;
    }
    return sum / u.heads;
}

std::size_t most_concentrated(const std::vector<LayerPairUsage>& layers) {
    std::size_t best = 0;
    for (std::size_t l = 1; l < layers.size(); ++l)
        if (concentration(layers[l].pairs) > concentration(layers[best].pairs)) best = l;
    return best;
}

ParamSet layer_params(const ParamSet& params, int layer) {
    const ModelLayers model = params.model_layers();
    if (model.empty() || params[P::layer] == std::optional<std::int64_t>(layer)) return params;
    return params.with_kind_keys(model.kind(layer));
}

std::vector<int> rotated_dims_by_layer(const ParamSet& params) {
    const ModelLayers model = params.model_layers();
    if (model.empty()) return {params.config().rotated_dims()};
    std::vector<int> per_kind;
    for (const LayerKind& kind : model.kinds) per_kind.push_back(params.with_kind_keys(kind).config().rotated_dims());
    std::vector<int> out;
    for (int layer = 0; layer < model.layers(); ++layer)
        out.push_back(params[P::layer] == std::optional<std::int64_t>(layer)
                          ? params.config().rotated_dims()
                          : per_kind[static_cast<std::size_t>(model.kind_of_layer[static_cast<std::size_t>(layer)])]);
    return out;
}

std::vector<double> pair_wavelengths(const FrequencyTable& f, int pairs) {
    std::vector<double> out;
    for (int i = 0; i < pairs; ++i) {
        const bool turns = i < f.pairs() && f.rotates(i) && f.original_theta[i] > 0;
        out.push_back(turns ? 2 * M_PI / f.original_theta[i] : NAN);
    }
    return out;
}

}  // namespace rope
