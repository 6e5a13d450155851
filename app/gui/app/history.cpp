#include "gui/app/history.hpp"

namespace rope::gui {

void History::record(const std::string& label, const Snapshot& before, const Snapshot& after, const std::string& gesture) {
    redo_.clear();
    if (!gesture.empty() && gesture == gesture_ && !undo_.empty()) {
        undo_.back().after = after;
        return;
    }
    end_gesture();
    undo_.push_back({label, before, after});
    if (undo_.size() > kMaxEntries) undo_.erase(undo_.begin());
    gesture_ = gesture;
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
