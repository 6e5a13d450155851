// Panels' pictures are built on worker threads (Tracy's way: workers prepare compact draw data off
// the UI thread, and the UI thread takes it when ready). The UI thread asks for a picture and goes
// on showing the last one; a finished picture is handed back at the start of a frame. The newest
// request of a panel wins: one still waiting is replaced, one being built finishes first (so pictures
// keep coming while a slider moves), and at most one build per panel runs at a time (so they arrive
// in order). Workers run at a lower priority than the UI thread. A figure's independent heavy pieces
// (its descriptor's `prepare`: the sweep's five decay curves) are shared out to idle workers first,
// and so are the parts of a long computation a build asks the cache for (the sweep's cosine sum over
// a million positions: FigureCache::set_parallel).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "gui/app/app_state.hpp"
#include "gui/panels/panel_set.hpp"

namespace rope::gui {

class PanelBuilder {
public:
    struct Request {
        int panel = -1;
        const figures::FigureDescriptor* figure = nullptr;
        FigureKey key;
        std::uint64_t change = 0;  // the parameters' serial (the frame benchmark's)
        ParamSet params;
        plot::Style style;
    };
    struct Finished {
        int panel = -1;
        FigureKey key;
        std::uint64_t change = 0;
        figures::FigureResult result;
        double ms = 0;  // how long the build took
    };

    // `measure` must stay valid and unchanged while builds run (see wait_idle). With no threads (the
    // browser) nothing is built until build_here() is called.
    // `read_trained`: its cache's reader of model folders (the Trained model panel).
    PanelBuilder(const plot::TextMeasure& measure, int threads, std::function<void()> wake, figures::TrainedReader read_trained = {});
    ~PanelBuilder();
    PanelBuilder(const PanelBuilder&) = delete;
    PanelBuilder& operator=(const PanelBuilder&) = delete;

    figures::FigureCache& cache() { return cache_; }
    const figures::FigureCache& cache() const { return cache_; }

    void request(Request r);
    // A picture of `panel` at `key` is waiting or being built.
    bool pending(int panel, const FigureKey& key) const;
    bool busy() const;
    std::vector<Finished> take_finished();
    bool has_finished() const;
    // Drops what waits and waits for what runs (before the fonts change; tests).
    void wait_idle();
    // Without threads: builds the costliest waiting picture on this thread; false if none waited.
    bool build_here();

private:
    void work();
    // (locked) the costliest waiting request whose panel is not being built, or waiting_.end()
    std::deque<Request>::iterator pick_waiting();
    // (locked on entry and exit) builds `job` into finished_
    void build(Request job, std::unique_lock<std::mutex>& lock);
    // Runs the build's prepared pieces on this and idle workers; back when all are done. Locked.
    void share_pieces(std::vector<std::function<void()>> jobs, std::unique_lock<std::mutex>& lock);
    void run_piece(std::unique_lock<std::mutex>& lock);

    // The figures' cache: the workers fill it; the UI thread and the exports read it (thread-safe).
    figures::FigureCache cache_;
    const plot::TextMeasure& measure_;
    std::function<void()> wake_;
    mutable std::mutex mutex_;
    std::condition_variable wanted_, idle_;
    std::deque<Request> waiting_;
    struct Running {
        int panel;
        FigureKey key;
    };
    std::vector<Running> running_;
    std::vector<Finished> finished_;
    // pieces of a build any worker may run, and how many of each build's are not done
    struct Piece {
        std::function<void()> run;
        std::shared_ptr<int> left;
    };
    std::deque<Piece> pieces_;
    std::condition_variable pieces_done_;
    bool stopping_ = false;
    std::vector<std::thread> threads_;
};

}  // namespace rope::gui
