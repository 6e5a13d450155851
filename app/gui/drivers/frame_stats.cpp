#include "gui/drivers/frame_stats.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "figures/registry.hpp"

namespace rope::gui {

namespace {

double percentile(std::vector<double> v, double q) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const std::size_t i = std::min(v.size() - 1, static_cast<std::size_t>(std::ceil(q * static_cast<double>(v.size()))) - 1);
    return v[i];
}

}  // namespace

void FrameStats::frame_began(double now, std::uint64_t change) {
    began_ = now;
    if (change != last_change_ && following_) {
        pending_.emplace_back(change, now);
        last_change_ = change;
    }
}

void FrameStats::frame_shown(double now, std::uint64_t final_change, bool counted) {
    if (counted) frame_ms_.push_back((now - began_) * 1000.0);
    while (following_ && !pending_.empty() && pending_.front().first <= final_change) {
        latency_ms_.push_back((now - pending_.front().second) * 1000.0);
        pending_.pop_front();
    }
}

void FrameStats::built(const std::string& figure, double ms) { build_ms_[figure].push_back(ms); }
void FrameStats::drawn(const std::string& figure, double ms) { draw_ms_[figure].push_back(ms); }

std::string FrameStats::report() const {
    char line[256];
    std::string out;
    const double max_frame = frame_ms_.empty() ? 0 : *std::max_element(frame_ms_.begin(), frame_ms_.end());
    std::snprintf(line, sizeof line, "p50_ms %.3f\np99_ms %.3f\nmax_ms %.3f\n", percentile(frame_ms_, 0.5), percentile(frame_ms_, 0.99),
                  max_frame);
    out += line;
    const double max_latency = latency_ms_.empty() ? 0 : *std::max_element(latency_ms_.begin(), latency_ms_.end());
    std::snprintf(line, sizeof line, "latency_p50_ms %.3f\nlatency_p99_ms %.3f\nlatency_max_ms %.3f\nchanges %zu\nunshown_changes %zu\n",
                  percentile(latency_ms_, 0.5), percentile(latency_ms_, 0.99), max_latency, latency_ms_.size(), pending_.size());
    out += line;
    for (const figures::FigureDescriptor* d : figures::all_figures()) {
        const std::string name(d->name);
        const auto b = build_ms_.find(name), w = draw_ms_.find(name);
        if (b == build_ms_.end() && w == draw_ms_.end()) continue;
        const std::vector<double> none;
        const std::vector<double>& builds = b == build_ms_.end() ? none : b->second;
        const std::vector<double>& draws = w == draw_ms_.end() ? none : w->second;
        std::snprintf(line, sizeof line, "panel %s builds %zu build_p50_ms %.3f build_p99_ms %.3f draws %zu draw_p50_ms %.3f draw_p99_ms %.3f\n",
                      name.c_str(), builds.size(), percentile(builds, 0.5), percentile(builds, 0.99), draws.size(),
                      percentile(draws, 0.5), percentile(draws, 0.99));
        out += line;
    }
    return out;
}

}  // namespace rope::gui
