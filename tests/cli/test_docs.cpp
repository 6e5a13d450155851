// The docs cannot drift from the program: docs/reference.md is exactly what `rope-explorer-man
// --markdown` generates from the tables (and names every figure, parameter, compute table, file
// format, flag and key); every link and picture in README.md and docs/ is there; the README is a front
// door that opens with the two commands.
#include <gtest/gtest.h>

#include <algorithm>

#include <dirent.h>
#include <sys/stat.h>

#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "cli/compute_command.hpp"
#include "cli/window_options.hpp"
#include "export/file_formats.hpp"
#include "figures/registry.hpp"
#include "gui/input/shortcut_list.hpp"
#include "lessons/panel_help.hpp"
#include "rope/params.hpp"
#include "support/process.hpp"

namespace {

std::string read_text(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> out;
    std::stringstream s(text);
    for (std::string line; std::getline(s, line);) out.push_back(line);
    return out;
}

std::vector<std::string> markdown_files() {
    std::vector<std::string> files{ROPE_SOURCE_DIR "/README.md"};
    if (DIR* d = opendir(ROPE_SOURCE_DIR "/docs")) {
        while (dirent* e = readdir(d)) {
            const std::string n = e->d_name;
            if (n.size() > 3 && n.substr(n.size() - 3) == ".md") files.push_back(ROPE_SOURCE_DIR "/docs/" + n);
        }
        closedir(d);
    }
    return files;
}

}  // namespace

TEST(Docs, ReferenceIsWhatTheTablesGenerate) {
    const rope::test::ProcessResult generated = rope::test::run_process({ROPE_MAN_BINARY, "--markdown"});
    ASSERT_EQ(generated.exit_code, 0) << generated.err;
    const std::vector<std::string> want = lines_of(generated.out), have = lines_of(read_text(ROPE_SOURCE_DIR "/docs/reference.md"));
    for (std::size_t i = 0; i < std::max(want.size(), have.size()); ++i) {
        const std::string w = i < want.size() ? want[i] : "(the end)", h = i < have.size() ? have[i] : "(the end)";
        ASSERT_EQ(h, w) << "docs/reference.md differs from the tables at line " << i + 1
                        << ": regenerate it with `build/app/rope-explorer-man --markdown > docs/reference.md`";
    }
}

// Every name a person types has its place in the reference, as code: figures, parameters, compute
// tables, file formats, the window's flags and the keys.
TEST(Docs, ReferenceNamesEveryFigureParameterTableFormatFlagAndKey) {
    const std::string text = read_text(ROPE_SOURCE_DIR "/docs/reference.md");
    auto listed = [&](const std::string& name) { return text.find("`" + name) != std::string::npos || text.find(name + "`") != std::string::npos; };
    std::vector<std::string> names;
    for (const rope::figures::FigureDescriptor* d : rope::figures::all_figures()) names.emplace_back(d->name);
    for (const rope::ParamSpec& p : rope::parameter_table()) names.emplace_back(p.name);
    for (const rope::cli::TableInfo& t : rope::cli::compute_tables()) names.emplace_back(t.name);
    for (const rope::exporting::FileFormatInfo& f : rope::exporting::file_formats()) names.emplace_back(f.extension == "/" ? "DIR/" : std::string(f.extension));
    for (const rope::gui::GuiFlag& f : rope::gui::gui_flags()) names.emplace_back(f.name);
    for (const rope::gui::ShortcutHelp& s : rope::gui::shortcut_list()) names.push_back(s.keys);
    EXPECT_GE(names.size(), 120u);  // 136 when written
    for (const std::string& n : names) EXPECT_TRUE(listed(n)) << n << " is not in docs/reference.md";
}

// docs/user-guide.md has one section per panel, page by page (panel order within a page), headed
// "#### N. Title (`name`)", each with its picture (made by docs/make-pictures.sh), what the panel
// shows and the key that maximises it: the text F1 shows, without Markdown.
TEST(Docs, UserGuideHasEveryPanelsSectionPageByPage) {
    std::vector<const rope::figures::FigureDescriptor*> figures = rope::figures::all_figures();
    std::stable_sort(figures.begin(), figures.end(), [](const auto* a, const auto* b) { return a->page < b->page; });
    std::vector<std::string> names;
    for (const rope::figures::FigureDescriptor* d : figures) names.emplace_back(d->name);
    EXPECT_EQ(rope::lessons::panel_help_names(), names);
    const std::string guide = read_text(ROPE_SOURCE_DIR "/docs/user-guide.md");
    const std::string pictures = read_text(ROPE_SOURCE_DIR "/docs/make-pictures.sh");
    for (const rope::figures::FigureDescriptor* d : figures) {
        const rope::lessons::PanelHelp help = rope::lessons::panel_help(d->name);
        EXPECT_EQ(help.heading, std::to_string(d->index + 1) + ". " + std::string(d->title)) << d->name;
        EXPECT_GE(help.text.size(), 200u) << d->name;
        EXPECT_NE(help.text.find("Key: " + rope::figures::panel_key(d->index) + " maximises it."), std::string::npos)
            << d->name << ": " << help.text;
        for (const char* markdown : {"`", "**", "](", "![", "*Picture:*"})
            EXPECT_EQ(help.text.find(markdown), std::string::npos) << d->name << ": Markdown left in the app's words: " << markdown;
        const std::string picture = "images/panel-" + std::string(d->name) + ".png";
        EXPECT_NE(guide.find("](" + picture + ")"), std::string::npos) << d->name << " has no picture in the user guide";
        EXPECT_NE(guide.find("*Picture:* `rope-explorer export " + std::string(d->name) + " --width 800"), std::string::npos)
            << d->name << "'s picture does not name its state";
    }
    // the script makes every panel's picture: its loop lists or its line names each figure
    for (const std::string& name : names)
        EXPECT_TRUE(pictures.find(" " + name + " ") != std::string::npos || pictures.find(" " + name + ";") != std::string::npos ||
                    pictures.find("panel " + name) != std::string::npos)
            << "docs/make-pictures.sh does not make " << name << "'s picture";
}

// A relative link or picture in README.md or docs/*.md names a file that is there.
TEST(Docs, EveryLinkAndPictureIsThere) {
    const std::regex link(R"(\]\(([^)#\s]+)(#[^)]*)?\))");
    int checked = 0;
    for (const std::string& file : markdown_files()) {
        const std::string text = read_text(file);
        const std::string dir = file.substr(0, file.rfind('/'));
        for (auto it = std::sregex_iterator(text.begin(), text.end(), link); it != std::sregex_iterator(); ++it) {
            const std::string target = (*it)[1];
            if (target.find("://") != std::string::npos || target.rfind("mailto:", 0) == 0) continue;
            if (target.find(".html") != std::string::npos && target.find('/') == std::string::npos) continue;  // an example page's name
            struct stat st{};
            EXPECT_EQ(stat((dir + "/" + target).c_str(), &st), 0) << file << " links to " << target << ", which is not there";
            ++checked;
        }
    }
    EXPECT_GE(checked, 20);
}

// docs/architecture.md's lists of what to touch to add a parameter, plot, figure or format, and
// docs/math.md's table of where each rule is computed, name files that are there (a path in
// backticks: a folder and an extension; NAME stands for any figure).
TEST(Docs, ArchitectureAndMathNameFilesThatExist) {
    const std::regex path(R"(`((?:core|app|tests|assets|docs|shaders|bench)/[A-Za-z0-9_./]+\.[a-z]+)`)");
    for (const char* doc : {"/docs/architecture.md", "/docs/math.md"}) {
        const std::string text = read_text(std::string(ROPE_SOURCE_DIR) + doc);
        int checked = 0;
        for (auto it = std::sregex_iterator(text.begin(), text.end(), path); it != std::sregex_iterator(); ++it) {
            std::string file = (*it)[1];
            if (const std::size_t at = file.find("NAME_figure"); at != std::string::npos) file.replace(at, 4, "heatmap");
            struct stat st{};
            EXPECT_EQ(stat((std::string(ROPE_SOURCE_DIR) + "/" + file).c_str(), &st), 0) << doc << " names " << file << ", which is not there";
            ++checked;
        }
        EXPECT_GE(checked, 10) << doc;
    }
}

// The README opens the door: a title, then the two commands as its first fenced block, and it stays
// short (the manual is docs/).
TEST(Docs, ReadmeOpensWithTheTwoCommandsAndStaysShort) {
    const std::vector<std::string> readme = lines_of(read_text(ROPE_SOURCE_DIR "/README.md"));
    ASSERT_FALSE(readme.empty());
    EXPECT_EQ(readme[0], "# RoPE Explorer");
    std::size_t fence = 0;
    while (fence < readme.size() && readme[fence].rfind("```", 0) != 0) ++fence;
    ASSERT_LT(fence + 3, readme.size());
    EXPECT_EQ(readme[fence + 1], "bash .ci/setup && ./build/rope-explorer");
    EXPECT_EQ(readme[fence + 2], "bash .ci/setup && ctest --test-dir build -LE \"sanitize|fuzz|soak\" --output-on-failure -j2");
    EXPECT_EQ(readme[fence + 3], "```");
    EXPECT_LE(readme.size(), 200u);
}
