// The window's command-line options (everything but `compute` and `export`). In the command-line
// library, though the window reads them, so that --help and the man page print the same table.
#pragma once

#include <string>
#include <vector>

#include "rope/param_ids.hpp"

namespace rope::gui {

struct GuiOptions {
    std::vector<std::string> sets;  // --set key=value, in order
    std::string screenshot;         // --screenshot PATH
    bool quit = false;              // --quit (after the screenshot)
    int width = 1600, height = 900; // --size WxH
    bool size_given = false;
    int bench_frames = 0;           // --bench-frames N
    std::vector<ParamId> sweep_keys;  // --sweep KEY[,KEY...]: each swept for bench_frames frames in turn
    std::string theme = "dark";     // --theme: a name of plot::kThemeNames
    float ui_scale = 0;             // --ui-scale S (0: the monitor's content scale; env ROPE_UI_SCALE)
    std::string session;            // --session FILE (JSON, or a PNG the app exported)
    bool fresh = false;             // --fresh: start from the defaults, not the last session
    int lesson = 0;                 // --lesson N: open the lesson at step N (1-based)
    std::string lessons_file;       // --lessons FILE: the lesson file the lesson window steps through
    bool theme_given = false;
    bool reduced_motion = false;    // --reduced-motion: no Play by itself, no transitions
    int soak_frames = 0;            // --soak-frames N: random parameter changes every frame, memory report
    unsigned long long seed = 1;    // --seed S for --soak-frames
    std::string lesson_walk;        // --lesson-walk DIR: every lesson step forward and back, a PNG each
    std::string state_file;         // --state-file FILE: the state written there each time the window settles
    std::string file;               // rope-explorer FILE (opened as the flag for its kind)
};

// One flag of the window's command line: the single source of its parsing, the --help usage and
// the man page.
struct GuiFlag {
    const char* name;   // "--size"
    const char* value;  // "WxH"; nullptr for a switch
    const char* help;
    bool for_tests;     // the benchmark's and the test drivers'
    void (*apply)(GuiOptions& options, const std::string& value);  // throws cli::UsageError
};
const std::vector<GuiFlag>& gui_flags();

// Parses the window's flags (after the program name); throws cli::UsageError.
GuiOptions parse_gui_options(int argc, char** argv, int first);


}  // namespace rope::gui
