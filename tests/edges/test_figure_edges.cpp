// Numeric edges on screen: every figure built as the panels build it, at every limit of the parameter
// table, draws no NaN or inf coordinate and fills its table with finite numbers only.
#include <gtest/gtest.h>

#include <cmath>

#include "edges/edge_cases.hpp"
#include "figures/registry.hpp"
#include "plot/display_list.hpp"
#include "rope/params.hpp"

using namespace rope;

TEST(FigureEdges, EveryFigureAtEveryLimitIsFinite) {
    int built = 0, refused = 0;
    figures::FigureCache cache;  // one, as in the app: the base-bound curve of d = 4096 is computed once
    for (const auto& sets : test::numeric_edge_cases()) {
        ParamSet p;
        try {
            for (const auto& [k, v] : sets) p.set(k, v);
            p.validate();
        } catch (const ParamError&) {
            ++refused;  // refused like a slider value: the state stays valid, nothing to draw
            continue;
        }
        for (const figures::FigureDescriptor* each : figures::all_figures()) {
        const figures::FigureDescriptor& id = *each;
            figures::FigureRequest r;
            r.figure = &id;
            r.width = 1000;
            r.height = 600;
            // the model anatomy has no table without a model (its CSV is refused then)
            r.with_table = !(id.name == "model_anatomy" && p.model_layers().empty());
            r.wait_for_background = true;
            const std::string what = std::string(id.name) + " " + test::describe(sets);
            const figures::FigureResult fig = figures::build_figure(r, p, cache);
            EXPECT_FALSE(fig.error) << what;
            EXPECT_EQ(plot::first_non_finite(fig.list), "") << what;
            std::size_t bad = 0;
            for (const auto& column : fig.table.values)
                for (double v : column) bad += !std::isfinite(v);
            EXPECT_EQ(bad, 0u) << what;
            ++built;
        }
    }
    std::printf("%d figures built, %d edge cases refused\n", built, refused);
    // the limits are values the sliders allow: most are drawn, not refused
    const int cases = static_cast<int>(test::numeric_edge_cases().size());
    EXPECT_LT(refused * 4, cases) << refused << " of " << cases << " edge cases refused";
    EXPECT_EQ(built, (cases - refused) * static_cast<int>(figures::all_figures().size()));
}
