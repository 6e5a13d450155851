// Rotating vectors by RoPE: three independent forms (element-wise cos/sin, the block-diagonal matrix
// R(Theta, m), complex multiplication), both pairing layouts, partial rotary, batches, and scores.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <vector>

#include "rope/config.hpp"
#include "rope/frequencies.hpp"
#include "rope/phasor.hpp"

namespace rope {

// The two dims that form pair `pair` among the first `rotated_dims` dims.
struct PairDims {
    int first;
    int second;
};
PairDims pair_dims(Pairing pairing, int rotated_dims, int pair);

// perm[j] = the interleaved-layout dim that half-layout dim j holds, for the first rotated_dims dims
// (the rest map to themselves): x_half[j] = x_interleaved[perm[j]].
std::vector<int> half_from_interleaved_permutation(int dim, int rotated_dims);

// Element-wise form: each pair (a, b) -> (a cos - b sin, a sin + b cos) with angle m * theta_i;
// pass-through dims unchanged. `scale` multiplies cos and sin (the attention factor).
Eigen::VectorXd rotate(const FrequencyTable& freqs, Pairing pairing, const Eigen::VectorXd& x, double m,
                       double scale = 1.0);

// Matrix form: the dim x dim block-diagonal R(Theta, m) (blocks permuted for the half layout).
Eigen::MatrixXd rotation_matrix(const FrequencyTable& freqs, Pairing pairing, double m, double scale = 1.0);

// Complex form: z_i = x_a + i x_b multiplied by e^{i m theta_i}.
Eigen::VectorXd rotate_complex(const FrequencyTable& freqs, Pairing pairing, const Eigen::VectorXd& x, double m,
                               double scale = 1.0);

// The way reference code applies RoPE: x * cos_full + rotate(x) * sin_full, with cos/sin laid out
// for `table_layout` (interleaved: repeat each pair twice; half: cat(freqs, freqs)) and the partner
// swap done for `vector_layout` (interleaved: (-x1, x0, ...); half: rotate_half). When the two
// differ this is the classic mixed-layout bug, which breaks the relative-position property.
Eigen::VectorXd rotate_with_layouts(const FrequencyTable& freqs, Pairing table_layout, Pairing vector_layout,
                                    const Eigen::VectorXd& x, double m, double scale = 1.0);

// <R(m) q, R(n) k>: for matched layouts it depends on n - m only.
double attention_score(const FrequencyTable& freqs, Pairing pairing, const Eigen::VectorXd& q, double m,
                       const Eigen::VectorXd& k, double n, double scale = 1.0);

// Batch: rows of length freqs.dim (row-major), row r rotated to position first_position + r.
// No allocation per call beyond the generator's state; `scratch` is resized once.
class BatchRotator {
public:
    explicit BatchRotator(const FrequencyTable& freqs, Pairing pairing, double scale = 1.0);
    void rotate_rows(const double* in, double* out, std::int64_t rows, std::int64_t first_position);

private:
    static constexpr int kChunk = 16;
    int dim_;
    int rotated_;
    Pairing pairing_;
    double scale_;
    PhasorGenerator phasors_;
    std::vector<double> cos_, sin_;
    std::vector<double> row_;
};

}  // namespace rope
