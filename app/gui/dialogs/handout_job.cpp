#include "gui/dialogs/handout_job.hpp"

#include <atomic>
#include <cstdio>
#include <chrono>
#include <thread>

#include "export/handout.hpp"
#include "tasks/background.hpp"

namespace rope::gui {

struct HandoutJob::Job {
    std::atomic<bool> done{false};
    std::string status;  // written by the worker before `done`
    bool error = false;
};

HandoutJob::~HandoutJob() {
    // the worker owns the job too; it calls wake_ when done: wait for it (posted work that is not
    // concurrent, the browser's, never started)
    while (job_ && !job_->done.load() && tasks::background().concurrent()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

bool HandoutJob::running() const { return job_ && !job_->done; }

void HandoutJob::start(const lessons::Lesson& lesson, const std::string& path, Actions& out) {
    if (running()) return out.ask(act::SetStatus{"A handout is being written; try again when it is done", true});
    if (path.size() < 5 || path.compare(path.size() - 4, 4, ".pdf") != 0)
        return out.ask(act::SetStatus{"handout '" + path + "': the file name must end in .pdf (a handout is a PDF)", true});
    auto job = std::make_shared<Job>();
    tasks::background().post([job_ptr = job, lesson, path, wake = wake_] {
        try {
            const exporting::HandoutResult r = exporting::write_handout(lesson, path);
            char took[32];
            std::snprintf(took, sizeof took, "%.1f s", r.milliseconds / 1000);
            job_ptr->status = "Handout saved to " + path + " (" + std::to_string(r.pages) + " pages, " + took +
                              "): the students', without answers (export lesson --handout teacher writes the teacher's)";
        } catch (const std::exception& e) {
            job_ptr->status = e.what();  // the file is left as it was
            job_ptr->error = true;
        }
        job_ptr->done = true;
        wake();
    }, tasks::Priority::pictures);
    job_ = std::move(job);
    out.ask(act::SetStatus{"Writing the handout of \"" + lesson.title + "\" to " + path + " ..."});
}

bool HandoutJob::poll(Actions& out) {
    if (!job_ || !job_->done) return false;
    out.ask(act::SetStatus{job_->status, job_->error});
    job_.reset();
    return true;
}

}  // namespace rope::gui
