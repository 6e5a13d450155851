// The numeric edges of the parameter table: each limit of dim, base, position and factor (with every
// scaling variant), alone and combined. Shared by the command-line and the figure tests.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace rope::test {

using Sets = std::vector<std::pair<std::string, std::string>>;

inline std::vector<Sets> numeric_edge_cases() {
    std::vector<Sets> cases = {
        {{"dim", "2"}},
        {{"dim", "4096"}},
        {{"base", "1.0000001"}},
        {{"base", "1e12"}},
        {{"position", "0"}},
        {{"position", "1000000000000"}},
        {{"key_position", "1000000000000"}},
        {{"max_position", "1"}},
        {{"max_distance", "0"}},
        {{"dim", "4096"}, {"base", "1e12"}, {"position", "1000000000000"}},
        {{"dim", "2"}, {"base", "1.0000001"}, {"position", "1000000000000"}},
        {{"dim", "4096"}, {"base", "1.0000001"}, {"pair", "2047"}},
        {{"dim", "64"}, {"rotary_fraction", "0.03125"}},
        {{"attention_factor", "100"}},
    };
    for (const char* scaling : {"linear", "ntk", "dynamic", "yarn", "llama3", "longrope"}) {
        for (const char* factor : {"1", "1000"}) {
            cases.push_back({{"scaling", scaling}, {"factor", factor}});
            cases.push_back({{"scaling", scaling}, {"factor", factor}, {"dim", "4096"}, {"base", "1e12"},
                             {"position", "1000000000000"}, {"sequence_length", "1000000000000"}});
        }
        cases.push_back({{"scaling", scaling}, {"factor", "1000"}, {"base", "1.0000001"}, {"original_max_position", "1"}});
    }
    cases.push_back({{"scaling", "yarn"}, {"factor", "1000"}, {"mscale", "100"}, {"mscale_all_dim", "0"}});
    cases.push_back({{"scaling", "yarn"}, {"factor", "1000"}, {"beta_fast", "1000000"}, {"beta_slow", "1e-9"}});
    cases.push_back({{"scaling", "llama3"}, {"factor", "1000"}, {"low_freq_factor", "1e-9"}, {"high_freq_factor", "1000000"}});
    return cases;
}

inline std::string describe(const Sets& sets) {
    std::string s;
    for (const auto& [k, v] : sets) s += (s.empty() ? "" : " ") + k + "=" + v;
    return s;
}

}  // namespace rope::test
