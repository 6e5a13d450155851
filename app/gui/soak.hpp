// The soak test's driver (--soak-frames N): every frame it moves one or two parameters to random
// values inside their slider ranges (seeded, so a failing run can be repeated), keeps the animation
// playing, and every 1000 frames changes page, maximised panel or theme; it reads the resident
// memory after frame 1000 and at the end. The window code counts frame errors.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "gui/app_state.hpp"

namespace rope::gui {

class SoakDriver {
public:
    SoakDriver(std::uint64_t seed, int frames);
    // Before frame `frame` (0-based) is drawn.
    void step(AppState& state, int frame);
    // After frame `frame` was drawn.
    void measure(int frame);
    bool done(int frame) const { return frame + 1 >= frames_; }
    // "soak_frames ... rss_kb_after_1000 ... rss_kb_end ... refused ..." (one key and value a line)
    std::string report(int frame_errors) const;

    static long resident_kb();  // from /proc/self/statm

private:
    std::mt19937_64 rng_;
    std::uint64_t seed_;
    int frames_;
    long rss_after_1000_ = 0, rss_end_ = 0;
    std::vector<long> rss_every_1000_;  // the curve, printed so growth can be told from noise
    int changes_ = 0, refused_ = 0;
};

}  // namespace rope::gui
