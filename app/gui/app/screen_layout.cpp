#include "gui/app/screen_layout.hpp"

#include <imgui.h>
#include <imgui_internal.h>

#include <nlohmann/json.hpp>
#include <utility>
#include <variant>
#include <vector>

#include "figures/registry.hpp"
#include "gui/app/app.hpp"
#include "plot/label_placer.hpp"

namespace rope::gui {

namespace {

// The targets of the frame being laid out (the UI thread's alone).
std::vector<std::pair<std::string, ImRect>>& targets() {
    static std::vector<std::pair<std::string, ImRect>> noted;
    return noted;
}

nlohmann::json rect_json(float x0, float y0, float x1, float y1, float unit) {
    return nlohmann::json::array({x0 / unit, y0 / unit, (x1 - x0) / unit, (y1 - y0) / unit});
}
nlohmann::json rect_json(const plot::Rect& r, plot::Vec2 origin, float unit) {
    return rect_json(origin.x + r.x0, origin.y + r.y0, origin.x + r.x1, origin.y + r.y1, unit);
}

// The windows drawn in the last frame (Active until the next frame begins), front first (Dear ImGui keeps them back to front).
template <typename Visit>
void shown_windows_front_first(Visit visit) {
    const ImGuiContext& g = *ImGui::GetCurrentContext();
    for (int i = g.Windows.Size - 1; i >= 0; --i) {
        ImGuiWindow* w = g.Windows[i];
        if (w->Active && !w->Hidden && !visit(*w)) return;
    }
}

bool is_panel_window(const ImGuiWindow& w) { return std::string_view(w.Name).rfind("##panel", 0) == 0; }

nlohmann::json panel_json(const PanelView& p, const plot::TextMeasure& measure, float unit) {
    const plot::Vec2 origin{p.screen.x0, p.screen.y0};
    nlohmann::json plots = nlohmann::json::array(), texts = nlohmann::json::array();
    for (const figures::PlotGeometry& g : p.result.plots) {
        const auto& descriptors = p.figure->plots;
        const bool main = g.tag >= 0 && g.tag < static_cast<int>(descriptors.size()) &&
                          descriptors[static_cast<std::size_t>(g.tag)].role == figures::PlotRole::main;
        plots.push_back({{"name", g.name}, {"role", main ? "main" : "other"}, {"model", g.model == 1 ? "b" : "a"},
                         {"area", rect_json(g.area, origin, unit)}, {"frame", rect_json(g.frame, origin, unit)}});
    }
    for (const plot::Command& c : p.result.list.commands)
        if (const auto* t = std::get_if<plot::TextCmd>(&c); t && !t->text.empty())
            texts.push_back({{"text", t->text}, {"size", t->size / unit}, {"box", rect_json(plot::text_box(*t, measure), origin, unit)}});
    return {{"figure", std::string(p.figure->name)}, {"picture", rect_json(p.screen.x0, p.screen.y0, p.screen.x1, p.screen.y1, unit)},
            {"plots", plots}, {"texts", texts}};
}

}  // namespace

void note_target(const std::string& name) { targets().emplace_back(name, ImRect(ImGui::GetItemRectMin(), ImGui::GetItemRectMax())); }

void forget_targets() { targets().clear(); }

std::string layout_report(const App& app, float unit) {
    if (!(unit > 0)) unit = 1;
    const ImGuiIO& io = ImGui::GetIO();
    nlohmann::json windows = nlohmann::json::array(), panels = nlohmann::json::array(), noted = nlohmann::json::object();
    shown_windows_front_first([&](const ImGuiWindow& w) {
        if (!is_panel_window(w))
            windows.push_back({{"name", w.Name},
                               {"rect", rect_json(w.Pos.x, w.Pos.y, w.Pos.x + w.Size.x, w.Pos.y + w.Size.y, unit)},
                               {"scroll", w.Scroll.y / unit},
                               {"child", (w.Flags & ImGuiWindowFlags_ChildWindow) != 0}});
        return true;
    });
    for (const auto& [name, r] : targets()) noted[name] = rect_json(r.Min.x, r.Min.y, r.Max.x, r.Max.y, unit);
    for (const PanelView& p : app.panels().views)
        if (p.shown) panels.push_back(panel_json(p, app.ui().measure, unit));
    const nlohmann::json report = {{"frame", rect_json(0, 0, io.DisplaySize.x, io.DisplaySize.y, unit)},
                                   {"scale", app.state().ui_scale / unit},
                                   {"windows", windows},
                                   {"targets", noted},
                                   {"lesson", {{"step", app.state().lesson_step()}, {"asking", app.state().asking()},
                                               {"guess", app.state().guess_choice}}},
                                   {"drawer", app.state().drawer_open},
                                   {"presenting", app.state().presentation},
                                   {"compact", app.state().compact()},
                                   {"narrow", app.state().narrow},
                                   {"touch", app.state().touch},
                                   {"panels", panels}};
    return report.dump();
}

bool scrolls_at(plot::Vec2 p) {
    bool scrolls = false;
    shown_windows_front_first([&](const ImGuiWindow& top) {
        if (!top.Rect().Contains(ImVec2(p.x, p.y))) return true;  // not under the finger: the next one
        for (const ImGuiWindow* w = &top; w && !is_panel_window(*w); w = w->ParentWindow)
            if (w->ScrollMax.y > 0 && !(w->Flags & ImGuiWindowFlags_NoScrollWithMouse)) scrolls = true;
        return false;
    });
    return scrolls;
}

bool zooms_at(const App& app, plot::Vec2 p) {
    for (const PanelView& v : app.panels().views) {
        if (!v.shown || !v.figure->wheel_zooms) continue;
        for (const figures::PlotGeometry& g : v.result.plots)
            if (g.area.contains({p.x - v.screen.x0, p.y - v.screen.y0})) return true;
    }
    return false;
}

bool flips_at(const App& app, plot::Vec2 p) {
    const AppState& state = app.state();
    if (!state.compact() || state.presentation || state.drawer_open) return false;
    bool flips = false;
    shown_windows_front_first([&](const ImGuiWindow& top) {
        if (!top.Rect().Contains(ImVec2(p.x, p.y))) return true;
        const std::string_view name(top.RootWindow ? top.RootWindow->Name : top.Name);
        if (name == "##pages") flips = true;
        for (const PanelView& v : app.panels().views)  // the panel's header: above its picture
            if (v.shown && is_panel_window(top) && top.Rect().Contains(ImVec2(v.screen.x0, v.screen.y0)) && p.y < v.screen.y0) flips = true;
        return false;
    });
    return flips;
}

bool types_at(plot::Vec2 p) {
    for (const auto& [name, r] : targets())
        if (name.rfind("type:", 0) == 0 && r.Contains(ImVec2(p.x, p.y))) return true;
    return false;
}

bool drawer_can_open(const App& app) {
    if (app.state().drawer_open) return false;
    const ImGuiWindow* bar = ImGui::FindWindowByName("##bar");
    return bar && bar->Active && !bar->Hidden;
}

}  // namespace rope::gui
