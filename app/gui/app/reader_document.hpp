// The app as a document for screen readers: what the canvas shows, in words and native controls.
// Dear ImGui draws everything into one canvas, which a screen reader reads as one picture; the page
// keeps a document beside it (assets/web/page.js builds it, as Flutter's web engine keeps a semantics
// tree beside its canvas): a heading naming the page, every control the Controls panel shows with
// its range and unit, the pages as tabs, each shown panel as a figure with its alt text and a few
// rows of its numbers, the open lesson step with its question, and one line saying what changed.
//
// This file says what that document holds, as JSON the page turns into elements, and reads back what
// people did in it as the actions the ImGui controls ask for (one undo step each, the same checks).
// It reads the state and the panels; it builds nothing a frame needs (the data tables are built in
// the time between frames, one a call, and kept by the values of their inputs).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gui/app/actions.hpp"
#include "rope/params.hpp"

namespace rope::gui {

class App;

// A few rows of a figure's table (its CSV export at the figure's own size), as text.
struct ReaderTable {
    std::vector<std::string> columns;
    std::vector<std::vector<std::string>> rows;  // at most kRows, spread over the whole table
    std::size_t all_rows = 0;                    // how many rows the whole table has
    static constexpr std::size_t kRows = 6, kColumns = 8;
};

// The rows `kRows` of `csv` (a CSV file's text) kept from first to last, evenly spread.
ReaderTable reader_table_of_csv(const std::string& csv);

// What changed between two states, in words, for the live region: "position m 8: pair 0 turned
// 8.00 rad, 458°" ("" when nothing a reader would hear changed). `theta` are the pairs' frequencies
// (rad/token) of `now`.
std::string change_words(const ParamSet& before, const ParamSet& now, const std::vector<double>& theta);

class ReaderDocument {
public:
    // The document for the app's state now (JSON; see page.js for its elements). Cheap: no figure
    // is built here; a panel whose table is not built yet has none until build_one_table made it.
    std::string json(App& app);
    // Builds the table of one shown panel that has none for the current parameters; whether it did.
    bool build_one_table(App& app);
    // What the page's document asked for (a JSON object: {"set": key, "value": text}, {"page": i},
    // {"maximise": i}, {"export": i} (a PNG now), {"numbers": i} (a CSV
    // now), {"record": i} (an animation now), {"lesson": "open|close|next|back|reveal"},
    // {"guess": i}, {"do": "undo|redo|play|present"}, {"theme": name}), as the ImGui control asks;
    // refusals are said on the status line as theirs are.
    static Actions actions_of(const std::string& json, const App& app);

private:
    struct KeptTable {
        ParamSet params;  // the parameters it was built from
        ReaderTable table;
    };
    std::map<int, KeptTable> tables_;  // by panel index
    // what the live region said last, and the state it spoke of
    std::optional<ParamSet> spoken_params_;
    int spoken_page_ = -1, spoken_step_ = -2;
    bool spoken_asking_ = false;
    std::optional<std::string> spoken_status_;
    std::string live_;
};

}  // namespace rope::gui
