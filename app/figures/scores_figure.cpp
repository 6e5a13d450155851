// scores: placeholder until the figure is written.
#include "figures/figure_builders.hpp"

namespace rope::figures::detail {

void build_scores(BuildContext& ctx) {
    plot::Plot p(ctx.result.list, ctx.measure, ctx.request.style, {0, 0, ctx.request.width, ctx.request.height},
                 std::string(figure_title(ctx.request.id)));
    p.setup_x({"x", 0, 1});
    p.setup_y({"y", 0, 1});
    p.finish();
    if (ctx.request.with_table) {
        ctx.result.table.columns = {"x"};
        ctx.result.table.values = {{0.0}};
    }
}

}  // namespace rope::figures::detail
