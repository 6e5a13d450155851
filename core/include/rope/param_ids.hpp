// The parameters' names as the code spells them, generated from params.def: ParamId (an index into
// the table) and the typed keys P::name. A key carries its parameter's C++ type, so
// `params[P::base]` is a double, `params[P::pairing]` a Pairing and a misspelt key does not compile.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "rope/config.hpp"
#include "rope/enum_names.hpp"
#include "rope/multi_axis.hpp"
#include "rope/relative_biases.hpp"
#include "rope/video_positions.hpp"

namespace rope {

// What the angle heatmap colours (heatmap_mode).
// a_minus_b: the angle m·(θᵢ of A − θᵢ of model B), pair by pair (compare_to set, as many pairs).
enum class HeatmapMode { angle, cos, sin, unwrapped, a_minus_b };
template <>
struct EnumNames<HeatmapMode> {
    static constexpr std::array<std::string_view, 5> names = {"angle", "cos", "sin", "unwrapped", "a_minus_b"};
};

// The distance axis of the decay plots (decay_scale).
enum class DecayScale { log, linear };
template <>
struct EnumNames<DecayScale> {
    static constexpr std::array<std::string_view, 2> names = {"log", "linear"};
};

enum class ParamId : std::uint8_t {
#define ROPE_PARAM(name, type, ...) name,
#include "rope/params.def"
#undef ROPE_PARAM
};

inline constexpr std::size_t kParamCount = 0
#define ROPE_PARAM(name, type, ...) +1
#include "rope/params.def"
#undef ROPE_PARAM
    ;

constexpr std::size_t index_of(ParamId id) { return static_cast<std::size_t>(id); }

// A parameter's key with its type: converts to its ParamId wherever an id will do.
template <ParamId Id, typename T>
struct ParamKey {
    using value_type = T;
    static constexpr ParamId id = Id;
    constexpr operator ParamId() const { return Id; }
};

// P::dim, P::base, ...: the keys code reads and writes parameters by.
namespace P {
#define ROPE_PARAM(name, type, ...) inline constexpr ParamKey<ParamId::name, type> name{};
#include "rope/params.def"
#undef ROPE_PARAM
}  // namespace P

}  // namespace rope
