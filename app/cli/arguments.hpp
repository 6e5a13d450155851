// Command-line plumbing shared by every subcommand: one-line usage errors (exit 2) and the
// `--set key=value` vocabulary applied to a ParamSet.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

// Only declared here: this header reaches files that include X11 first (glfw_platform.cpp), and
// params.hpp brings in Eigen, which refuses X11's `Success` macro.
namespace rope {
class ParamSet;
}

namespace rope::cli {

inline constexpr int kExitUsage = 2;
inline constexpr int kExitFailure = 1;

// Bad input from the command line: printed as one line, exit code 2.
class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A failure that is not the user's input (a write error, no display): one line, exit code 1.
class RuntimeFailure : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Walks argv, handing out flags and their values.
class ArgCursor {
public:
    ArgCursor(int argc, char** argv, int first) : args_(argv + first, argv + argc) {}
    bool done() const { return pos_ >= args_.size(); }
    const std::string& peek() const { return args_[pos_]; }
    std::string next() { return args_[pos_++]; }
    // For `--flag value` and `--flag=value`: true if the current argument is that flag; the value
    // is stored in `value` (a missing value is a UsageError).
    bool take_option(std::string_view flag, std::string& value);
    bool take_flag(std::string_view flag);

private:
    std::vector<std::string> args_;
    std::size_t pos_ = 0;
};

// "key=value" -> pair; a UsageError naming the argument if there is no '='.
std::pair<std::string, std::string> split_assignment(std::string_view text);

// Applies each --set in order, then the cross-key checks. ParamError becomes a UsageError whose
// message reads "--set key=value: key must be ...".
void apply_sets(ParamSet& params, const std::vector<std::string>& assignments);

}  // namespace rope::cli
