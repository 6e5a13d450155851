#include "cli/help.hpp"

#include <algorithm>

#include "cli/compute_command.hpp"
#include "cli/window_options.hpp"
#include "figures/registry.hpp"
#include "rope/params.hpp"

namespace rope::cli {

std::string parameter_help() {
    std::string s = "Parameters (--set key=value; the same keys as the sliders, sessions and export metadata):\n";
    for (const ParamSpec& p : parameter_table()) {
        std::string def = !p.unset_means.empty() ? std::string(p.unset_means) : p.default_text.empty() ? "unset" : std::string(p.default_text);
        s += "  " + std::string(p.name) + "  [default " + def + "]  " + p.allowed() + "\n";
        s += "      " + std::string(p.help) + "\n";
    }
    s += "  config  [--set config=PATH]  a Hugging Face config.json: sets dim, base, rotary_fraction, pairing,\n"
         "      max_position and the scaling keys from it (transformers' rules), and layer_kinds, model_layers and\n"
         "      layer when it says how its layers differ; rope_axes, mrope_section and mrope_interleaved from a Qwen VL\n"
         "      config (M-RoPE); rope_axes, axial_frequencies and the grid from a Pixtral vision config; later --set\n"
         "      values refine it.\n"
         "  layer_type  [--set layer_type=NAME]  the layer shown: the first layer of that type (a name of the\n"
         "      config's layer_types, or a kind of the preset) in the model config= or preset= loads; default: the\n"
         "      first full-attention layer with RoPE. For a config without layers: which entry of a per-layer\n"
         "      rope_parameters dict to read (full_attention or sliding_attention).\n";
    return s;
}

std::string window_flags_help() {
    std::size_t column = 0;
    for (const gui::GuiFlag& f : gui::gui_flags()) column = std::max(column, flag_usage(f).size() + 4);
    std::string s = "Window flags:\n", tests = "For tests and benchmarks:\n";
    for (const gui::GuiFlag& f : gui::gui_flags()) {
        std::string usage = "  " + flag_usage(f);
        usage.resize(column, ' ');
        (f.for_tests ? tests : s) += usage + f.help + "\n";
    }
    return s + tests;
}

std::string flag_usage(const gui::GuiFlag& flag) { return std::string(flag.name) + (flag.value ? std::string(" ") + flag.value : ""); }

std::string compute_help() {
    std::string s =
        "Usage: rope-explorer compute TABLE [--set key=value]...\n"
        "Prints one CSV table to standard output: a header row, then rows; numbers in shortest\n"
        "round-trip form. Angles are in radians, wavelengths and positions in tokens.\n"
        "With --set compare_to=PRESET each table has a first column `model`: a for the current model's\n"
        "rows, then b for model B's (the table --set preset=PRESET after the same keys gives).\n\nTables:\n";
    for (const TableInfo& t : compute_tables())
        s += "  " + std::string(t.name) + "  (" + std::string(t.columns) + ")\n      " + std::string(t.help) + "\n";
    s += "\n" + parameter_help();
    s += "\nBad input prints one line on standard error and exits with status 2.\n";
    return s;
}

std::string main_help() {
    std::string s =
        "RoPE Explorer " ROPE_EXPLORER_VERSION " - see how Rotary Position Embedding works.\n\n"
        "Usage:\n"
        "  rope-explorer [FILE] [window flags]                open the app; FILE: a session, a PNG the app exported,\n"
        "                                                     a lesson file or a config.json (opened by its content)\n"
        "  rope-explorer compute TABLE [--set key=value]...   print a table as CSV (compute --help)\n"
        "  rope-explorer export FIGURE --out PATH [...]       write a figure file (export --help)\n"
        "  rope-explorer --help | --version\n\n" + window_flags_help() + "\nTables: ";
    bool first = true;
    for (const TableInfo& t : compute_tables()) {
        s += (first ? "" : ", ") + std::string(t.name);
        first = false;
    }
    s += "\n\nFigures (panels 1-" + std::to_string(figures::figure_count()) + "; export FIGURE takes the name):\n";
    std::size_t name_column = 0;  // the longest name and two spaces: every title starts in one column
    for (const figures::FigureDescriptor* d : figures::all_figures()) name_column = std::max(name_column, d->name.size() + 2);
    for (const figures::FigureDescriptor* d : figures::all_figures()) {
        const std::string key = figures::panel_key(d->index);
        std::string name(d->name);
        name.resize(name_column, ' ');
        const std::string number = std::to_string(d->index + 1);
        s += std::string(number.size() < 2 ? "   " : "  ") + number + "  " + name + std::string(d->title) + " (page: " +
             std::string(figures::pages()[static_cast<std::size_t>(d->page)]) + (key.empty() ? std::string() : "; key " + key) + ")\n";
    }
    s += "\n" + parameter_help();
    return s;
}

}  // namespace rope::cli
