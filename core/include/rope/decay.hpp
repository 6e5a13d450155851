// Long-range decay: RoFormer section 3.4.3's relative upper bound,
//   bound(r) = (1/(d/2)) * sum_{j=1}^{d/2} |S_j|,   S_j = sum_{k=0}^{j-1} e^{i r theta_k},
// and the other decay-like curves people meet (each a different metric, named as such).
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <vector>

namespace rope {

// Computes the bound for runs of distances without a sin/cos per term (see phasor.hpp: the same
// exact block-product scheme, vectorised across 64 consecutive distances).
class DecayBound {
public:
    static constexpr int kBlock = 64;

    explicit DecayBound(const Eigen::VectorXd& theta);
    // out[i] = bound(first + i) for i < count; distances may be any doubles-exact integers >= 0.
    void compute(std::int64_t first, std::int64_t count, double* out);

private:
    void compute_block(std::int64_t block_start, double* out);
    void load_bases(std::int64_t block_start);

    int pairs_;
    std::vector<double> theta_;
    // step tables [k * kBlock + j]: fl(j theta_k), cos, sin (transposed: lanes run over j)
    std::vector<double> step_angle_, step_cos_, step_sin_;
    std::vector<double> block_out_;
    // the current block's base phasors e^{i fl(B theta_k)}
    std::int64_t loaded_block_ = -1;
    std::vector<double> base_angle_, base_cos_, base_sin_;
};

// bound(r) for r = 0 .. max_distance.
Eigen::VectorXd decay_bound(const Eigen::VectorXd& theta, std::int64_t max_distance);

// The mean of cos(r theta_i) over pairs: the score of q = k = all-ones, divided by d/2. A different
// metric from the bound (it goes negative), labelled as such wherever it is shown.
double mean_cos(const Eigen::VectorXd& theta, double r);

}  // namespace rope
