#include "gui/drivers/soak.hpp"

#include <malloc.h>
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
const ParamId kNumericKeys[] = {P::position,        P::key_position,          P::pair,         P::dim,
                                 P::base,            P::rotary_fraction,       P::max_position, P::max_distance,
                                 P::factor,          P::original_max_position, P::sequence_length,
                                 P::low_freq_factor, P::high_freq_factor,      P::beta_fast,    P::beta_slow};
const ParamId kChoiceKeys[] = {P::scaling, P::pairing, P::heatmap_mode, P::decay_scale, P::compare, P::compare_to, P::preset};
constexpr double kLengthCap = 65536;
constexpr int kTourFrames = 900, kTourStep = 25;  // 36 views (see tour_view)

}  // namespace

SoakDriver::SoakDriver(std::uint64_t seed, int frames) : rng_(seed), frames_(frames) {}

long SoakDriver::resident_kb() {
    long pages = 0, resident = 0;
    if (std::FILE* f = std::fopen("/proc/self/statm", "r")) {
        if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
        std::fclose(f);
    }
    return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

void SoakDriver::step(AppState& state, int frame) {
    if (reference_frame(frame)) {
        // The two frames whose memory is compared show the same reference state (the defaults on
        // the first page), so the comparison is not swayed by what the random state happens to
        // hold then (a 512-dim heatmap against a 64-dim one): a difference is memory not given back.
        state.replace("soak reference state", ParamSet(), -1);
        state.page = 0;
        state.maximized = -1;
        state.presentation = false;
        state.theme = plot::ThemeId::dark;
        state.playing = false;
        ++changes_;
        return;
    }
    state.playing = true;
    state.speed = 1000;
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    const int count = 1 + static_cast<int>(rng_() % 2);
    for (int c = 0; c < count; ++c) {
        ++changes_;
        bool ok = true;
        if (rng_() % 5 == 0) {
            const ParamId key = kChoiceKeys[rng_() % std::size(kChoiceKeys)];
            const ParamSpec& spec = param_spec(key);
            std::string value(spec.choices[rng_() % spec.choices.size()]);
            if (key == ParamId::compare && rng_() % 2) value += "," + std::string(spec.choices[rng_() % spec.choices.size()]);
            if (key == ParamId::preset && rng_() % 3) value = "none";  // presets set long contexts: now and then
            ok = state.apply(key, value);
            if (ok && key == ParamId::preset) {
                // keep the soak's lengths bounded after a preset
                for (const ParamId k : {ParamId::max_position, ParamId::max_distance, ParamId::sequence_length})
                    if (std::get<std::int64_t>(state.params().value(k)) > kLengthCap) state.apply_number(k, kLengthCap);
            }
        } else {
            const ParamId key = kNumericKeys[rng_() % std::size(kNumericKeys)];
            const ParamSpec& spec = param_spec(key);
            const double lo = spec.slider_min, hi = std::min(slider_top(spec, state.params()), kLengthCap);
            ok = state.apply_number(key, slider_value(spec, lo, hi, unit(rng_)));
        }
        if (!ok) ++refused_;  // refused with a status message, state unchanged: expected now and then
    }
    if (frame < kTourFrames) {
        if (frame % kTourStep == 0) tour_view(state, frame / kTourStep);
    } else if (frame % 100 == 0) {
        switch ((frame / 100) % 10) {
            case 0: case 3: case 6: state.page = (state.page + 1) % static_cast<int>(figures::pages().size()); state.maximized = -1; break;
            case 1: case 7: toggle_maximized(state, static_cast<int>(rng_() % static_cast<unsigned>(figures::figure_count()))); break;
            case 2: case 8: state.maximized = -1; state.theme = state.theme == plot::ThemeId::dark ? plot::ThemeId::light : plot::ThemeId::dark; break;
            case 4: case 5: state.presentation = !state.presentation; break;
            default: state.close_lesson(); break;
        }
    }
}

// The first frames tour every view (each page, each panel maximised, presentation mode with its
// rebuilt font atlas, the light theme) and the largest state the sliders reach, with random values
// moving underneath: memory after frame 1000 is then that of a warmed-up app, and growth after it
// is memory not given back.
void SoakDriver::tour_view(AppState& state, int step) {
    const int pages = static_cast<int>(figures::pages().size()), panels = figures::figure_count();
    state.maximized = -1;
    if (step < pages) {
        state.page = step;
    } else if (step < pages + panels) {
        toggle_maximized(state, step - pages);
    } else if (step < 2 * pages + panels) {
        state.presentation = true;
        state.page = step - pages - panels;
    } else if (step < 3 * pages + panels) {
        state.presentation = false;
        state.theme = plot::ThemeId::light;
        state.page = step - 2 * pages - panels;
    } else {
        // the largest state: the sliders' top dims and lengths, on every page
        state.theme = plot::ThemeId::dark;
        state.page = (step - 3 * pages - panels) % pages;
        for (const ParamId k : {ParamId::dim, ParamId::max_position, ParamId::max_distance, ParamId::sequence_length})
            state.apply_number(k, std::min(param_spec(k).slider_max, kLengthCap));
    }
}

void SoakDriver::measure(int frame) {
    rss_end_ = resident_kb();
    if (frame == 999) rss_after_1000_ = rss_end_;
    if (frame % 1000 == 999) {
        rss_every_1000_.push_back(rss_end_);
        heap_every_1000_.push_back(heap_in_use_kb());
    }
}

long SoakDriver::heap_in_use_kb() {
#ifdef __EMSCRIPTEN__
    const struct mallinfo m = mallinfo();  // the page's malloc has no mallinfo2
#else
    const struct mallinfo2 m = mallinfo2();
#endif
    return static_cast<long>((m.uordblks + m.hblkhd) / 1024);
}

std::string SoakDriver::report(int frame_errors) const {
    char buf[512];
    auto curve = [](const std::vector<long>& kb) {
        std::string s;
        for (long v : kb) s += (s.empty() ? "" : ",") + std::to_string(v);
        return s;
    };
    const double growth = rss_after_1000_ > 0 ? 100.0 * (rss_end_ - rss_after_1000_) / rss_after_1000_ : 0.0;
    std::snprintf(buf, sizeof buf,
                  "soak_frames %d\nrss_kb_after_1000 %ld\nrss_kb_end %ld\nrss_growth_percent %.2f\n"
                  "parameter_changes %d\nrefused %d\nframe_errors %d\n",
                  frames_, rss_after_1000_, rss_end_, growth, changes_, refused_,
                  frame_errors);
    return std::string(buf) + "rss_kb_every_1000 " + curve(rss_every_1000_) + "\nheap_kb_every_1000 " + curve(heap_every_1000_) + "\n";
}

std::string cache_report(const std::vector<std::pair<std::string, figures::CacheStats>>& caches) {
    std::string out;
    for (const auto& [name, c] : caches)
        out += "cache_" + name + " " + std::to_string(c.entries) + "/" + std::to_string(c.capacity) + " entries, " +
               std::to_string(c.hits) + " hits, " + std::to_string(c.misses) + " misses, " + std::to_string(c.bytes / 1024) + " kB\n";
    return out;
}

}  // namespace rope::gui
