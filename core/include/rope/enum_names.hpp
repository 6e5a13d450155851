// The words of an enum, declared once beside it: EnumNames<E>::names lists each enumerator's
// word in enumerator order. Printing, parsing and the parameter table's choices all read that one
// list, so an enum and the words people type for it cannot drift apart.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

namespace rope {

template <typename E>
struct EnumNames;  // specialise beside the enum: static constexpr std::array<std::string_view, N> names

template <typename E>
inline constexpr std::size_t enum_count = EnumNames<E>::names.size();

template <typename E>
constexpr std::string_view enum_name(E value) {
    const auto i = static_cast<std::size_t>(value);
    return i < enum_count<E> ? EnumNames<E>::names[i] : std::string_view("?");
}

template <typename E>
constexpr std::optional<E> enum_from_name(std::string_view word) {
    for (std::size_t i = 0; i < enum_count<E>; ++i)
        if (EnumNames<E>::names[i] == word) return static_cast<E>(i);
    return std::nullopt;
}

}  // namespace rope
