// The teaching guide's numbers of the built-in lesson are assets/lessons.json's: its count of steps,
// its parts' ranges and the steps that ask first. (The tables of parameters, formats and the rest are
// generated: test_docs.cpp.)
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

std::string read_teaching_guide() {
    std::ifstream in(ROPE_SOURCE_DIR "/docs/teaching.md");
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// "twenty-eight" as 28 (the guide writes small counts in words), or -1.
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

// The guide's paragraph that begins with `start`, up to its blank line.
std::string paragraph(const std::string& text, const std::string& start) {
    const std::size_t at = text.find(start);
    if (at == std::string::npos) return "";
    return text.substr(at, text.find("\n\n", at) - at);
}

}  // namespace

// "a guided tour in twenty-eight steps" and its parts' "(steps 1-18)" ... "(26-28)" are the built-in lesson's count of
// steps; "Seven built-in steps ask first: 2 (...), 6 (...), ..." names the steps with a question.
TEST(TeachingGuide, LessonNumbersAreTheBuiltInLessons) {
    const auto& steps = rope::lessons::builtin_lesson().steps;
    const std::string text = read_teaching_guide();
    const std::string tour = paragraph(text, "**Lessons**: a guided tour in ");
    ASSERT_FALSE(tour.empty()) << "the teaching guide's **Lessons** paragraph is gone";
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
    ASSERT_NE(said, std::string::npos) << "the teaching guide no longer says which built-in steps ask first";
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
