#include "cli/reference.hpp"

#include "cli/compute_command.hpp"
#include "cli/export_command.hpp"
#include "cli/help.hpp"
#include "cli/window_options.hpp"
#include "export/file_formats.hpp"
#include "figures/registry.hpp"
#include "gui/input/shortcut_list.hpp"
#include "rope/params.hpp"

namespace rope::cli {

namespace {

// "a,b,c" as "a, b, c", so that a long list of columns can break between lines.
std::string spaced(std::string_view list) {
    std::string out;
    for (const char c : list) out += c == ',' ? std::string(", ") : std::string(1, c);
    return out;
}

// A sentence ends with a full stop before the next one starts.
std::string sentence(std::string_view text) {
    std::string s(text);
    return !s.empty() && s.back() != '.' ? s + "." : s;
}

ReferenceSection window_section() {
    ReferenceBlock flags{"The window's flags: `rope-explorer [FILE] [flags]`. A FILE opens a session, a PNG the app exported, a lesson "
                         "file or a config.json, by its content; a folder opens as a model folder (--set model=DIR).",
                         {}, {}};
    for (const gui::GuiFlag& f : gui::gui_flags())
        if (!f.for_tests) flags.items.push_back({flag_usage(f), f.help});
    flags.items.push_back({"--help, -h", "print the usage, the figures and the parameters, and exit"});
    flags.items.push_back({"--version", "print the version and exit"});
    ReferenceBlock tests{"For tests and benchmarks:", {}, {}};
    for (const gui::GuiFlag& f : gui::gui_flags())
        if (f.for_tests) tests.items.push_back({flag_usage(f), f.help});
    return {"OPTIONS", {flags, tests}};
}

ReferenceSection key_section() {
    ReferenceBlock keys{"In the window (? or F1 lists them there too):", {}, {}};
    for (const gui::ShortcutHelp& s : gui::shortcut_list()) keys.items.push_back({s.keys, s.what});
    return {"KEYS", {keys}};
}

ReferenceSection compute_section() {
    ReferenceBlock tables{"`rope-explorer compute TABLE [--set key=value]...` prints one CSV table on standard output: a header row, then "
                          "rows; numbers in shortest round-trip form; angles in radians, wavelengths and positions in tokens.",
                          {}, {}};
    for (const TableInfo& t : compute_tables()) tables.items.push_back({std::string(t.name), sentence(t.help) + " Columns: " + spaced(t.columns) + "."});
    return {"COMPUTE TABLES", {tables}};
}

ReferenceSection format_section() {
    ReferenceBlock formats{"The extension of `--out` picks the format.", {}, {}};
    for (const exporting::FileFormatInfo& f : exporting::file_formats())
        formats.items.push_back({f.extension == "/" ? "DIR/" : std::string(f.extension), std::string(f.name) + ": " + std::string(f.help) + "."});
    return {"FILE FORMATS", {formats}};
}

ReferenceSection figure_section() {
    ReferenceBlock figures_block{"The panels, by number; `export FIGURE` takes the name.", {}, {}};
    for (const figures::FigureDescriptor* d : figures::all_figures()) {
        std::string plots;
        for (const figures::PlotDescriptor& p : d->plots) plots += (plots.empty() ? "" : ", ") + std::string(p.name);
        figures_block.items.push_back(
            {std::to_string(d->index + 1) + ". " + std::string(d->name),
             std::string(d->title) + " (page: " + std::string(figures::pages()[static_cast<std::size_t>(d->page)]) + "). Plots: " + plots +
                 ". CSV columns: " + spaced(d->csv_columns) + (d->name == "model_card" ? "" : ", then model_name where a model is named") + "."});
    }
    return {"FIGURES", {figures_block}};
}

ReferenceSection parameter_section() {
    ReferenceBlock params{"The keys of `--set key=value`: the same as the sliders, session files and the metadata of exported files.", {}, {}};
    for (const ParamSpec& p : parameter_table()) {
        const std::string def = !p.unset_means.empty() ? std::string(p.unset_means) : p.default_text.empty() ? "unset" : std::string(p.default_text);
        params.items.push_back({std::string(p.name), sentence(p.help) + " Allowed: " + p.allowed() + ". Default: " + def + "."});
    }
    return {"PARAMETERS", {params}};
}

// Markdown: `code` stays; a tag is code; the characters Markdown would read as emphasis or HTML are
// escaped (underscores inside names, as in heatmap_from, are not emphasis and stay as typed).
std::string markdown_text(const std::string& text) {
    std::string out;
    for (const char c : text) {
        if (c == '*' || c == '<' || c == '\\') out += '\\';
        out += c;
    }
    return out;
}

// A lead keeps its `code` spans as they are and escapes the rest.
std::string markdown_lead(const std::string& lead) {
    std::string out;
    bool code = false;
    std::string run;
    for (const char c : lead) {
        if (c == '`') {
            out += code ? "`" + run + "`" : markdown_text(run);
            run.clear();
            code = !code;
        } else {
            run += c;
        }
    }
    return out + (code ? "`" + run : markdown_text(run));
}

std::string title_case(const std::string& title) {
    std::string out;
    bool first = true;
    for (const char c : title) {
        out += first ? c : static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
        first = c == ' ';
    }
    return out;
}

}  // namespace

std::vector<ReferenceSection> reference_sections() {
    return {window_section(), key_section(),     compute_section(), {"EXPORT", {{"", {}, export_help()}}},
            format_section(), figure_section(), parameter_section()};
}

std::string reference_markdown() {
    std::string s = "<!-- Generated by `rope-explorer-man --markdown` from the program's own tables; do not edit. "
                    "Regenerate: build, then `build/app/rope-explorer-man --markdown > docs/reference.md`. -->\n\n"
                    "# RoPE Explorer reference\n\n"
                    "Every flag, key, `compute` table, file format, figure and parameter, from the tables the program itself reads "
                    "(the same as `--help` and the manual page, `man rope-explorer`).\n";
    for (const ReferenceSection& section : reference_sections()) {
        s += "\n## " + title_case(section.title) + "\n";
        for (const ReferenceBlock& block : section.blocks) {
            if (!block.lead.empty()) s += "\n" + markdown_lead(block.lead) + "\n";
            if (!block.items.empty()) s += "\n";
            for (const ReferenceItem& item : block.items) s += "- `" + item.tag + "`: " + markdown_text(item.text) + "\n";
            if (!block.verbatim.empty()) s += "\n```text\n" + block.verbatim + (block.verbatim.back() == '\n' ? "" : "\n") + "```\n";
        }
    }
    return s;
}

}  // namespace rope::cli
