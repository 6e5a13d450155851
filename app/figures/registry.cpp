#include "figures/registry.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "figures/compared_build.hpp"
#include "figures/figure_list.hpp"

namespace rope::figures {

#define ROPE_DECLARE_FIGURE(name) const FigureDescriptor& name##_figure();
ROPE_FIGURE_LIST(ROPE_DECLARE_FIGURE)
#undef ROPE_DECLARE_FIGURE

namespace {

// The registry's own copies, numbered in list order (the index is the panel number - 1).
const std::vector<FigureDescriptor>& descriptors() {
    static const std::vector<FigureDescriptor> list = [] {
#define ROPE_LIST_FIGURE(name) name##_figure(),
        std::vector<FigureDescriptor> v = {ROPE_FIGURE_LIST(ROPE_LIST_FIGURE)};
#undef ROPE_LIST_FIGURE
        for (std::size_t i = 0; i < v.size(); ++i) {
            v[i].index = static_cast<int>(i);
            // model B (compare_to) is drawn by every figure: its own way, or as a second picture
            // (the captions name both models)
            for (const ParamId key : std::initializer_list<ParamId>{P::compare_to, P::preset})
                if ((key == P::compare_to || v[i].model_b != ModelBView::itself) &&
                    std::find(v[i].reads.begin(), v[i].reads.end(), key) == v[i].reads.end())
                    v[i].reads.push_back(key);
            if (v[i].page < 0 || v[i].page >= static_cast<int>(pages().size()) || !v[i].build)
                throw std::logic_error("figure '" + std::string(v[i].name) + "': no page or no builder");
        }
        return v;
    }();
    return list;
}

}  // namespace

std::vector<ParamId> model_and(std::initializer_list<ParamId> more) {
    std::vector<ParamId> keys = params_in(kConfigScope);
    keys.insert(keys.end(), more.begin(), more.end());
    // the title names the model (figures.hpp: figure_title); a model without RoPE gets a note naming
    // its position encoding (figures.cpp: nope_note)
    for (const ParamId name : {P::preset.id, P::model_name.id, P::position_encoding.id})
        if (std::find(keys.begin(), keys.end(), name) == keys.end()) keys.push_back(name);
    return keys;
}

const PlotDescriptor* find_plot(const FigureDescriptor& figure, std::string_view name) {
    for (const PlotDescriptor& p : figure.plots)
        if (p.name == name) return &p;
    return nullptr;
}

namespace {

// The plots `focus` names, in the figure's order, each with its smallest cell (pixels).
struct FocusNeed {
    plot::Vec2 min;      // its colour key included
    float key = 0;       // what the key adds to the width
    bool shares_key = false, full_width = false;
};
std::vector<FocusNeed> focus_needs(const FigureDescriptor& figure, const ParamSet& params, const plot::Style& style) {
    const std::string wrapped = "," + style.focus + ",";
    const auto state_needs = figure.plot_needs ? figure.plot_needs(params, style) : std::vector<std::pair<int, plot::Vec2>>{};
    std::vector<FocusNeed> out;
    for (std::size_t k = 0; k < figure.plots.size(); ++k) {
        const PlotDescriptor& d = figure.plots[k];
        if (wrapped.find("," + std::string(d.name) + ",") == std::string::npos) continue;
        plot::Vec2 min{style.px(d.min_size.x), style.px(d.min_size.y)};
        for (const auto& [index, need] : state_needs)
            if (index == static_cast<int>(k)) min = {std::max(min.x, need.x), std::max(min.y, need.y)};
        out.push_back({{min.x + style.px(d.key_width), min.y}, style.px(d.key_width), d.shares_key, d.full_width || d.role == PlotRole::strip});
    }
    return out;
}

}  // namespace

std::pair<int, int> default_export_size(const FigureDescriptor& figure, const ParamSet& params) {
    if (!detail::second_picture_model(figure, params)) return {figure.export_width, figure.export_height};
    return {figure.export_width, 2 * figure.export_height + 60};
}

bool focus_fits(const FigureDescriptor& figure, const ParamSet& params, const plot::Style& style, float width, float height) {
    if (const std::optional<ParamSet> b = detail::second_picture_model(figure, params)) {  // each model's picture in its half
        const detail::ComparedSplit split = detail::compared_split(figure, params, *b, style, width, height);
        return split.both && focus_fits_one(figure, params, style, split.a.width(), split.a.height()) &&
               focus_fits_one(figure, *b, style, split.b.width(), split.b.height());
    }
    return focus_fits_one(figure, params, style, width, height);
}

bool focus_fits_one(const FigureDescriptor& figure, const ParamSet& params, const plot::Style& style, float width, float height) {
    const std::vector<FocusNeed> needs = focus_needs(figure, params, style);
    if (needs.empty()) return true;
    // the others left out: a line at the bottom says how to see them (subplot_fit.cpp)
    if (needs.size() < figure.plots.size()) height -= style.px(style.tick_font) * 1.5f;
    // some split of the plots, in their order, into rows (as the layout engine tries them)
    const unsigned splits = 1u << (needs.size() - 1);
    for (unsigned split = 0; split < splits; ++split) {
        float total_h = 0, row_w = 0, row_h = 0;
        bool fits = true, row_full = false, row_key = false;
        for (std::size_t i = 0; i < needs.size() && fits; ++i) {
            const bool new_row = i > 0 && (split >> (i - 1) & 1u);
            if (new_row) total_h += row_h, row_w = 0, row_h = 0, row_full = false, row_key = false;
            // a full-width plot shares its row with no other
            fits = !(row_w > 0 && (row_full || needs[i].full_width));
            // plots that share a colour key: one in the row
            row_w += needs[i].min.x - (needs[i].shares_key && row_key ? needs[i].key : 0.0f);
            row_key = row_key || needs[i].shares_key;
            row_h = std::max(row_h, needs[i].min.y);
            row_full = row_full || needs[i].full_width;
            fits = fits && row_w <= width;
        }
        if (fits && total_h + row_h <= height) return true;
    }
    return false;
}

std::string plot_names(const FigureDescriptor& figure, std::string_view separator) {
    std::string s;
    for (const PlotDescriptor& p : figure.plots) s += (s.empty() ? "" : std::string(separator)) + std::string(p.name);
    return s;
}

const std::vector<const FigureDescriptor*>& all_figures() {
    static const std::vector<const FigureDescriptor*> list = [] {
        std::vector<const FigureDescriptor*> v;
        for (const FigureDescriptor& d : descriptors()) v.push_back(&d);
        return v;
    }();
    return list;
}

int figure_count() { return static_cast<int>(all_figures().size()); }

const FigureDescriptor* find_figure(std::string_view name) {
    for (const FigureDescriptor* d : all_figures())
        if (d->name == name) return d;
    return nullptr;
}

const FigureDescriptor& figure(std::string_view name) {
    if (const FigureDescriptor* d = find_figure(name)) return *d;
    throw std::invalid_argument("no figure named '" + std::string(name) + "'; figures are: " + figure_names());
}

const FigureDescriptor& figure_at(int index) { return *all_figures().at(static_cast<std::size_t>(index)); }

std::string figure_names(std::string_view separator) {
    std::string s;
    for (const FigureDescriptor* d : all_figures()) s += (s.empty() ? "" : std::string(separator)) + std::string(d->name);
    return s;
}

const std::vector<PageInfo>& page_table() {
    static const std::vector<PageInfo> table = {
        {"Basics", "Basics"}, {"Context extension", "Context"}, {"Why it works", "Why"}, {"Today's models", "Models"},
        {"Images", "Images"}, {"Video", "Video"},                {"Trained model", "Trained"},
    };
    return table;
}

const std::vector<std::string_view>& pages() {
    static const std::vector<std::string_view> names = [] {
        std::vector<std::string_view> v;
        for (const PageInfo& p : page_table()) v.push_back(p.name);
        return v;
    }();
    return names;
}

std::vector<const FigureDescriptor*> figures_on_page(int page) {
    std::vector<const FigureDescriptor*> v;
    for (const FigureDescriptor* d : all_figures())
        if (d->page == page) v.push_back(d);
    return v;
}

std::string panel_key(int index) {
    static constexpr char kRow[] = "1234567890-=";  // the number row, left to right
    constexpr int row = static_cast<int>(sizeof kRow - 1), function_keys = 10;  // then F2 ... F11's neighbours short of F11
    if (index < 0) return "";
    if (index < row) return std::string(1, kRow[index]);
    if (index < row + function_keys - 1) return "F" + std::to_string(index - row + 2);  // F2 ... F10 (F1 is help, F11 fullscreen)
    return "";
}

}  // namespace rope::figures
