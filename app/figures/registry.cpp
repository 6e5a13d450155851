#include "figures/registry.hpp"

#include <stdexcept>

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
    return keys;
}

const PlotDescriptor* find_plot(const FigureDescriptor& figure, std::string_view name) {
    for (const PlotDescriptor& p : figure.plots)
        if (p.name == name) return &p;
    return nullptr;
}

bool focus_fits(const FigureDescriptor& figure, std::string_view focus, float width, float height, float scale) {
    float row_w = 0, row_h = 0, column_w = 0, column_h = 0;
    std::size_t named = 0;
    for (const PlotDescriptor& d : figure.plots) {
        const std::string wrapped = "," + std::string(focus) + ",";
        if (wrapped.find("," + std::string(d.name) + ",") == std::string::npos) continue;
        ++named;
        const float w = (d.min_size.x + d.key_width) * scale, h = d.min_size.y * scale;
        row_w += w;
        row_h = std::max(row_h, h);
        column_w = std::max(column_w, w);
        column_h += h;
    }
    // the others left out: a line at the bottom says how to see them (subplot_fit.cpp)
    if (named < figure.plots.size()) height -= 16 * 1.5f * scale;
    return (row_w <= width && row_h <= height) || (column_w <= width && column_h <= height);
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

const std::vector<std::string_view>& pages() {
    static const std::vector<std::string_view> names = {"Basics", "Context extension", "Why it works", "Today's models", "Images and video"};
    return names;
}

std::vector<const FigureDescriptor*> figures_on_page(int page) {
    std::vector<const FigureDescriptor*> v;
    for (const FigureDescriptor* d : all_figures())
        if (d->page == page) v.push_back(d);
    return v;
}

char panel_key(int index) {
    if (index >= 0 && index < 9) return static_cast<char>('1' + index);
    return index == 9 ? '0' : 0;
}

}  // namespace rope::figures
