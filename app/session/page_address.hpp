// The browser page's address as the app's state: `rope-explorer.html#preset=llama-3-8b&position=1000`.
// The fragment holds parameters by the keys of --set, and the view keys
//   lesson=N          a lesson step (1-based), as --lesson N
//   presentation=1    presentation mode (0 leaves it)
//   page=N|NAME       a page of panels (1-based, or its name)
//   panel=FIGURE      a panel maximised (vectors, heatmap, ...)
//   theme=dark|light|high_contrast
//   embed=FIGURE      one panel alone, filling the page (for an <iframe>)
//   bench-frames=N, sweep=KEY[,KEY...]   the frame benchmark, as the desktop's flags
// Pairs are joined by '&', each "key=value", percent-encoded. A pair that is wrong is refused with
// one line (the key, the value, what is allowed) and the rest apply. Pure text: no I/O, no GUI.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rope/params.hpp"
#include "session/session.hpp"

namespace rope::session {

struct PageAddress {
    std::vector<std::string> sets;  // "key=value" of the parameters, in the address's order
    int lesson = 0;                 // 1-based; 0: none asked
    std::optional<bool> presentation;
    std::optional<int> page;        // 0-based
    std::optional<int> maximized;   // the panel's index (figures::figure_at)
    std::optional<std::string> theme;
    std::string embed;              // a figure's name, or ""
    int bench_frames = 0;
    std::vector<ParamId> sweep;
    std::vector<std::string> errors;  // one line each, for the status line and the console
};

// Reads an address's fragment ("#a=b&c=d" or "a=b&c=d"; an empty one asks for nothing).
PageAddress parse_page_address(std::string_view fragment);

// The fragment (without '#') that reopens this state: the parameters that differ from the defaults
// (the preset first), then the view keys that differ from a fresh start's.
std::string page_address_of(const ParamSet& params, const ViewState& view, const std::string& embed = "");

// %XX for every byte but letters, digits and -_.~,:/ ; and back (a bad escape stays as it is).
std::string percent_encode(std::string_view text);
std::string percent_decode(std::string_view text);

}  // namespace rope::session
