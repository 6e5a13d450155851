#include "rope/partial_layouts.hpp"

#include <cmath>
#include <stdexcept>

#include "rope/frequencies.hpp"

namespace rope {

RopeConfig layout_config(RotaryLayout layout, int dim, double fraction, double base, Pairing pairing) {
    RopeConfig c;
    c.dim = dim;
    c.base = base;
    c.rotary_fraction = fraction;
    c.pairing = pairing;
    c.scaling = layout == RotaryLayout::proportional ? Scaling::proportional : Scaling::none;
    return c;
}

LayoutTable layout_table(RotaryLayout layout, int dim, double fraction, double base, Pairing pairing) {
    if (dim < 2 || dim % 2 != 0) throw std::invalid_argument("layout_table: dim must be even and >= 2");
    if (!(fraction > 0.0 && fraction <= 1.0)) throw std::invalid_argument("layout_table: fraction must be in (0, 1]");
    if (!(base > 1.0) || !std::isfinite(base)) throw std::invalid_argument("layout_table: base must be finite and > 1");
    const RopeConfig c = layout_config(layout, dim, fraction, base, pairing);
    LayoutTable t;
    t.angle = Eigen::VectorXd::Zero(dim);
    t.partner.assign(static_cast<std::size_t>(dim), -1);
    t.sign.assign(static_cast<std::size_t>(dim), 0.0);
    const int span = c.rotated_dims();  // the dims the pairing spans: d (proportional) or r (partial)
    const int live = c.rotating_pairs();
    if (span < 2 || live < 1) return t;  // nothing turns: identity
    // inv_freq of the layout: d/2 entries with a zero tail (proportional), r/2 entries (partial)
    const Eigen::VectorXd theta = layout == RotaryLayout::proportional ? proportional_frequencies(base, span, live)
                                                                        : base_frequencies(base, span);
    for (int i = 0; i < span / 2; ++i) {
        const int a = pairing == Pairing::half ? i : 2 * i;
        const int b = pairing == Pairing::half ? i + span / 2 : 2 * i + 1;
        t.angle[a] = t.angle[b] = theta[i];
        t.partner[static_cast<std::size_t>(a)] = b;
        t.partner[static_cast<std::size_t>(b)] = a;
        t.sign[static_cast<std::size_t>(a)] = -1.0;  // rotate_half: cat(-x2, x1)
        t.sign[static_cast<std::size_t>(b)] = 1.0;
    }
    return t;
}

LayoutTable transplanted_table(RotaryLayout pairs_of, RotaryLayout values_of, int dim, double fraction, double base,
                               Pairing pairing) {
    LayoutTable t = layout_table(pairs_of, dim, fraction, base, pairing);
    const LayoutTable values = layout_table(values_of, dim, fraction, base, pairing);
    // the turning frequencies of `values_of`, pair by pair: the first dim of each pair carries them
    std::vector<double> turning;
    for (int j = 0; j < dim; ++j)
        if (values.sign[static_cast<std::size_t>(j)] < 0 && values.angle[j] > 0.0) turning.push_back(values.angle[j]);
    std::size_t next = 0;
    for (int j = 0; j < dim; ++j) {
        if (t.sign[static_cast<std::size_t>(j)] >= 0) continue;  // set with the pair's first dim
        const double value = next < turning.size() ? turning[next++] : 0.0;
        t.angle[j] = value;
        t.angle[t.partner[static_cast<std::size_t>(j)]] = value;
    }
    return t;
}

Eigen::VectorXd rotate_with_tables(const LayoutTable& angles, const LayoutTable& partners, const Eigen::VectorXd& x,
                                   double m) {
    const Eigen::Index d = x.size();
    if (angles.angle.size() != d || static_cast<Eigen::Index>(partners.partner.size()) != d)
        throw std::invalid_argument("rotate_with_tables: tables and vector differ in length");
    Eigen::VectorXd out(d);
    for (Eigen::Index j = 0; j < d; ++j) {
        const int p = partners.partner[static_cast<std::size_t>(j)];
        const double swapped = p < 0 ? 0.0 : partners.sign[static_cast<std::size_t>(j)] * x[p];
        const double a = m * angles.angle[j];
        // a dim that does not turn keeps its value (cos 0 = 1, sin 0 = 0): most of a proportional
        // head, so the panel's score curves skip three quarters of the sines at Gemma 4's numbers
        out[j] = a == 0.0 ? x[j] : x[j] * std::cos(a) + swapped * std::sin(a);
    }
    return out;
}

double score_with_tables(const LayoutTable& angles, const LayoutTable& partners, const Eigen::VectorXd& q, double m,
                         const Eigen::VectorXd& k, double n) {
    return rotate_with_tables(angles, partners, q, m).dot(rotate_with_tables(angles, partners, k, n));
}

}  // namespace rope
