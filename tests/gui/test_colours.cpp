// Colours everyone reads. Colour-vision deficiencies are simulated with the matrices of Machado,
// Oliveira & Fernandes (2009) at severity 1.0, applied to linear RGB; distances are Euclidean in
// OKLab (Ottosson 2020), where 0.08 is a difference one sees at a glance between two thin lines.
// Claims checked:
//  - every theme's series colours, accent, marker and text are >= 0.08 apart under normal vision,
//    protanopia, deuteranopia and tritanopia, and every line has >= 3:1 contrast on the plot
//    (series, accent and marker >= 4.5:1 in the high-contrast theme);
//  - in greyscale, series that share a dash pattern differ in lightness by >= 0.09;
//  - in every figure, the curves of one legend pass the same two checks (colour apart under every
//    simulation; dash or greyscale lightness apart);
//  - the sequential map rises in lightness, the diverging one falls away from its centre on both
//    sides, the cyclic one ends where it starts;
//  - the ImGui controls (text, slider track and grab, checkbox frame and mark, buttons) have >= 3:1
//    contrast (4.5:1 for text) against what they sit on, in the dark, light and high-contrast themes;
//  - every text colour of each theme (the figures' text and tick labels, the controls' text and
//    section titles, the error line) is >= 4.5:1 against everything the theme draws it on, and every
//    line, mark and frame (axes and the heatmap's frame, outlines, slider grabs, check marks, the
//    keyboard focus, scrollbar grabs) >= 3:1 (WCAG 2.2 1.4.3 and 1.4.11).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "figures/registry.hpp"
#include "gui/app/ui_theme.hpp"
#include "plot/colormap.hpp"
#include "plot/style.hpp"

using namespace rope;

namespace {

using Vec3 = std::array<double, 3>;
using Mat3 = std::array<Vec3, 3>;

constexpr double kApart = 0.08;          // OKLab distance between two colours told apart at a glance
constexpr double kGreyApart = 0.09;      // OKLab lightness between two same-dash lines in greyscale

enum class Vision { normal, protanopia, deuteranopia, tritanopia };
constexpr Vision kVisions[] = {Vision::normal, Vision::protanopia, Vision::deuteranopia, Vision::tritanopia};
const char* name(Vision v) {
    switch (v) {
        case Vision::protanopia: return "protanopia";
        case Vision::deuteranopia: return "deuteranopia";
        case Vision::tritanopia: return "tritanopia";
        default: return "normal vision";
    }
}

// Machado, Oliveira & Fernandes 2009, Table 1, severity 1.0 (linear RGB in, linear RGB out).
Mat3 simulation(Vision v) {
    switch (v) {
        case Vision::protanopia:
            return {{{0.152286, 1.052583, -0.204868}, {0.114503, 0.786281, 0.099216}, {-0.003882, -0.048116, 1.051998}}};
        case Vision::deuteranopia:
            return {{{0.367322, 0.860646, -0.227968}, {0.280085, 0.672501, 0.047413}, {-0.011820, 0.042940, 0.968881}}};
        case Vision::tritanopia:
            return {{{1.255528, -0.076749, -0.178779}, {-0.078411, 0.930809, 0.147602}, {0.004733, 0.691367, 0.303900}}};
        default: return {{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};
    }
}

double linear(double c) { return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4); }

// An sRGB colour with alpha drawn over an opaque background (blending in sRGB, as cairo and the
// window's framebuffer do).
plot::Color over(plot::Color c, plot::Color bg) {
    return {c.r * c.a + bg.r * (1 - c.a), c.g * c.a + bg.g * (1 - c.a), c.b * c.a + bg.b * (1 - c.a), 1};
}

Vec3 oklab(plot::Color c, Vision v) {
    const Vec3 in{linear(c.r), linear(c.g), linear(c.b)};
    const Mat3 m = simulation(v);
    Vec3 rgb{};
    for (int i = 0; i < 3; ++i)
        rgb[i] = std::clamp(m[i][0] * in[0] + m[i][1] * in[1] + m[i][2] * in[2], 0.0, 1.0);
    const double l = std::cbrt(0.4122214708 * rgb[0] + 0.5363325363 * rgb[1] + 0.0514459929 * rgb[2]);
    const double mm = std::cbrt(0.2119034982 * rgb[0] + 0.6806995451 * rgb[1] + 0.1073969566 * rgb[2]);
    const double s = std::cbrt(0.0883024619 * rgb[0] + 0.2817188376 * rgb[1] + 0.6299787005 * rgb[2]);
    return {0.2104542553 * l + 0.7936177850 * mm - 0.0040720468 * s, 1.9779984951 * l - 2.4285922050 * mm + 0.4505937099 * s,
            0.0259040371 * l + 0.7827717662 * mm - 0.8086757660 * s};
}

double distance(plot::Color a, plot::Color b, Vision v) {
    const Vec3 x = oklab(a, v), y = oklab(b, v);
    return std::sqrt((x[0] - y[0]) * (x[0] - y[0]) + (x[1] - y[1]) * (x[1] - y[1]) + (x[2] - y[2]) * (x[2] - y[2]));
}

// Two dash lengths one tells apart: both solid, or lengths within a factor of 1.6 look alike.
bool same_dash(float a, float b) {
    if (a <= 0 || b <= 0) return a <= 0 && b <= 0;
    return std::max(a, b) / std::min(a, b) < 1.6f;
}

double luminance(plot::Color c) { return 0.2126 * linear(c.r) + 0.7152 * linear(c.g) + 0.0722 * linear(c.b); }
// The OKLab lightness of the colour printed in grey (same luminance, no chroma).
double grey_lightness(plot::Color c) { return std::cbrt(luminance(c)); }

// WCAG 2 contrast ratio.
double contrast(plot::Color a, plot::Color b) {
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

plot::Color hex(unsigned v) { return {(v >> 16 & 0xff) / 255.f, (v >> 8 & 0xff) / 255.f, (v & 0xff) / 255.f, 1}; }
plot::Color color(ImVec4 c) { return {c.x, c.y, c.z, c.w}; }
std::string text(plot::Color c) {
    char b[32];
    std::snprintf(b, sizeof b, "#%02X%02X%02X", static_cast<int>(std::lround(c.r * 255)), static_cast<int>(std::lround(c.g * 255)),
                  static_cast<int>(std::lround(c.b * 255)));
    return b;
}

const plot::ThemeId kThemes[] = {plot::ThemeId::dark, plot::ThemeId::light, plot::ThemeId::high_contrast};
const char* name(plot::ThemeId t) { return plot::theme_name(t); }

struct Named {
    std::string name;
    plot::Color color;
};

// Every two colours >= kApart under every simulated vision; failures name both colours.
void expect_apart(const std::vector<Named>& colours, const std::string& where) {
    for (std::size_t i = 0; i < colours.size(); ++i)
        for (std::size_t j = i + 1; j < colours.size(); ++j)
            for (Vision v : kVisions) {
                const double d = distance(colours[i].color, colours[j].color, v);
                EXPECT_GE(d, kApart) << where << ": " << colours[i].name << " " << text(colours[i].color) << " and "
                                     << colours[j].name << " " << text(colours[j].color) << " under " << name(v);
            }
}

}  // namespace

// The colour science against numbers from /usr/bin/python3 + numpy (the same published matrices,
// computed independently by tests/reference/colour_reference.py): Okabe-Ito orange E69F00 against
// sky blue 56B4E9, and single colours.
TEST(Colours, SimulationMatchesNumpy) {
    const plot::Color orange = hex(0xE69F00), sky = hex(0x56B4E9);
    EXPECT_NEAR(distance(orange, sky, Vision::normal), 0.2712590957, 1e-6);
    EXPECT_NEAR(distance(orange, sky, Vision::protanopia), 0.2390610180, 1e-6);
    EXPECT_NEAR(distance(orange, sky, Vision::deuteranopia), 0.2625182308, 1e-6);
    EXPECT_NEAR(distance(orange, sky, Vision::tritanopia), 0.2621990793, 1e-6);
    const Vec3 blue = oklab(hex(0x0072B2), Vision::normal);
    EXPECT_NEAR(blue[0], 0.53192852, 1e-6);
    EXPECT_NEAR(blue[1], -0.05745911, 1e-6);
    EXPECT_NEAR(blue[2], -0.11806825, 1e-6);
    const Vec3 vermillion_d = oklab(hex(0xD55E00), Vision::deuteranopia);
    EXPECT_NEAR(vermillion_d[0], 0.63604728, 1e-6);
    EXPECT_NEAR(vermillion_d[2], 0.13023074, 1e-6);
    const Vec3 purple_t = oklab(hex(0xCC79A7), Vision::tritanopia);
    EXPECT_NEAR(purple_t[1], 0.11720191, 1e-6);
    const Vec3 green_p = oklab(hex(0x009E73), Vision::protanopia);
    EXPECT_NEAR(green_p[2], 0.04742256, 1e-6);
    EXPECT_NEAR(contrast(hex(0x0072B2), hex(0xFFFFFF)), 5.185446346, 1e-6);
}

TEST(Colours, EveryThemesPaletteIsApartUnderEveryColourVision) {
    for (plot::ThemeId id : kThemes) {
        const plot::Theme t = plot::theme_by_id(id);
        std::vector<Named> set;
        for (std::size_t i = 0; i < t.series.size(); ++i) set.push_back({"series " + std::to_string(i), t.series[i]});
        set.push_back({"accent", t.accent});
        set.push_back({"marker", t.marker});
        set.push_back({"text", t.text});
        expect_apart(set, name(id));
    }
}

TEST(Colours, EveryLineContrastsWithThePlot) {
    for (plot::ThemeId id : kThemes) {
        const plot::Theme t = plot::theme_by_id(id);
        const double least = id == plot::ThemeId::high_contrast ? 4.5 : 3.0;
        std::vector<Named> lines;
        for (std::size_t i = 0; i < t.series.size(); ++i) lines.push_back({"series " + std::to_string(i), t.series[i]});
        lines.push_back({"accent", t.accent});
        lines.push_back({"marker", t.marker});
        for (const Named& l : lines) {
            EXPECT_GE(contrast(l.color, t.plot_fill), least) << name(id) << " " << l.name << " " << text(l.color);
            EXPECT_GE(contrast(l.color, t.background), least) << name(id) << " " << l.name << " " << text(l.color);
        }
        // the ramp of ordered curves: 3:1 in every theme
        for (int k = 0; k <= 20; ++k) {
            const plot::Color c = plot::ramp_color(t, k / 20.0);
            EXPECT_GE(contrast(c, t.plot_fill), 3.0) << name(id) << " ramp at " << k / 20.0 << " " << text(c);
            EXPECT_GE(contrast(c, t.background), 3.0) << name(id) << " ramp at " << k / 20.0 << " " << text(c);
        }
    }
}

// A greyscale print keeps two curves apart by their dash or by their lightness. The current curve
// (accent) is solid.
TEST(Colours, SeriesSharingADashDifferInGrey) {
    for (plot::ThemeId id : kThemes) {
        const plot::Theme t = plot::theme_by_id(id);
        std::vector<std::pair<plot::Color, float>> lines;
        for (std::size_t i = 0; i < t.series.size(); ++i) lines.push_back({t.series[i], t.series_dash[i]});
        lines.push_back({t.accent, 0.0f});
        for (std::size_t i = 0; i < lines.size(); ++i)
            for (std::size_t j = i + 1; j < lines.size(); ++j) {
                if (!same_dash(lines[i].second, lines[j].second)) continue;
                EXPECT_GE(std::abs(grey_lightness(lines[i].first) - grey_lightness(lines[j].first)), kGreyApart)
                    << name(id) << ": " << text(lines[i].first) << " and " << text(lines[j].first) << " share dash "
                    << lines[i].second;
            }
    }
}

TEST(Colours, SequentialMapRisesInLightness) {
    const plot::ColormapTable& table = plot::colormap_table(plot::ColormapId::sequential);
    auto lightness = [&](int i) { return oklab({table[i][0] / 255.f, table[i][1] / 255.f, table[i][2] / 255.f, 1}, Vision::normal)[0]; };
    // never darker than the entry before (beyond 8-bit rounding), and rising over every 4 entries
    for (int i = 1; i < 256; ++i) EXPECT_GE(lightness(i), lightness(i - 1) - 0.001) << "entry " << i;
    for (int i = 4; i < 256; ++i) EXPECT_GT(lightness(i), lightness(i - 4)) << "entry " << i;
    EXPECT_GE(lightness(255) - lightness(0), 0.5);
}

TEST(Colours, DivergingMapFallsAwayFromItsCentre) {
    const plot::ColormapTable& table = plot::colormap_table(plot::ColormapId::diverging);
    auto lightness = [&](int i) { return oklab({table[i][0] / 255.f, table[i][1] / 255.f, table[i][2] / 255.f, 1}, Vision::normal)[0]; };
    for (int i = 1; i < 128; ++i) EXPECT_GT(lightness(i), lightness(i - 1)) << "entry " << i;
    for (int i = 129; i < 256; ++i) EXPECT_LT(lightness(i), lightness(i - 1)) << "entry " << i;
}

// An angle of +179 degrees and one of -179 degrees are 2 degrees apart: the cyclic map must show
// them alike, so its ends meet and no step along it (across the seam included) jumps.
TEST(Colours, CyclicMapEndsWhereItStarts) {
    const plot::Color start = plot::colormap_color(plot::ColormapId::cyclic, 0.0);
    const plot::Color end = plot::colormap_color(plot::ColormapId::cyclic, 1.0);
    EXPECT_LT(distance(start, end, Vision::normal), 1e-6);
    const double near_plus = plot::colormap_position(plot::ColormapId::cyclic, 179.0, -180.0, 180.0);
    const double near_minus = plot::colormap_position(plot::ColormapId::cyclic, -179.0, -180.0, 180.0);
    EXPECT_LT(distance(plot::colormap_color(plot::ColormapId::cyclic, near_plus),
                       plot::colormap_color(plot::ColormapId::cyclic, near_minus), Vision::normal),
              0.03);
    double largest_step = 0;
    for (int i = 0; i < 512; ++i)
        largest_step = std::max(largest_step, distance(plot::colormap_color(plot::ColormapId::cyclic, i / 512.0),
                                                       plot::colormap_color(plot::ColormapId::cyclic, (i + 1) / 512.0),
                                                       Vision::normal));
    EXPECT_LT(largest_step, 0.02);
    // and it is a map, not one colour: half way round (an angle of 0 against one of 180) is far off
    const plot::Color half = plot::colormap_color(plot::ColormapId::cyclic, 0.5);
    EXPECT_GT(distance(start, half, Vision::normal), 0.2);
}

namespace {

struct LegendLine {
    std::string label;
    plot::Color color;  // over the plot fill
    float dash = 0;
    bool reference = false;  // drawn in the text colour (the unscaled or A/B reference), told apart by dash
};

// The legends of a figure: a legend entry is a short horizontal sample line (24-26 px at scale 1)
// followed by its label (Plot::finish, why::legend_row); consecutive entries form one legend. Swatches (bands, width >= 8) are no lines.
std::vector<std::vector<LegendLine>> legends(const plot::DisplayList& list, const plot::Theme& t, float scale) {
    std::vector<std::vector<LegendLine>> out;
    std::size_t next_row = 0;  // where the next row of the current legend would start
    for (std::size_t i = 0; i + 1 < list.commands.size(); ++i) {
        const auto* line = std::get_if<plot::PolylineCmd>(&list.commands[i]);
        const auto* label = std::get_if<plot::TextCmd>(&list.commands[i + 1]);
        const float line_length = line && line->points.size() == 2 ? line->points[1].x - line->points[0].x : 0;
        const bool row = line && label && line->points.size() == 2 && line->points[0].y == line->points[1].y &&
                         line_length >= 20 * scale && line_length <= 30 * scale && label->pos.x > line->points[1].x;
        if (!row) continue;
        if (out.empty() || i != next_row) out.emplace_back();
        next_row = i + 2;
        if (line->width >= 8 * scale) continue;
        const bool reference = line->color.r == t.text.r && line->color.g == t.text.g && line->color.b == t.text.b;
        out.back().push_back({label->text, over(line->color, t.plot_fill), line->dash / scale, reference});
    }
    return out;
}

ParamSet state(std::vector<std::pair<std::string, std::string>> sets) {
    ParamSet p;
    for (const auto& [k, v] : sets) p.set(k, v);
    p.validate();
    return p;
}

}  // namespace

// Each figure as the panels build it, in each theme: the curves of one legend are apart in colour
// under every simulated vision, and in greyscale by dash or lightness.
TEST(Colours, EveryFiguresLegendIsApartUnderEveryColourVisionAndInGrey) {
    const std::vector<ParamSet> states = {
        state({}),
        state({{"scaling", "yarn"}, {"factor", "8"}, {"compare", "linear,ntk,dynamic,yarn,llama3,longrope"},
               {"compare_to", "llama-3.1-8b"}, {"max_position", "4096"}, {"max_distance", "4096"}}),
        state({{"scaling", "llama3"}, {"factor", "8"}, {"compare", "linear,ntk,dynamic,yarn,llama3,longrope"}})};
    int legends_checked = 0;
    std::set<std::string> with_legends;
    for (plot::ThemeId id : kThemes)
        for (const ParamSet& params : states)
            for (const figures::FigureDescriptor* figure : figures::all_figures()) {
                figures::FigureCache cache;
                figures::FigureRequest r;
                r.figure = figure;
                r.width = 1600;  // large enough for every legend to show its labels
                r.height = 1000;
                r.style.theme = plot::theme_by_id(id);
                const figures::FigureResult built = figures::build_figure(r, params, cache);
                for (const std::vector<LegendLine>& legend : legends(built.list, r.style.theme, r.style.scale)) {
                    ++legends_checked;
                    with_legends.insert(std::string(figure->name));
                    const std::string where = std::string(name(id)) + " " + std::string(figure->name);
                    std::vector<Named> coloured;
                    for (const LegendLine& l : legend)
                        if (!l.reference) coloured.push_back({"'" + l.label + "'", l.color});
                    expect_apart(coloured, where);
                    for (std::size_t i = 0; i < legend.size(); ++i)
                        for (std::size_t j = i + 1; j < legend.size(); ++j) {
                            const LegendLine &a = legend[i], &b = legend[j];
                            if (!same_dash(a.dash, b.dash)) continue;
                            EXPECT_GE(std::abs(grey_lightness(a.color) - grey_lightness(b.color)), kGreyApart)
                                << where << ": '" << a.label << "' and '" << b.label << "' share dash " << a.dash
                                << " and lightness in grey";
                        }
                }
            }
    EXPECT_GE(legends_checked, 30);  // the parser found the legends
    for (const char* figure : {"sweep", "precision", "pairing", "context", "sinusoidal"})
        EXPECT_EQ(with_legends.count(figure), 1u) << figure << ": no legend found";
}

// The controls in every theme: WCAG 2 contrast of what a user must find against what it sits on.
TEST(Colours, ControlsContrastInEveryTheme) {
    for (plot::ThemeId id : kThemes) {
        const ImGuiStyle s = gui::ui_style(id, 1.0f);
        auto col = [&](ImGuiCol c, plot::Color under) { return over(color(s.Colors[c]), under); };
        const plot::Color window = color(s.Colors[ImGuiCol_WindowBg]);
        const plot::Color frame = col(ImGuiCol_FrameBg, window), frame_active = col(ImGuiCol_FrameBgActive, window);
        const std::string where = name(id);
        EXPECT_GT(s.FrameBorderSize, 0.0f) << where << ": frames need their outline";
        // slider track and checkbox frame: their outline against the window
        EXPECT_GE(contrast(col(ImGuiCol_Border, window), window), 3.0) << where << " frame outline";
        EXPECT_GE(contrast(col(ImGuiCol_SliderGrab, frame), frame), 3.0) << where << " slider grab on its track";
        EXPECT_GE(contrast(col(ImGuiCol_SliderGrabActive, frame_active), frame_active), 3.0) << where << " dragged grab";
        EXPECT_GE(contrast(col(ImGuiCol_CheckMark, frame), frame), 3.0) << where << " check mark";
        // buttons: outlined like frames; their text readable on each state
        for (ImGuiCol b : {ImGuiCol_Button, ImGuiCol_ButtonHovered, ImGuiCol_ButtonActive, ImGuiCol_Header, ImGuiCol_HeaderHovered})
            EXPECT_GE(contrast(col(ImGuiCol_Text, col(b, window)), col(b, window)), 4.5) << where << " text on button colour " << b;
        for (plot::Color under : {window, frame, frame_active})
            EXPECT_GE(contrast(col(ImGuiCol_Text, under), under), 4.5) << where << " text";
        EXPECT_GE(contrast(col(ImGuiCol_TextDisabled, window), window), 4.5) << where << " section titles";
        EXPECT_GE(contrast(color(gui::ui_error_text(id)), window), 4.5) << where << " error text";
    }
}

namespace {

// A colour as drawn (over what it is drawn on) and the least contrast WCAG asks of it there.
struct ColourPair {
    std::string what, on;  // "text", "button"
    plot::Color colour, under;
    double least;  // 4.5 text, 3 a line, a mark or a frame (and text of 18 pt, 24 px, or more)
};

constexpr double kText = 4.5, kNonText = 3.0;

// Every pair a theme draws: the figures' colours on the figure background and inside the axes, the
// controls' colours (ui_style) on each of their own backgrounds. ImGui blends a translucent colour
// over what is under it; so does this.
std::vector<ColourPair> theme_pairs(plot::ThemeId id) {
    const plot::Theme t = plot::theme_by_id(id);
    const ImGuiStyle s = gui::ui_style(id, 1.0f);
    std::vector<ColourPair> pairs;
    for (const auto& [on, under] : {std::pair{"figure background", t.background}, std::pair{"plot area", over(t.plot_fill, t.background)}}) {
        pairs.push_back({"figure text", on, t.text, under, kText});
        pairs.push_back({"tick labels (muted)", on, t.muted, under, kText});
        pairs.push_back({"axes, ticks and the heatmap's frame", on, t.axis, under, kNonText});
        pairs.push_back({"controls' text (panel headers)", on, color(s.Colors[ImGuiCol_Text]), under, kText});
    }
    const plot::Color window = color(s.Colors[ImGuiCol_WindowBg]);
    auto bg = [&](ImGuiCol c) { return over(color(s.Colors[c]), window); };
    const std::pair<const char*, ImGuiCol> text_grounds[] = {
        {"window", ImGuiCol_WindowBg},        {"child window", ImGuiCol_ChildBg},       {"popup and tooltip", ImGuiCol_PopupBg},
        {"field", ImGuiCol_FrameBg},          {"hovered field", ImGuiCol_FrameBgHovered}, {"active field", ImGuiCol_FrameBgActive},
        {"button", ImGuiCol_Button},          {"hovered button", ImGuiCol_ButtonHovered}, {"pressed button", ImGuiCol_ButtonActive},
        {"header", ImGuiCol_Header},          {"hovered header", ImGuiCol_HeaderHovered}, {"active header", ImGuiCol_HeaderActive},
        {"title bar", ImGuiCol_TitleBg},      {"active title bar", ImGuiCol_TitleBgActive}, {"collapsed title bar", ImGuiCol_TitleBgCollapsed},
        {"menu bar", ImGuiCol_MenuBarBg},     {"tab", ImGuiCol_Tab},                    {"hovered tab", ImGuiCol_TabHovered},
        {"current tab", ImGuiCol_TabActive},  {"unfocused tab", ImGuiCol_TabUnfocused}, {"unfocused current tab", ImGuiCol_TabUnfocusedActive},
        {"table header", ImGuiCol_TableHeaderBg}, {"table row", ImGuiCol_TableRowBg}, {"other table row", ImGuiCol_TableRowBgAlt},
        {"selected text", ImGuiCol_TextSelectedBg},
    };
    for (const auto& [on, c] : text_grounds) {
        const plot::Color under = c == ImGuiCol_TextSelectedBg ? over(color(s.Colors[c]), bg(ImGuiCol_FrameBgActive)) : bg(c);
        pairs.push_back({"text", on, over(color(s.Colors[ImGuiCol_Text]), under), under, kText});
    }
    // section titles, the lesson's and the presenter's notes, a field's hint
    for (ImGuiCol c : {ImGuiCol_WindowBg, ImGuiCol_ChildBg, ImGuiCol_PopupBg, ImGuiCol_FrameBg})
        pairs.push_back({"muted text (TextDisabled)", c == ImGuiCol_FrameBg ? "field" : c == ImGuiCol_PopupBg ? "popup" : "window",
                         color(s.Colors[ImGuiCol_TextDisabled]), bg(c), kText});
    pairs.push_back({"error line", "window", color(gui::ui_error_text(id)), window, kText});
    // what a user must find: outlines, the grab on its track, the check mark in its box, the focus
    pairs.push_back({"outline (Border)", "window", over(color(s.Colors[ImGuiCol_Border]), window), window, kNonText});
    pairs.push_back({"slider grab", "field", color(s.Colors[ImGuiCol_SliderGrab]), bg(ImGuiCol_FrameBg), kNonText});
    pairs.push_back({"dragged slider grab", "active field", color(s.Colors[ImGuiCol_SliderGrabActive]), bg(ImGuiCol_FrameBgActive), kNonText});
    pairs.push_back({"check mark", "field", color(s.Colors[ImGuiCol_CheckMark]), bg(ImGuiCol_FrameBg), kNonText});
    pairs.push_back({"check mark", "hovered field", color(s.Colors[ImGuiCol_CheckMark]), bg(ImGuiCol_FrameBgHovered), kNonText});
    pairs.push_back({"keyboard focus (NavHighlight)", "window", color(s.Colors[ImGuiCol_NavHighlight]), window, kNonText});
    pairs.push_back({"keyboard focus (NavHighlight)", "button", color(s.Colors[ImGuiCol_NavHighlight]), bg(ImGuiCol_Button), kNonText});
    const plot::Color track = bg(ImGuiCol_ScrollbarBg);
    pairs.push_back({"scrollbar grab", "scrollbar", over(color(s.Colors[ImGuiCol_ScrollbarGrab]), track), track, kNonText});
    return pairs;
}

}  // namespace

// Issue 63: every text colour at least 4.5:1 against what it is drawn on, every line, mark and frame
// at least 3:1, in every theme; a failure names the theme, the pair and both colours.
TEST(Colours, EveryThemeColourPairContrasts) {
    for (plot::ThemeId id : kThemes) {
        const std::vector<ColourPair> pairs = theme_pairs(id);
        EXPECT_GE(pairs.size(), 40u);
        for (const ColourPair& p : pairs) {
            const double ratio = contrast(p.colour, p.under);
            EXPECT_GE(ratio, p.least) << name(id) << ": " << p.what << " " << text(p.colour) << " on " << p.on << " "
                                      << text(p.under) << " is " << ratio << ":1, below " << p.least << ":1";
        }
    }
}

namespace {

// Where a text's middle is, roughly (its width is not known here: a little way in from its anchor).
plot::Vec2 text_middle(const plot::TextCmd& t) {
    plot::Vec2 p = t.pos;
    const float along = t.halign == plot::HAlign::left ? 0.3f * t.size : t.halign == plot::HAlign::right ? -0.3f * t.size : 0;
    const float across = t.valign == plot::VAlign::top ? 0.5f * t.size : t.valign == plot::VAlign::bottom ? -0.5f * t.size : 0;
    if (t.vertical) p.x += across, p.y -= along;
    else p.x += along, p.y += across;
    return p;
}

// The colour under a point after the commands before `end` are drawn on `background`: filled
// rectangles and circles (a label's box, a cell); nullopt over a heatmap's image (its cells vary).
std::optional<plot::Color> colour_under(const plot::DisplayList& list, std::size_t end, plot::Vec2 p, plot::Color background) {
    std::optional<plot::Color> under = background;
    for (std::size_t i = 0; i < end; ++i) {
        if (const auto* r = std::get_if<plot::RectCmd>(&list.commands[i]); r && r->fill.a > 0 && r->rect.contains(p))
            under = over(r->fill, under.value_or(background));
        else if (const auto* c = std::get_if<plot::CircleCmd>(&list.commands[i]);
                 c && c->fill.a > 0 && std::hypot(p.x - c->center.x, p.y - c->center.y) <= c->radius)
            under = over(c->fill, under.value_or(background));
        else if (const auto* m = std::get_if<plot::ImageCmd>(&list.commands[i]); m && m->rect.contains(p))
            under.reset();
    }
    return under;
}

}  // namespace

// Every figure's words in every theme, as the panels build them: each text at least 4.5:1 against
// what it is drawn on (3:1 at 24 px, 18 pt, or more), whatever colour it is in (a curve's label in
// the curve's hue, a marker's tag in the marker's, a cell's number on the cell).
TEST(Colours, EveryFiguresTextContrastsWithWhatItIsOn) {
    int texts = 0;
    const std::vector<ParamSet> states = {
        state({}), state({{"scaling", "yarn"}, {"factor", "8"}, {"compare", "linear,ntk,dynamic,yarn,llama3,longrope"}, {"compare_to", "llama-3.1-8b"}})};
    for (plot::ThemeId id : kThemes) {
        std::set<std::string> reported;
        for (const ParamSet& params : states)
        for (const figures::FigureDescriptor* figure : figures::all_figures()) {
            figures::FigureCache cache;
            figures::FigureRequest r;
            r.figure = figure;
            r.width = 1600;
            r.height = 1000;
            r.style.theme = plot::theme_by_id(id);
            const figures::FigureResult built = figures::build_figure(r, params, cache);
            const plot::DisplayList& list = built.list;
            for (std::size_t i = 0; i < list.commands.size(); ++i) {
                const auto* t = std::get_if<plot::TextCmd>(&list.commands[i]);
                if (!t) continue;
                const std::optional<plot::Color> under = colour_under(list, i, text_middle(*t), r.style.theme.background);
                if (!under) continue;
                ++texts;
                const double least = t->size >= 24 * r.style.scale ? kNonText : kText;
                const plot::Color shown = over(t->color, *under);
                const double ratio = contrast(shown, *under);
                if (ratio < least && reported.insert(std::string(figure->name) + text(shown) + text(*under)).second)
                    ADD_FAILURE() << name(id) << " " << figure->name << ": '" << t->text << "' in " << text(shown) << " on "
                                  << text(*under) << " is " << ratio << ":1, below " << least << ":1";
            }
        }
    }
    EXPECT_GT(texts, 1000);
}
