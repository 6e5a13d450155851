// Internal: one builder per figure (figures.cpp dispatches).
#pragma once

#include "figures/figures.hpp"

namespace rope::figures::detail {

struct BuildContext {
    const FigureRequest& request;
    const ParamSet& params;
    FigureCache& cache;
    FigureResult& result;
    const plot::TextMeasure& measure;
};

void build_vectors(BuildContext& ctx);
void build_heatmap(BuildContext& ctx);
void build_sweep(BuildContext& ctx);
void build_decay(BuildContext& ctx);
void build_context(BuildContext& ctx);
void build_scores(BuildContext& ctx);
void build_pairing(BuildContext& ctx);
void build_precision(BuildContext& ctx);
void build_sinusoidal(BuildContext& ctx);

// Copies a finished plot's mapping into the result.
void record_geometry(BuildContext& ctx, plot::Plot& p, const std::string& name, const plot::AxisSetup& x,
                     const plot::AxisSetup& y);

// "1.2346 rad (70.7°)"
std::string angle_text(double radians);

}  // namespace rope::figures::detail
