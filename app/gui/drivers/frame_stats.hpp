// What --bench-frames measures, besides how long each frame takes: the latency from a parameter
// change to the first frame whose every shown panel has its final picture (complete, and built from
// those parameters or newer ones), and how long each figure takes to build and to draw.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <vector>

namespace rope::gui {

class FrameStats {
public:
    // A frame began at `now` (seconds); `change` is the serial of the parameters it shows (it goes
    // up by one whenever they change).
    void frame_began(double now, std::uint64_t change);
    // The frame is on screen at `now`; every shown panel's picture is final for changes up to
    // `final_change`. `counted`: the frame's time goes into the frame-time percentiles.
    void frame_shown(double now, std::uint64_t final_change, bool counted);
    void built(const std::string& figure, double ms);
    void drawn(const std::string& figure, double ms);
    // From now on changes are not followed (the draw-time pass of the benchmark).
    void stop_following_changes() { following_ = false; }
    // Changes not yet shown in a final picture.
    bool pending() const { return !pending_.empty(); }
    // p50_ms, p99_ms, max_ms, then latency_*, changes, then one line per figure.
    std::string report() const;

private:
    double began_ = 0;
    std::uint64_t last_change_ = 0;
    bool following_ = true;
    std::deque<std::pair<std::uint64_t, double>> pending_;  // change serial, when its frame began
    std::vector<double> frame_ms_, latency_ms_;
    std::map<std::string, std::vector<double>> build_ms_, draw_ms_;
};

}  // namespace rope::gui
