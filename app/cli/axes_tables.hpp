// The compute tables of RoPE on several position axes (images and video): which pairs turn with
// which axis, the M-RoPE position ids of a text + image + text sequence, and the patch similarity map.
#pragma once

#include "cli/csv_writer.hpp"

namespace rope {
class ParamSet;
}

namespace rope::cli {

// layout,pair,axis,theta,wavelength: the current rope_axes' layout (mrope: chunked, then interleaved).
void write_axes(const ParamSet& p, CsvWriter& out);
// index,kind,row,col,t,h,w for text_before text tokens, a grid_rows x grid_cols image, text_after.
void write_position_ids(const ParamSet& p, CsvWriter& out);
// row,col,similarity on the grid for the current rope_axes (refused for 1d).
void write_patches(const ParamSet& p, CsvWriter& out);
// The summary's rows about the axes: rope_axes, its schedule or layout, pairs per axis.
void write_axes_summary(const ParamSet& p, CsvWriter& out);

}  // namespace rope::cli
