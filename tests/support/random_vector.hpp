// Seeded random vectors for the tests: the same numbers on every run and in every test that asks.
#pragma once

#include <Eigen/Core>
#include <random>

namespace rope::test {

// n draws from the standard normal distribution (mt19937 seeded with `seed`).
inline Eigen::VectorXd random_normal_vector(int n, unsigned seed) {
    std::mt19937 gen(seed);
    std::normal_distribution<double> normal(0.0, 1.0);
    Eigen::VectorXd v(n);
    for (int i = 0; i < n; ++i) v[i] = normal(gen);
    return v;
}

// n draws uniform in [-1, 1) (mt19937 seeded with `seed`).
inline Eigen::VectorXd random_uniform_vector(int n, unsigned seed) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<double> uniform(-1, 1);
    Eigen::VectorXd v(n);
    for (int i = 0; i < n; ++i) v[i] = uniform(gen);
    return v;
}

}  // namespace rope::test
