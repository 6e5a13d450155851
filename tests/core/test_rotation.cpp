// The properties RoPE is taught by, each a test that could fail.
#include <gtest/gtest.h>

#include <cmath>
#include <Eigen/LU>
#include <random>

#include "rope/frequencies.hpp"
#include "rope/rotation.hpp"
#include "support/random_vector.hpp"

using namespace rope;

namespace {

FrequencyTable table(int dim, double base = 10000.0, double fraction = 1.0) {
    RopeConfig c;
    c.dim = dim;
    c.base = base;
    c.rotary_fraction = fraction;
    return compute_frequencies(c);
}

}  // namespace

TEST(Rotation, PreservesNorm) {
    for (Pairing p : {Pairing::interleaved, Pairing::half}) {
        const auto f = table(128);
        const Eigen::VectorXd x = rope::test::random_normal_vector(128, 1);
        for (double m : {0.0, 1.0, 7.0, 1000.0, 131071.0, 1e6}) EXPECT_NEAR(rotate(f, p, x, m).norm(), x.norm(), 1e-12);
    }
}

TEST(Rotation, PositionZeroIsIdentity) {
    const auto f = table(64);
    const Eigen::VectorXd x = rope::test::random_normal_vector(64, 2);
    EXPECT_EQ(rotate(f, Pairing::interleaved, x, 0.0), x);
    EXPECT_TRUE(rotation_matrix(f, Pairing::half, 0.0).isIdentity(0.0));
}

TEST(Rotation, TransposeIsInverseIsNegativePosition) {
    const auto f = table(32);
    for (Pairing p : {Pairing::interleaved, Pairing::half}) {
        for (double m : {1.0, 5.0, 123.0, 40000.0}) {
            const Eigen::MatrixXd r = rotation_matrix(f, p, m);
            EXPECT_TRUE(r.transpose().isApprox(rotation_matrix(f, p, -m), 1e-13));
            EXPECT_TRUE(r.transpose().isApprox(r.inverse(), 1e-12));
            EXPECT_TRUE((r.transpose() * r).isIdentity(1e-13));
        }
    }
}

TEST(Rotation, CounterClockwise) {
    // RoFormer's [[cos, -sin], [sin, cos]]: (1, 0) turns towards +y for a small positive angle.
    const auto f = table(2);
    Eigen::VectorXd x(2);
    x << 1.0, 0.0;
    const Eigen::VectorXd y = rotate(f, Pairing::interleaved, x, 1.0);
    EXPECT_NEAR(y[0], std::cos(1.0), 1e-15);
    EXPECT_NEAR(y[1], std::sin(1.0), 1e-15);
}

TEST(Rotation, ElementwiseMatrixAndComplexFormsAgree) {
    for (Pairing p : {Pairing::interleaved, Pairing::half}) {
        for (double fraction : {1.0, 0.25, 0.5}) {
            const auto f = table(64, 10000.0, fraction);
            const Eigen::VectorXd x = rope::test::random_normal_vector(64, 3);
            for (double m : {0.0, 3.0, 77.0, 65535.0}) {
                const Eigen::VectorXd a = rotate(f, p, x, m);
                const Eigen::VectorXd b = rotation_matrix(f, p, m) * x;
                const Eigen::VectorXd c = rotate_complex(f, p, x, m);
                const Eigen::VectorXd d = rotate_with_layouts(f, p, p, x, m);
                EXPECT_LT((a - b).cwiseAbs().maxCoeff(), 1e-13);
                EXPECT_LT((a - c).cwiseAbs().maxCoeff(), 1e-13);
                EXPECT_LT((a - d).cwiseAbs().maxCoeff(), 1e-13);
            }
        }
    }
}

TEST(Rotation, PartialRotaryPassesTheRestThrough) {
    const auto f = table(64, 10000.0, 0.25);
    ASSERT_EQ(f.rotated_dims, 16);
    const Eigen::VectorXd x = rope::test::random_normal_vector(64, 4);
    const Eigen::VectorXd y = rotate(f, Pairing::half, x, 9.0);
    EXPECT_EQ(y.tail(48), x.tail(48));
    EXPECT_NE(y.head(16), x.head(16));
    // frequencies use the rotated dims as d: theta_1 = base^(-2/16)
    EXPECT_DOUBLE_EQ(f.theta[1], 1.0 / std::pow(10000.0, 2.0 / 16.0));
}

TEST(Rotation, ScoreDependsOnRelativePositionOnly) {
    for (Pairing p : {Pairing::interleaved, Pairing::half}) {
        const auto f = table(128);
        const Eigen::VectorXd q = rope::test::random_normal_vector(128, 5), k = rope::test::random_normal_vector(128, 6);
        for (double shift : {1.0, 10.0, 1000.0, 100000.0}) {
            for (auto [m, n] : {std::pair{0.0, 5.0}, {3.0, 3.0}, {100.0, 17.0}}) {
                const double s0 = attention_score(f, p, q, m, k, n);
                EXPECT_NEAR(attention_score(f, p, q, m + shift, k, n + shift), s0, 1e-9) << m << " " << n;
                // <R(m)q, R(n)k> = <q, R(n-m)k>
                EXPECT_NEAR(q.dot(rotate(f, p, k, n - m)), s0, 1e-9);
            }
        }
    }
}

TEST(Rotation, LayoutsAgreeUpToPermutation) {
    const int d = 16;
    const auto f = table(d);
    const Eigen::VectorXd x = rope::test::random_normal_vector(d, 7);
    const std::vector<int> perm = half_from_interleaved_permutation(d, d);
    Eigen::VectorXd x_half(d);
    for (int j = 0; j < d; ++j) x_half[j] = x[perm[j]];
    for (double m : {1.0, 2.0, 50.0}) {
        const Eigen::VectorXd yi = rotate(f, Pairing::interleaved, x, m);
        const Eigen::VectorXd yh = rotate(f, Pairing::half, x_half, m);
        for (int j = 0; j < d; ++j) EXPECT_NEAR(yh[j], yi[perm[j]], 1e-14);
    }
}

TEST(Rotation, MixedLayoutsBreakTheRelativeProperty) {
    const int d = 64;
    const auto f = table(d);
    const Eigen::VectorXd q = rope::test::random_normal_vector(d, 8), k = rope::test::random_normal_vector(d, 9);
    auto score = [&](Pairing table_layout, Pairing vector_layout, double m, double n) {
        return rotate_with_layouts(f, table_layout, vector_layout, q, m)
            .dot(rotate_with_layouts(f, table_layout, vector_layout, k, n));
    };
    // matched: shift-invariant
    EXPECT_NEAR(score(Pairing::half, Pairing::half, 10, 15), score(Pairing::half, Pairing::half, 110, 115), 1e-9);
    // mixed (cos/sin laid out interleaved, rotate_half on the vector): not shift-invariant, and
    // not even norm-preserving
    const double a = score(Pairing::interleaved, Pairing::half, 10, 15);
    const double b = score(Pairing::interleaved, Pairing::half, 110, 115);
    EXPECT_GT(std::abs(a - b), 1e-3);
    EXPECT_GT(std::abs(rotate_with_layouts(f, Pairing::interleaved, Pairing::half, q, 10).norm() - q.norm()), 1e-6);
}

TEST(Rotation, BatchEqualsSingleVectorForm) {
    for (Pairing p : {Pairing::interleaved, Pairing::half}) {
        const auto f = table(32, 10000.0, 0.5);
        const int rows = 300;
        Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> in(rows, 32), out(rows, 32);
        for (int r = 0; r < rows; ++r) in.row(r) = rope::test::random_normal_vector(32, 100 + r).transpose();
        BatchRotator rotator(f, p, 1.25);
        const std::int64_t first = 999'990;
        rotator.rotate_rows(in.data(), out.data(), rows, first);
        for (int r = 0; r < rows; ++r) {
            const Eigen::VectorXd expect = rotate(f, p, in.row(r).transpose(), static_cast<double>(first + r), 1.25);
            EXPECT_LT((out.row(r).transpose() - expect).cwiseAbs().maxCoeff(), 1e-13) << r;
        }
    }
}

// The d = 4 rotate_half example printed in the teaching material (seed 002): rows of
// [[1,2,3,4],[4,5,6,7],[7,8,9,10]] at positions 0, 1, 2, half-split layout, base 10000.
TEST(TeachingMaterial, RotateHalfExampleD4) {
    const auto f = table(4);
    const double rows[3][4] = {{1, 2, 3, 4}, {4, 5, 6, 7}, {7, 8, 9, 10}};
    const double printed[3][4] = {
        {1.0000, 2.0000, 3.0000, 4.0000}, {-2.8876, 4.9298, 6.6077, 7.0496}, {-11.0967, 7.7984, 2.6198, 10.1580}};
    for (int m = 0; m < 3; ++m) {
        const Eigen::VectorXd x = Eigen::Map<const Eigen::VectorXd>(rows[m], 4);
        const Eigen::VectorXd y = rotate(f, Pairing::half, x, m);
        for (int j = 0; j < 4; ++j) EXPECT_NEAR(y[j], printed[m][j], 0.6e-4) << m << "," << j;
    }
}

// Token 3, d = 512 (seed 001): the first ten rotation angles, in degrees, as printed there.
TEST(TeachingMaterial, Token3AnglesD512) {
    const auto f = table(512);
    const double printed[10] = {171.8873, 165.8131, 159.9536, 154.3011, 148.8483,
                                143.5883, 138.5141, 133.6192, 128.8973, 124.3423};
    for (int i = 0; i < 10; ++i) {
        const double degrees = wrap_angle(3.0 * f.theta[i]) * 180.0 / kPi;
        EXPECT_NEAR(degrees, printed[i], 0.6e-4) << i;
    }
}
