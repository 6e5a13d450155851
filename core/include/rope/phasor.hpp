// Fast, exact tables of cos(m theta_k) and sin(m theta_k) for runs of consecutive positions.
//
// A sin/cos per element is the cost of a naive table. Instead every position m = B + j (B a multiple
// of kBlock, 0 <= j < kBlock) is built as e^{i fl(B theta)} * e^{i fl(j theta)}, both factors from
// real sin/cos calls (one per block and pair, and a small step table). The product's angle differs
// from fl(m theta) - the double the reference code would pass to cos - by a tiny delta that is
// computed exactly (Sterbenz: fl(m theta) - fl(B theta) is exact since B >= j) and rotated away to
// second order. So the table equals cos(fl(m theta)) to a few ulp, far inside 1e-12, at any position.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <memory>
#include <vector>

namespace rope {

class PhasorGenerator {
public:
    static constexpr int kBlock = 64;

    PhasorGenerator() = default;
    explicit PhasorGenerator(const Eigen::VectorXd& theta) { reset(theta); }
    void reset(const Eigen::VectorXd& theta);

    int pairs() const { return pairs_; }

    // Rows of cos / sin for positions first .. first+count-1: row r holds pair k at
    // out[r * row_stride + k]. Either output may be null.
    void fill(std::int64_t first, std::int64_t count, double* cos_out, double* sin_out,
              std::ptrdiff_t row_stride);

    // The tables the product for position m is made of (m's block loaded), for kernels that
    // fuse the phasors with their use. Valid until the next call.
    struct RowInputs {
        const double* theta;
        const double* block_angle;
        const double* block_cos;
        const double* block_sin;
        const double* step_angle;
        const double* step_cos;
        const double* step_sin;
    };
    RowInputs row_inputs(std::int64_t m);
    // True when the second-order term of the correction matters for positions below `end`.
    bool needs_second_order(std::int64_t end) const {
        return !(static_cast<double>(end) * max_theta_ < 1048576.0);
    }

private:
    void load_block(std::int64_t block_start);

    int pairs_ = 0;
    double max_theta_ = 0.0;
    // What depends on theta alone, shared by copies (a copy per thread costs no 1.5 MB of tables
    // at 512 pairs, nor the page faults of writing them).
    struct Tables {
        std::vector<double> theta;
        // step tables [j * pairs + k]: fl(j theta_k) and its cos and sin
        std::vector<double> step_angle, step_cos, step_sin;
        // second level [b * pairs + k]: fl(64 b theta_k), cos, sin
        std::vector<double> coarse_angle, coarse_cos, coarse_sin;
    };
    std::shared_ptr<const Tables> tables_;
    // current block's base: fl(B theta_k) and its cos and sin
    std::int64_t block_start_ = -1;
    std::vector<double> block_angle_, block_cos_, block_sin_;
    std::vector<double> row_cos_, row_sin_;  // one row, when the output is streamed
    // the current kBlock^2 super-block
    std::int64_t super_start_ = -1;
    std::vector<double> super_angle_, super_cos_, super_sin_;
};

// Wraps an angle in radians to (-pi, pi], agreeing with atan2(sin x, cos x) to a few ulp.
double wrap_angle(double radians);
// The same for an array (vectorised; used by the heatmaps).
void wrap_angles(const double* in, double* out, std::size_t count);

// The wrapped angle of pair k at position m: wrap(fl(m * theta_k)).
inline double position_angle(double m, double theta) { return m * theta; }

}  // namespace rope
