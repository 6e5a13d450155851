#include "plot/style.hpp"

namespace rope::plot {

namespace {
Color rgb(int r, int g, int b, float a = 1) { return {r / 255.f, g / 255.f, b / 255.f, a}; }
}  // namespace

Theme dark_theme() {
    Theme t;
    t.id = ThemeId::dark;
    t.background = rgb(24, 26, 32);
    t.plot_fill = rgb(30, 33, 40);
    t.text = rgb(232, 234, 240);
    t.muted = rgb(170, 176, 190);
    t.axis = rgb(150, 156, 170);
    t.grid = rgb(255, 255, 255, 0.08f);
    t.accent = rgb(255, 196, 61);
    t.marker = rgb(120, 220, 140);
    t.series = {rgb(88, 166, 255), rgb(255, 138, 92), rgb(130, 220, 130), rgb(220, 120, 230), rgb(250, 210, 90),
                rgb(120, 210, 230)};
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
    t.accent = rgb(214, 120, 0);
    t.marker = rgb(20, 140, 60);
    t.series = {rgb(31, 100, 200), rgb(214, 80, 30), rgb(40, 150, 60), rgb(150, 60, 170), rgb(180, 140, 0),
                rgb(0, 140, 160)};
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
    t.accent = rgb(255, 230, 0);
    t.marker = rgb(0, 255, 120);
    t.series = {rgb(0, 200, 255), rgb(255, 120, 0), rgb(0, 255, 120), rgb(255, 80, 255), rgb(255, 255, 0),
                rgb(255, 255, 255)};
    return t;
}

Theme theme_by_id(ThemeId id) {
    switch (id) {
        case ThemeId::light: return light_theme();
        case ThemeId::high_contrast: return high_contrast_theme();
        default: return dark_theme();
    }
}

}  // namespace rope::plot
