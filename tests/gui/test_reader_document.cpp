// The document for screen readers beside the page's canvas (gui/app/reader_document.hpp), read off a
// headless app: what it holds follows the state, what people do in it is the ImGui control's action
// (one undo step each), and the live region's words carry the numbers the core computes.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "export/still_writers.hpp"
#include "gui/app/reader_document.hpp"
#include "support/headless_app.hpp"
#include "support/temp_dir.hpp"

using nlohmann::json;
using rope::gui::ReaderDocument;

namespace {

class ReaderDocumentTest : public rope::test::TempDirTest {};

const json* reader_control(const json& doc, const std::string& key) {
    for (const json& section : doc["controls"])
        for (const json& c : section["items"])
            if (c["key"] == key) return &c;
    return nullptr;
}

void reader_act(rope::test::HeadlessApp& h, const json& request) {
    rope::gui::Actions asked = ReaderDocument::actions_of(request.dump(), h.app());
    h.app().apply(asked);
    h.settle();
}

}  // namespace

// The example the issue gives: position 8 turns pair 0 (theta 1 rad/token at base 10000) by 8 rad.
TEST(ReaderWords, APositionChangeSaysHowFarPairZeroTurned) {
    rope::ParamSet before, now;
    now.set("position", "8");
    EXPECT_EQ(rope::gui::change_words(before, now, {1.0, 0.1}), "position m 8: pair 0 turned 8.00 rad, 458°");
    now.set("pair", "1");
    EXPECT_EQ(rope::gui::change_words(before, now, {1.0, 0.1}), "position m 8 (and 1 other setting): pair 1 turned 0.80 rad, 46°");
    rope::ParamSet model;
    model.set("preset", "llama-3-8b");
    EXPECT_EQ(rope::gui::change_words(before, model, {1.0}).rfind("model llama-3-8b, Llama 3 8B: pair 0 turned 0.00 rad, 0°", 0), 0u)
        << rope::gui::change_words(before, model, {1.0});
    EXPECT_EQ(rope::gui::change_words(before, before, {1.0}), "");
    rope::ParamSet range = before;
    range.set("heatmap_to", "100");
    EXPECT_EQ(rope::gui::change_words(before, range, {1.0}).find("turned"), std::string::npos);  // no angle for a range
}

TEST(ReaderWords, ATableKeepsItsFirstAndLastRowsAndQuotedCells) {
    std::string csv = "a,b\n";
    for (int i = 0; i < 100; ++i) csv += std::to_string(i) + "," + std::to_string(i * i) + "\n";
    const rope::gui::ReaderTable t = rope::gui::reader_table_of_csv(csv);
    EXPECT_EQ(t.columns, (std::vector<std::string>{"a", "b"}));
    EXPECT_EQ(t.all_rows, 100u);
    ASSERT_EQ(t.rows.size(), rope::gui::ReaderTable::kRows);
    EXPECT_EQ(t.rows.front()[0], "0");
    EXPECT_EQ(t.rows.back()[1], "9801");
    const rope::gui::ReaderTable q = rope::gui::reader_table_of_csv("key,value\nrope_scaling,\"{\"\"type\"\": 1, x}\"\n");
    ASSERT_EQ(q.rows.size(), 1u);
    EXPECT_EQ(q.rows[0][1], "{\"type\": 1, x}");
}

// The reader's short table is written from six rows of the figure's table, not from its whole CSV (a
// heatmap's is 300,000 numbers): the same six lines the whole CSV has at those rows.
TEST(ReaderWords, ASampledTableIsTheWholeCsvsLinesAtEvenlySpreadRows) {
    rope::figures::DataTable t;
    t.columns = {"position", "angle"};
    t.values = {{}, {}};
    for (int r = 0; r < 100; ++r) {
        t.values[0].push_back(r);
        t.values[1].push_back(r * 0.1);
    }
    std::vector<std::string> all;
    const std::string whole = rope::exporting::table_csv(t);
    for (std::size_t at = 0; at < whole.size();) {
        const std::size_t end = whole.find('\n', at);
        all.push_back(whole.substr(at, end - at));
        at = end + 1;
    }
    std::string expected = all[0] + "\n";
    for (const int row : {0, 19, 39, 59, 79, 99}) expected += all[static_cast<std::size_t>(1 + row)] + "\n";
    EXPECT_EQ(rope::exporting::table_csv_sample(t, 6), expected);
    EXPECT_EQ(rope::exporting::table_csv_sample(t, 1000), whole);  // fewer rows than asked: all of them
    const rope::gui::ReaderTable shown = rope::gui::reader_table_of_csv(rope::exporting::table_csv_sample(t, rope::gui::ReaderTable::kRows));
    ASSERT_EQ(shown.rows.size(), 6u);
    EXPECT_EQ(shown.rows.back()[0], "99");
    EXPECT_EQ(shown.rows.back()[1], "9.9");
}

TEST_F(ReaderDocumentTest, HoldsWhatTheScreenShowsAndActsAsTheControlsDo) {
    setenv("XDG_STATE_HOME", path("state").c_str(), 1);
    rope::test::HeadlessApp h({"--fresh", "--set", "preset=llama-3-8b"}, 1280, 720, true);
    ASSERT_TRUE(h.settle());
    ReaderDocument reader;
    while (reader.build_one_table(h.app())) {
    }
    json doc = json::parse(reader.json(h.app()));
    EXPECT_EQ(doc["title"], "RoPE Explorer: Basics");
    const json* position = reader_control(doc, "position");
    ASSERT_TRUE(position);
    EXPECT_EQ((*position)["kind"], "range");
    EXPECT_EQ((*position)["valuetext"], "0 tokens");
    EXPECT_EQ((*position)["max"], 8191);
    const json* base = reader_control(doc, "base");
    ASSERT_TRUE(base);
    EXPECT_EQ((*base)["scale"], "log");
    EXPECT_NEAR((*base)["value"].get<double>(), std::log10(500000.0), 1e-12);
    ASSERT_GE(doc["panels"].size(), 1u);
    for (const json& p : doc["panels"]) {
        EXPECT_NE(p["alt"].get<std::string>().find("Llama 3 8B"), std::string::npos) << p["alt"];
        ASSERT_TRUE(p.contains("table")) << p["name"];
    }
    EXPECT_TRUE(doc["lesson"].is_null());

    // a slider's value: one undo step, and the live region says it
    const std::size_t undo_before = h.state().history().undo_entries().size();
    reader_act(h, {{"set", "position"}, {"value", "8"}});
    EXPECT_EQ(h.state().params().value_text(rope::ParamId::position), "8");
    EXPECT_EQ(h.state().history().undo_entries().size(), undo_before + 1);
    doc = json::parse(reader.json(h.app()));
    EXPECT_EQ(doc["live"], "position m 8: pair 0 turned 8.00 rad, 458°");
    EXPECT_EQ((*reader_control(doc, "position"))["valuetext"], "8 tokens");
    EXPECT_FALSE(doc["panels"][0].contains("table"));  // its table was of position 0: built again between frames
    EXPECT_TRUE(reader.build_one_table(h.app()));

    // a value the table refuses changes nothing and is said
    reader_act(h, {{"set", "position"}, {"value", "-3"}});
    EXPECT_EQ(h.state().params().value_text(rope::ParamId::position), "8");
    doc = json::parse(reader.json(h.app()));
    EXPECT_TRUE(h.state().status_error);
    EXPECT_EQ(doc["live"], h.state().status);

    // the page, the lesson, a question answered
    reader_act(h, {{"page", 1}});
    EXPECT_EQ(h.state().page, 1);
    reader_act(h, {{"lesson", "open"}});
    reader_act(h, {{"lesson", "next"}});  // step 2 asks its question
    ASSERT_TRUE(h.state().asking());
    doc = json::parse(reader.json(h.app()));
    EXPECT_EQ(doc["lesson"]["step"], 2);
    EXPECT_EQ(doc["lesson"]["question"]["choices"].size(), 4u);
    reader_act(h, {{"guess", 2}});
    EXPECT_EQ(h.state().guess_choice, 2);
    reader_act(h, {{"lesson", "reveal"}});
    EXPECT_FALSE(h.state().asking());
    doc = json::parse(reader.json(h.app()));
    EXPECT_EQ(doc["live"].get<std::string>().rfind("Answer: C)", 0), 0u) << doc["live"];
    reader_act(h, {{"do", "undo"}});
    EXPECT_TRUE(h.state().asking());
    // nonsense is no action
    EXPECT_TRUE(ReaderDocument::actions_of("{\"set\": \"no_such_key\", \"value\": 1}", h.app()).list().empty());
    EXPECT_TRUE(ReaderDocument::actions_of("not json", h.app()).list().empty());

    // a figure's buttons write its file at once: the export dialog is drawn in the canvas, where a
    // screen reader cannot read it
    const auto numbers = ReaderDocument::actions_of("{\"numbers\": 0}", h.app()).list();
    ASSERT_EQ(numbers.size(), 1u);
    const auto* write = std::get_if<rope::gui::act::OpenExportDialog>(&numbers[0]);
    ASSERT_TRUE(write);
    EXPECT_EQ(write->panel, 0);
    EXPECT_FALSE(write->recording);
    EXPECT_EQ(write->write, rope::gui::act::OpenExportDialog::numbers_now);
    // the status line's new words are said ("Saved …")
    reader.json(h.app());
    h.state().set_status("Saved rope-vectors.csv (8 ms).");
    EXPECT_EQ(json::parse(reader.json(h.app()))["live"], "Saved rope-vectors.csv (8 ms).");
}
