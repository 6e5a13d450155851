#include "rope/encodings.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "rope/phasor.hpp"
#include "rope/rotation.hpp"

namespace rope {

namespace {

constexpr std::int64_t kChunkRows = 64;  // phasor rows filled at a time (bounded memory at any dim)

void check_dim(int dim) {
    if (dim < 2 || dim % 2 != 0) throw std::invalid_argument("the sinusoidal encoding needs an even dim >= 2");
}

void check_first(std::int64_t first) {
    if (first < 0) throw std::invalid_argument("positions start at 0");
}

}  // namespace

Eigen::VectorXd sinusoidal_encoding(double position, int dim, double base) {
    check_dim(dim);
    const Eigen::VectorXd w = base_frequencies(base, dim);
    Eigen::VectorXd pe(dim);
    for (int i = 0; i < dim / 2; ++i) {
        pe[2 * i] = std::sin(position * w[i]);
        pe[2 * i + 1] = std::cos(position * w[i]);
    }
    return pe;
}

double sinusoidal_dot(double m, double n, int dim, double base) {
    return sinusoidal_encoding(m, dim, base).dot(sinusoidal_encoding(n, dim, base));
}

double sinusoidal_dot_at_distance(double distance, int dim, double base) {
    check_dim(dim);
    const Eigen::VectorXd w = base_frequencies(base, dim);
    double sum = 0;
    for (int i = 0; i < dim / 2; ++i) sum += std::cos(distance * w[i]);
    return sum;
}

std::vector<double> sinusoidal_dot_curve(int dim, double base, std::int64_t max_distance) {
    check_dim(dim);
    std::vector<double> out;
    if (max_distance < 0) return out;
    const Eigen::VectorXd w = base_frequencies(base, dim);
    const int pairs = dim / 2;
    PhasorGenerator phasors(w);
    std::vector<double> c(static_cast<std::size_t>(kChunkRows) * pairs);
    out.reserve(static_cast<std::size_t>(max_distance) + 1);
    for (std::int64_t r = 0; r <= max_distance; r += kChunkRows) {
        const std::int64_t n = std::min(kChunkRows, max_distance + 1 - r);
        phasors.fill(r, n, c.data(), nullptr, pairs);
        for (std::int64_t j = 0; j < n; ++j) {
            double sum = 0;
            for (int i = 0; i < pairs; ++i) sum += c[static_cast<std::size_t>(j * pairs + i)];
            out.push_back(sum);
        }
    }
    return out;
}

double additive_score(const Eigen::VectorXd& q, double m, const Eigen::VectorXd& k, double n, double base) {
    const int dim = static_cast<int>(q.size());
    if (k.size() != q.size()) throw std::invalid_argument("q and k must have the same length");
    return (q + sinusoidal_encoding(m, dim, base)).dot(k + sinusoidal_encoding(n, dim, base));
}

std::vector<double> additive_score_curve(const Eigen::VectorXd& q, double m, const Eigen::VectorXd& k,
                                         std::int64_t first_n, std::int64_t count, double base) {
    const int dim = static_cast<int>(q.size());
    check_dim(dim);
    check_first(first_n);
    if (k.size() != q.size()) throw std::invalid_argument("q and k must have the same length");
    std::vector<double> out;
    if (count <= 0) return out;
    const Eigen::VectorXd a = q + sinusoidal_encoding(m, dim, base);
    const double content = a.dot(k);
    const int pairs = dim / 2;
    PhasorGenerator phasors(base_frequencies(base, dim));
    std::vector<double> c(static_cast<std::size_t>(kChunkRows) * pairs), s(c.size());
    out.reserve(static_cast<std::size_t>(count));
    for (std::int64_t r = 0; r < count; r += kChunkRows) {
        const std::int64_t n = std::min(kChunkRows, count - r);
        phasors.fill(first_n + r, n, c.data(), s.data(), pairs);
        for (std::int64_t j = 0; j < n; ++j) {
            double sum = content;
            for (int i = 0; i < pairs; ++i) {
                const std::size_t at = static_cast<std::size_t>(j * pairs + i);
                sum += a[2 * i] * s[at] + a[2 * i + 1] * c[at];
            }
            out.push_back(sum);
        }
    }
    return out;
}

int cos_sin_pair_of_dim(Pairing layout, int rotated_dims, int dim) {
    return layout == Pairing::interleaved ? dim / 2 : dim % (rotated_dims / 2);
}

Eigen::MatrixXd rotated_rows_with_layouts(const FrequencyTable& freqs, Pairing table_layout, Pairing vector_layout,
                                          const Eigen::VectorXd& x, std::int64_t first, std::int64_t count,
                                          double scale) {
    if (x.size() != freqs.dim) throw std::invalid_argument("vector length must equal dim");
    check_first(first);
    const int dim = freqs.dim, r = freqs.rotated_dims, pairs = freqs.pairs();
    Eigen::MatrixXd out(std::max<std::int64_t>(count, 0), dim);
    if (count <= 0) return out;
    // the partner-swapped vector and each dim's pair under the table layout do not depend on m
    Eigen::VectorXd swapped = x;
    std::vector<int> pair_of(static_cast<std::size_t>(r));
    for (int j = 0; j < r; ++j) {
        if (vector_layout == Pairing::interleaved)
            swapped[j] = (j % 2 == 0) ? -x[j + 1] : x[j - 1];
        else
            swapped[j] = (j < r / 2) ? -x[j + r / 2] : x[j - r / 2];
        pair_of[static_cast<std::size_t>(j)] = cos_sin_pair_of_dim(table_layout, r, j);
    }
    PhasorGenerator phasors(freqs.theta);
    std::vector<double> c(static_cast<std::size_t>(kChunkRows) * pairs), s(c.size());
    for (std::int64_t row = 0; row < count; row += kChunkRows) {
        const std::int64_t n = std::min(kChunkRows, count - row);
        phasors.fill(first + row, n, c.data(), s.data(), pairs);
        for (std::int64_t i = 0; i < n; ++i) {
            const double* ci = c.data() + i * pairs;
            const double* si = s.data() + i * pairs;
            const Eigen::Index at = static_cast<Eigen::Index>(row + i);
            for (int j = 0; j < r; ++j) {
                const int p = pair_of[static_cast<std::size_t>(j)];
                out(at, j) = (x[j] * ci[p] + swapped[j] * si[p]) * scale;
            }
            for (int j = r; j < dim; ++j) out(at, j) = x[j];
        }
    }
    return out;
}

double mixed_layout_score(const FrequencyTable& freqs, Pairing table_layout, Pairing vector_layout,
                          const Eigen::VectorXd& q, double m, const Eigen::VectorXd& k, double n, double scale) {
    return rotate_with_layouts(freqs, table_layout, vector_layout, q, m, scale)
        .dot(rotate_with_layouts(freqs, table_layout, vector_layout, k, n, scale));
}

Eigen::MatrixXd score_matrix(const FrequencyTable& freqs, Pairing table_layout, Pairing vector_layout,
                             const Eigen::VectorXd& q, const Eigen::VectorXd& k, std::int64_t count, double scale) {
    if (count <= 0) return Eigen::MatrixXd(0, 0);
    const Eigen::MatrixXd rq = rotated_rows_with_layouts(freqs, table_layout, vector_layout, q, 0, count, scale);
    if (k.size() == q.size() && k == q) return rq * rq.transpose();
    const Eigen::MatrixXd rk = rotated_rows_with_layouts(freqs, table_layout, vector_layout, k, 0, count, scale);
    return rq * rk.transpose();
}

std::vector<double> shifted_scores(const FrequencyTable& freqs, Pairing table_layout, Pairing vector_layout,
                                   const Eigen::VectorXd& q, const Eigen::VectorXd& k, std::int64_t distance,
                                   std::int64_t first_shift, std::int64_t count, double scale) {
    std::vector<double> out;
    if (count <= 0) return out;
    const Eigen::MatrixXd rq = rotated_rows_with_layouts(freqs, table_layout, vector_layout, q, first_shift, count, scale);
    const Eigen::MatrixXd rk =
        rotated_rows_with_layouts(freqs, table_layout, vector_layout, k, first_shift + distance, count, scale);
    out.reserve(static_cast<std::size_t>(count));
    for (Eigen::Index i = 0; i < rq.rows(); ++i) out.push_back(rq.row(i).dot(rk.row(i)));
    return out;
}

std::vector<double> rope_score_curve(const FrequencyTable& freqs, Pairing pairing, const Eigen::VectorXd& q, double m,
                                     const Eigen::VectorXd& k, std::int64_t first_n, std::int64_t count, double scale) {
    if (k.size() != freqs.dim) throw std::invalid_argument("vector length must equal dim");
    check_first(first_n);
    std::vector<double> out;
    if (count <= 0) return out;
    const Eigen::VectorXd rq = rotate(freqs, pairing, q, m, scale);
    const int pairs = freqs.pairs();
    // per pair: R(n)k . rq = scale ((k_a rq_a + k_b rq_b) cos + (k_a rq_b - k_b rq_a) sin)
    std::vector<double> cc(static_cast<std::size_t>(pairs)), ss(cc.size());
    for (int i = 0; i < pairs; ++i) {
        const auto [a, b] = pair_dims(pairing, freqs.rotated_dims, i);
        cc[static_cast<std::size_t>(i)] = (k[a] * rq[a] + k[b] * rq[b]) * scale;
        ss[static_cast<std::size_t>(i)] = (k[a] * rq[b] - k[b] * rq[a]) * scale;
    }
    const double pass = k.tail(freqs.dim - freqs.rotated_dims).dot(rq.tail(freqs.dim - freqs.rotated_dims));
    PhasorGenerator phasors(freqs.theta);
    std::vector<double> c(static_cast<std::size_t>(kChunkRows) * pairs), s(c.size());
    out.reserve(static_cast<std::size_t>(count));
    for (std::int64_t row = 0; row < count; row += kChunkRows) {
        const std::int64_t n = std::min(kChunkRows, count - row);
        phasors.fill(first_n + row, n, c.data(), s.data(), pairs);
        for (std::int64_t j = 0; j < n; ++j) {
            double sum = pass;
            for (int i = 0; i < pairs; ++i) {
                const std::size_t at = static_cast<std::size_t>(j * pairs + i);
                sum += cc[static_cast<std::size_t>(i)] * c[at] + ss[static_cast<std::size_t>(i)] * s[at];
            }
            out.push_back(sum);
        }
    }
    return out;
}

double largest_drift(const std::vector<double>& scores) {
    double drift = 0;
    if (scores.empty()) return drift;
    for (double s : scores) drift = std::max(drift, std::abs(s - scores.front()));
    return drift;
}

}  // namespace rope
