#include "gui/panels.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <future>
#include <string>

#include "gui/export_dialog.hpp"
#include "gui/imgui_canvas.hpp"
#include "lessons/lessons.hpp"
#include "plot/ticks.hpp"
#include "rope/number_format.hpp"
#include "rope/phasor.hpp"
#include "rope/rotation.hpp"

namespace rope::gui {

AppState::AppState() {
    for (std::size_t i = 0; i < panels.size(); ++i) panels[i].id = figures::kAllFigures[i];
}

void AppState::set_status(std::string text, bool error) {
    status = std::move(text);
    status_error = error;
}

namespace {

// Applies one change to a copy, validates it like --set, and keeps it only if it holds.
template <typename Change>
bool apply_change(AppState& state, Change&& change) {
    ParamSet next = state.params;
    try {
        change(next);
        next.validate();
    } catch (const ParamError& e) {
        state.set_status(std::string("Refused: ") + e.what(), true);
        return false;
    }
    if (next == state.params) return true;
    state.params = next;
    if (state.status_error) state.set_status("");
    return true;
}

}  // namespace

bool AppState::apply(const std::string& key, const std::string& text) {
    return apply_change(*this, [&](ParamSet& p) { p.set(key, text); });
}

bool AppState::apply_number(const std::string& key, double value) {
    return apply_change(*this, [&](ParamSet& p) { p.set_number(key, value); });
}

plot::ThemeId effective_theme(const AppState& state) {
    return state.presentation ? plot::ThemeId::high_contrast : state.theme;
}

plot::Style screen_style(const AppState& state) {
    plot::Style s;
    s.theme = plot::theme_by_id(effective_theme(state));
    s.scale = state.ui_scale;
    s.tick_font = 16;
    s.label_font = 18;
    s.title_font = 21;
    s.line_width = 2.6f;
    s.draw_titles = false;  // the panel header carries the title on screen
    // Software GL (llvmpipe) pays for every covered pixel: the window is cleared to the theme's
    // background once, and panels draw no background of their own.
    s.fill_plot_area = false;
    return s;
}

figures::FigureId lesson_panel(const AppState& state) {
    const auto& steps = lessons::builtin_lesson().steps;
    if (state.lesson_step < 0 || state.lesson_step >= static_cast<int>(steps.size())) return figures::FigureId::vectors;
    return steps[state.lesson_step].panel;
}

void AppState::go_to_lesson_step(int step) {
    const auto& steps = lessons::builtin_lesson().steps;
    if (step < 0 || step >= static_cast<int>(steps.size())) {
        lesson_step = -1;
        return;
    }
    lesson_step = step;
    params = lessons::step_parameters(steps[step]);
    page = page_of_panel(static_cast<int>(steps[step].panel));
    if (maximized >= 0 && page_of_panel(maximized) != page) maximized = -1;
    playing = false;
    set_status("Lesson step " + std::to_string(step + 1) + " of " + std::to_string(steps.size()) + ": " + steps[step].title);
}

void item_tooltip(const char* text) {
    if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28.0f);
        ImGui::TextUnformatted(text);
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
}

namespace {

bool figure_current(const AppState& state, const PanelView& panel, float width, float height) {
    return panel.valid && panel.version == state.params.version() && panel.width == width && panel.height == height &&
           panel.scale == state.ui_scale && panel.theme == effective_theme(state) &&
           !(panel.figure.incomplete && panel.generation != state.cache.generation());
}

figures::FigureResult build_panel(AppState& state, const PanelView& panel, const plot::TextMeasure& measure, float width,
                                  float height) {
    figures::FigureRequest request;
    request.id = panel.id;
    request.width = width;
    request.height = height;
    request.style = screen_style(state);
    request.measure = &measure;
    request.wait_for_background = false;  // never stall a frame: slow parts fill in when ready
    try {
        return figures::build_figure(request, state.params, state.cache);
    } catch (const std::exception& e) {
        // never a crash: the panel says what went wrong (and the soak run counts it)
        figures::FigureResult failed;
        failed.list.width = width;
        failed.list.height = height;
        failed.list.text({width / 2, height / 2}, std::string("Could not draw this figure: ") + e.what(),
                         request.style.px(request.style.label_font), request.style.theme.text, plot::HAlign::center,
                         plot::VAlign::middle);
        failed.error = true;
        return failed;
    }
}

void install(AppState& state, PanelView& panel, figures::FigureResult&& figure, float width, float height) {
    if (figure.error || !plot::first_non_finite(figure.list).empty()) ++state.figure_errors;
    panel.figure = std::move(figure);
    upload_images(panel.figure.list, panel.textures);
    panel.valid = true;
    panel.version = state.params.version();
    panel.generation = panel.figure.cache_generation;
    panel.width = width;
    panel.height = height;
    panel.scale = state.ui_scale;
    panel.theme = effective_theme(state);
}

void release_figure(PanelView& panel) {
    for (HeatmapTexture& t : panel.textures) HeatmapRenderer::instance().release(t);
    panel.textures.clear();
    panel.textures.shrink_to_fit();
    panel.figure = figures::FigureResult();
    panel.valid = false;
}

// When several figures are stale (a slider moved), build them on two threads: the heaviest (the
// base sweep, five decay curves) on a worker, the rest here. The GL uploads stay on this thread.
void prebuild_stale_figures(AppState& state, const plot::TextMeasure& measure) {
    std::vector<PanelView*> stale;
    for (int i = 0; i < static_cast<int>(state.panels.size()); ++i) {
        PanelView& p = state.panels[i];
        if (state.maximized >= 0 ? state.maximized != i : page_of_panel(i) != state.page) {
            // A hidden panel whose parameters changed is rebuilt when it is shown again anyway: give
            // its display list and textures back now, so memory follows what is on screen.
            if (p.valid && p.version != state.params.version()) release_figure(p);
            continue;
        }
        if (p.width > 0 && !figure_current(state, p, p.width, p.height)) stale.push_back(&p);
    }
    if (stale.size() < 2) return;
    const FrequencyTable& f = state.cache.frequencies(state.params);  // shared by every figure: compute it once, first
    // The decay curves (the current base's and the sweep's five) are most of the work: spread them
    // over both threads first, so the figures below find them ready.
    const std::int64_t max_distance = state.params.integer("max_distance");
    const auto bases = figures::sweep_bases(state.params.real("base"));
    const bool sweep_stale = std::any_of(stale.begin(), stale.end(), [](PanelView* p) { return p->id == figures::FigureId::sweep; });
    auto warm = std::async(std::launch::async, [&] {
        state.cache.decay(f.theta, max_distance);
        if (sweep_stale) {
            state.cache.decay(base_frequencies(bases[0], f.rotated_dims), max_distance);
            state.cache.decay(base_frequencies(bases[1], f.rotated_dims), max_distance);
        }
    });
    if (sweep_stale) {
        for (int i = 2; i < 5; ++i)
            if (i != 2 || f.theta != base_frequencies(bases[2], f.rotated_dims))
                state.cache.decay(base_frequencies(bases[i], f.rotated_dims), max_distance);
    }
    warm.get();
    auto heaviest = std::find_if(stale.begin(), stale.end(), [](PanelView* p) { return p->id == figures::FigureId::sweep; });
    if (heaviest == stale.end()) heaviest = stale.begin();
    PanelView* off = *heaviest;
    stale.erase(heaviest);
    auto worker = std::async(std::launch::async, [&state, off, &measure] {
        return build_panel(state, *off, measure, off->width, off->height);
    });
    std::vector<figures::FigureResult> built;
    for (PanelView* p : stale) built.push_back(build_panel(state, *p, measure, p->width, p->height));
    figures::FigureResult off_result = worker.get();
    for (std::size_t i = 0; i < stale.size(); ++i) install(state, *stale[i], std::move(built[i]), stale[i]->width, stale[i]->height);
    install(state, *off, std::move(off_result), off->width, off->height);
}

}  // namespace

void ensure_figure(AppState& state, PanelView& panel, const plot::TextMeasure& measure, float width, float height) {
    if (figure_current(state, panel, width, height)) return;
    install(state, panel, build_panel(state, panel, measure, width, height), width, height);
}

namespace {

std::string fmt(const char* f, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

// Header options of each panel (drawn on the header line, right of the title).
void header_options(AppState& state, PanelView& panel) {
    ParamSet& p = state.params;
    switch (panel.id) {
        case figures::FigureId::vectors: {
            ImGui::TextUnformatted("shift:");
            item_tooltip("Shift both the query position m and the key position n by the same amount.");
            for (int delta : {-10, -1, 1, 10}) {
                ImGui::SameLine();
                char label[16];
                std::snprintf(label, sizeof label, "%+d##shift", delta);
                if (ImGui::SmallButton(label)) {
                    const std::int64_t m = p.integer("position") + delta, n = p.integer("key_position") + delta;
                    if (m >= 0 && n >= 0) {
                        ParamSet next = p;
                        next.set_number("position", static_cast<double>(m));
                        next.set_number("key_position", static_cast<double>(n));
                        if (m < p.integer("max_position")) state.params = next;
                    }
                }
                item_tooltip("Shift both q's position m and k's position n: the angle between them, and so the score, stays the same.");
            }
            break;
        }
        case figures::FigureId::heatmap: {
            const char* modes[] = {"angle", "cos", "sin", "unwrapped"};
            const std::string current = p.text("heatmap_mode");
            ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7.5f);
            if (ImGui::BeginCombo("##mode", current.c_str())) {
                for (const char* m : modes)
                    if (ImGui::Selectable(m, current == m)) state.apply("heatmap_mode", m);
                ImGui::EndCombo();
            }
            item_tooltip(find_param("heatmap_mode")->help.data());
            ImGui::SameLine();
            if (ImGui::SmallButton("reset zoom")) {
                ParamSet next = p;
                next.set("heatmap_from", "0");
                next.set("heatmap_to", "0");
                state.params = next;
            }
            item_tooltip("Show all positions 0 .. max_position-1 again (or double-click the heatmap). Wheel zooms, drag pans.");
            break;
        }
        case figures::FigureId::context: {
            // variants drawn beside the current one, and what "before" is (unscaled, or a preset: A/B)
            ImGui::TextUnformatted("compare:");
            item_tooltip(find_param("compare")->help.data());
            const std::vector<std::string> picked = p.choice_list("compare");
            for (std::string_view v : find_param("compare")->choices) {
                const std::string name(v);
                bool on = std::find(picked.begin(), picked.end(), name) != picked.end();
                ImGui::SameLine();
                if (ImGui::Checkbox((name + "##cmp").c_str(), &on)) {
                    std::string text;
                    for (std::string_view c : find_param("compare")->choices) {
                        const bool want = std::string(c) == name ? on : std::find(picked.begin(), picked.end(), std::string(c)) != picked.end();
                        if (want) text += (text.empty() ? "" : ",") + std::string(c);
                    }
                    state.apply("compare", text.empty() ? "none" : text);
                }
                item_tooltip(("Draw " + name + " scaling (same factor and L0) beside the current config.").c_str());
            }
            ImGui::SameLine(0, ImGui::GetFontSize());
            ImGui::TextUnformatted("vs");
            ImGui::SameLine();
            const std::string current = p.text("compare_to");
            ImGui::SetNextItemWidth(ImGui::GetFontSize() * 10);
            if (ImGui::BeginCombo("##compare_to", current == "unscaled" ? "unscaled (before)" : ("B: " + current).c_str())) {
                for (std::string_view c : find_param("compare_to")->choices)
                    if (ImGui::Selectable(std::string(c).c_str(), current == c)) state.apply("compare_to", std::string(c));
                ImGui::EndCombo();
            }
            item_tooltip(find_param("compare_to")->help.data());
            break;
        }
        default: break;
        case figures::FigureId::sweep:
        case figures::FigureId::decay: {
            bool log = p.text("decay_scale") == "log";
            if (ImGui::Checkbox(panel.id == figures::FigureId::decay ? "log distance" : "log distance##s", &log))
                state.apply("decay_scale", log ? "log" : "linear");
            item_tooltip(find_param("decay_scale")->help.data());
            break;
        }
    }
}

// What each plot's axes show, for the linked highlight: a pair index, a token position, or neither.
enum class AxisKind { other, pair, position };
struct PlotAxes {
    AxisKind x = AxisKind::other, y = AxisKind::other;
};
PlotAxes plot_axes(const std::string& name) {
    if (name == "heatmap" || name == "context_before" || name == "context_after" || name == "context_difference")
        return {AxisKind::position, AxisKind::pair};
    if (name == "sweep") return {AxisKind::other, AxisKind::pair};
    if (name == "context_ratio" || name == "context_wavelength" || name == "precision_pairs")
        return {AxisKind::pair, AxisKind::other};
    if (name == "sweep_cosine" || name == "precision_angle" || name == "precision_positions" || name == "pairing_shift")
        return {AxisKind::position, AxisKind::other};
    if (name == "scores" || name == "scores_mixed") return {AxisKind::position, AxisKind::position};
    return {};
}

// Records the pair / position under the mouse for the other panels' highlight.
void note_linked(AppState& state, const figures::PlotGeometry& g, double x, double y) {
    const PlotAxes axes = plot_axes(g.name);
    const FrequencyTable& f = state.cache.frequencies(state.params);
    auto as_pair = [&](double v) {
        const long i = std::lround(v);
        if (i >= 0 && i < f.pairs()) state.linked_next.pair = static_cast<int>(i);
    };
    auto as_position = [&](double v) {
        if (v >= 0 && v < static_cast<double>(state.params.integer("max_position")) + 1)
            state.linked_next.position = static_cast<std::int64_t>(std::floor(v));
    };
    if (axes.x == AxisKind::pair) as_pair(x);
    if (axes.y == AxisKind::pair) as_pair(y);
    if (axes.x == AxisKind::position) as_position(x);
    else if (axes.y == AxisKind::position) as_position(y);
}

void hover_readout(AppState& state, PanelView& panel, ImVec2 mouse) {
    const plot::Vec2 local{mouse.x - panel.screen.x0, mouse.y - panel.screen.y0};
    const FrequencyTable& f = state.cache.frequencies(state.params);
    for (const figures::PlotGeometry& g : panel.figure.plots) {
        if (!g.area.contains(local)) continue;
        const double x = g.x_at(local.x), y = g.y_at(local.y);
        note_linked(state, g, x, y);
        std::string text;
        if (g.name == "heatmap") {
            const int pair = static_cast<int>(std::lround(y));
            const auto position = static_cast<std::int64_t>(std::floor(x));
            if (pair < 0 || pair >= f.pairs() || position < 0) return;
            const double a = wrap_angle(position_angle(static_cast<double>(position), f.theta[pair]));
            text = "position m = " + std::to_string(position) + "\npair i = " + std::to_string(pair) +
                   "\nangle = " + fmt("%.2f°", a * 180 / kPi) + " = " + fmt("%.5f rad", a) +
                   "\nθᵢ = " + plot::readout_number(f.theta[pair], 6) + " rad/token" +
                   "\nwavelength = " + plot::readout_number(f.wavelength(pair), 6) + " tokens";
        } else if (g.name == "sweep") {
            const int pair = static_cast<int>(std::lround(y));
            if (pair < 0 || pair >= f.pairs()) return;
            const double wl = kTwoPi / base_frequencies(x, f.rotated_dims)[pair];
            const double ctx = static_cast<double>(state.params.integer("max_position"));
            text = "base = " + plot::readout_number(x, 4) + "\npair i = " + std::to_string(pair) +
                   "\nwavelength = " + plot::readout_number(wl, 5) + " tokens" +
                   "\nwavelength ÷ context = " + plot::readout_number(wl / ctx, 4) +
                   (wl <= ctx ? "\n(turns fully within the context)" : "\n(never completes a turn in the context)");
        } else if (g.name == "decay" || g.name == "sweep_decay") {
            const auto r = static_cast<std::int64_t>(std::llround(std::max(0.0, x)));
            if (r > state.params.integer("max_distance")) return;
            const auto b = state.cache.decay(f.theta, state.params.integer("max_distance"));
            const auto at = std::lower_bound(b->distance.begin(), b->distance.end(), static_cast<double>(r));
            if (at == b->distance.end()) return;
            const std::size_t i = static_cast<std::size_t>(at - b->distance.begin());
            text = "distance n − m = " + std::to_string(static_cast<long long>(*at)) + "\nbound = " + plot::readout_number(b->bound[i], 6) +
                   (g.name == "sweep_decay" ? " (current base)" : "");
        } else if (g.name == "qk") {
            text = state.params.has("key_vector") ? "drag to move k (the key)\ndouble-click: k = q again"
                                                  : "drag to move k (the key; now k = q)";
        } else if (g.name == "pair") {
            text = "(" + plot::readout_number(x, 4) + ", " + plot::readout_number(y, 4) + ")\ndrag to set the pair's vector";
        } else {
            return;
        }
        ImGui::BeginTooltip();
        ImGui::TextUnformatted(text.c_str());
        ImGui::EndTooltip();
        return;
    }
}

void figure_input(AppState& state, PanelView& panel) {
    ImGuiIO& io = ImGui::GetIO();
    const bool hovered = ImGui::IsItemHovered();
    const bool active = ImGui::IsItemActive();
    const ImVec2 mouse = io.MousePos;
    const plot::Vec2 local{mouse.x - panel.screen.x0, mouse.y - panel.screen.y0};
    ParamSet& p = state.params;

    if (panel.id == figures::FigureId::vectors) {
        const figures::PlotGeometry* g = panel.figure.plot("pair");
        if (g && active && (state.dragging_vector || (ImGui::IsMouseClicked(0) && g->area.contains(local)))) {
            state.dragging_vector = true;
            const double x = g->x_at(local.x), y = g->y_at(local.y);
            const FrequencyTable& f = state.cache.frequencies(p);
            const PairDims d = pair_dims(p.config().pairing, f.rotated_dims, static_cast<int>(p.integer("pair")));
            std::vector<double> v = p.vector();
            v[d.first] = x;
            v[d.second] = y;
            std::string text;
            for (std::size_t i = 0; i < v.size(); ++i) text += (i ? "," : "") + format_number(v[i]);
            state.apply("vector", text);
        }
        if (!active) state.dragging_vector = false;
        // the q-k view: dragging k's tip chooses the key (its pair, turned back from position n);
        // a double-click makes k = q again
        const figures::PlotGeometry* qk = panel.figure.plot("qk");
        if (qk && hovered && qk->area.contains(local) && ImGui::IsMouseDoubleClicked(0)) {
            state.dragging_key = false;
            apply_change(state, [](ParamSet& next) { next.reset("key_vector"); });
        } else if (qk && active && (state.dragging_key || (ImGui::IsMouseClicked(0) && qk->area.contains(local)))) {
            state.dragging_key = true;
            const FrequencyTable& f = state.cache.frequencies(p);
            const int pair = static_cast<int>(p.integer("pair"));
            const PairDims d = pair_dims(p.config().pairing, f.rotated_dims, pair);
            const double back = -wrap_angle(position_angle(static_cast<double>(p.integer("key_position")), f.theta[pair]));
            const double x = qk->x_at(local.x), y = qk->y_at(local.y);
            std::vector<double> k = p.key_vector();
            k[d.first] = x * std::cos(back) - y * std::sin(back);
            k[d.second] = x * std::sin(back) + y * std::cos(back);
            std::string text;
            for (std::size_t i = 0; i < k.size(); ++i) text += (i ? "," : "") + format_number(k[i]);
            state.apply("key_vector", text);
        }
        if (!active) state.dragging_key = false;
    }
    if (panel.id == figures::FigureId::heatmap) {
        const figures::PlotGeometry* g = panel.figure.plot("heatmap");
        if (!g) return;
        const std::int64_t max_position = p.integer("max_position");
        std::int64_t from = p.integer("heatmap_from"), to = p.integer("heatmap_to");
        if (to == 0 || to > max_position) to = max_position;
        auto set_range = [&](double a, double b) {
            auto lo = static_cast<std::int64_t>(std::floor(std::max(0.0, a)));
            auto hi = static_cast<std::int64_t>(std::ceil(std::min(static_cast<double>(max_position), b)));
            if (hi - lo < 8) return;  // zoomed in to a few positions at most
            ParamSet next = p;
            next.set_number("heatmap_from", static_cast<double>(lo));
            next.set_number("heatmap_to", hi >= max_position && lo == 0 ? 0.0 : static_cast<double>(hi));
            state.params = next;
        };
        if (hovered && io.MouseWheel != 0 && g->area.contains(local)) {
            const double at = g->x_at(local.x);
            const double k = std::pow(0.8, io.MouseWheel);
            set_range(at - (at - static_cast<double>(from)) * k, at + (static_cast<double>(to) - at) * k);
        }
        if (active && ImGui::IsMouseDragging(0) && io.MouseDelta.x != 0) {
            const double per_px = static_cast<double>(to - from) / g->area.width();
            double shift = -io.MouseDelta.x * per_px;
            shift = std::clamp(shift, -static_cast<double>(from), static_cast<double>(max_position - to));
            if (std::abs(shift) >= 1) set_range(static_cast<double>(from) + shift, static_cast<double>(to) + shift);
        }
        if (hovered && ImGui::IsMouseDoubleClicked(0)) {
            ParamSet next = p;
            next.set("heatmap_from", "0");
            next.set("heatmap_to", "0");
            state.params = next;
        }
    }
    if (hovered && !active) hover_readout(state, panel, mouse);
}

}  // namespace

namespace {

// The linked highlight: the hovered pair and position drawn over every plot that has them on an
// axis (an overlay on the cached figure: nothing is rebuilt while the mouse moves).
void draw_linked_highlight(const AppState& state, const PanelView& panel, ImDrawList* draw, ImVec2 origin) {
    const AppState::Linked& h = state.linked;
    if (h.pair < 0 && h.position < 0) return;
    const plot::Color a = plot::theme_by_id(effective_theme(state)).accent;
    const ImU32 color = IM_COL32(static_cast<int>(a.r * 255), static_cast<int>(a.g * 255), static_cast<int>(a.b * 255), 200);
    const float w = std::max(1.5f, 2.0f * state.ui_scale);
    for (const figures::PlotGeometry& g : panel.figure.plots) {
        const PlotAxes axes = plot_axes(g.name);
        const ImVec2 lo(origin.x + g.area.x0, origin.y + g.area.y0), hi(origin.x + g.area.x1, origin.y + g.area.y1);
        auto vertical = [&](double x) {
            if (g.x_log && x <= 0) return;
            const float px = origin.x + g.px(x, g.y_log ? g.y_min : 0).x;
            if (px >= lo.x && px <= hi.x) draw->AddLine({px, lo.y}, {px, hi.y}, color, w);
        };
        auto horizontal = [&](double y) {
            if (g.y_log && y <= 0) return;
            const float py = origin.y + g.px(g.x_log ? g.x_min : 0, y).y;
            if (py >= lo.y && py <= hi.y) draw->AddLine({lo.x, py}, {hi.x, py}, color, w);
        };
        if (h.pair >= 0) {
            if (axes.x == AxisKind::pair) vertical(h.pair);
            if (axes.y == AxisKind::pair) horizontal(h.pair);
        }
        if (h.position >= 0) {
            if (axes.x == AxisKind::position) vertical(static_cast<double>(h.position) + 0.5);
            if (axes.y == AxisKind::position) horizontal(static_cast<double>(h.position) + 0.5);
        }
    }
}

std::string subscript(long long n) {
    static const char* digits[] = {"₀", "₁", "₂", "₃", "₄", "₅", "₆", "₇", "₈", "₉"};
    const std::string plain = std::to_string(n);
    std::string out;
    for (char c : plain) out += c == '-' ? "₋" : digits[c - '0'];
    return out;
}

std::string num(double v, int digits = 5) {
    std::string s = plot::readout_number(v, digits);
    if (!s.empty() && s[0] == '-') s = "−" + s.substr(1);
    return s;
}

// The formula strip: the current numbers substituted into theta_i, m*theta_i and the rotation of
// the pair, for the hovered pair / position (linked views) or else the selected ones.
void draw_formula_strip(AppState& state, ImVec2 pos, ImVec2 size) {
    const ParamSet& p = state.params;
    const FrequencyTable& f = state.cache.frequencies(p);
    const int i = state.linked.pair >= 0 ? state.linked.pair : static_cast<int>(std::min<std::int64_t>(p.integer("pair"), f.pairs() - 1));
    const std::int64_t m = state.linked.position >= 0 ? state.linked.position : p.integer("position");
    const std::string si = subscript(i);
    const double theta = f.theta[i];
    std::string text = "θ" + si + " = " + num(p.real("base"), 7) + "^(−2·" + std::to_string(i) + "/" + std::to_string(f.rotated_dims) +
                       ") = " + num(f.original_theta[i], 6);
    if (f.theta[i] != f.original_theta[i])
        text += " → " + p.text("scaling") + " ×" + num(p.real("factor"), 4) + ": " + num(theta, 6);
    text += " rad/token     m·θ" + si + " = " + std::to_string(m) + " × " + num(theta, 6) + " = " + num(position_angle(static_cast<double>(m), theta), 7) + " rad";
    const double a = wrap_angle(position_angle(static_cast<double>(m), theta));
    text += " ≡ " + num(a, 5) + " rad (" + num(a * 180 / kPi, 4) + "°)";
    const std::vector<double> v = p.vector();
    const PairDims d = pair_dims(p.config().pairing, f.rotated_dims, i);
    const double x = v[d.first], y = v[d.second], c = std::cos(a) * f.attention_factor, sn = std::sin(a) * f.attention_factor;
    // a negative number after an operator goes in parentheses: "0.05·1 − (−0.99)·1"
    auto factor = [](double value) { return value < 0 ? "(" + num(value, 4) + ")" : num(value, 4); };
    text += "     R(m·θ" + si + ")·(x" + subscript(d.first) + ", x" + subscript(d.second) + ") = (" + num(c, 4) + "·" + factor(x) + " − " +
            factor(sn) + "·" + factor(y) + ", " + num(sn, 4) + "·" + factor(x) + " + " + factor(c) + "·" + factor(y) + ") = (" +
            num(c * x - sn * y, 5) + ", " + num(sn * x + c * y, 5) + ")";
    if (f.attention_factor != 1.0) text += "  (cos, sin × attention factor " + num(f.attention_factor, 5) + ")";
    ImGui::SetNextWindowPos(pos);
    ImGui::SetNextWindowSize(size);
    ImGui::Begin("##formula", nullptr,
                 ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoCollapse |
                     ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoBackground |
                     ImGuiWindowFlags_NoBringToFrontOnFocus);
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(text.c_str());
    ImGui::PopTextWrapPos();
    item_tooltip("The current numbers in RoPE's formulas: pair i's frequency, its angle at position m, and the rotation of the pair's two dims "
                 "(hover a pair or a position in any panel to see its numbers).");
    ImGui::End();
}

}  // namespace

void draw_panels(AppState& state, const FontSet& fonts, const plot::TextMeasure& measure, ImVec2 pos, ImVec2 size) {
    // the linked highlight shows what the mouse pointed at in the last frame
    state.linked = state.linked_next;
    state.linked_next = {};
    {
        // the formula strip along the bottom (two lines when the window is narrow)
        const float strip_h = std::round(ImGui::GetTextLineHeightWithSpacing() * (size.x < ImGui::GetFontSize() * 95 ? 2.3f : 1.4f));
        draw_formula_strip(state, {pos.x, pos.y + size.y - strip_h}, {size.x, strip_h});
        size.y -= strip_h;
    }
    const float gap = std::round(6 * state.ui_scale);
    prebuild_stale_figures(state, measure);
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoMove |
                                   ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings |
                                   ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse |
                                   ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoBackground;
    if (state.maximized < 0) {
        // the page tabs: one row of buttons above the grid
        ImGui::SetNextWindowPos(pos);
        ImGui::SetNextWindowSize({size.x, 0});
        ImGui::Begin("##pages", nullptr, flags | ImGuiWindowFlags_AlwaysAutoResize);
        for (int k = 0; k < static_cast<int>(kPages.size()); ++k) {
            const PanelPage& page = kPages[k];
            char label[96];
            if (page.count == 1) std::snprintf(label, sizeof label, "%s  (%d)", page.name, page.first + 1);
            else std::snprintf(label, sizeof label, "%s  (%d–%d)", page.name, page.first + 1, page.first + page.count);
            if (k) ImGui::SameLine();
            const bool current = state.page == k;
            if (current) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
            if (ImGui::Button(label)) state.page = k;
            if (current) ImGui::PopStyleColor();
            item_tooltip("Switch the page of panels (Tab: next page, Shift+Tab: previous; number keys maximise a panel).");
        }
        const float tabs_h = ImGui::GetWindowSize().y;
        ImGui::End();
        pos.y += tabs_h;
        size.y -= tabs_h;
    }
    const PanelPage& page = kPages[static_cast<std::size_t>(state.page)];
    for (int i = 0; i < static_cast<int>(state.panels.size()); ++i) {
        if (state.maximized >= 0 ? state.maximized != i : page_of_panel(i) != state.page) continue;
        PanelView& panel = state.panels[i];
        ImVec2 p0, p1;
        if (state.maximized == i || page.count == 1) {
            p0 = pos;
            p1 = {pos.x + size.x, pos.y + size.y};
        } else {
            const float w = (size.x - gap) / 2, h = (size.y - gap) / 2;
            const int col = (i - page.first) % 2, row = (i - page.first) / 2;
            p0 = {pos.x + col * (w + gap), pos.y + row * (h + gap)};
            p1 = {p0.x + w, p0.y + h};
        }
        ImGui::SetNextWindowPos(p0);
        ImGui::SetNextWindowSize({p1.x - p0.x, p1.y - p0.y});
        char name[32];
        std::snprintf(name, sizeof name, "##panel%d", i);
        ImGui::Begin(name, nullptr, flags);
        // header: title (double-click maximises), options, maximise button
        const ImVec2 header_min = ImGui::GetCursorScreenPos();
        ImGui::PushFont(fonts.bold());
        char title[64];
        std::snprintf(title, sizeof title, "%d  %s", i + 1, figures::figure_title(panel.id).data());
        ImGui::TextUnformatted(title);
        ImGui::PopFont();
        const bool title_double_clicked = ImGui::IsItemHovered() && ImGui::IsMouseDoubleClicked(0);
        item_tooltip("Double-click the title (or press its number key) to maximise this panel; again to restore.");
        // narrow panels (small windows, big type) put their options on a second line
        const float options_w = ImGui::GetFontSize() * (panel.id == figures::FigureId::vectors ? 13.0f
                                                        : panel.id == figures::FigureId::context ? 44.0f : 12.0f);
        const float buttons_w = ImGui::CalcTextSize("Export Maximise").x + ImGui::GetStyle().FramePadding.x * 4 +
                                ImGui::GetStyle().ItemSpacing.x * 2;
        ImGui::SameLine(0, ImGui::GetFontSize() * 1.2f);
        if (ImGui::GetContentRegionAvail().x < options_w + buttons_w) ImGui::NewLine();
        header_options(state, panel);
        const char* button = state.maximized == i ? "Restore" : "Maximise";
        ImGui::SameLine();
        const float pad = ImGui::GetStyle().FramePadding.x * 2 + ImGui::GetStyle().ItemSpacing.x;
        const float bw = ImGui::CalcTextSize(button).x + ImGui::CalcTextSize("Export").x + 2 * pad;
        ImGui::SetCursorPosX(std::max(ImGui::GetCursorPosX(), ImGui::GetWindowContentRegionMax().x - bw));
        char eid[32];
        std::snprintf(eid, sizeof eid, "Export##export%d", i);
        if (ImGui::SmallButton(eid)) open_export_dialog(state, i);
        item_tooltip("Save this figure as PNG, SVG, PDF or CSV (Ctrl+E over a panel).");
        ImGui::SameLine();
        char bid[32];
        std::snprintf(bid, sizeof bid, "%s##max%d", button, i);
        if (ImGui::SmallButton(bid) || title_double_clicked) toggle_maximized(state, i);
        item_tooltip("Maximise this panel to the whole window, or restore the four-panel view.");
        (void)header_min;
        // the figure
        const ImVec2 fig_pos = ImGui::GetCursorScreenPos();
        ImVec2 avail = ImGui::GetContentRegionAvail();
        avail.x = std::max(avail.x, 50.f);
        avail.y = std::max(avail.y, 50.f);
        ImGui::InvisibleButton("figure", avail);
        panel.screen = {fig_pos.x, fig_pos.y, fig_pos.x + avail.x, fig_pos.y + avail.y};
        figure_input(state, panel);
        ensure_figure(state, panel, measure, std::floor(avail.x), std::floor(avail.y));
        ImDrawList* draw = ImGui::GetWindowDrawList();
        if (state.lesson_step >= 0 && lesson_panel(state) == panel.id) {
            // the panel the lesson step asks people to look at
            const plot::Color a = plot::theme_by_id(effective_theme(state)).accent;
            draw->AddRect(ImVec2(p0.x + 1, p0.y + 1), ImVec2(p1.x - 1, p1.y - 1),
                          IM_COL32(static_cast<int>(a.r * 255), static_cast<int>(a.g * 255), static_cast<int>(a.b * 255), 255),
                          0, 0, std::round(3 * state.ui_scale));
        }
        draw->PushClipRect(fig_pos, {fig_pos.x + avail.x, fig_pos.y + avail.y}, true);
        replay(panel.figure.list, draw, {std::floor(fig_pos.x), std::floor(fig_pos.y)}, fonts, panel.textures);
        draw_linked_highlight(state, panel, draw, {std::floor(fig_pos.x), std::floor(fig_pos.y)});
        draw->PopClipRect();
        ImGui::End();
    }
}

}  // namespace rope::gui
