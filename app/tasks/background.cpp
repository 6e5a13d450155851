#include "tasks/background.hpp"

#include <chrono>
#include <deque>
#include <thread>

#ifndef __EMSCRIPTEN__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace rope::tasks {

namespace {

#ifndef __EMSCRIPTEN__

// A thread for each piece of work, below the UI thread (a frame in progress comes first) and, for
// work that takes seconds, below the pictures' builders too.
class ThreadExecutor : public Executor {
public:
    void post(std::function<void()> work, Priority priority) override {
        std::thread([work = std::move(work), priority] {
            lower_this_thread(priority);
            work();
        }).detach();
    }
    bool concurrent() const override { return true; }
    bool run_until(double) override { return false; }
};

#else

double now_seconds() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

#endif

}  // namespace

void SpareTimeExecutor::post(std::function<void()> work, Priority priority) {
    (priority == Priority::pictures ? pictures_ : long_work_).push_back(std::move(work));
}

bool SpareTimeExecutor::run_until(double deadline) {
    for (bool first = true; (!pictures_.empty() || !long_work_.empty()) && (first || clock_() < deadline); first = false) {
        auto& queue = !pictures_.empty() ? pictures_ : long_work_;
        std::function<void()> work = std::move(queue.front());
        queue.pop_front();
        work();
    }
    return !pictures_.empty() || !long_work_.empty();
}

void lower_this_thread(Priority priority) {
#ifndef __EMSCRIPTEN__
    setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), priority == Priority::pictures ? 10 : 15);
#else
    (void)priority;
#endif
}

Executor& background() {
#ifndef __EMSCRIPTEN__
    static ThreadExecutor executor;
#else
    static SpareTimeExecutor executor(now_seconds);
#endif
    return executor;
}

}  // namespace rope::tasks
