#include "gui/gui_options.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "cli/arguments.hpp"
#include "lessons/lessons.hpp"
#include "rope/params.hpp"

namespace rope::gui {

namespace {

bool parse_size(const std::string& text, int& w, int& h) {
    int a = 0, b = 0;
    char x = 0, extra = 0;
    if (std::sscanf(text.c_str(), "%d%c%d%c", &a, &x, &b, &extra) != 3 || (x != 'x' && x != 'X')) return false;
    if (a < 320 || b < 240 || a > 16384 || b > 16384) return false;
    w = a;
    h = b;
    return true;
}

}  // namespace

GuiOptions parse_gui_options(int argc, char** argv, int first) {
    using cli::UsageError;
    GuiOptions o;
    cli::ArgCursor args(argc, argv, first);
    while (!args.done()) {
        std::string value;
        if (args.take_option("--set", value)) {
            o.sets.push_back(value);
        } else if (args.take_option("--screenshot", value)) {
            if (value.empty()) throw UsageError("--screenshot needs a file name");
            o.screenshot = value;
        } else if (args.take_flag("--quit")) {
            o.quit = true;
        } else if (args.take_option("--size", value)) {
            if (!parse_size(value, o.width, o.height))
                throw UsageError("--size " + shorten_for_message(value) + ": expected WIDTHxHEIGHT, each from 320/240 to 16384 (e.g. 1920x1080)");
            o.size_given = true;
        } else if (args.take_option("--bench-frames", value)) {
            char* end = nullptr;
            const long n = std::strtol(value.c_str(), &end, 10);
            if (value.empty() || *end || n < 1 || n > 1000000)
                throw UsageError("--bench-frames " + shorten_for_message(value) + ": expected a whole number of frames from 1 to 1000000");
            o.bench_frames = static_cast<int>(n);
        } else if (args.take_option("--sweep", value)) {
            // one key, or several separated by commas, swept in turn
            o.sweep_keys.clear();
            std::size_t start = 0;
            while (start <= value.size()) {
                const std::size_t comma = value.find(',', start);
                const std::string key = value.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
                const ParamSpec* spec = find_param(key);
                if (!spec || (spec->type != ParamType::integer && spec->type != ParamType::real) || spec->slider_max <= spec->slider_min)
                    throw UsageError("--sweep " + shorten_for_message(value) +
                                     ": expected numeric parameters with a slider, separated by commas (e.g. base, or base,position,dim)");
                o.sweep_keys.push_back(key);
                if (comma == std::string::npos) break;
                start = comma + 1;
            }
        } else if (args.take_option("--theme", value)) {
            if (value != "dark" && value != "light") throw UsageError("--theme " + shorten_for_message(value) + ": expected dark or light");
            o.theme = value;
            o.theme_given = true;
        } else if (args.take_option("--session", value)) {
            if (value.empty()) throw UsageError("--session needs a file name");
            o.session = value;
        } else if (args.take_flag("--fresh")) {
            o.fresh = true;
        } else if (args.take_option("--lesson", value)) {
            const int steps = static_cast<int>(lessons::builtin_lesson().steps.size());
            char* end = nullptr;
            const long n = std::strtol(value.c_str(), &end, 10);
            if (value.empty() || *end || n < 1 || n > steps)
                throw UsageError("--lesson " + shorten_for_message(value) + ": expected a step number from 1 to " + std::to_string(steps));
            o.lesson = static_cast<int>(n);
        } else if (args.take_option("--soak-frames", value)) {
            char* end = nullptr;
            const long n = std::strtol(value.c_str(), &end, 10);
            if (value.empty() || *end || n < 1 || n > 10000000)
                throw UsageError("--soak-frames " + shorten_for_message(value) + ": expected a whole number of frames from 1 to 10000000");
            o.soak_frames = static_cast<int>(n);
        } else if (args.take_option("--seed", value)) {
            char* end = nullptr;
            errno = 0;
            const unsigned long long n = std::strtoull(value.c_str(), &end, 10);
            if (value.empty() || *end || errno || value[0] == '-')
                throw UsageError("--seed " + shorten_for_message(value) + ": expected a whole number from 0 to 18446744073709551615");
            o.seed = n;
        } else if (args.take_option("--lesson-walk", value)) {
            if (value.empty()) throw UsageError("--lesson-walk needs a folder for the pictures");
            o.lesson_walk = value;
        } else if (args.take_option("--ui-scale", value)) {
            char* end = nullptr;
            const double s = std::strtod(value.c_str(), &end);
            if (value.empty() || *end || !(s >= 0.5 && s <= 4))
                throw UsageError("--ui-scale " + shorten_for_message(value) + ": expected a number from 0.5 to 4");
            o.ui_scale = static_cast<float>(s);
        } else {
            throw UsageError("unknown option '" + shorten_for_message(args.peek()) + "' (see --help)");
        }
    }
    if (!o.sweep_keys.empty() && o.bench_frames == 0) throw UsageError("--sweep needs --bench-frames N");
    return o;
}

}  // namespace rope::gui
