#include "plot/colormap.hpp"

#include <algorithm>
#include <cmath>

namespace rope::plot {

namespace {

double to_srgb(double linear) {
    linear = std::clamp(linear, 0.0, 1.0);
    return linear <= 0.0031308 ? 12.92 * linear : 1.055 * std::pow(linear, 1 / 2.4) - 0.055;
}

// OKLab -> linear sRGB (Björn Ottosson's published matrices).
std::array<double, 3> oklab_to_linear(double L, double a, double b) {
    const double l_ = L + 0.3963377774 * a + 0.2158037573 * b;
    const double m_ = L - 0.1055613458 * a - 0.0638541728 * b;
    const double s_ = L - 0.0894841775 * a - 1.2914855480 * b;
    const double l = l_ * l_ * l_, m = m_ * m_ * m_, s = s_ * s_ * s_;
    return {4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s, -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
            -0.0041960863 * l - 0.7034186147 * m + 1.7076147010 * s};
}

bool in_gamut(const std::array<double, 3>& rgb) {
    return std::all_of(rgb.begin(), rgb.end(), [](double v) { return v >= -1e-6 && v <= 1 + 1e-6; });
}

// A colour of lightness L, hue h and chroma up to C: where sRGB cannot show chroma C, the chroma is
// reduced (not the channels clipped), so the lightness the map promises is the lightness shown.
std::array<std::uint8_t, 4> oklch(double L, double C, double hue_degrees) {
    const double h = hue_degrees * kPi / 180.0;
    auto at = [&](double c) { return oklab_to_linear(L, c * std::cos(h), c * std::sin(h)); };
    if (!in_gamut(at(C))) {
        double lo = 0, hi = C;
        for (int i = 0; i < 30; ++i) {
            const double mid = (lo + hi) / 2;
            (in_gamut(at(mid)) ? lo : hi) = mid;
        }
        C = lo;
    }
    const std::array<double, 3> rgb = at(C);
    auto byte = [](double v) { return static_cast<std::uint8_t>(std::lround(to_srgb(v) * 255.0)); };
    return {byte(rgb[0]), byte(rgb[1]), byte(rgb[2]), 255};
}

ColormapTable make_cyclic() {
    ColormapTable t{};
    for (int i = 0; i < 256; ++i) {
        const double u = -1.0 + 2.0 * i / 256.0;  // angle / pi, from -1 (at -pi) round to +1
        // twilight-like: near white at +-pi (chroma 0 there, so the hue may jump across the seam),
        // dark violet at 0, blue for negative and orange-red for positive angles. Lightness is
        // symmetric, hue tells the sign.
        const double L = 0.60 - 0.33 * std::cos(kPi * u);
        const double C = 0.14 * std::sqrt(std::max(0.0, 1.0 - u * u));
        const double hue = 300.0 + 95.0 * u;
        t[i] = oklch(L, C, hue);
    }
    return t;
}

ColormapTable make_sequential() {
    ColormapTable t{};
    for (int i = 0; i < 256; ++i) {
        const double u = i / 255.0;
        const double L = 0.27 + 0.66 * u;               // monotone lightness
        const double C = 0.10 + 0.06 * std::sin(kPi * u);
        const double hue = 290.0 - 190.0 * u;           // violet -> teal -> yellow
        t[i] = oklch(L, C, hue);
    }
    return t;
}

ColormapTable make_diverging() {
    ColormapTable t{};
    for (int i = 0; i < 256; ++i) {
        const double u = i / 255.0 * 2 - 1;  // -1 .. 1
        const double a = std::abs(u);
        const double L = 0.96 - 0.50 * a;
        const double C = 0.16 * std::sqrt(a);
        const double hue = u < 0 ? 255.0 : 28.0;  // blue below the centre, red above
        t[i] = oklch(L, C, hue);
    }
    return t;
}

}  // namespace

const ColormapTable& colormap_table(ColormapId id) {
    static const ColormapTable cyclic = make_cyclic();
    static const ColormapTable sequential = make_sequential();
    static const ColormapTable diverging = make_diverging();
    switch (id) {
        case ColormapId::cyclic: return cyclic;
        case ColormapId::diverging: return diverging;
        default: return sequential;
    }
}

double colormap_position(ColormapId id, double value, double vmin, double vmax) {
    double t = (value - vmin) / (vmax - vmin);
    if (!std::isfinite(t)) return 0.0;
    if (id == ColormapId::cyclic) return t - std::floor(t);
    return std::clamp(t, 0.0, 1.0);
}

Color fade_color() {
    static const Color grey = [] {
        const auto g = oklch(0.60, 0, 0);  // no chroma: the neutral grey
        return Color{g[0] / 255.0f, g[1] / 255.0f, g[2] / 255.0f, 1};
    }();
    return grey;
}

Color faded(Color c, double weight) {
    const Color g = fade_color();
    // The colour keeps weight^2 of its strength: a cell whose mean phasor is half as long as one
    // phasor has a quarter of its power in one direction. Residual stripes of cells where a pair
    // turns more than once (|mean| < 0.22) stay under 5% colour instead of 22%.
    const double clamped = std::clamp(weight, 0.0, 1.0);
    const float w = static_cast<float>(clamped * clamped);
    return {g.r + w * (c.r - g.r), g.g + w * (c.g - g.g), g.b + w * (c.b - g.b), c.a};
}

Color colormap_color(ColormapId id, double t) {
    const ColormapTable& table = colormap_table(id);
    // Texel centres at (i + 0.5) / 256, as the GPU samples them; cyclic wraps across the seam.
    double x = t * 256.0 - 0.5;
    int i0 = static_cast<int>(std::floor(x));
    const double f = x - i0;
    int i1 = i0 + 1;
    if (id == ColormapId::cyclic) {
        i0 = (i0 % 256 + 256) % 256;
        i1 = (i1 % 256 + 256) % 256;
    } else {
        i0 = std::clamp(i0, 0, 255);
        i1 = std::clamp(i1, 0, 255);
    }
    Color c;
    c.r = static_cast<float>((table[i0][0] * (1 - f) + table[i1][0] * f) / 255.0);
    c.g = static_cast<float>((table[i0][1] * (1 - f) + table[i1][1] * f) / 255.0);
    c.b = static_cast<float>((table[i0][2] * (1 - f) + table[i1][2] * f) / 255.0);
    c.a = 1;
    return c;
}

// Whichever ink has the larger WCAG 2 contrast on the fill (relative luminance of linear sRGB: a
// mid teal takes the dark ink, 6:1, where white would read at 3:1).
Color ink_on(Color fill) {
    const auto linear = [](float v) { return v <= 0.04045f ? v / 12.92f : std::pow((v + 0.055f) / 1.055f, 2.4f); };
    const Color dark{0.05f, 0.05f, 0.08f, 1}, white{1, 1, 1, 1};
    const auto luminance = [&](Color c) { return 0.2126f * linear(c.r) + 0.7152f * linear(c.g) + 0.0722f * linear(c.b); };
    const float under = luminance(fill);
    return (under + 0.05f) / (luminance(dark) + 0.05f) > 1.05f / (under + 0.05f) ? dark : white;
}

}  // namespace rope::plot
