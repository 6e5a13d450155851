// The README's tables say what the code's tables say: its parameter table lists every parameter of
// core/include/rope/params.def, once, with the default the code has, and nothing else; its table of
// file formats is app/export/file_formats.cpp's; its numbers of the built-in lesson are assets/lessons.json's.
#include <gtest/gtest.h>

#include <cctype>
#include <cstdio>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "export/file_formats.hpp"
#include "lessons/lessons.hpp"
#include "rope/params.hpp"

namespace {

std::string read_readme() {
    std::ifstream in(ROPE_README);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string trim(std::string s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '`')) s.erase(s.begin());
    while (!s.empty() && (s.back() == ' ' || s.back() == '`')) s.pop_back();
    return s;
}

std::vector<std::string> split(const std::string& text, const std::string& separator) {
    std::vector<std::string> parts;
    std::size_t at = 0;
    while (true) {
        const std::size_t next = text.find(separator, at);
        parts.push_back(trim(text.substr(at, next == std::string::npos ? std::string::npos : next - at)));
        if (next == std::string::npos) return parts;
        at = next + separator.size();
    }
}

// The rows of the Markdown table whose header line is `header`, each as its cells.
std::vector<std::vector<std::string>> table_rows(const std::string& text, const std::string& header) {
    std::vector<std::vector<std::string>> rows;
    std::size_t at = text.find("\n" + header + "\n");
    if (at == std::string::npos) return rows;
    at = text.find('\n', text.find('\n', at + 1) + 1) + 1;  // past the header and the |---| line
    while (at < text.size() && text[at] == '|') {
        const std::size_t end = text.find('\n', at);
        const std::string line = text.substr(at + 1, end - at - 2);  // without the outer pipes
        rows.push_back(split(line, " | "));
        at = end + 1;
    }
    return rows;
}

// What the README's default column says for a parameter of the code: its default as typed, what an
// unset list stands for, or "unset".
std::string code_default(const rope::ParamSpec& spec) {
    if (!spec.default_text.empty()) return std::string(spec.default_text);
    if (!spec.unset_means.empty()) return std::string(spec.unset_means);
    return "unset";
}

// A bound as the README may write it: 4096, 1e12, 1e-6, 0.25 (%g without the exponent's + and zeros).
std::string compact(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", v);
    std::string s = text;
    if (const std::size_t e = s.find('e'); e != std::string::npos) {
        std::string exponent = s.substr(e + 1);
        const bool negative = exponent[0] == '-';
        exponent.erase(0, exponent.find_first_not_of("+-0"));
        s = s.substr(0, e + 1) + (negative ? "-" : "") + exponent;
    }
    return s;
}

// `word` stands alone in `cell`: "4096" in "2..4096" or "(1, 4096]", not in "40960", "0.4096" or "-4096".
bool mentions(const std::string& cell, const std::string& word) {
    auto alnum = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    for (std::size_t at = cell.find(word); at != std::string::npos; at = cell.find(word, at + 1)) {
        const std::size_t after = at + word.size();
        const bool starts = at == 0 || (!alnum(cell[at - 1]) && cell[at - 1] != '-' && cell[at - 1] != '.') ||
                            (cell[at - 1] == '.' && at >= 2 && cell[at - 2] == '.');
        const bool ends = after >= cell.size() ||
                          (!alnum(cell[after]) && !(cell[after] == '.' && after + 1 < cell.size() && std::isdigit(static_cast<unsigned char>(cell[after + 1]))));
        if (starts && ends) return true;
    }
    return false;
}

// What the README's allowed column must say of a parameter: a number's or a list's bounds, each
// choice (a preset list is "a preset"); empty when the README's words stand alone (text, true/false).
std::vector<std::string> must_mention(const rope::ParamSpec& spec) {
    if (spec.numeric() || spec.type == rope::ParamType::real_list) return {compact(spec.min), compact(spec.max)};
    if ((spec.type == rope::ParamType::choice || spec.type == rope::ParamType::choice_list) && spec.choices.size() <= 10)
        return {spec.choices.begin(), spec.choices.end()};
    return {};
}

}  // namespace

// Each row's allowed column states the limits the code enforces: the bounds of numbers (a sentence
// such as "integer >= 0" is not all of it when 1e12 is refused) and the words of choices.
TEST(Readme, ParameterTableStatesTheLimitsTheCodeEnforces) {
    const auto rows = table_rows(read_readme(), "| key | default | allowed |");
    ASSERT_FALSE(rows.empty());
    int checked = 0;
    for (const auto& cells : rows) {
        for (const std::string& key : split(cells[0], ", ")) {
            const rope::ParamSpec* spec = rope::find_param(key);
            if (!spec) continue;  // the test above names it
            for (const std::string& word : must_mention(*spec)) {
                EXPECT_TRUE(mentions(cells[2], word)) << key << ": the README's allowed column leaves out " << word << " (" << spec->allowed() << ")";
                ++checked;
            }
        }
    }
    EXPECT_GE(checked, 60);
}

TEST(Readme, ParameterTableHasEveryParameterWithItsDefault) {
    const auto rows = table_rows(read_readme(), "| key | default | allowed |");
    ASSERT_FALSE(rows.empty()) << "no parameter table in the README";
    std::map<std::string, std::string> readme_default;  // key -> its default as the README writes it
    for (const auto& cells : rows) {
        ASSERT_EQ(cells.size(), 3u) << cells.front();
        const std::vector<std::string> keys = split(cells[0], ", ");
        std::string defaults = cells[1];
        if (const std::size_t aside = defaults.find(" ("); aside != std::string::npos) defaults.resize(aside);
        std::vector<std::string> values = split(defaults, ", ");
        if (values.size() == 1) values.assign(keys.size(), values[0]);  // one default for all the row's keys
        ASSERT_EQ(values.size(), keys.size()) << cells[0];
        for (std::size_t i = 0; i < keys.size(); ++i) {
            EXPECT_TRUE(rope::find_param(keys[i])) << "the README lists '" << keys[i] << "', not a parameter";
            EXPECT_FALSE(readme_default.count(keys[i])) << keys[i] << " is listed twice";
            readme_default[keys[i]] = values[i];
        }
    }
    for (const rope::ParamSpec& spec : rope::parameter_table()) {
        const auto at = readme_default.find(std::string(spec.name));
        if (at == readme_default.end()) {
            ADD_FAILURE() << "the README's parameter table leaves out " << spec.name;
            continue;
        }
        EXPECT_EQ(at->second, code_default(spec)) << spec.name;
    }
}

// Its table of file formats lists every row of app/export/file_formats.cpp, in order, with the
// code's extension, name, kind, whether it opens as a session, and words.
TEST(Readme, FileFormatTableIsTheCodes) {
    const auto rows = table_rows(read_readme(), "| extension | format | kind | opens as a session | what it holds |");
    const auto& formats = rope::exporting::file_formats();
    ASSERT_EQ(rows.size(), formats.size()) << "the README's table of file formats has another number of rows";
    const char* kinds[] = {"picture", "table", "animation"};
    for (std::size_t i = 0; i < rows.size(); ++i) {
        ASSERT_EQ(rows[i].size(), 5u);
        std::string help = rows[i][4];
        for (const auto& [escaped, plain] : {std::pair<std::string, std::string>{"&lt;", "<"}, {"&gt;", ">"}})
            for (std::size_t at; (at = help.find(escaped)) != std::string::npos;) help.replace(at, escaped.size(), plain);
        EXPECT_EQ(rows[i][0], formats[i].extension);
        EXPECT_EQ(rows[i][1], formats[i].name);
        EXPECT_EQ(rows[i][2], std::string(kinds[static_cast<int>(formats[i].kind)]) + (formats[i].animates ? " or animation" : ""));
        const std::string opens = formats[i].carries_session ? "yes" : "no";  // "yes (each frame)" for a folder
        EXPECT_EQ(rows[i][3].substr(0, opens.size()), opens) << formats[i].name;
        EXPECT_TRUE(rows[i][3].size() == opens.size() || rows[i][3][opens.size()] == ' ') << formats[i].name;
        EXPECT_EQ(help, formats[i].help);
    }
}

namespace {

// "twenty-eight" as 28 (the README writes small counts in words), or -1.
int number_in_words(const std::string& word) {
    const char* ones[] = {"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
                          "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"};
    const char* tens[] = {"", "", "twenty", "thirty", "forty", "fifty"};
    std::string w = word;
    for (char& c : w) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (int i = 0; i < 20; ++i)
        if (w == ones[i]) return i;
    for (int t = 2; t < 6; ++t) {
        const std::string ten = tens[t];
        if (w == ten) return 10 * t;
        if (w.rfind(ten + "-", 0) == 0)
            for (int i = 1; i < 10; ++i)
                if (w.substr(ten.size() + 1) == ones[i]) return 10 * t + i;
    }
    return -1;
}

// The README's paragraph that begins with `start`, up to its blank line.
std::string paragraph(const std::string& text, const std::string& start) {
    const std::size_t at = text.find(start);
    if (at == std::string::npos) return "";
    return text.substr(at, text.find("\n\n", at) - at);
}

}  // namespace

// "a guided tour in twenty-eight steps" and its parts' "(steps 1-18)" ... "(26-28)" are the built-in lesson's count of
// steps; "Seven built-in steps ask first: 2 (...), 6 (...), ..." names the steps with a question.
TEST(Readme, LessonNumbersAreTheBuiltInLessons) {
    const auto& steps = rope::lessons::builtin_lesson().steps;
    const std::string text = read_readme();
    const std::string tour = paragraph(text, "**Lessons**: a guided tour in ");
    ASSERT_FALSE(tour.empty()) << "the README's **Lessons** paragraph is gone";
    const std::size_t count_at = std::string("**Lessons**: a guided tour in ").size();
    EXPECT_EQ(number_in_words(tour.substr(count_at, tour.find(' ', count_at) - count_at)), static_cast<int>(steps.size())) << tour.substr(0, 60);
    // its parts' ranges, "(steps 1-18)" ... "(26-28)", follow on from step 1 to the last step
    int next_first = 1;
    const std::regex range(R"(\((?:steps )?(\d+)-(\d+)\))");
    for (auto it = std::sregex_iterator(tour.begin(), tour.end(), range); it != std::sregex_iterator(); ++it) {
        EXPECT_EQ(std::stoi((*it)[1]), next_first) << it->str();
        next_first = std::stoi((*it)[2]) + 1;
    }
    EXPECT_EQ(next_first - 1, static_cast<int>(steps.size())) << "the last part's steps end at the last step";

    std::vector<std::string> asking;
    for (std::size_t i = 0; i < steps.size(); ++i)
        if (steps[i].question) asking.push_back(std::to_string(i + 1));
    const std::string predict = paragraph(text, "**Predict, then reveal**");
    const std::size_t said = predict.find(" built-in steps\nask first: ");
    ASSERT_NE(said, std::string::npos) << "the README no longer says which built-in steps ask first";
    const std::size_t word_at = predict.rfind(' ', said - 1) + 1;
    EXPECT_EQ(number_in_words(predict.substr(word_at, said - word_at)), static_cast<int>(asking.size()));
    std::vector<std::string> listed;  // "2 (...), 6 (...), ... 25 (...)."
    for (std::size_t at = said + std::string(" built-in steps\nask first: ").size(); at < predict.size();) {
        const std::size_t end = predict.find(' ', at);
        listed.push_back(predict.substr(at, end - at));
        std::size_t depth = 0, next = end;  // past the parentheses, then ", " or "\n"
        for (; next < predict.size(); ++next) {
            if (predict[next] == '(') ++depth;
            else if (predict[next] == ')' && --depth == 0) break;
        }
        at = predict.find_first_of("0123456789", next);
        if (predict.find('.', next) < at) break;  // the sentence ended
    }
    EXPECT_EQ(listed, asking);
}
