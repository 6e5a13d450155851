// The page as a screen reader meets it (label web): the document beside the canvas
// (app/gui/app/reader_document.hpp, assets/web/page.js) read through Chromium's accessibility tree,
// operated only through that tree with real keys, and checked by axe-core (the rules engine
// browsers' own audits use) at defaults, in a lesson step, presenting and as an embed.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "figures/registry.hpp"
#include "rope/params.hpp"
#include "support/chromium.hpp"
#include "support/temp_dir.hpp"
#include "support/web_page.hpp"

using rope::test::Chromium;
using nlohmann::json;

namespace reader_page {

const std::string kUrl = rope::test::web_page_url();
const double kPatience = rope::test::web_deadline();  // seconds: only a real fault waits this long

class Reader : public rope::test::TempDirTest {
protected:
    std::unique_ptr<Chromium> browser(int width = 1280, int height = 720) {
        return std::make_unique<Chromium>(width, height, path("profile-" + std::to_string(++browsers_)));
    }
    // Opens the page at `fragment`, ready, with its document for screen readers written (its figures'
    // tables too: the state has settled).
    void open(Chromium& c, const std::string& fragment) {
        c.open(kUrl + (fragment.empty() ? "" : "#" + fragment));
        ASSERT_GE(c.wait_for("window.ropeExplorer && ropeExplorer.ready()", kPatience), 0);
        ASSERT_GE(c.wait_for("document.querySelectorAll('#reader figure').length > 0 && "
                             "document.querySelectorAll('#reader figure').length === document.querySelectorAll('#reader figure table').length",
                             kPatience), 0)
            << c.evaluate("document.getElementById('reader').innerHTML").dump();
    }
    // Every uncaught exception, also one thrown after the test's last step.
    void no_exceptions(Chromium& c) {
        c.let_run(0.7 * rope::test::web_patience());
        c.evaluate("new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))");
        EXPECT_TRUE(c.exceptions().empty()) << c.exceptions().front();
    }
    int browsers_ = 0;
};

std::string text_of(const json& v) { return v.is_object() && v.contains("value") && v["value"].is_string() ? v["value"].get<std::string>() : ""; }
std::string role(const json& node) { return node.contains("role") ? text_of(node["role"]) : ""; }
std::string name(const json& node) { return node.contains("name") ? text_of(node["name"]) : ""; }
std::string value(const json& node) {
    if (!node.contains("value")) return "";
    const json& v = node["value"]["value"];
    return v.is_string() ? v.get<std::string>() : v.dump();
}
std::string property(const json& node, const std::string& key) {
    for (const json& p : node.value("properties", json::array()))
        if (p.value("name", "") == key) return p["value"]["value"].is_string() ? p["value"]["value"].get<std::string>() : p["value"]["value"].dump();
    return "";
}
bool ignored(const json& node) { return node.value("ignored", false); }

std::vector<json> with_role(const json& tree, const std::string& r) {
    std::vector<json> out;
    for (const json& n : tree)
        if (!ignored(n) && role(n) == r) out.push_back(n);
    return out;
}
const json* named(const json& tree, const std::string& r, const std::string& starts) {
    for (const json& n : tree)
        if (!ignored(n) && role(n) == r && name(n).rfind(starts, 0) == 0) return &n;
    return nullptr;
}
// The text of every node under `node` (its descendants' names), joined.
std::string words_under(const json& tree, const json& node) {
    std::string out;
    for (const json& child : node.value("childIds", json::array()))
        for (const json& n : tree)
            if (n["nodeId"] == child) out += name(n) + " " + words_under(tree, n);
    return out;
}

// The control labels the Controls panel shows at these parameters' defaults for a numeric key.
std::vector<std::string> numeric_labels(const rope::ParamSet& params) {
    std::vector<std::string> labels;
    for (const rope::ParamSpec& s : rope::parameter_table())
        if (s.control.section != rope::ControlSection::none && s.numeric() && (!s.relevant || s.relevant(params)))
            labels.push_back(std::string(s.control.label));
    return labels;
}

std::string axe_violations(Chromium& c) {
    std::ifstream in(ROPE_AXE_SCRIPT);
    std::stringstream script;
    script << in.rdbuf();
    EXPECT_FALSE(script.str().empty()) << ROPE_AXE_SCRIPT << ": install it with `bash .ci/setup --web`";
    c.evaluate(script.str() + "\n;true");
    return c.evaluate("axe.run(document, {resultTypes: ['violations']}).then(r => r.violations.map(v => v.id + ' (' + v.impact + '): ' + "
                      "v.help + ' at ' + v.nodes.slice(0, 3).map(n => n.target.join(' ') + ' ' + n.failureSummary).join('; ')).join('\\n'))")
        .get<std::string>();
}

}  // namespace reader_page

using reader_page::Reader;

TEST_F(Reader, AxeFindsNoViolationAtDefaultsInALessonPresentingAndEmbedded) {
    for (const std::string fragment : {"", "lesson=2", "preset=llama-3-8b&presentation=1", "embed=heatmap"}) {
        SCOPED_TRACE("#" + fragment);
        auto c = browser();
        open(*c, fragment);
        EXPECT_EQ(reader_page::axe_violations(*c), "");
        // with the keyboard's focus in the document, shown over the canvas
        c->evaluate("document.querySelector('#reader button').focus()");
        EXPECT_EQ(reader_page::axe_violations(*c), "");
        no_exceptions(*c);
    }
}

TEST_F(Reader, TheAccessibilityTreeHoldsTheControlsPagesFiguresAndTheQuestion) {
    auto c = browser();
    open(*c, "preset=llama-3-8b&position=8");
    json tree = c->accessibility_tree();
    EXPECT_EQ(reader_page::with_role(tree, "main").size(), 1u);
    const json* h1 = reader_page::named(tree, "heading", "RoPE Explorer: ");
    ASSERT_TRUE(h1);
    EXPECT_EQ(reader_page::property(*h1, "level"), "1");
    EXPECT_EQ(reader_page::name(*h1), "RoPE Explorer: " + std::string(rope::figures::pages()[0]));
    // a reader_page::named slider for every numeric control, with its value and words carrying its unit
    rope::ParamSet params;
    params.set("preset", "llama-3-8b");
    for (const std::string& label : reader_page::numeric_labels(params)) {
        const json* slider = reader_page::named(tree, "slider", label);
        EXPECT_TRUE(slider) << "no slider reader_page::named " << label;
    }
    const json* position = reader_page::named(tree, "slider", "position m");
    ASSERT_TRUE(position);
    EXPECT_EQ(reader_page::value(*position), "8");
    // the words for it carry the unit (Chromium 156's tree gives the number as valuetext, whatever
    // aria-valuetext says: read from the element behind the node)
    EXPECT_EQ(c->evaluate("document.getElementById('reader-position').getAttribute('aria-valuetext')").get<std::string>(), "8 tokens");
    EXPECT_EQ(reader_page::property(*position, "valuemax"), "8191");
    const json* preset = reader_page::named(tree, "combobox", "model A");
    ASSERT_TRUE(preset);
    EXPECT_NE(reader_page::value(*preset).find("llama-3-8b"), std::string::npos) << reader_page::value(*preset);
    // the pages by name, as tabs
    for (std::string_view page : rope::figures::pages()) EXPECT_TRUE(reader_page::named(tree, "tab", std::string(page))) << page;
    // a figure per shown panel, its text the alt text naming the model
    const std::vector<json> figures = reader_page::with_role(tree, "figure");
    EXPECT_EQ(figures.size(), c->evaluate("ropeExplorer.layout().panels.length").get<std::size_t>());
    EXPECT_GE(figures.size(), 2u);
    for (const json& f : figures) {
        const std::string words = reader_page::words_under(tree, f);
        EXPECT_NE(words.find("Llama 3 8B"), std::string::npos) << reader_page::name(f) << ": " << words;
        EXPECT_TRUE(reader_page::named(tree, "table", "Its numbers")) << reader_page::name(f);
    }
    EXPECT_TRUE(reader_page::named(tree, "button", "Maximise Rotated vectors"));
    EXPECT_TRUE(reader_page::named(tree, "button", "Save Rotated vectors as PNG"));
    EXPECT_TRUE(reader_page::named(tree, "button", "Record Rotated vectors as an animation"));

    // a lesson step with a question: its choices as radio buttons, Reveal as a button
    c->evaluate("location.hash = 'lesson=2'");  // as a step is reached: its question asked
    ASSERT_GE(c->wait_for("document.getElementById('reader-reveal') !== null", reader_page::kPatience), 0);
    tree = c->accessibility_tree();
    const std::vector<json> radios = reader_page::with_role(tree, "radio");
    EXPECT_GE(radios.size(), 2u);
    for (const json& r : radios) EXPECT_TRUE(reader_page::name(r).size() > 3 && reader_page::name(r)[1] == ')') << reader_page::name(r);
    EXPECT_TRUE(reader_page::named(tree, "button", "Reveal"));
    EXPECT_TRUE(reader_page::named(tree, "heading", "Lesson step 2 of "));
    no_exceptions(*c);
}

TEST_F(Reader, OperatedThroughTheTreeAlone) {
    auto c = browser();
    open(*c, "preset=llama-3-8b&position=8");
    const std::string figure_before = c->evaluate("document.querySelector('#reader figure p').textContent").get<std::string>();
    // the position slider: focused through the tree, two key presses
    json tree = c->accessibility_tree();
    const json* position = reader_page::named(tree, "slider", "position m");
    ASSERT_TRUE(position);
    c->focus_node((*position)["backendDOMNodeId"].get<int>());
    c->key("ArrowRight");
    c->key("ArrowRight");
    EXPECT_GE(c->wait_for("ropeExplorer.session().parameters.position === 10", reader_page::kPatience), 0);
    EXPECT_GE(c->wait_for("location.hash.indexOf('position=10') >= 0", reader_page::kPatience), 0) << c->evaluate("location.hash").dump();
    EXPECT_GE(c->wait_for("document.getElementById('reader-live').textContent === 'position m 10: pair 0 turned 10.00 rad, 573°'", reader_page::kPatience), 0)
        << c->evaluate("document.getElementById('reader-live').textContent").dump();
    EXPECT_GE(c->wait_for("document.querySelector('#reader figure p').textContent !== " + json(figure_before).dump(), reader_page::kPatience), 0);
    // two undo steps, as the ImGui slider's two key presses make
    EXPECT_EQ(c->evaluate("document.getElementById('reader-do-undo').textContent").get<std::string>().rfind("Undo", 0), 0u);
    // the keys went to the slider alone: the app's Right (position + 1) did not also act
    EXPECT_EQ(c->evaluate("ropeExplorer.session().parameters.position").get<int>(), 10);

    // a preset picked in the select: the next one down
    tree = c->accessibility_tree();
    const json* preset = reader_page::named(tree, "combobox", "model A");
    ASSERT_TRUE(preset);
    c->focus_node((*preset)["backendDOMNodeId"].get<int>());
    c->key("ArrowDown");
    EXPECT_GE(c->wait_for("ropeExplorer.session().parameters.preset !== 'llama-3-8b'", reader_page::kPatience), 0);
    const std::string picked = c->evaluate("ropeExplorer.session().parameters.preset").get<std::string>();
    EXPECT_GE(c->wait_for("location.hash.indexOf('preset=" + picked + "') >= 0", reader_page::kPatience), 0);
    EXPECT_GE(c->wait_for("document.getElementById('reader-live').textContent.indexOf('model " + picked + "') === 0", reader_page::kPatience), 0)
        << c->evaluate("document.getElementById('reader-live').textContent").dump();

    // a figure saved as a PNG through its button (the export dialog, drawn in the canvas, is not
    // opened): a download, and the live region says so
    c->evaluate("window.caught = []; HTMLAnchorElement.prototype.click = function () { caught.push(this.download); }");
    tree = c->accessibility_tree();
    const json* save = reader_page::named(tree, "button", "Save Rotated vectors as PNG");
    ASSERT_TRUE(save);
    c->focus_node((*save)["backendDOMNodeId"].get<int>());
    c->key("Enter");
    EXPECT_GE(c->wait_for("caught.length === 1 && caught[0] === 'rope-vectors.png'", reader_page::kPatience), 0) << c->evaluate("caught").dump();
    EXPECT_GE(c->wait_for("document.getElementById('reader-live').textContent.indexOf('Downloaded rope-vectors.png (PNG') === 0", reader_page::kPatience), 0)
        << c->evaluate("document.getElementById('reader-live').textContent").dump();

    // Tab from the canvas into the document, Shift+Tab back
    c->evaluate("document.getElementById('canvas').focus()");
    c->key("Tab");
    EXPECT_TRUE(c->evaluate("document.getElementById('reader').contains(document.activeElement)").get<bool>());
    EXPECT_GT(c->evaluate("document.getElementById('reader').getBoundingClientRect().width").get<double>(), 200);  // in sight
    if (const char* keep = std::getenv("ROPE_KEEP_SCREENSHOTS")) {  // to look at: the focus, in sight
        const std::vector<unsigned char> png = c->screenshot();
        std::ofstream(std::string(keep) + "/reader-focus.png", std::ios::binary).write(reinterpret_cast<const char*>(png.data()), static_cast<std::streamsize>(png.size()));
    }
    c->key("Tab", 8);
    EXPECT_TRUE(c->evaluate("document.activeElement.id === 'canvas'").get<bool>());

    // a question answered: a choice by Space, then Reveal by Enter
    c->evaluate("location.hash = 'lesson=2'");
    ASSERT_GE(c->wait_for("document.querySelectorAll('#reader input[type=radio]').length >= 2", reader_page::kPatience), 0);
    tree = c->accessibility_tree();
    const std::vector<json> radios = reader_page::with_role(tree, "radio");
    ASSERT_GE(radios.size(), 2u);
    c->focus_node(radios[1]["backendDOMNodeId"].get<int>());
    c->key(" ");
    EXPECT_GE(c->wait_for("document.getElementById('reader-choice-1').checked", reader_page::kPatience), 0);
    tree = c->accessibility_tree();
    const json* reveal = reader_page::named(tree, "button", "Reveal");
    ASSERT_TRUE(reveal);
    c->focus_node((*reveal)["backendDOMNodeId"].get<int>());
    c->key("Enter");
    EXPECT_GE(c->wait_for("document.getElementById('reader-live').textContent.indexOf('Answer: ') === 0", reader_page::kPatience), 0)
        << c->evaluate("document.getElementById('reader-live').textContent").dump();
    EXPECT_GE(c->wait_for("document.getElementById('reader-answer') !== null", reader_page::kPatience), 0);
    no_exceptions(*c);
}

