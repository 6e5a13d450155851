#include "gui/drivers/gui_options.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <string>

#include "cli/arguments.hpp"
#include "lessons/lessons.hpp"
#include "rope/params.hpp"
#include "session/session.hpp"

namespace rope::gui {

namespace {

// WIDTHxHEIGHT, each a plain whole number, from 320 x 240 to 16384 x 16384.
bool parse_size(const std::string& text, int& w, int& h) {
    const std::size_t x = text.find_first_of("xX");
    if (x == std::string::npos) return false;
    const std::optional<std::int64_t> a = parse_integer(std::string_view(text).substr(0, x));
    const std::optional<std::int64_t> b = parse_integer(std::string_view(text).substr(x + 1));
    if (!a || !b || *a < 320 || *b < 240 || *a > 16384 || *b > 16384) return false;
    w = static_cast<int>(*a);
    h = static_cast<int>(*b);
    return true;
}

// A flag's whole number from lo to hi (the one parser's rules), or a UsageError in the one shape.
std::int64_t whole_flag(const std::string& flag, const std::string& value, double lo, double hi, std::string_view unit) {
    NumberRule rule;
    rule.min = lo;
    rule.max = hi;
    rule.whole = true;
    rule.unit = unit;
    const std::optional<std::int64_t> n = parse_integer(value);
    if (!n || !rule.allows(static_cast<double>(*n)))
        throw cli::UsageError(refusal(flag + " " + shorten_for_message(value), "", rule.describe()));
    return *n;
}

// --sweep's keys: numeric parameters with a slider, separated by commas.
std::vector<ParamId> sweep_keys(const std::string& value) {
    std::vector<ParamId> keys;
    std::size_t start = 0;
    while (start <= value.size()) {
        const std::size_t comma = std::min(value.find(',', start), value.size());
        const ParamSpec* spec = find_param(std::string_view(value).substr(start, comma - start));
        if (!spec || !spec->numeric() || spec->slider_max <= spec->slider_min)
            throw cli::UsageError(refusal("--sweep " + shorten_for_message(value), "",
                                          "numeric parameters with a slider, separated by commas (e.g. base, or base,position,dim)"));
        keys.push_back(spec->id);
        start = comma + 1;
    }
    return keys;
}

}  // namespace

// rope-explorer FILE: a session (JSON, or a PNG the app exported) as --session, a lesson file as
// --lessons at its first step, a config.json as --set config=FILE; each checked as that flag is.
void open_file_argument(const std::string& path, GuiOptions& o) {
    struct stat st {};
    if (stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
        throw cli::UsageError("'" + shorten_for_message(path) + "': no such file (rope-explorer FILE opens a session, a PNG the app exported, a lesson file or a config.json)");
    if (!o.session.empty() || !o.lessons_file.empty()) throw cli::UsageError("'" + shorten_for_message(path) + "': one file to open at a time");
    switch (session::file_kind(path)) {
        case session::FileKind::session: o.session = path; break;
        case session::FileKind::lesson:
            o.lessons_file = path;
            if (o.lesson == 0) o.lesson = 1;
            break;
        case session::FileKind::config: o.sets.push_back("config=" + path); break;
    }
}

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
                throw UsageError(refusal("--size " + shorten_for_message(value), "", "WIDTHxHEIGHT, each from 320/240 to 16384 (e.g. 1920x1080)"));
            o.size_given = true;
        } else if (args.take_option("--bench-frames", value)) {
            o.bench_frames = static_cast<int>(whole_flag("--bench-frames", value, 1, 1000000, "frames"));
        } else if (args.take_option("--sweep", value)) {
            o.sweep_keys = sweep_keys(value);  // one key, or several separated by commas, swept in turn
        } else if (args.take_option("--theme", value)) {
            if (value != "dark" && value != "light") throw UsageError(refusal("--theme " + shorten_for_message(value), "", "dark or light"));
            o.theme = value;
            o.theme_given = true;
        } else if (args.take_option("--session", value)) {
            if (value.empty()) throw UsageError("--session needs a file name");
            o.session = value;
        } else if (args.take_flag("--fresh")) {
            o.fresh = true;
        } else if (args.take_option("--lesson", value)) {  // (its lesson's step count is checked when that is read)
            o.lesson = static_cast<int>(whole_flag("--lesson", value, 1, 1000000, "a lesson step"));
        } else if (args.take_option("--lessons", value)) {
            if (value.empty()) throw UsageError("--lessons needs a lesson file (JSON, see README: Lesson files)");
            o.lessons_file = value;
        } else if (args.take_option("--soak-frames", value)) {
            o.soak_frames = static_cast<int>(whole_flag("--soak-frames", value, 1, 10000000, "frames"));
        } else if (args.take_option("--seed", value)) {
            o.seed = static_cast<unsigned long long>(whole_flag("--seed", value, 0, 9007199254740992.0, ""));
        } else if (args.take_option("--lesson-walk", value)) {
            if (value.empty()) throw UsageError("--lesson-walk needs a folder for the pictures");
            o.lesson_walk = value;
        } else if (args.take_option("--ui-scale", value)) {
            NumberRule scale;
            scale.min = 0.5;
            scale.max = 4;
            const std::optional<double> s = read_number(value, scale);
            if (!s) throw UsageError(refusal("--ui-scale " + shorten_for_message(value), "", scale.describe()));
            o.ui_scale = static_cast<float>(*s);
        } else if (!args.peek().empty() && args.peek()[0] != '-') {
            open_file_argument(args.next(), o);  // a file manager's "Open with" (the .desktop entry's %f)
        } else {
            throw UsageError("unknown option '" + shorten_for_message(args.peek()) + "' (see --help)");
        }
    }
    if (!o.sweep_keys.empty() && o.bench_frames == 0) throw UsageError("--sweep needs --bench-frames N");
    return o;
}

}  // namespace rope::gui
