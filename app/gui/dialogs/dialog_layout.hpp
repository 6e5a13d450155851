// The dialogs' sizes, in font sizes (em), so they grow with the type (presentation mode, a hi-DPI
// screen), and their limits said from the same constants the checks use.
#pragma once

#include <string>

namespace rope::gui::dialog_em {

inline constexpr float kExportWidth = 36;   // the Export / Record dialog
inline constexpr float kFileWidth = 32;     // Save / Open / Config
inline constexpr float kSecondColumn = 14;  // where a row's second radio button starts; a combo's width
inline constexpr float kNumberField = 6;    // width, height, scale
inline constexpr float kCountField = 4;     // frames, fps
inline constexpr float kValueField = 7;     // a recording's from and to
inline constexpr float kLabelRoom = 5;      // what a full-width text field leaves for its label
inline constexpr float kProgressBar = 22;   // a recording's progress

}  // namespace rope::gui::dialog_em

namespace rope::gui {

// "from 200 to 8000": a range as the dialogs say it.
inline std::string range_words(double lo, double hi) {
    auto text = [](double v) {
        std::string s = std::to_string(v);
        s.erase(s.find_last_not_of('0') + 1);
        if (!s.empty() && s.back() == '.') s.pop_back();
        return s;
    };
    return "from " + text(lo) + " to " + text(hi);
}

}  // namespace rope::gui
