#include "gui/panels/panel_builder.hpp"

#include <algorithm>
#include <chrono>

#include "gui/panels/panel_figures.hpp"
#include "tasks/background.hpp"

namespace rope::gui {

PanelBuilder::PanelBuilder(const plot::TextMeasure& measure, int threads, std::function<void()> wake, figures::TrainedReader read_trained)
    : cache_(std::move(read_trained)), measure_(measure), wake_(std::move(wake)) {
    for (int i = 0; i < threads; ++i) threads_.emplace_back([this] { work(); });
    // a long computation a build asks the cache for is shared out like a figure's prepared pieces
    cache_.set_parallel([this](std::vector<std::function<void()>> jobs) {
        std::unique_lock<std::mutex> lock(mutex_);
        share_pieces(std::move(jobs), lock);
    });
}

PanelBuilder::~PanelBuilder() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
        waiting_.clear();
        pieces_.clear();
    }
    cache_.stop_background();  // a build in progress stops at its computation's next chunk
    wanted_.notify_all();
    pieces_done_.notify_all();
    for (std::thread& t : threads_) t.join();
    cache_.stop_background();  // no wake-ups once the window is gone, no worker threads left
}

void PanelBuilder::request(Request r) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        const auto same = std::find_if(waiting_.begin(), waiting_.end(), [&](const Request& w) { return w.panel == r.panel; });
        if (same != waiting_.end()) *same = std::move(r);
        else waiting_.push_back(std::move(r));
    }
    wanted_.notify_one();
}

bool PanelBuilder::pending(int panel, const FigureKey& key) const {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const Request& w : waiting_)
        if (w.panel == panel && w.key == key) return true;
    for (const Running& r : running_)
        if (r.panel == panel && r.key == key) return true;
    return false;
}

bool PanelBuilder::busy() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return !waiting_.empty() || !running_.empty();
}

bool PanelBuilder::has_finished() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return !finished_.empty();
}

std::vector<PanelBuilder::Finished> PanelBuilder::take_finished() {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<Finished> out;
    out.swap(finished_);
    return out;
}

void PanelBuilder::wait_idle() {
    std::unique_lock<std::mutex> lock(mutex_);
    waiting_.clear();
    idle_.wait(lock, [this] { return running_.empty(); });
}

void PanelBuilder::run_piece(std::unique_lock<std::mutex>& lock) {
    Piece piece = std::move(pieces_.front());
    pieces_.pop_front();
    lock.unlock();
    try {
        piece.run();
    } catch (const std::exception&) {
        // the build asks for the same data and says what is wrong
    }
    lock.lock();
    if (--*piece.left == 0) pieces_done_.notify_all();
}

void PanelBuilder::share_pieces(std::vector<std::function<void()>> jobs, std::unique_lock<std::mutex>& lock) {
    auto left = std::make_shared<int>(static_cast<int>(jobs.size()));
    for (auto& j : jobs) pieces_.push_back({std::move(j), left});
    wanted_.notify_all();
    while (*left > 0 && !stopping_) {
        if (!pieces_.empty()) run_piece(lock);
        else pieces_done_.wait(lock, [&] { return *left == 0 || stopping_ || !pieces_.empty(); });
    }
}

std::deque<PanelBuilder::Request>::iterator PanelBuilder::pick_waiting() {
    auto pick = waiting_.end();
    for (auto it = waiting_.begin(); it != waiting_.end(); ++it) {
        const bool panel_busy = std::any_of(running_.begin(), running_.end(), [&](const Running& r) { return r.panel == it->panel; });
        if (!panel_busy && (pick == waiting_.end() || it->figure->build_cost > pick->figure->build_cost)) pick = it;
    }
    return pick;
}

void PanelBuilder::build(Request job, std::unique_lock<std::mutex>& lock) {
    running_.push_back({job.panel, job.key});
    const auto t0 = std::chrono::steady_clock::now();
    if (job.figure->prepare) {
        lock.unlock();
        std::vector<std::function<void()>> jobs;
        try {
            jobs = job.figure->prepare(job.params, cache_);
        } catch (const std::exception&) {
            jobs.clear();  // the build itself says what is wrong
        }
        lock.lock();
        if (jobs.size() > 1) share_pieces(std::move(jobs), lock);
    }
    lock.unlock();
    figures::FigureResult result = build_picture(*job.figure, job.params, job.style, measure_, job.key.width, job.key.height, cache_, false,
                                                       job.key.maximized, job.key.touch, job.key.small_screen);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    lock.lock();
    running_.erase(std::find_if(running_.begin(), running_.end(), [&](const Running& r) { return r.panel == job.panel; }));
    finished_.push_back({job.panel, std::move(job.key), job.change, std::move(result), ms});
    idle_.notify_all();
    wanted_.notify_all();  // the panel's next request may wait for this one
}

void PanelBuilder::work() {
    // Below the UI thread: a frame in progress comes first.
    tasks::lower_this_thread(tasks::Priority::pictures);
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
        // the costliest waiting request whose panel is not being built already
        auto pick = waiting_.end();
        wanted_.wait(lock, [&] {
            if (stopping_ || !pieces_.empty()) return true;
            pick = pick_waiting();
            return pick != waiting_.end();
        });
        if (stopping_) return;
        // pieces of a build in progress first: the costliest panel is the one every change waits for
        if (!pieces_.empty()) {
            run_piece(lock);
            continue;
        }
        Request job = std::move(*pick);
        waiting_.erase(pick);
        build(std::move(job), lock);
        lock.unlock();
        if (wake_) wake_();
        lock.lock();
    }
}

bool PanelBuilder::build_here() {
    std::unique_lock<std::mutex> lock(mutex_);
    if (!threads_.empty() || stopping_) return false;
    const auto pick = pick_waiting();
    if (pick == waiting_.end()) return false;
    Request job = std::move(*pick);
    waiting_.erase(pick);
    build(std::move(job), lock);  // its pieces run here too: there is no idle worker to share them
    return true;
}

}  // namespace rope::gui
