#include "plot/text_wrap.hpp"

namespace rope::plot {

std::vector<std::string> wrap_words(const TextMeasure& measure, const std::string& text, float size, float width) {
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        std::string line;
        for (std::size_t at = start; at < end;) {
            std::size_t word_end = text.find(' ', at);
            if (word_end == std::string::npos || word_end > end) word_end = end;
            const std::string word = text.substr(at, word_end - at);
            at = word_end + 1;
            if (word.empty()) continue;
            const std::string longer = line.empty() ? word : line + " " + word;
            if (!line.empty() && measure.measure(longer, size).x > width) {
                lines.push_back(line);
                line = word;
            } else {
                line = longer;
            }
        }
        if (!line.empty() || end < text.size()) lines.push_back(line);  // an empty paragraph is a blank line
        start = end + 1;
    }
    return lines;
}

}  // namespace rope::plot
