#include "rope/multi_axis.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <stdexcept>

#include "rope/frequencies.hpp"
#include "rope/rotation.hpp"

namespace rope {

int AxisLayout::count(PositionAxis a) const { return static_cast<int>(std::count(axis.begin(), axis.end(), a)); }

AxisSpread axis_spread(const AxisLayout& layout, PositionAxis axis) {
    AxisSpread s;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    double shortest = std::numeric_limits<double>::infinity(), longest = 0;
    int turning = 0;
    for (int j = 0; j < layout.pairs(); ++j) {
        if (layout.axis[static_cast<std::size_t>(j)] != axis) continue;
        ++s.pairs;
        if (!(layout.theta[j] > 0)) continue;
        const double wavelength = kTwoPi / layout.theta[j];
        shortest = std::min(shortest, wavelength);
        longest = std::max(longest, wavelength);
        ++turning;
    }
    s.shortest_wavelength = turning ? shortest : nan;
    s.longest_wavelength = turning ? longest : nan;
    return s;
}

AxisLayout axial_layout(AxialFrequencies schedule, double base, int rotated_dims) {
    if (rotated_dims < 4 || rotated_dims % 4 != 0)
        throw std::invalid_argument("axial_layout: the rotated dims must be a positive multiple of 4");
    if (!(base > 1.0) || !std::isfinite(base)) throw std::invalid_argument("axial_layout: base must be finite and > 1");
    const int quarter = rotated_dims / 4;  // pairs per axis
    AxisLayout l;
    l.theta.resize(2 * quarter);
    l.axis.resize(static_cast<std::size_t>(2 * quarter));
    const Eigen::VectorXd one_d = base_frequencies(base, rotated_dims);       // r/2 entries
    const Eigen::VectorXd per_axis = base_frequencies(base, rotated_dims / 2);  // r/4 entries
    for (int i = 0; i < quarter; ++i) {
        const auto first = static_cast<std::size_t>(i), second = static_cast<std::size_t>(quarter + i);
        switch (schedule) {
            case AxialFrequencies::per_axis:  // Heo et al.: cat(x, y), each with the whole spread
                l.theta[i] = l.theta[quarter + i] = per_axis[i];
                l.axis[first] = PositionAxis::w;
                l.axis[second] = PositionAxis::h;
                break;
            case AxialFrequencies::split:  // the 1D table cut in two
                l.theta[i] = one_d[i];
                l.theta[quarter + i] = one_d[quarter + i];
                l.axis[first] = PositionAxis::w;
                l.axis[second] = PositionAxis::h;
                break;
            case AxialFrequencies::alternating:  // Pixtral: freqs[::2] with h, freqs[1::2] with w
                l.theta[i] = one_d[2 * i];
                l.theta[quarter + i] = one_d[2 * i + 1];
                l.axis[first] = PositionAxis::h;
                l.axis[second] = PositionAxis::w;
                break;
        }
    }
    return l;
}

MropeSection default_mrope_section(int pairs, bool interleaved) {
    const double share = interleaved ? 5.0 / 16.0 : 3.0 / 8.0;
    int spatial = static_cast<int>(std::lround(share * pairs));
    if (interleaved) spatial = std::min(spatial, pairs / 3);  // each interleaved axis fits its slots
    spatial = std::max(0, std::min(spatial, pairs / 2));
    return {pairs - 2 * spatial, spatial, spatial};
}

namespace {

std::string section_text(const MropeSection& s) {
    return "[" + std::to_string(s[0]) + ", " + std::to_string(s[1]) + ", " + std::to_string(s[2]) + "]";
}

// Qwen3-VL's apply_interleaved_mrope: which axis pair j turns with.
PositionAxis interleaved_axis(int j, const MropeSection& s) {
    if (j % 3 == 1 && j < 3 * s[1]) return PositionAxis::h;
    if (j % 3 == 2 && j < 3 * s[2]) return PositionAxis::w;
    return PositionAxis::t;
}

}  // namespace

std::string mrope_section_problem(const MropeSection& s, int pairs, bool interleaved) {
    if (s[0] < 0 || s[1] < 0 || s[2] < 0) return "the three counts must be >= 0";
    if (s[0] + s[1] + s[2] != pairs)
        return "the counts " + section_text(s) + " add up to " + std::to_string(s[0] + s[1] + s[2]) + ", not the " +
               std::to_string(pairs) + " rotated pairs";
    // interleaved: h takes j = 1, 4, ... below 3 s_h and w takes j = 2, 5, ... below 3 s_w; both runs
    // must fit inside the pairs, or an axis gets fewer pairs than its count says
    if (interleaved && (3 * s[1] > pairs + 1 || 3 * s[2] > pairs))
        return "interleaved, h and w take every third pair, so each can have at most a third of the " +
               std::to_string(pairs) + " pairs";
    return "";
}

AxisLayout mrope_layout(const Eigen::VectorXd& theta, const MropeSection& section, bool interleaved) {
    const int pairs = static_cast<int>(theta.size());
    if (const std::string problem = mrope_section_problem(section, pairs, interleaved); !problem.empty())
        throw std::invalid_argument("mrope_layout: " + problem);
    AxisLayout l;
    l.theta = theta;
    l.axis.resize(static_cast<std::size_t>(pairs));
    for (int j = 0; j < pairs; ++j) {
        PositionAxis a = PositionAxis::t;
        if (interleaved)
            a = interleaved_axis(j, section);
        else if (j >= section[0] + section[1])
            a = PositionAxis::w;
        else if (j >= section[0])
            a = PositionAxis::h;
        l.axis[static_cast<std::size_t>(j)] = a;
    }
    return l;
}

FluxAxesDims default_flux_axes_dims(int rotated_dims) {
    const int first = 2 * static_cast<int>(std::lround(rotated_dims / 16.0));
    const int rows = 2 * ((rotated_dims - first) / 4);
    return {first, rows, rotated_dims - first - rows};
}

std::string flux_axes_dims_problem(const FluxAxesDims& dims, int rotated_dims) {
    for (const int d : dims)
        if (d < 0 || d % 2 != 0) return "each axis takes an even number of dims (whole pairs), " + std::to_string(d) + " is not";
    const int sum = dims[0] + dims[1] + dims[2];
    if (sum != rotated_dims)
        return std::to_string(dims[0]) + " + " + std::to_string(dims[1]) + " + " + std::to_string(dims[2]) + " = " + std::to_string(sum) +
               ", not the " + std::to_string(rotated_dims) + " rotated dims";
    return "";
}

AxisLayout flux_layout(double base, const FluxAxesDims& dims) {
    const int rotated = dims[0] + dims[1] + dims[2];
    if (const std::string problem = flux_axes_dims_problem(dims, rotated); !problem.empty()) throw std::invalid_argument("flux_layout: " + problem);
    if (!(base > 1)) throw std::invalid_argument("flux_layout: base must be above 1");
    AxisLayout layout;
    layout.theta.resize(rotated / 2);
    int pair = 0;
    for (int a = 0; a < kPositionAxes; ++a)
        for (int j = 0; j < dims[static_cast<std::size_t>(a)] / 2; ++j, ++pair) {
            layout.theta[pair] = std::pow(base, -2.0 * j / dims[static_cast<std::size_t>(a)]);
            layout.axis.push_back(static_cast<PositionAxis>(a));
        }
    return layout;
}

std::vector<SequenceToken> flux_sequence(int text_before, int rows, int cols, int text_after) {
    if (text_before < 0 || text_after < 0 || rows < 1 || cols < 1)
        throw std::invalid_argument("flux_sequence: counts must be >= 0 and the grid at least 1 x 1");
    std::vector<SequenceToken> tokens;
    tokens.reserve(static_cast<std::size_t>(text_before + rows * cols + text_after));
    for (int i = 0; i < text_before; ++i) tokens.push_back({TokenKind::text, -1, -1, {0, 0, 0}});
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) tokens.push_back({TokenKind::image, r, c, {0, r, c}});
    for (int i = 0; i < text_after; ++i) tokens.push_back({TokenKind::text, -1, -1, {0, 0, 0}});
    return tokens;
}

std::vector<SequenceToken> mrope_sequence(int text_before, int rows, int cols, int text_after) {
    if (text_before < 0 || text_after < 0 || rows < 1 || cols < 1)
        throw std::invalid_argument("mrope_sequence: counts must be >= 0 and the grid at least 1 x 1");
    std::vector<SequenceToken> tokens;
    tokens.reserve(static_cast<std::size_t>(text_before + rows * cols + text_after));
    auto text = [&](std::int64_t i) {
        const double p = static_cast<double>(i);
        tokens.push_back({TokenKind::text, -1, -1, {p, p, p}});
    };
    for (int i = 0; i < text_before; ++i) text(i);
    const std::int64_t start = text_before;  // the image's patches are offset by the text before it
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
            tokens.push_back({TokenKind::image, r, c, {static_cast<double>(start), static_cast<double>(start + r), static_cast<double>(start + c)}});
    // the text after resumes at 1 + the largest id of the image: start + max(rows, cols)
    const std::int64_t resume = start + std::max(rows, cols);
    for (int i = 0; i < text_after; ++i) text(resume + i);
    return tokens;
}

namespace {

// Per pair: A = q_a k_a + q_b k_b and B = q_b k_a - q_a k_b, so that the pair's part of the score at
// angle difference phi is A cos(phi) - B sin(phi) (Re of z_q conj(z_k) e^{i phi}).
struct PairProducts {
    Eigen::VectorXd a, b;
    double pass_through = 0;  // q . k over the dims that do not rotate
};

PairProducts pair_products(const AxisLayout& layout, Pairing pairing, const Eigen::VectorXd& q, const Eigen::VectorXd& k) {
    const int rotated = 2 * layout.pairs();
    if (q.size() != k.size() || q.size() < rotated)
        throw std::invalid_argument("multi-axis score: q and k need the same length, at least the rotated dims");
    PairProducts p;
    p.a.resize(layout.pairs());
    p.b.resize(layout.pairs());
    for (int j = 0; j < layout.pairs(); ++j) {
        const auto [x, y] = pair_dims(pairing, rotated, j);
        p.a[j] = q[x] * k[x] + q[y] * k[y];
        p.b[j] = q[y] * k[x] - q[x] * k[y];
    }
    for (Eigen::Index d = rotated; d < q.size(); ++d) p.pass_through += q[d] * k[d];
    return p;
}

}  // namespace

double multi_axis_score(const AxisLayout& layout, Pairing pairing, const Eigen::VectorXd& q, const PositionId& query,
                        const Eigen::VectorXd& k, const PositionId& key) {
    const PairProducts p = pair_products(layout, pairing, q, k);
    double s = p.pass_through;
    for (int j = 0; j < layout.pairs(); ++j) {
        const PositionAxis axis = layout.axis[static_cast<std::size_t>(j)];
        const double phi = layout.theta[j] * static_cast<double>(query.along(axis) - key.along(axis));
        s += p.a[j] * std::cos(phi) - p.b[j] * std::sin(phi);
    }
    return s;
}

Eigen::MatrixXd patch_similarity(const AxisLayout& layout, Pairing pairing, const Eigen::VectorXd& q,
                                 const Eigen::VectorXd& k, int rows, int cols, int query_row, int query_col) {
    if (rows < 1 || cols < 1 || query_row < 0 || query_row >= rows || query_col < 0 || query_col >= cols)
        throw std::invalid_argument("patch_similarity: the query patch must lie in a non-empty grid");
    return block_similarity(layout, pairing, q, {0, query_row, query_col}, k, {0, 0, 0}, rows, cols);
}

Eigen::MatrixXd block_similarity(const AxisLayout& layout, Pairing pairing, const Eigen::VectorXd& q, const PositionId& query,
                                 const Eigen::VectorXd& k, const PositionId& corner, int rows, int cols) {
    if (rows < 1 || cols < 1) throw std::invalid_argument("block_similarity: the block needs rows and columns");
    const PairProducts p = pair_products(layout, pairing, q, k);
    const double norm = q.norm() * k.norm();
    // the score splits into a part per axis; within the block t is the same for every patch
    auto axis_part = [&](PositionAxis axis, double offset) {
        double s = 0;
        for (int j = 0; j < layout.pairs(); ++j) {
            if (layout.axis[static_cast<std::size_t>(j)] != axis) continue;
            const double phi = layout.theta[j] * offset;
            s += p.a[j] * std::cos(phi) - p.b[j] * std::sin(phi);
        }
        return s;
    };
    const double fixed = p.pass_through + axis_part(PositionAxis::t, query.t - corner.t);
    std::vector<double> by_row(static_cast<std::size_t>(rows)), by_col(static_cast<std::size_t>(cols));
    for (int r = 0; r < rows; ++r) by_row[static_cast<std::size_t>(r)] = axis_part(PositionAxis::h, query.h - corner.h - r);
    for (int c = 0; c < cols; ++c) by_col[static_cast<std::size_t>(c)] = axis_part(PositionAxis::w, query.w - corner.w - c);
    Eigen::MatrixXd out(rows, cols);
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
            out(r, c) = norm > 0 ? (fixed + by_row[static_cast<std::size_t>(r)] + by_col[static_cast<std::size_t>(c)]) / norm : 0.0;
    return out;
}

std::vector<double> run_similarity(const AxisLayout& layout, Pairing pairing, const Eigen::VectorXd& q, double query,
                                   const Eigen::VectorXd& k, double first, int count) {
    if (count < 0) throw std::invalid_argument("run_similarity: count must be >= 0");
    const PairProducts p = pair_products(layout, pairing, q, k);
    const double norm = q.norm() * k.norm();
    std::vector<double> out(static_cast<std::size_t>(count), p.pass_through);
    constexpr int kAnchorEvery = 64;  // stepping error stays near 64 ulp
    for (int j = 0; j < layout.pairs(); ++j) {
        const double theta = layout.theta[j];
        const std::complex<double> coefficient(p.a[j], p.b[j]), step = std::polar(1.0, -theta);
        std::complex<double> z;
        for (int i = 0; i < count; ++i) {
            if (i % kAnchorEvery == 0) z = std::polar(1.0, theta * (query - first - i));
            out[static_cast<std::size_t>(i)] += (coefficient * z).real();
            z *= step;
        }
    }
    for (double& v : out) v = norm > 0 ? v / norm : 0.0;
    return out;
}

}  // namespace rope
