// A handout written from the window (the lesson editor's "Handout (PDF)..."): the PDF is laid out
// and drawn on a worker thread, half a second and more for a long lesson; the window stays live and
// the status line says when the file is there. One at a time.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "gui/app/actions.hpp"
#include "lessons/lessons.hpp"

namespace rope::gui {

class HandoutJob {
public:
    explicit HandoutJob(std::function<void()> wake) : wake_(std::move(wake)) {}
    ~HandoutJob();  // waits for a handout being written: never half a file
    HandoutJob(const HandoutJob&) = delete;
    HandoutJob& operator=(const HandoutJob&) = delete;

    // Starts writing `lesson` (a copy: the lesson may be edited meanwhile) to `path`; a path not
    // ending in .pdf, or a handout still being written, is refused on the status line.
    void start(const lessons::Lesson& lesson, const std::string& path, Actions& out);
    // The finished handout's status line; true if one finished.
    bool poll(Actions& out);
    bool running() const;

private:
    struct Job;
    std::shared_ptr<Job> job_;
    std::function<void()> wake_;
};

}  // namespace rope::gui
