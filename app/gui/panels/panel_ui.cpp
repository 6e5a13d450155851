#include "gui/panels/panel_ui.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "gui/app/ui_helpers.hpp"

namespace rope::gui {

namespace {

// The header widgets a figure asks for, as Dear ImGui widgets (ids unique within the panel).
// The header widgets a figure asks for, as Dear ImGui widgets (ids unique within the panel). A widget
// asked to go on the same line goes there only if it fits; else it starts the next line, so large
// type (presentation mode) or a narrow panel never clips an option at the panel's edge.
class ImGuiHeaderControls : public figures::HeaderControls {
public:
    void text(std::string_view text, std::string_view tooltip) override {
        place(ImGui::CalcTextSize(text.data(), text.data() + text.size()).x);
        ImGui::TextUnformatted(text.data(), text.data() + text.size());
        item_tooltip(std::string(tooltip).c_str());
    }
    bool button(std::string_view label, std::string_view tooltip) override {
        const std::string l(label);
        place(ImGui::CalcTextSize(l.c_str()).x + ImGui::GetStyle().FramePadding.x * 2);
        ImGui::PushID(next_id_++);
        const bool pressed = ImGui::SmallButton(l.c_str());
        ImGui::PopID();
        item_tooltip(std::string(tooltip).c_str());
        return pressed;
    }
    bool checkbox(std::string_view label, bool& on, std::string_view tooltip) override {
        const std::string l(label);
        place(ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(l.c_str()).x);
        ImGui::PushID(next_id_++);
        const bool changed = ImGui::Checkbox(l.c_str(), &on);
        ImGui::PopID();
        item_tooltip(std::string(tooltip).c_str());
        return changed;
    }
    int combo(std::string_view preview, const std::vector<std::string>& items, int current, float width_em,
              std::string_view tooltip) override {
        place(ImGui::GetFontSize() * width_em);
        ImGui::PushID(next_id_++);
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * width_em);
        int picked = -1;
        if (ImGui::BeginCombo("##combo", std::string(preview).c_str())) {
            for (int i = 0; i < static_cast<int>(items.size()); ++i)
                if (ImGui::Selectable(items[static_cast<std::size_t>(i)].c_str(), i == current)) picked = i;
            ImGui::EndCombo();
        }
        ImGui::PopID();
        item_tooltip(std::string(tooltip).c_str());
        return picked;
    }
    void same_line(float gap_em) override {
        same_line_ = true;
        gap_ = gap_em > 0 ? ImGui::GetFontSize() * gap_em : ImGui::GetStyle().ItemSpacing.x;
    }

private:
    void place(float width) {
        if (!same_line_) return;
        same_line_ = false;
        const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
        if (ImGui::GetItemRectMax().x + gap_ + width <= right) ImGui::SameLine(0, gap_);
    }

    int next_id_ = 0;
    bool same_line_ = false;
    float gap_ = 0;
};

// A panel's edits, made at once on the parameters as the panel saw them (each on top of the one
// before in the same frame) and asked for as values: the App validates each and makes it one undo step.
figures::EditParams edit_for(const AppState& state, Actions& out, const std::string& gesture) {
    auto seen = std::make_shared<ParamSet>(state.params());
    return [seen, &out, gesture](const std::string& label, const std::function<void(ParamSet&)>& change) {
        ParamSet next = *seen;
        try {
            change(next);
        } catch (const ParamError& e) {
            out.ask(act::SetStatus{std::string("Refused: ") + e.what(), true});
            return;
        }
        *seen = next;
        out.ask(act::ChangeParams{label, std::move(next), gesture});
    };
}

// The pair / position under the mouse, for the other panels' highlight.
void note_linked(const AppState& state, const figures::PlotGeometry& g, double x, double y, Actions& out) {
    using figures::AxisRole;
    const int pairs = state.params().config().rotated_pairs();
    act::HoverLinked linked;
    auto as_pair = [&](double v) {
        const long i = std::lround(v);
        if (i >= 0 && i < pairs) linked.pair = static_cast<int>(i);
    };
    auto as_position = [&](double v) {
        if (v >= 0 && v < static_cast<double>(state.params()[P::max_position]) + 1)
            linked.position = static_cast<std::int64_t>(std::floor(v));
    };
    if (g.x_role == AxisRole::pair) as_pair(x);
    if (g.y_role == AxisRole::pair) as_pair(y);
    if (g.x_role == AxisRole::position) as_position(x);
    else if (g.y_role == AxisRole::position) as_position(y);
    if (linked.pair >= 0 || linked.position >= 0) out.ask(linked);
}

// A readout as the room reads it: without the words on what a click, a double-click or a drag does
// there (figures write them on a line of their own, or in a closing "(click: ...)").
std::string without_gesture_words(const std::string& text) {
    auto gesture = [](std::string_view words) {
        if (!words.empty() && words.front() == '(') words.remove_prefix(1);
        for (std::string_view g : {"click", "double-click", "drag"})
            if (words.substr(0, g.size()) == g) return true;
        return false;
    };
    std::string out;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        std::string line = text.substr(start, end - start);
        start = end + 1;
        const std::size_t open = line.rfind(" (");
        if (open != std::string::npos && line.back() == ')' && gesture(std::string_view(line).substr(open + 1))) line.erase(open);
        if (line.empty() || gesture(line)) continue;
        out += (out.empty() ? "" : "\n") + line;
    }
    return out;
}

// The readout of plot g at (x, y): of model B's numbers in B's picture, each named when both are shown.
std::string plot_readout(const AppState& state, figures::FigureCache& cache, const PanelView& panel, figures::PanelContext& ctx,
                         const figures::PlotGeometry& g, double x, double y) {
    if (!panel.figure->readout) return "";
    const bool two = std::any_of(panel.result.plots.begin(), panel.result.plots.end(), [](const auto& p) { return p.model == 1; });
    if (!two) return panel.figure->readout(ctx, g, x, y);
    std::optional<ParamSet> b;
    if (g.model == 1) {
        try {
            b = state.params().compared_model();
        } catch (const std::invalid_argument&) {
            return "";
        }
        if (!b) return "";
    }
    figures::PanelContext own{b ? *b : state.params(), cache, ctx.figure, ctx.edit, ctx.grab};
    const std::string text = panel.figure->readout(own, g, x, y);
    return text.empty() ? text : (g.model == 1 ? "B: " : "A: ") + text;
}

}  // namespace

void panel_header_options(const AppState& state, figures::FigureCache& cache, PanelView& panel, Actions& out) {
    if (!panel.figure->header) return;
    ImGuiHeaderControls controls;
    figures::PanelContext ctx{state.params(), cache, panel.result, edit_for(state, out, ""), panel.grab};
    panel.figure->header(ctx, controls);
}

void panel_pointer(const AppState& state, figures::FigureCache& cache, PanelView& panel, int index, Actions& out) {
    const ImGuiIO& io = ImGui::GetIO();
    figures::PointerInput in;
    in.local = {io.MousePos.x - panel.screen.x0, io.MousePos.y - panel.screen.y0};
    in.hovered = ImGui::IsItemHovered();
    in.held = ImGui::IsItemActive();
    in.pressed = ImGui::IsItemActivated();
    in.double_clicked = in.hovered && ImGui::IsMouseDoubleClicked(0);
    if (in.held) in.delta = {io.MouseDelta.x, io.MouseDelta.y};
    if (in.hovered) in.wheel = io.MouseWheel;
    // Model B's picture (two pictures: figures/compared_build.hpp) takes clicks and drags as A's does
    // (position and pair are shared), through its own plots; its readout reads B's numbers.
    const figures::FigureResult* target = &panel.result;
    figures::FigureResult b_plots;
    for (const figures::PlotGeometry& g : panel.result.plots)
        if (g.model == 1 && g.area.contains(in.local)) {
            for (const figures::PlotGeometry& h : panel.result.plots)
                if (h.model == 1) b_plots.plots.push_back(h);
            target = &b_plots;
            break;
        }
    figures::PanelContext ctx{state.params(), cache, *target, edit_for(state, out, "pointer:" + std::to_string(index)), panel.grab};
    if (panel.figure->pointer && (in.hovered || in.held)) panel.figure->pointer(ctx, in);
    if (!in.hovered || in.held) return;
    // the readout and the linked note of the plot under the pointer
    for (const figures::PlotGeometry& g : panel.result.plots) {
        if (!g.area.contains(in.local)) continue;
        const double x = g.x_at(in.local.x), y = g.y_at(in.local.y);
        note_linked(state, g, x, y, out);
        const std::string text = state.presentation ? without_gesture_words(plot_readout(state, cache, panel, ctx, g, x, y))
                                                    : plot_readout(state, cache, panel, ctx, g, x, y);
        if (!text.empty()) {
            ImGui::BeginTooltip();
            ImGui::TextUnformatted(text.c_str());
            ImGui::EndTooltip();
        }
        return;
    }
}

bool draw_linked_highlight(const AppState& state, const PanelView& panel, ImDrawList* draw, ImVec2 origin) {
    using figures::AxisRole;
    const AppState::Linked& h = state.linked;
    if (h.pair < 0 && h.position < 0) return false;
    const int commands_before = draw->CmdBuffer.Size, vertices_before = draw->VtxBuffer.Size;
    const ImU32 color = to_imgui_color(plot::theme_by_id(effective_theme(state)).accent, 0.78f);
    const float w = std::max(1.5f, 2.0f * state.ui_scale);
    for (const figures::PlotGeometry& g : panel.result.plots) {
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
            if (g.x_role == AxisRole::pair) vertical(h.pair);
            if (g.y_role == AxisRole::pair) horizontal(h.pair);
        }
        if (h.position >= 0) {
            if (g.x_role == AxisRole::position) vertical(static_cast<double>(h.position) + 0.5);
            if (g.y_role == AxisRole::position) horizontal(static_cast<double>(h.position) + 0.5);
        }
    }
    return draw->VtxBuffer.Size != vertices_before || draw->CmdBuffer.Size != commands_before;
}

}  // namespace rope::gui
