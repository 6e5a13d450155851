// What the figure tests share: a parameter set from key=value pairs (validated like --set), and one
// figure built by name at a size, through one cache for the test program.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "figures/registry.hpp"
#include "rope/params.hpp"

namespace rope::test {

inline ParamSet params(const std::vector<std::pair<std::string, std::string>>& sets) {
    ParamSet p;
    for (const auto& [k, v] : sets) p.set(k, v);
    p.validate();
    return p;
}

inline figures::FigureResult build_named(std::string_view name, const ParamSet& p, bool table, float width, float height) {
    static figures::FigureCache cache;
    figures::FigureRequest r;
    r.figure = &figures::figure(name);
    r.width = width;
    r.height = height;
    r.with_table = table;
    return figures::build_figure(r, p, cache);
}

// Whether one of the figure's texts contains `part`.
inline bool has_text(const figures::FigureResult& fig, const std::string& part) {
    for (const auto& c : fig.list.commands)
        if (const auto* t = std::get_if<plot::TextCmd>(&c); t && t->text.find(part) != std::string::npos) return true;
    return false;
}

}  // namespace rope::test
