// RoPE on more than one position axis: images and video.
//
//  2D axial RoPE (vision transformers): a patch at (row, col) has two positions; each rotated pair
//    turns with one of them, so a pair's angle is theta_j * row or theta_j * col. Three schedules:
//    - per_axis (Heo et al. 2024, "Rotary Position Embedding for Vision Transformer", RoPE-Axial in
//      naver-ai/rope-vit compute_axial_cis; Qwen2-VL's vision tower): each axis gets the whole spread,
//      theta_i = base^(-2i/(r/2)) for i < r/4; the first r/4 pairs turn with the column, the next r/4
//      with the row.
//    - split: the 1D schedule base^(-2i/r) cut in two, the first r/4 (fast) pairs to the column, the
//      last r/4 (slow) to the row: the naive port, which leaves the rows only slow pairs.
//    - alternating (Pixtral's vision encoder): the 1D schedule's even-indexed frequencies to the row
//      (first r/4 pairs), its odd-indexed ones to the column (next r/4).
//  M-RoPE (Qwen2-VL, Qwen2.5-VL, Qwen3-VL): every token has a position id (t, h, w); text tokens carry
//    the same number on all three axes, an image's patches (t0, t0 + row, t0 + col), and the text after
//    an image resumes at 1 + the largest id so far (transformers' get_rope_index). The d/2 frequencies
//    are the 1D ones (inv_freq); pair j turns with the axis `mrope_section` gives it:
//    - chunked (Qwen2-VL, Qwen2.5-VL, section [16, 24, 24]): pairs 0..s_t-1 with t, the next s_h with
//      h, the last s_w with w (apply_multimodal_rotary_pos_emb: cos.split(mrope_section * 2), m[i % 3]),
//      so t gets only the fastest pairs and w only the slowest;
//    - interleaved (Qwen3-VL, section [24, 20, 20], apply_interleaved_mrope): pair j turns with h when
//      j % 3 == 1 and j < 3 s_h, with w when j % 3 == 2 and j < 3 s_w, else with t, so every axis gets
//      fast and slow pairs alike.
// A text token has t = h = w, so for text every M-RoPE layout is exactly 1D RoPE.
//  FLUX.1 (diffusers' FluxPosEmbed, axes_dim [16, 56, 56], theta 10000): the head's dims are cut into
//    three blocks, one per axis, each with its own frequencies base^(-2j/axis_dims) over its axis_dims/2
//    adjacent pairs: pairs 0-7 turn with the first id, 8-35 with the row, 36-63 with the column. Every
//    text token sits at (0, 0, 0) and an image token at (0, row, col), so text carries no position and
//    the first block never turns.
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rope/config.hpp"

namespace rope {

// t: time (frames; text position), h: height (the patch's row), w: width (its column).
enum class PositionAxis : std::uint8_t { t = 0, h = 1, w = 2 };
template <>
struct EnumNames<PositionAxis> {
    static constexpr std::array<std::string_view, 3> names = {"t", "h", "w"};
};
inline constexpr int kPositionAxes = 3;
constexpr std::string_view to_string(PositionAxis axis) { return enum_name(axis); }

// How positions index the pairs (the parameter table's rope_axes).
// ernie_3d: ERNIE-4.5-VL's 3D RoPE, VideoRoPE's allocation (the slowest mrope_section t pairs to t, h and
// w alternating over the rest) with M-RoPE's ids (transformers' Ernie4_5_VL_MoeModel.get_rope_index).
enum class RopeAxes { one_d, axial_2d, mrope, videorope, flux, ernie_3d };
template <>
struct EnumNames<RopeAxes> {
    static constexpr std::array<std::string_view, 6> names = {"1d", "2d_axial", "mrope", "videorope", "flux", "ernie_3d"};
};
constexpr std::string_view to_string(RopeAxes axes) { return enum_name(axes); }

enum class AxialFrequencies { per_axis, split, alternating };
template <>
struct EnumNames<AxialFrequencies> {
    static constexpr std::array<std::string_view, 3> names = {"per_axis", "split", "alternating"};
};
constexpr std::string_view to_string(AxialFrequencies schedule) { return enum_name(schedule); }

// Which axis each rotated pair turns with, and how fast (radians per step along that axis).
struct AxisLayout {
    Eigen::VectorXd theta;           // per pair
    std::vector<PositionAxis> axis;  // per pair
    int pairs() const { return static_cast<int>(theta.size()); }
    int count(PositionAxis a) const;
};

// One axis' share of the pairs: how many, and the shortest and longest wavelength (2 pi / theta,
// in steps along the axis) among those that turn; NaN when none turns.
struct AxisSpread {
    int pairs = 0;
    double shortest_wavelength = 0;
    double longest_wavelength = 0;
};
AxisSpread axis_spread(const AxisLayout& layout, PositionAxis axis);

// 2D axial RoPE over rotated_dims (a multiple of 4) with `base` (> 1). std::invalid_argument otherwise.
AxisLayout axial_layout(AxialFrequencies schedule, double base, int rotated_dims);

using MropeSection = std::array<int, 3>;  // pairs for t, h, w

// Qwen's sections scaled to `pairs`: chunked 1/4, 3/8, 3/8 ([16, 24, 24] at 64 pairs); interleaved
// 3/8, 5/16, 5/16 ([24, 20, 20] at 64 pairs); h = w rounded, t takes the rest.
MropeSection default_mrope_section(int pairs, bool interleaved);
// "" if `section` assigns exactly `pairs` pairs with these rules; else why not, for people.
std::string mrope_section_problem(const MropeSection& section, int pairs, bool interleaved);
// The layout from the 1D frequencies `theta` (inv_freq, so a scaling variant applies as in the
// models' code). std::invalid_argument if mrope_section_problem is not empty.
AxisLayout mrope_layout(const Eigen::VectorXd& theta, const MropeSection& section, bool interleaved);

using FluxAxesDims = std::array<int, 3>;  // dims per axis (the first id, the row, the column)
// FLUX.1's [16, 56, 56] scaled to `rotated_dims`: an eighth to the first axis, the rest split between
// rows and columns, every block even.
FluxAxesDims default_flux_axes_dims(int rotated_dims);
// "" if `dims` are three even numbers >= 0 adding up to `rotated_dims`; else why not, for people.
std::string flux_axes_dims_problem(const FluxAxesDims& dims, int rotated_dims);
// FLUX's layout: axis a's dims[a] / 2 pairs, in order, turn with axis a (t, h, w) at base^(-2j/dims[a]).
// std::invalid_argument if flux_axes_dims_problem(dims, their sum) is not empty or base <= 1.
AxisLayout flux_layout(double base, const FluxAxesDims& dims);

// Whole numbers except under VideoRoPE's temporal spacing, which may be fractional.
struct PositionId {
    PositionId() = default;
    // any numbers: image and text ids are counts (ints), VideoRoPE's may be fractional
    template <typename T, typename H, typename W>
    PositionId(T t_, H h_, W w_) : t(static_cast<double>(t_)), h(static_cast<double>(h_)), w(static_cast<double>(w_)) {}
    double t = 0, h = 0, w = 0;
    double along(PositionAxis a) const { return a == PositionAxis::t ? t : a == PositionAxis::h ? h : w; }
    double largest() const { return std::max(t, std::max(h, w)); }
};

// timestamp: the text Qwen3-VL writes before each frame of a video ("<1.5 seconds>").
enum class TokenKind : std::uint8_t { text, image, video, timestamp };
template <>
struct EnumNames<TokenKind> {
    static constexpr std::array<std::string_view, 4> names = {"text", "image", "video", "timestamp"};
};
struct SequenceToken {
    TokenKind kind = TokenKind::text;
    int row = -1, col = -1;  // an image or video patch's place in the grid (after merging)
    PositionId id;
    int frame = -1;  // a video patch's or timestamp's temporal patch
};

// get_rope_index for text_before text tokens, one image of rows x cols merged patches, text_after
// text tokens (all counts >= 0, rows and cols >= 1).
std::vector<SequenceToken> mrope_sequence(int text_before, int rows, int cols, int text_after);
// FLUX's ids for the same sequence: every text token at (0, 0, 0), patch (r, c) at (0, r, c) (the
// pipeline's text_ids are zeros and _prepare_latent_image_ids numbers rows and columns from 0).
std::vector<SequenceToken> flux_sequence(int text_before, int rows, int cols, int text_after);

// <R(p) q, R(p') k> where pair j turns by theta_j * p.along(axis_j): it depends on p - p' only.
// q and k have the head's dim entries; `pairing` and 2 * layout.pairs() rotated dims say which dims
// form pair j; the other dims pass through.
double multi_axis_score(const AxisLayout& layout, Pairing pairing, const Eigen::VectorXd& q, const PositionId& query,
                        const Eigen::VectorXd& k, const PositionId& key);

// The cosine similarity of the rotated query at patch (query_row, query_col) and the rotated key at
// every patch of a rows x cols image (same frame): score / (|q| |k|), in [-1, 1]; entry (r, c).
// The rows' and the columns' parts of the sum are tabulated once per offset, so the cost is
// (rows + cols) * pairs + rows * cols.
Eigen::MatrixXd patch_similarity(const AxisLayout& layout, Pairing pairing, const Eigen::VectorXd& q,
                                 const Eigen::VectorXd& k, int rows, int cols, int query_row, int query_col);

// The same for any block of rows x cols patches whose patch (r, c) sits at corner + (0, r, c) (a video
// frame under every Qwen rule and VideoRoPE's diagonal), against the query at `query`: entry (r, c).
Eigen::MatrixXd block_similarity(const AxisLayout& layout, Pairing pairing, const Eigen::VectorXd& q, const PositionId& query,
                                 const Eigen::VectorXd& k, const PositionId& corner, int rows, int cols);

// The cosine similarity of the rotated query at `query` and the rotated key at first, first + 1, ...,
// first + count - 1, each the same on every axis (1D RoPE over a run of tokens). Each pair's phasor is
// stepped by e^{-i theta}, from sin and cos taken afresh every 64 steps: about count x pairs products.
std::vector<double> run_similarity(const AxisLayout& layout, Pairing pairing, const Eigen::VectorXd& q, double query,
                                   const Eigen::VectorXd& k, double first, int count);

}  // namespace rope
