#include "cli/export_command.hpp"

#include <charconv>
#include <cmath>
#include <iostream>
#include <tuple>

#include "export/animation.hpp"
#include "export/export.hpp"
#include "export/handout.hpp"
#include "lessons/lessons.hpp"
#include "io/atomic_file.hpp"
#include "plot/style.hpp"

namespace rope::cli {

namespace {

using figures::figure_names;

// "800x480; 1280x720 for context": the registry's default sizes.
std::string default_sizes() {
    const figures::FigureDescriptor& first = *figures::all_figures().front();
    std::string s = std::to_string(first.export_width) + "x" + std::to_string(first.export_height);
    for (const figures::FigureDescriptor* d : figures::all_figures())
        if (d->export_width != first.export_width || d->export_height != first.export_height)
            s += "; " + std::to_string(d->export_width) + "x" + std::to_string(d->export_height) + " for " + std::string(d->name);
    return s + "; with compare_to, where B is a second picture, twice the height + 60 (A above B)";
}

// A flag's number the rule allows (the one parser), or a UsageError in the one shape of a refusal.
double flag_number(const std::string& flag, const std::string& text, const NumberRule& rule) {
    const std::optional<double> v = rule.whole ? [&]() -> std::optional<double> {
        const std::optional<std::int64_t> n = parse_integer(text);  // as typed: "60", not "60.0"
        return n ? std::optional<double>(static_cast<double>(*n)) : std::nullopt;
    }() : parse_number(text);
    if (!v || !rule.allows(*v)) throw UsageError(refusal(flag + " " + shorten_for_message(text), "", rule.describe()));
    return *v;
}

NumberRule whole_rule(double lo, double hi, std::string_view unit = "") {
    NumberRule r;
    r.min = lo;
    r.max = hi;
    r.whole = true;
    r.unit = unit;
    return r;
}

int parse_count(const std::string& flag, const std::string& text, int lo, int hi) {
    return static_cast<int>(flag_number(flag, text, whole_rule(lo, hi)));
}

// "      vectors: pair, fan, qk" for every figure, wrapped before 100 columns.
std::string plots_by_figure() {
    std::string s;
    for (const figures::FigureDescriptor* d : figures::all_figures()) {
        std::string line = "      " + std::string(d->name) + ":";
        for (std::size_t i = 0; i < d->plots.size(); ++i) {
            const std::string item = " " + std::string(d->plots[i].name) + (i + 1 < d->plots.size() ? "," : "");
            if (line.size() + item.size() > 99) s += line + "\n", line = "       ";
            line += item;
        }
        s += line + "\n";
    }
    return s;
}

// "  .png   pixels drawn by cairo, ..." for each format of the kinds, from the table of formats.
std::string format_list(std::initializer_list<exporting::FormatKind> kinds) {
    std::string s;
    for (exporting::FormatKind kind : kinds)
        for (const exporting::FileFormatInfo* f : exporting::formats_of(kind)) {
            std::string ext = f->extension == "/" ? "DIR/" : std::string(f->extension);
            ext.resize(std::max<std::size_t>(ext.size(), 7), ' ');
            s += "  " + ext + std::string(f->help) + "\n";
        }
    return s;
}

// export --animate: everything checked before the first frame is drawn.
int run_animation(const figures::FigureDescriptor& figure, const std::string& out, const std::string& animate,
                  const std::string& frames_text, const std::string& fps_text, exporting::ExportOptions options,
                  const std::vector<std::string>& sets, bool print_alt) {
    if (animate.empty()) throw UsageError(std::string(frames_text.empty() ? "--fps" : "--frames") + ": only with --animate KEY=FROM:TO");
    exporting::Animation animation;
    try {
        animation = exporting::parse_animate(animate);
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
    if (!frames_text.empty()) animation.frames = parse_count("--frames", frames_text, exporting::kMinFrames, exporting::kMaxFrames);
    if (!fps_text.empty()) animation.fps = parse_count("--fps", fps_text, exporting::kMinFps, exporting::kMaxFps);
    using exporting::FormatKind;
    const exporting::FileFormatInfo* format = exporting::format_for_path(out);
    if (format && format->kind != FormatKind::animation && !format->animates)
        throw UsageError("--out " + shorten_for_message(out) + ": a " + std::string(format->name) + " file holds one picture; --animate writes " +
                         exporting::extensions_text({FormatKind::animation}));
    if (!format)
        throw UsageError("--out " + shorten_for_message(out) + ": unknown file type for an animation; use " +
                         exporting::extensions_text({FormatKind::animation}));
    ParamSet params;
    apply_sets(params, sets);
    options.path = out;
    try {
        const exporting::ExportResult result = exporting::export_animation(figure, params, animation, options);
        if (print_alt) std::cout << result.alt << "\n";
    } catch (const io::IoError& e) {
        throw RuntimeFailure(e.what());
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
    return 0;
}

// "      student    to give out before class: ..." for each kind of handout, wrapped before 100 columns.
std::string handout_kind_list() {
    std::string s;
    for (const exporting::HandoutKindInfo& k : exporting::handout_kinds()) {
        std::string line = "      " + std::string(k.name);
        line.resize(std::max<std::size_t>(line.size(), 19), ' ');
        const std::string help(k.help);
        for (std::size_t at = 0; at < help.size();) {
            const std::size_t end = std::min(help.find(' ', at), help.size());
            const std::string word = help.substr(at, end - at);
            if (line.size() + 1 + word.size() > 99) s += line + "\n", line = std::string(19, ' ');
            line += " " + word;
            at = end + 1;
        }
        s += line + "\n";
    }
    return s;
}

}  // namespace

std::string export_help() {
    return "Usage: rope-explorer export FIGURE --out PATH [--scale S] [--width W --height H] [--theme " + plot::theme_names("|") + "]\n"
           "                            [--clean] [--no-title] [--plot NAME] [--full-resolution] [--alt] [--set key=value]...\n"
           "       rope-explorer export FIGURE --out PATH --animate KEY=FROM:TO [--frames N] [--fps F] [options above]\n"
           "       rope-explorer export lesson [--lessons FILE] --out FILE.pdf [--handout " + exporting::handout_kind_names("|") + "] [--theme " + plot::theme_names("|") + "]\n"
           "Writes one figure as a file, without a display. FIGURE: " + figure_names() + ".\n"
           "The extension of --out picks the format:\n" + format_list({exporting::FormatKind::picture, exporting::FormatKind::table}) +
           "  --out PATH        the file to write (written whole or not at all; the folder must exist)\n"
           "  --scale S         PNG pixels per figure pixel, 0.25 to 8 (2 = the same figure for hi-DPI)\n"
           "  --width W --height H   figure size in pixels at scale 1, 200 to 8000 (default " + default_sizes() +
               "); one of them alone: the other keeps the figure's own aspect\n"
           "  --theme " + plot::theme_names("|") + "   colours (default light)\n"
           "  --clean           leave out the cursor and selection marks: the position m and distance n - m\n"
           "                    marker lines, the selected pair's line and highlight, the score matrix's box and\n"
           "                    dashed diagonal (the vectors panel's arrows are its subject and stay)\n"
           "  --no-title        leave out the figure's title (with --plot, the plot's title too)\n"
           "  --plot NAME       one plot of the figure alone, at --width x --height; the names:\n" +
           plots_by_figure() +
           "  --full-resolution      heatmap .csv only: one row per position and pair instead of one per cell\n"
           "                         (at most 1048576 rows; narrow it with heatmap_from and heatmap_to)\n"
           "  --alt             print what the picture shows in words (its alt text, which PNG, SVG, PDF and\n"
           "                    HTML files carry for screen readers); without --out, print it only\n"
           "  --set key=value   parameters, as for compute and the app (see --help)\n"
           "--clean, --no-title and --plot change the picture only: with a .csv they are refused.\n"
           "Animations: KEY, an integer or real parameter the figure depends on, moves from FROM to TO\n"
           "(both values KEY allows).\n"
           "  --animate KEY=FROM:TO   integers step evenly (rounded; even keys such as dim stay even), reals\n"
           "                    step in log space when their slider is logarithmic (base), else linearly\n"
           "  --frames N        frames, 2 to 1000 (default 60); the first is FROM and the last TO\n"
           "  --fps F           frames per second, 1 to 120 (default 30); a GIF counts in 1/100 s, so 30 fps\n"
           "                    plays as delays of 3, 4, 3, ... and anything above 50 fps as 50\n"
           "  The PATH picks the format (a folder must be new or empty; a GIF's palette is exact when the\n"
           "  frames have at most 255 colours):\n" + format_list({exporting::FormatKind::animation}) +
           "  Every frame has the same size, drawn as the .png export draws the figure at that value; an\n"
           "  .html page holds the frames as vectors (--scale does not apply) under a slider.\n"
           "Handouts: export lesson writes the lesson (the built-in one, or --lessons FILE) as an A4 PDF: the\n"
           "steps follow on down the pages, each picture (vector, as the .pdf export draws it with the step's\n"
           "parameters) as large as the page has room for; the text is searchable.\n"
           "  --handout KIND    whose handout (default " + std::string(exporting::handout_kinds().front().name) + "):\n" +
           handout_kind_list();
}

// export lesson: the lesson (built in, or --lessons FILE) as a PDF handout. Only --out, --handout and --theme apply.
int run_handout(const std::string& lessons_file, const std::string& out, exporting::HandoutKind kind, plot::ThemeId theme,
                const std::string& other_option) {
    if (!other_option.empty())
        throw UsageError("export lesson: " + other_option + " is a figure's option; a handout takes --lessons FILE, --out FILE.pdf, --handout " +
                         exporting::handout_kind_names("|") + " and --theme " + plot::theme_names("|"));
    if (out.empty()) throw UsageError("export lesson: --out FILE.pdf is required");
    if (out.size() < 4 || out.compare(out.size() - 4, 4, ".pdf") != 0)
        throw UsageError("--out " + shorten_for_message(out) + ": a handout is a PDF (--out FILE.pdf)");
    std::shared_ptr<const lessons::Lesson> lesson = lessons::builtin_lesson_shared();
    if (!lessons_file.empty()) {
        try {
            lesson = lessons::read_lesson_file(lessons_file);
        } catch (const session::SessionError& e) {
            throw UsageError(e.what());
        }
    }
    try {
        exporting::write_handout(*lesson, out, kind, theme);
    } catch (const io::IoError& e) {
        throw RuntimeFailure(e.what());
    }
    return 0;
}

int run_export(ArgCursor& args, const Services& services) {
    std::string figure_name, out, lessons_file, handout;
    std::string first_picture_option;  // a figure's option, which a handout does not take
    exporting::ExportOptions options;
    options.read_trained = services.read_trained;
    std::vector<std::string> sets;
    bool width_given = false, height_given = false;
    std::string animate, frames_text, fps_text;
    bool print_alt = false;
    while (!args.done()) {
        std::string value;
        if (args.take_flag("--help") || args.take_flag("-h")) {
            std::cout << export_help();
            return 0;
        }
        if (args.take_option("--lessons", value)) {
            if (value.empty()) throw UsageError("--lessons needs a lesson file (JSON, see docs/teaching.md: Lesson files)");
            lessons_file = value;
            continue;
        }
        if (args.take_option("--handout", value)) {
            if (!exporting::find_handout_kind(value))
                throw UsageError(refusal("--handout " + shorten_for_message(value), "", exporting::handout_kind_names(" or ")));
            handout = value;
            continue;
        }
        if (args.take_option("--set", value)) {
            sets.push_back(value);
            if (first_picture_option.empty()) first_picture_option = "--set";
        } else if (args.take_option("--out", value) || args.take_option("-o", value)) {
            out = value;
        } else if (args.take_option("--scale", value)) {
            if (first_picture_option.empty()) first_picture_option = "--scale";
            NumberRule scale;
            scale.min = exporting::kMinScale;
            scale.max = exporting::kMaxScale;
            options.scale = flag_number("--scale", value, scale);
        } else if (args.take_option("--width", value)) {
            if (first_picture_option.empty()) first_picture_option = "--width";
            options.width = static_cast<int>(flag_number("--width", value, whole_rule(exporting::kMinSize, exporting::kMaxSize, "pixels")));
            width_given = true;
        } else if (args.take_option("--height", value)) {
            if (first_picture_option.empty()) first_picture_option = "--height";
            options.height = static_cast<int>(flag_number("--height", value, whole_rule(exporting::kMinSize, exporting::kMaxSize, "pixels")));
            height_given = true;
        } else if (args.take_flag("--clean")) {
            if (first_picture_option.empty()) first_picture_option = "--clean";
            options.clean = true;
        } else if (args.take_flag("--no-title")) {
            if (first_picture_option.empty()) first_picture_option = "--no-title";
            options.no_title = true;
        } else if (args.take_option("--plot", value)) {
            if (first_picture_option.empty()) first_picture_option = "--plot";
            if (value.empty()) throw UsageError("--plot: needs a plot's name (see export --help)");
            options.plot = value;
        } else if (args.take_option("--animate", value)) {
            if (first_picture_option.empty()) first_picture_option = "--animate";
            animate = value;
        } else if (args.take_option("--frames", value)) {
            if (first_picture_option.empty()) first_picture_option = "--frames";
            frames_text = value;
        } else if (args.take_option("--fps", value)) {
            if (first_picture_option.empty()) first_picture_option = "--fps";
            fps_text = value;
        } else if (args.take_flag("--alt")) {
            if (first_picture_option.empty()) first_picture_option = "--alt";
            print_alt = true;
        } else if (args.take_flag("--full-resolution")) {
            if (first_picture_option.empty()) first_picture_option = "--full-resolution";
            options.full_resolution = true;
        } else if (args.take_option("--theme", value)) {
            const std::optional<plot::ThemeId> theme = plot::theme_from_name(value);
            if (!theme) throw UsageError(refusal("--theme " + shorten_for_message(value), "", plot::theme_names()));
            options.theme = *theme;
        } else {
            const std::string a = args.next();
            if (!a.empty() && a[0] == '-') throw UsageError("export: unknown option '" + shorten_for_message(a) + "' (see export --help)");
            if (!figure_name.empty()) throw UsageError("export: one figure at a time (got '" + figure_name + "' and '" + shorten_for_message(a) + "')");
            figure_name = a;
        }
    }
    if (figure_name == "lesson") {
        const exporting::HandoutKind kind = handout.empty() ? exporting::handout_kinds().front().kind : exporting::find_handout_kind(handout)->kind;
        return run_handout(lessons_file, out, kind, options.theme, first_picture_option);
    }
    if (!handout.empty()) throw UsageError("--handout: only export lesson writes a handout (export lesson --handout " + handout + " --out FILE.pdf)");
    if (!lessons_file.empty()) throw UsageError("--lessons: only export lesson takes a lesson file (export lesson --lessons FILE --out FILE.pdf)");
    if (figure_name.empty()) throw UsageError("export: which figure? one of: " + figure_names() + "; or lesson (a PDF handout)");
    const figures::FigureDescriptor* figure = figures::find_figure(figure_name);
    if (!figure) throw UsageError("export: unknown figure '" + shorten_for_message(figure_name) + "'; figures are: " + figure_names());
    // the figure's own size, taller with model B's picture under A's (bad --set values are refused below)
    std::pair<int, int> size{figure->export_width, figure->export_height};
    try {
        ParamSet params;
        apply_sets(params, sets);
        size = figures::default_export_size(*figure, params);
    } catch (const std::exception&) {
    }
    // one side given: the other follows the figure's own aspect (a 700-wide picture keeps its type's size)
    std::tie(options.width, options.height) =
        exporting::size_keeping_aspect(size, width_given ? options.width : 0, height_given ? options.height : 0);
    if (out.empty() && print_alt && animate.empty() && frames_text.empty() && fps_text.empty()) {
        // the words a .png of these options would carry; the picture's options checked as for one
        if (options.full_resolution) throw UsageError("--full-resolution: only for a .csv file, not --alt");
        if (const std::string problem = exporting::picture_options_problem(*figure, options, exporting::file_format(exporting::FileFormat::png));
            !problem.empty())
            throw UsageError(problem);
        ParamSet params;
        apply_sets(params, sets);
        try {
            std::cout << exporting::figure_alt_text(*figure, params, options) << "\n";
        } catch (const std::invalid_argument& e) {
            throw UsageError(e.what());
        }
        return 0;
    }
    if (out.empty())
        throw UsageError("export: --out PATH is required (the extension picks the format: " +
                         exporting::extensions_text({exporting::FormatKind::picture, exporting::FormatKind::table}) + ")");
    if (!animate.empty() || !frames_text.empty() || !fps_text.empty())
        return run_animation(*figure, out, animate, frames_text, fps_text, options, sets, print_alt);
    const exporting::FileFormatInfo* format = exporting::format_for_path(out);
    if (!format || format->kind == exporting::FormatKind::animation)
        throw UsageError("--out " + shorten_for_message(out) + ": unknown file type; use " +
                         exporting::extensions_text({exporting::FormatKind::picture, exporting::FormatKind::table}));
    if (const std::string problem = exporting::picture_options_problem(*figure, options, *format); !problem.empty())
        throw UsageError(problem);
    ParamSet params;
    apply_sets(params, sets);
    options.path = out;
    try {
        const exporting::ExportResult result = exporting::export_figure(*figure, params, options);
        if (print_alt) std::cout << result.alt << "\n";
    } catch (const io::IoError& e) {
        throw RuntimeFailure(e.what());
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
    return 0;
}

}  // namespace rope::cli
