// Undo and redo of parameter changes. Each entry holds the state before and after one step: a key
// press, a click, a lesson step, a preset, a session or a config opened. Changes made while one
// gesture lasts (a slider dragged, a vector dragged, the animation playing) merge into one entry.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "rope/params.hpp"

namespace rope::lessons {
struct Lesson;
}

namespace rope::gui {

// What undo restores: the parameters, the lesson (its steps as they were: an edit is undone too),
// the step they belong to and whether its question was still asked.
struct Snapshot {
    ParamSet params;
    int lesson_step = -1;
    std::shared_ptr<const lessons::Lesson> lesson;  // never changed in place: an edit makes a new one
    std::string lesson_file;
    bool asking = false;
    bool operator==(const Snapshot& o) const {
        return params == o.params && lesson_step == o.lesson_step && lesson == o.lesson && lesson_file == o.lesson_file && asking == o.asking;
    }
    bool operator!=(const Snapshot& o) const { return !(*this == o); }
};

struct HistoryEntry {
    std::string label;  // "base", "lesson step 4", "preset llama3-8b", ...
    Snapshot before, after;
};

class History {
public:
    static constexpr std::size_t kMaxEntries = 200;  // a lecture's worth; the oldest go first

    // One change from `before` to `after`. With a non-empty `gesture` it merges into the last entry
    // if that entry belongs to the same gesture and the gesture is still open.
    void record(const std::string& label, const Snapshot& before, const Snapshot& after, const std::string& gesture = "");
    // The open gesture ends: the next change starts a new entry (an entry that ended where it began is dropped).
    void end_gesture();
    const std::string& open_gesture() const { return gesture_; }

    // The entry to undo / redo (moved to the other stack), or nothing.
    std::optional<HistoryEntry> undo();
    std::optional<HistoryEntry> redo();
    // A lesson saved to `path`: every state of that lesson in the history is that file's.
    void name_lesson_file(const lessons::Lesson* lesson, const std::string& path);
    const std::vector<HistoryEntry>& undo_entries() const { return undo_; }
    const std::vector<HistoryEntry>& redo_entries() const { return redo_; }

private:
    std::vector<HistoryEntry> undo_, redo_;
    std::string gesture_;  // the gesture the last undo entry belongs to, while it lasts
    std::string first_label_;  // the label its first change had
};

}  // namespace rope::gui
