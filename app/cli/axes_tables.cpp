#include "cli/axes_tables.hpp"

#include <Eigen/Core>
#include <cmath>
#include <string>

#include "cli/arguments.hpp"
#include "rope/frequencies.hpp"
#include "rope/multi_axis.hpp"
#include "rope/params.hpp"
#include "rope/rotation.hpp"

namespace rope::cli {

namespace {

struct NamedLayout {
    const char* name;
    AxisLayout layout;
};

// The layouts the patch-grid panels show for the current rope_axes: M-RoPE's two side by side,
// each with its own section (mrope_section when given for that layout, else Qwen's shares).
std::vector<NamedLayout> current_layouts(const ParamSet& p) {
    switch (p[P::rope_axes]) {
        case RopeAxes::one_d: return {{"1d", *p.axis_layout(RopeAxes::one_d, false)}};
        case RopeAxes::axial_2d: return {{"axial", *p.axis_layout(RopeAxes::axial_2d, false)}};
        case RopeAxes::mrope:
            return {{"chunked", *p.axis_layout(RopeAxes::mrope, false)}, {"interleaved", *p.axis_layout(RopeAxes::mrope, true)}};
        case RopeAxes::videorope: return {{"videorope", *p.axis_layout(RopeAxes::videorope, false)}};
        case RopeAxes::flux: return {{"flux", *p.axis_layout(RopeAxes::flux, false)}};
        case RopeAxes::ernie_3d: return {{"ernie_3d", *p.axis_layout(RopeAxes::ernie_3d, false)}};
    }
    return {};
}

Eigen::VectorXd as_vector(const std::vector<double>& v) { return Eigen::Map<const Eigen::VectorXd>(v.data(), static_cast<Eigen::Index>(v.size())); }

}  // namespace

void write_axes(const ParamSet& p, CsvWriter& out) {
    out.header({"layout", "pair", "axis", "theta", "wavelength"});
    for (const NamedLayout& n : current_layouts(p)) {
        for (int j = 0; j < n.layout.pairs(); ++j) {
            const double theta = n.layout.theta[j];
            out.text(n.name).integer(j).text(to_string(n.layout.axis[static_cast<std::size_t>(j)])).number(theta);
            if (theta > 0) out.number(kTwoPi / theta);
            else out.text("");  // a pair that does not turn has no wavelength (as in compute freqs)
            out.end_row();
        }
    }
}

namespace {

// Ids are whole numbers except under VideoRoPE's fractional spacing.
void id_cell(CsvWriter& out, double v) {
    if (v == std::floor(v) && std::abs(v) < 9e15) out.integer(static_cast<std::int64_t>(v));
    else out.number(v);
}

}  // namespace

void write_position_ids(const ParamSet& p, CsvWriter& out) {
    const bool video = p[P::media] == Media::video;
    const std::vector<SequenceToken> tokens = p.sequence_tokens();
    if (video) out.header({"index", "kind", "frame", "row", "col", "t", "h", "w"});
    else out.header({"index", "kind", "row", "col", "t", "h", "w"});
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const SequenceToken& t = tokens[i];
        out.integer(static_cast<std::int64_t>(i)).text(enum_name(t.kind));
        if (video) {
            if (t.frame >= 0) out.integer(t.frame);
            else out.text("");
        }
        if (t.row >= 0) out.integer(t.row).integer(t.col);
        else out.text("").text("");
        id_cell(out, t.id.t);
        id_cell(out, t.id.h);
        id_cell(out, t.id.w);
        out.end_row();
    }
}

void write_patches(const ParamSet& p, CsvWriter& out) {
    const RopeAxes axes = p[P::rope_axes];  // not 1d: compute refuses that first (check_table)
    const bool interleaved = p[P::mrope_interleaved];
    const AxisLayout layout = *p.axis_layout(axes, interleaved);
    const int rows = static_cast<int>(p[P::grid_rows]), cols = static_cast<int>(p[P::grid_cols]);
    const auto [query_row, query_col] = p.query_patch();
    const Eigen::MatrixXd sim = patch_similarity(layout, p.config().pairing, as_vector(p.vector()), as_vector(p.key_vector()),
                                                 rows, cols, query_row, query_col);
    out.header({"row", "col", "similarity"});
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) out.integer(r).integer(c).number(sim(r, c)).end_row();
}

void write_axes_summary(const ParamSet& p, CsvWriter& out) {
    const RopeAxes axes = p[P::rope_axes];
    out.text(param_spec(P::rope_axes).name).text(to_string(axes)).end_row();
    if (axes == RopeAxes::axial_2d) out.text(param_spec(P::axial_frequencies).name).text(to_string(p[P::axial_frequencies])).end_row();
    const bool interleaved = p[P::mrope_interleaved];
    if (axes == RopeAxes::mrope) out.text("mrope_layout").text(interleaved ? "interleaved" : "chunked").end_row();
    if (axes == RopeAxes::flux) {
        const FluxAxesDims d = p.flux_axes_dims();
        out.text(param_spec(P::flux_axes_dim).name).text(std::to_string(d[0]) + "," + std::to_string(d[1]) + "," + std::to_string(d[2])).end_row();
    }
    // pairs per axis of the current layout (M-RoPE: the section in use, t, h, w)
    const std::optional<AxisLayout> layout = p.axis_layout(axes, interleaved);
    if (!layout) return;
    for (PositionAxis a : {PositionAxis::t, PositionAxis::h, PositionAxis::w})
        out.text("pairs_" + std::string(to_string(a))).integer(layout->count(a)).end_row();
}

}  // namespace rope::cli
