// Why RoPE works, as numbers: Vaswani et al.'s absolute sinusoidal encoding beside RoPE's
// relative score, and the mixed pairing-layout bug that breaks the relative property.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <vector>

#include "rope/config.hpp"
#include "rope/frequencies.hpp"

namespace rope {

// ---- Absolute sinusoidal encoding (Vaswani et al. 2017) ----
// PE(p, 2i) = sin(p w_i), PE(p, 2i+1) = cos(p w_i), w_i = base^(-2i/d) (d even).
Eigen::VectorXd sinusoidal_encoding(double position, int dim, double base);
// PE(m) . PE(n) from the two vectors.
double sinusoidal_dot(double m, double n, int dim, double base);
// The same in closed form: sum_i cos((n - m) w_i); it depends on the distance only, and is even in it.
double sinusoidal_dot_at_distance(double distance, int dim, double base);
// sinusoidal_dot_at_distance(r) for r = 0 .. max_distance (phasor tables: no sin/cos per term).
std::vector<double> sinusoidal_dot_curve(int dim, double base, std::int64_t max_distance);
// The score when the encodings are added to the content, as in the original Transformer:
// (q + PE(m)) . (k + PE(n)). Its cross terms q . PE(n) and PE(m) . k depend on m and n themselves.
double additive_score(const Eigen::VectorXd& q, double m, const Eigen::VectorXd& k, double n, double base);
// additive_score(q, m, k, n) for n = first_n .. first_n + count - 1 (first_n >= 0).
std::vector<double> additive_score_curve(const Eigen::VectorXd& q, double m, const Eigen::VectorXd& k,
                                         std::int64_t first_n, std::int64_t count, double base);

// ---- RoPE scores, with matched or mixed pairing layouts ----
// Which pair's frequency dim j gets when cos/sin are laid out for `layout` (full width over the
// rotated dims): interleaved repeats each frequency twice (j / 2), half-split is cat(freqs, freqs)
// (j mod r/2).
int cos_sin_pair_of_dim(Pairing layout, int rotated_dims, int dim);
// In the functions below, `scale` multiplies cos and sin as in rotate() (the attention factor), so
// scores grow by its square.
// Rows: x rotated to positions first .. first + count - 1 (first >= 0) by rotate_with_layouts, i.e.
// x * cos + swap(x) * sin with cos/sin laid out for `table_layout` and the partner swap done for
// `vector_layout`. Matched layouts give R(m) x; mixed ones the classic bug.
Eigen::MatrixXd rotated_rows_with_layouts(const FrequencyTable& freqs, Pairing table_layout, Pairing vector_layout,
                                          const Eigen::VectorXd& x, std::int64_t first, std::int64_t count,
                                          double scale = 1.0);
// <rot(m) q, rot(n) k> with both rotated by rotate_with_layouts(table_layout, vector_layout).
double mixed_layout_score(const FrequencyTable& freqs, Pairing table_layout, Pairing vector_layout,
                          const Eigen::VectorXd& q, double m, const Eigen::VectorXd& k, double n, double scale = 1.0);
// S(m, n) = <rot(m) q, rot(n) k> for m, n = 0 .. count - 1 (row m, column n). With matched layouts it
// is constant along every diagonal (Toeplitz: it depends on n - m only); mixed, it is not.
Eigen::MatrixXd score_matrix(const FrequencyTable& freqs, Pairing table_layout, Pairing vector_layout,
                             const Eigen::VectorXd& q, const Eigen::VectorXd& k, std::int64_t count, double scale = 1.0);
// <rot(s) q, rot(s + r) k> for s = first_shift .. first_shift + count - 1 (first_shift >= 0 and
// first_shift + r >= 0): both tokens shifted together, the distance r fixed.
std::vector<double> shifted_scores(const FrequencyTable& freqs, Pairing table_layout, Pairing vector_layout,
                                   const Eigen::VectorXd& q, const Eigen::VectorXd& k, std::int64_t distance,
                                   std::int64_t first_shift, std::int64_t count, double scale = 1.0);
// <R(m) q, R(n) k> for n = first_n .. first_n + count - 1 (first_n >= 0), every k rotated to its own
// position (not through the relative form), so a curve over n - m shows whether m matters.
std::vector<double> rope_score_curve(const FrequencyTable& freqs, Pairing pairing, const Eigen::VectorXd& q, double m,
                                     const Eigen::VectorXd& k, std::int64_t first_n, std::int64_t count, double scale = 1.0);
// The most any score of `scores` strays from the first: 0 when shifting changes nothing.
double largest_drift(const std::vector<double>& scores);

}  // namespace rope
