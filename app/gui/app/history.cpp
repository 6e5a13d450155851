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

std::optional<HistoryEntry> History::undo() {
    end_gesture();
    if (undo_.empty()) return std::nullopt;
    HistoryEntry e = std::move(undo_.back());
    undo_.pop_back();
    redo_.push_back(e);
    return e;
}

std::optional<HistoryEntry> History::redo() {
    end_gesture();
    if (redo_.empty()) return std::nullopt;
    HistoryEntry e = std::move(redo_.back());
    redo_.pop_back();
    undo_.push_back(e);
    return e;
}

}  // namespace rope::gui
