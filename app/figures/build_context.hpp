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
    std::string title() const { return std::string(request.figure->title); }
    // The frequencies of `params`, held for the whole build.
    const FrequencyTable& frequencies() {
        if (!frequencies_) frequencies_ = cache.frequencies(params);
        return *frequencies_;
    }

private:
    std::shared_ptr<const FrequencyTable> frequencies_;
};

// What one plot of a figure is, for the panel's mouse input, readouts and linked views.
struct PlotId {
    std::string name;
    int tag = 0;
    AxisRole x = AxisRole::other, y = AxisRole::other;
    template <typename Tag>
    PlotId(std::string name_, Tag tag_, AxisRole x_ = AxisRole::other, AxisRole y_ = AxisRole::other)
        : name(std::move(name_)), tag(static_cast<int>(tag_)), x(x_), y(y_) {}
};

// Copies a finished plot's mapping into the result.
void record_geometry(BuildContext& ctx, plot::Plot& p, const PlotId& id, const plot::AxisSetup& x, const plot::AxisSetup& y);

// "1.2346 rad (70.7°)"
std::string angle_text(double radians);

}  // namespace rope::figures::detail
