#include "cli/window_options.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <string>

#include "cli/arguments.hpp"
#include "lessons/lessons.hpp"
#include "plot/style.hpp"
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

// rope-explorer FILE: a session (JSON, or a PNG the app exported) as --session, a lesson file as
// --lessons at its first step, a config.json as --set config=FILE, a folder as --set model=DIR; each
// checked as that flag is.
void open_file_argument(const std::string& path, GuiOptions& o) {
    struct stat st {};
    if (stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {  // a model folder: its RoPE and its trained weights
        if (!o.file.empty() || !o.session.empty() || !o.lessons_file.empty()) throw cli::UsageError("'" + shorten_for_message(path) + "': one file to open at a time");
        o.sets.push_back("model=" + path);
        o.file = path;
        return;
    }
    if (stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
        throw cli::UsageError("'" + shorten_for_message(path) + "': no such file (rope-explorer FILE opens a session, a PNG the app exported, a lesson file, a config.json or a model folder)");
    if (!o.file.empty() || !o.session.empty() || !o.lessons_file.empty()) throw cli::UsageError("'" + shorten_for_message(path) + "': one file to open at a time");
    switch (session::file_kind(path)) {
        case session::FileKind::session: o.session = path; break;
        case session::FileKind::lesson:
            o.lessons_file = path;
            if (o.lesson == 0) o.lesson = 1;
            break;
        case session::FileKind::config: o.sets.push_back("config=" + path); break;
    }
    o.file = path;
}

}  // namespace

// The window's flags, one entry each: what it is called, its value, what it does (the help and the
// man page print these words) and how it sets the options. Entries marked for tests are the
// benchmark's and the test drivers'.
const std::vector<GuiFlag>& gui_flags() {
    using cli::UsageError;
    static const std::string theme_help =
        "the colour theme: " + plot::theme_names() + " (high_contrast: white on black, for projectors in bright rooms)";
    static const std::vector<GuiFlag> flags = {
        {"--session", "FILE", "open a session (JSON, or a PNG the app exported: its text chunks hold the state)", false,
         [](GuiOptions& o, const std::string& v) {
             if (v.empty()) throw UsageError("--session needs a file name");
             o.session = v;
         }},
        {"--set", "KEY=VALUE", "set a parameter (repeatable; after the session, in order; see PARAMETERS)", false,
         [](GuiOptions& o, const std::string& v) { o.sets.push_back(v); }},
        {"--fresh", nullptr, "start from the defaults (and a UI zoom of 100%), not the state kept at the last quit", false, [](GuiOptions& o, const std::string&) { o.fresh = true; }},
        {"--lessons", "FILE", "step through this lesson file instead of the built-in lesson", false,
         [](GuiOptions& o, const std::string& v) {
             if (v.empty()) throw UsageError("--lessons needs a lesson file (JSON, see docs/teaching.md: Lesson files)");
             o.lessons_file = v;
         }},
        {"--lesson", "N", "open the lesson at step N (from 1)", false,
         [](GuiOptions& o, const std::string& v) { o.lesson = static_cast<int>(whole_flag("--lesson", v, 1, 1000000, "a lesson step")); }},
        {"--size", "WxH", "the window's size in pixels (320x240 to 16384x16384)", false,
         [](GuiOptions& o, const std::string& v) {
             if (!parse_size(v, o.width, o.height))
                 throw UsageError(refusal("--size " + shorten_for_message(v), "", "WIDTHxHEIGHT, each from 320/240 to 16384 (e.g. 1920x1080)"));
             o.size_given = true;
         }},
        {"--theme", "NAME", theme_help.c_str(), false,
         [](GuiOptions& o, const std::string& v) {
             if (!plot::theme_from_name(v)) throw UsageError(refusal("--theme " + shorten_for_message(v), "", plot::theme_names()));
             o.theme = v;
             o.theme_given = true;
         }},
        {"--reduced-motion", nullptr, "less motion: Play does not start by itself (a session's animation opens paused), the laser pointer leaves no trail, the text cursor does not blink; exported animations are unchanged", false,
         [](GuiOptions& o, const std::string&) { o.reduced_motion = true; }},
        {"--ui-scale", "S", "the size of type and controls, 0.5 to 4 (default: the monitor's; also ROPE_UI_SCALE)", false,
         [](GuiOptions& o, const std::string& v) {
             NumberRule scale;
             scale.min = 0.5;
             scale.max = 4;
             const std::optional<double> s = read_number(v, scale);
             if (!s) throw UsageError(refusal("--ui-scale " + shorten_for_message(v), "", scale.describe()));
             o.ui_scale = static_cast<float>(*s);
         }},
        {"--screenshot", "PATH", "write a PNG of the window once every picture is there (the session in its text chunks)", false,
         [](GuiOptions& o, const std::string& v) {
             if (v.empty()) throw UsageError("--screenshot needs a file name");
             o.screenshot = v;
         }},
        {"--quit", nullptr, "quit after the screenshot", false, [](GuiOptions& o, const std::string&) { o.quit = true; }},
        {"--bench-frames", "N", "frame times of N frames, latency to the final picture, per-panel build and draw times", true,
         [](GuiOptions& o, const std::string& v) { o.bench_frames = static_cast<int>(whole_flag("--bench-frames", v, 1, 1000000, "frames")); }},
        {"--sweep", "KEY[,KEY...]", "with --bench-frames: move each key one slider step a frame, in turn", true,
         [](GuiOptions& o, const std::string& v) { o.sweep_keys = sweep_keys(v); }},
        {"--soak-frames", "N", "N frames of random parameter changes, then a memory report", true,
         [](GuiOptions& o, const std::string& v) { o.soak_frames = static_cast<int>(whole_flag("--soak-frames", v, 1, 10000000, "frames")); }},
        {"--seed", "S", "the random seed of --soak-frames", true,
         [](GuiOptions& o, const std::string& v) { o.seed = static_cast<unsigned long long>(whole_flag("--seed", v, 0, 9007199254740992.0, "")); }},
        {"--lesson-walk", "DIR", "Page Down through the lesson and Page Up back, a PNG of each step into DIR", true,
         [](GuiOptions& o, const std::string& v) {
             if (v.empty()) throw UsageError("--lesson-walk needs a folder for the pictures");
             o.lesson_walk = v;
         }},
        {"--state-file", "FILE", "while the window is settled (no input waiting, every picture final), rewrite FILE (every 50 ms) with its session, its status line and settled_at, a steady-clock time by which all input sent before it was taken and drawn: a script sending input waits for what it should produce", true,
         [](GuiOptions& o, const std::string& v) {
             if (v.empty()) throw UsageError("--state-file needs a file name");
             o.state_file = v;
         }},
    };
    return flags;
}

GuiOptions parse_gui_options(int argc, char** argv, int first) {
    using cli::UsageError;
    GuiOptions o;
    cli::ArgCursor args(argc, argv, first);
    while (!args.done()) {
        bool taken = false;
        for (const GuiFlag& flag : gui_flags()) {
            std::string value;
            if (flag.value ? args.take_option(flag.name, value) : args.take_flag(flag.name)) {
                flag.apply(o, value);
                taken = true;
                break;
            }
        }
        if (taken) continue;
        if (!args.peek().empty() && args.peek()[0] != '-') {
            open_file_argument(args.next(), o);  // a file manager's "Open with" (the .desktop entry's %f)
        } else {
            throw UsageError("unknown option '" + shorten_for_message(args.peek()) + "' (see --help)");
        }
    }
    if (!o.sweep_keys.empty() && o.bench_frames == 0) throw UsageError("--sweep needs --bench-frames N");
    return o;
}

}  // namespace rope::gui
