#include "plot/style.hpp"

#include <algorithm>
#include <cmath>

#include "plot/colormap.hpp"

namespace rope::plot {

namespace {
Color rgb(int r, int g, int b, float a = 1) { return {r / 255.f, g / 255.f, b / 255.f, a}; }
Color hex(unsigned v) { return rgb(static_cast<int>(v >> 16 & 0xff), static_cast<int>(v >> 8 & 0xff), static_cast<int>(v & 0xff)); }

// One dash per series slot; slots that share a dash differ in lightness in every theme (and the
// current curve, in the accent colour, is solid like series 0 but lighter or darker than it).
constexpr std::array<float, 6> kSeriesDash = {0, 12, 6, 2.5f, 12, 6};
}  // namespace

// Series order in every theme: sky blue, orange, blue, bluish green, reddish purple, vermillion
// (olive on light, where vermillion is the accent); the accent is yellow on dark backgrounds. The
// two pairs that share a dash (1 and 4, 2 and 5) differ in hue and in lightness.
Theme dark_theme() {
    Theme t;
    t.id = ThemeId::dark;
    t.background = rgb(24, 26, 32);
    t.plot_fill = rgb(30, 33, 40);
    t.text = rgb(232, 234, 240);
    t.muted = rgb(170, 176, 190);
    t.axis = rgb(150, 156, 170);
    t.grid = rgb(255, 255, 255, 0.08f);
    t.accent = hex(0xD7CB14);
    t.marker = hex(0xA06AFF);
    t.series = {hex(0x48A7DC), hex(0xE09C08), hex(0x8ACAFE), hex(0x06835F), hex(0xBE6E9A), hex(0xBB5201)};
    t.series_dash = kSeriesDash;
    t.ramp_lo = 0.39f;
    t.ramp_hi = 1.0f;
    return t;
}

Theme light_theme() {
    Theme t;
    t.id = ThemeId::light;
    t.background = rgb(255, 255, 255);
    t.plot_fill = rgb(255, 255, 255);
    t.text = rgb(20, 22, 28);
    t.muted = rgb(80, 86, 100);
    t.axis = rgb(60, 64, 74);
    t.grid = rgb(0, 0, 0, 0.09f);
    t.accent = hex(0xD45E05);
    t.marker = hex(0x963CFF);
    t.series = {hex(0x014868), hex(0x7F5600), hex(0x045E94), hex(0x078964), hex(0xBF6D9B), hex(0x454002)};
    t.series_dash = kSeriesDash;
    t.ramp_lo = 0.0f;
    t.ramp_hi = 0.57f;
    return t;
}

Theme high_contrast_theme() {
    Theme t;
    t.id = ThemeId::high_contrast;
    t.background = rgb(0, 0, 0);
    t.plot_fill = rgb(0, 0, 0);
    t.text = rgb(255, 255, 255);
    t.muted = rgb(235, 235, 235);
    t.axis = rgb(255, 255, 255);
    t.grid = rgb(255, 255, 255, 0.22f);
    t.accent = hex(0xF0E442);
    t.marker = hex(0x964BFF);
    t.series = {hex(0x3899CD), hex(0xE69F00), hex(0xAFDAFE), hex(0x56D1A3), hex(0xAA5A87), hex(0xD65F03)};
    t.series_dash = kSeriesDash;
    t.ramp_lo = 0.39f;
    t.ramp_hi = 1.0f;
    return t;
}

const char* theme_name(ThemeId id) {
    for (const ThemeName& t : kThemeNames)
        if (t.id == id) return t.name;
    return kThemeNames[0].name;
}

std::optional<ThemeId> theme_from_name(std::string_view name) {
    for (const ThemeName& t : kThemeNames)
        if (name == t.name) return t.id;
    return std::nullopt;
}

std::string theme_names(const char* separator) {
    std::string out;
    for (std::size_t i = 0; i < kThemeNames.size(); ++i) {
        if (i > 0) out += separator ? separator : i + 1 == kThemeNames.size() ? " or " : ", ";
        out += kThemeNames[i].name;
    }
    return out;
}

Theme theme_by_id(ThemeId id) {
    switch (id) {
        case ThemeId::light: return light_theme();
        case ThemeId::high_contrast: return high_contrast_theme();
        default: return dark_theme();
    }
}

double contrast_ratio(Color a, Color b) {
    const auto linear = [](double v) { return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
    const auto luminance = [&](Color c) { return 0.2126 * linear(c.r) + 0.7152 * linear(c.g) + 0.0722 * linear(c.b); };
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

Color text_shade(Color c, const Theme& theme) {
    constexpr double kText = 4.5;
    const Color end = contrast_ratio(theme.text, Color{0, 0, 0, 1}) > 10 ? Color{1, 1, 1, 1} : Color{0, 0, 0, 1};
    Color shade = c;
    for (int step = 1; step <= 50 && std::min(contrast_ratio(shade, theme.background), contrast_ratio(shade, theme.plot_fill)) < kText; ++step) {
        const float f = step / 50.0f;
        shade = {c.r + (end.r - c.r) * f, c.g + (end.g - c.g) * f, c.b + (end.b - c.b) * f, c.a};
    }
    return shade;
}

Color ramp_color(const Theme& theme, double t) {
    t = std::clamp(t, 0.0, 1.0);
    return colormap_color(ColormapId::sequential, theme.ramp_lo + (theme.ramp_hi - theme.ramp_lo) * t);
}

Style file_style(ThemeId theme) {
    Style s;
    s.theme = theme_by_id(theme);
    s.scale = 1;
    s.tick_font = 13;
    s.label_font = 15;
    s.title_font = 18;
    s.line_width = 2.2f;
    s.draw_titles = true;
    s.fill_plot_area = true;
    return s;
}

Style screen_style(ThemeId theme, float scale, bool presenting) {
    Style s;
    s.theme = theme_by_id(theme);
    s.scale = scale;
    s.tick_font = 16;
    s.label_font = 18;
    s.title_font = 21;
    // presentation mode's scale makes the tick labels 1/36 of the window's height: nothing smaller
    s.min_text = presenting ? kPresentingSmallestText : 13;
    s.presenting = presenting;
    s.line_width = 2.6f;
    s.draw_titles = false;  // the panel header carries the title on screen
    // Software GL (llvmpipe) pays for every covered pixel: the window is cleared to the theme's
    // background once, and panels draw no background of their own.
    s.fill_plot_area = false;
    return s;
}

}  // namespace rope::plot
