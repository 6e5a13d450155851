// Internal: what a figure's builder works with, and helpers every builder uses.
#pragma once

#include <memory>
#include <string>

#include "figures/registry.hpp"

namespace rope::figures::detail {

struct BuildContext {
    BuildContext(const FigureRequest& request_, const ParamSet& params_, FigureCache& cache_, FigureResult& result_,
                 const plot::TextMeasure& measure_)
        : request(request_), params(params_), cache(cache_), result(result_), measure(measure_) {}
    const FigureRequest& request;
    const ParamSet& params;
    FigureCache& cache;
    FigureResult& result;
    const plot::TextMeasure& measure;

    const FigureDescriptor& figure() const { return *request.figure; }
    // the figure's title naming its model (figures.hpp: figure_title)
    std::string title() const;
    // The frequencies of `params`, held for the whole build.
    const FrequencyTable& frequencies() {
        if (!frequencies_) frequencies_ = cache.frequencies(params);
        return *frequencies_;
    }

private:
    std::shared_ptr<const FrequencyTable> frequencies_;
};

// The geometry of plot `index` of the figure (its descriptor's name and axis roles), to fill in.
PlotGeometry plot_geometry(const BuildContext& ctx, int index);
template <typename Tag>
PlotGeometry plot_geometry(const BuildContext& ctx, Tag tag) {
    return plot_geometry(ctx, static_cast<int>(tag));
}

// Copies a finished plot's mapping into the result, for the figure's plot `tag` (its enum, in the
// order of its descriptors): its place and its axes as drawn (p.x_axis(), p.y_axis(): an
// animation's held ranges and a widened range included), which readouts and pointer input map
// pixels with.
void record_geometry(BuildContext& ctx, plot::Plot& p, int index);
template <typename Tag>
void record_geometry(BuildContext& ctx, plot::Plot& p, Tag tag) {
    record_geometry(ctx, p, static_cast<int>(tag));
}

// "1.2346 rad (70.7°)"
std::string angle_text(double radians);

}  // namespace rope::figures::detail
