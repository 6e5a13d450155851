// Work that runs away from the frame, behind one interface with two implementations: threads of
// their own at a lower priority (the desktop), or the browser page's one thread between frames
// (WebAssembly threads need cross-origin isolation, which file:// and most blog hosts cannot give).
// Callers keep their results in caches keyed by their inputs' values either way.
#pragma once

#include <deque>
#include <functional>
#include <future>
#include <memory>
#include <type_traits>
#include <utility>

namespace rope::tasks {

// How much a piece of work yields to the frame: builders of a frame's pictures, then work that
// takes seconds (a base-bound search, reading a model).
enum class Priority { pictures, long_work };

class Executor {
public:
    virtual ~Executor() = default;
    // Runs `work` later: at once on a thread of its own, or in the page's spare time between frames.
    virtual void post(std::function<void()> work, Priority priority) = 0;
    // Whether posted work runs beside the caller (threads); if not, a caller that needs a result
    // within this frame computes it itself.
    virtual bool concurrent() const = 0;
    // The page's spare time: runs one piece of posted work, then more until `deadline` (now()'s clock) or none is left;
    // whether any is left. Threads need none of this (false).
    virtual bool run_until(double deadline) = 0;
};

// The page's one thread: work waits in a queue (pictures first) for the frames' spare time. Built on
// the desktop too, where its tests run; `clock` is now() in seconds.
class SpareTimeExecutor : public Executor {
public:
    explicit SpareTimeExecutor(std::function<double()> clock) : clock_(std::move(clock)) {}
    void post(std::function<void()> work, Priority priority) override;
    bool concurrent() const override { return false; }
    // One piece of work at least, then more while there is time: a page whose frames take the
    // whole budget (a slow phone, the checked build) while frames keep coming (a dialog open, Play)
    // would otherwise never run an export or a recording.
    bool run_until(double deadline) override;

private:
    std::function<double()> clock_;
    std::deque<std::function<void()>> pictures_, long_work_;
};

// This build's executor: threads on the desktop, the page's spare time in the browser.
Executor& background();

// Lowers the calling thread's priority as `priority` asks (the desktop's threads).
void lower_this_thread(Priority priority);

// `work` in the background; the future is ready once it has run (holding its exception, if it threw).
// Desktop: std::async on a thread of its own at a lower priority (its future, when the last copy
// goes, waits for the thread). Browser: posted to the page's spare time.
template <class Work>
std::shared_future<std::invoke_result_t<Work>> start(Work work, Priority priority) {
#ifndef __EMSCRIPTEN__
    return std::async(std::launch::async, [work = std::move(work), priority]() mutable {
               lower_this_thread(priority);
               return work();
           }).share();
#else
    auto task = std::make_shared<std::packaged_task<std::invoke_result_t<Work>()>>(std::move(work));
    std::shared_future<std::invoke_result_t<Work>> result = task->get_future().share();
    background().post([task] { (*task)(); }, priority);
    return result;
#endif
}

}  // namespace rope::tasks
