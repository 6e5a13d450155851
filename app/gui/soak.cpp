#include "gui/soak.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "rope/presets.hpp"

namespace rope::gui {

namespace {

// The keys a person moves with sliders and combos. Lengths are kept to 2^16 (positions, distances):
// the soak is about memory and errors over many frames, and a million-token decay curve per frame
// would make 20,000 frames take hours on two cores.
const char* const kNumericKeys[] = {"position", "key_position", "pair", "dim", "base", "rotary_fraction", "max_position",
                                     "max_distance", "factor", "original_max_position", "sequence_length",
                                     "low_freq_factor", "high_freq_factor", "beta_fast", "beta_slow"};
const char* const kChoiceKeys[] = {"scaling", "pairing", "heatmap_mode", "decay_scale", "compare", "compare_to", "preset"};
constexpr double kLengthCap = 65536;

}  // namespace

SoakDriver::SoakDriver(std::uint64_t seed, int frames) : rng_(seed), seed_(seed), frames_(frames) {}

long SoakDriver::resident_kb() {
    long pages = 0, resident = 0;
    if (std::FILE* f = std::fopen("/proc/self/statm", "r")) {
        if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
        std::fclose(f);
    }
    return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

void SoakDriver::step(AppState& state, int frame) {
    state.playing = true;
    state.speed = 1000;
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    const int count = 1 + static_cast<int>(rng_() % 2);
    for (int c = 0; c < count; ++c) {
        ++changes_;
        bool ok = true;
        if (rng_() % 5 == 0) {
            const char* key = kChoiceKeys[rng_() % std::size(kChoiceKeys)];
            const ParamSpec* spec = find_param(key);
            std::string value(spec->choices[rng_() % spec->choices.size()]);
            if (std::string(key) == "compare" && rng_() % 2) value += "," + std::string(spec->choices[rng_() % spec->choices.size()]);
            if (std::string(key) == "preset" && rng_() % 3) value = "none";  // presets set long contexts: now and then
            ok = state.apply(key, value);
            if (ok && std::string(key) == "preset") {
                // keep the soak's lengths bounded after a preset
                for (const char* k : {"max_position", "max_distance", "sequence_length"})
                    if (state.params.integer(k) > kLengthCap) state.apply_number(k, kLengthCap);
            }
        } else {
            const char* key = kNumericKeys[rng_() % std::size(kNumericKeys)];
            const ParamSpec* spec = find_param(key);
            double lo = spec->slider_min, hi = spec->slider_max;
            if (std::string(key) == "position" || std::string(key) == "key_position") {
                lo = 0;
                hi = static_cast<double>(state.params.integer("max_position") - 1);
            }
            if (std::string(key) == "pair") hi = std::max(0.0, static_cast<double>(state.params.config().rotated_pairs() - 1));
            hi = std::min(hi, kLengthCap);
            const double t = unit(rng_);
            double v = spec->logarithmic && lo > 0 ? std::exp(std::log(lo) + t * (std::log(hi) - std::log(lo))) : lo + t * (hi - lo);
            if (spec->type == ParamType::integer) v = std::round(v);
            if (spec->even) v = std::max(2.0, std::round(v / 2) * 2);
            ok = state.apply_number(key, v);
        }
        if (!ok) ++refused_;  // refused with a status message, state unchanged: expected now and then
    }
    if (frame % 1000 == 999) {
        // views: page, maximised panel, theme, presentation
        switch ((frame / 1000) % 5) {
            case 0: state.page = (state.page + 1) % static_cast<int>(kPages.size()); state.maximized = -1; break;
            case 1: toggle_maximized(state, static_cast<int>(rng_() % state.panels.size())); break;
            case 2: state.maximized = -1; state.theme = state.theme == plot::ThemeId::dark ? plot::ThemeId::light : plot::ThemeId::dark; break;
            case 3: state.page = (state.page + 1) % static_cast<int>(kPages.size()); break;
            default: state.lesson_step = -1; break;
        }
    }
}

void SoakDriver::measure(int frame) {
    rss_end_ = resident_kb();
    if (frame == 999) rss_after_1000_ = rss_end_;
    if (frame % 1000 == 999) rss_every_1000_.push_back(rss_end_);
}

std::string SoakDriver::report(int frame_errors) const {
    char buf[512];
    std::string curve;
    for (long kb : rss_every_1000_) curve += (curve.empty() ? "" : ",") + std::to_string(kb);
    const double growth = rss_after_1000_ > 0 ? 100.0 * (rss_end_ - rss_after_1000_) / rss_after_1000_ : 0.0;
    std::snprintf(buf, sizeof buf,
                  "soak_seed %llu\nsoak_frames %d\nrss_kb_after_1000 %ld\nrss_kb_end %ld\nrss_growth_percent %.2f\n"
                  "parameter_changes %d\nrefused %d\nframe_errors %d\n",
                  static_cast<unsigned long long>(seed_), frames_, rss_after_1000_, rss_end_, growth, changes_, refused_,
                  frame_errors);
    return std::string(buf) + "rss_kb_every_1000 " + curve + "\n";
}

}  // namespace rope::gui
