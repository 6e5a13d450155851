#include "gui/app/history.hpp"

namespace rope::gui {

namespace {

// A gesture's label says where it started and where it ended, where its steps are named by a place:
// "query patch (3, 7)" then "query patch (5, 2)" make "query patch (3, 7) -> (5, 2)".
std::string gesture_label(const std::string& first, const std::string& last) {
    if (last == first) return first;
    const std::size_t open = first.rfind(" (");
    if (open == std::string::npos || last.compare(0, open + 2, first, 0, open + 2) != 0) return first;
    return first + " -> " + last.substr(open + 1);
}

}  // namespace

void History::record(const std::string& label, const Snapshot& before, const Snapshot& after, const std::string& gesture) {
    redo_.clear();
    if (!gesture.empty() && gesture == gesture_ && !undo_.empty()) {
        undo_.back().after = after;
        undo_.back().label = gesture_label(first_label_, label);
        return;
    }
    end_gesture();
    first_label_ = label;
    undo_.push_back({label, before, after});
    if (undo_.size() > kMaxEntries) undo_.erase(undo_.begin());
    gesture_ = gesture;
}

void History::name_lesson_file(const lessons::Lesson* lesson, const std::string& path) {
    for (std::vector<HistoryEntry>* stack : {&undo_, &redo_})
        for (HistoryEntry& e : *stack)
            for (Snapshot* side : {&e.before, &e.after})
                if (side->lesson.get() == lesson) side->lesson_file = path;
}

void History::end_gesture() {
    if (!gesture_.empty() && !undo_.empty() && undo_.back().before == undo_.back().after) undo_.pop_back();
    gesture_.clear();
}

namespace {

// Undo and redo are one move: the last entry of one stack goes onto the other.
std::optional<HistoryEntry> move_last(std::vector<HistoryEntry>& from, std::vector<HistoryEntry>& to) {
    if (from.empty()) return std::nullopt;
    to.push_back(std::move(from.back()));
    from.pop_back();
    return to.back();
}

}  // namespace

std::optional<HistoryEntry> History::undo() {
    end_gesture();
    return move_last(undo_, redo_);
}

std::optional<HistoryEntry> History::redo() {
    end_gesture();
    return move_last(redo_, undo_);
}

}  // namespace rope::gui
