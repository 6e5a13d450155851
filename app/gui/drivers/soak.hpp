// The soak test's driver (--soak-frames N): every frame it moves one or two parameters to random
// values inside their slider ranges (seeded, so a failing run can be repeated), keeps the animation
// playing; the first 900 frames tour every view and the largest state, later ones change page,
// maximised panel, theme or presentation mode every 100 frames. It reads the resident memory after
// frame 1000 and at the end, both showing the same reference state. The window code counts frame errors.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "gui/app/app_state.hpp"

namespace rope::gui {

class SoakDriver {
public:
    SoakDriver(std::uint64_t seed, int frames);
    // Before frame `frame` (0-based) is drawn.
    void step(AppState& state, int frame);
    // After frame `frame` was drawn.
    void measure(int frame);
    bool done(int frame) const { return frame + 1 >= frames_; }
    // The frames whose memory is compared (after frame 1000, the last): both show the same reference
    // state, and the window releases idle memory before measuring, as it would on going idle.
    bool reference_frame(int frame) const { return frame == 999 || frame + 1 == frames_; }
    // "soak_frames ... rss_kb_after_1000 ... rss_kb_end ... refused ..." (one key and value a line; the
    // window prints soak_seed first, so a run that dies can be repeated)
    std::string report(int frame_errors) const;

    static long resident_kb();      // from /proc/self/statm
    static long heap_in_use_kb();   // malloc's bytes in use (all arenas): growth here is a leak or a cache

private:
    void tour_view(AppState& state, int step);

    std::mt19937_64 rng_;
    int frames_;
    long rss_after_1000_ = 0, rss_end_ = 0;
    std::vector<long> rss_every_1000_;   // the curves, printed so growth can be told from noise
    std::vector<long> heap_every_1000_;
    int changes_ = 0, refused_ = 0;
};

// "cache_decay 3/12 entries, 1520 hits, 96 misses, 1234 kB": one line per cache of the figures.
std::string cache_report(const std::vector<std::pair<std::string, figures::CacheStats>>& caches);

}  // namespace rope::gui
