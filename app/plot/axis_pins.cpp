#include "plot/axis_pins.hpp"

#include <algorithm>
#include <cmath>

namespace rope::plot {

void AxisPins::start_build(Mode mode) {
    mode_ = mode;
    next_plot_ = 0;
    if (mode == Mode::collect) {
        built_.emplace_back();
        held_built_.emplace_back();
    }
}

std::string AxisPins::axis_kind(const AxisSetup& a) {
    // custom ticks are made for one range: such an axis cannot take another (a unique kind per
    // build keeps it unpinned unless every frame's ticks are the very same)
    std::string kind = a.label + (a.log ? "|log" : "|lin") + (a.integer_ticks ? "|int" : "");
    for (const Tick& t : a.ticks) kind += "|" + std::to_string(t.value) + "=" + t.label;
    return kind;
}

std::string AxisPins::bar_kind(const ColorbarSetup& b) {
    std::string kind = b.label + "|" + std::to_string(static_cast<int>(b.colormap)) + "|" + b.fade_note;
    for (const Tick& t : b.ticks) kind += "|" + std::to_string(t.value) + "=" + t.label;
    return kind;
}

void AxisPins::merge(Pin& pin, const std::string& kind, Range r) {
    if (!(std::isfinite(r.lo) && std::isfinite(r.hi) && r.hi > r.lo)) pin.agree = false;
    if (!pin.seen) {
        pin.seen = true;
        pin.kind = kind;
        pin.range = r;
        return;
    }
    if (pin.kind != kind) pin.agree = false;
    pin.range.lo = std::min(pin.range.lo, r.lo);
    pin.range.hi = std::max(pin.range.hi, r.hi);
}

void AxisPins::merge_axis(Pin& pin, const AxisSetup& a) {
    merge(pin, axis_kind(a), {a.min, a.max});
    pin.label = a.label;
    pin.log = a.log;
}

void AxisPins::merge(Pin& pin, const Pin& other) {
    if (!other.seen) return;
    if (!pin.seen) {
        pin = other;
        return;
    }
    merge(pin, other.kind, other.range);
    pin.agree = pin.agree && other.agree;
}

void AxisPins::absorb(const AxisPins& other) {
    if (pins_.size() < other.pins_.size()) pins_.resize(other.pins_.size());
    for (std::size_t i = 0; i < other.pins_.size(); ++i) {
        PlotPins& p = pins_[i];
        const PlotPins& o = other.pins_[i];
        merge(p.x, o.x);
        merge(p.y, o.y);
        merge(p.bar, o.bar);
        if (p.cells.size() < o.cells.size()) p.cells.resize(o.cells.size());
        for (std::size_t c = 0; c < o.cells.size(); ++c) merge(p.cells[c], o.cells[c]);
    }
    built_.insert(built_.end(), other.built_.begin(), other.built_.end());
    held_built_.insert(held_built_.end(), other.held_built_.begin(), other.held_built_.end());
    for (const auto& [name, r] : other.held_) {
        const auto [at, first] = held_.try_emplace(name, r);
        if (!first) at->second = {std::min(at->second.lo, r.lo), std::max(at->second.hi, r.hi)};
    }
}

AxisPins::PlotPins* AxisPins::pins_for(int plot) {
    return plot >= 0 && plot < static_cast<int>(pins_.size()) ? &pins_[static_cast<std::size_t>(plot)] : nullptr;
}
const AxisPins::PlotPins* AxisPins::pins_for(int plot) const {
    return plot >= 0 && plot < static_cast<int>(pins_.size()) ? &pins_[static_cast<std::size_t>(plot)] : nullptr;
}

void AxisPins::visit(int plot, AxisSetup& x, AxisSetup& y, ColorbarSetup* bar) {
    if (plot < 0) return;
    if (mode_ == Mode::collect) {
        if (built_.empty()) built_.emplace_back();
        if (static_cast<int>(pins_.size()) <= plot) pins_.resize(static_cast<std::size_t>(plot) + 1);
        PlotPins& p = pins_[static_cast<std::size_t>(plot)];
        merge_axis(p.x, x);
        merge_axis(p.y, y);
        if (x.moves_in_animation) p.x.agree = false;
        if (y.moves_in_animation) p.y.agree = false;
        // a plot with a bar in one frame and none in another: the bar is not pinned
        if (bar) merge(p.bar, bar_kind(*bar), {bar->vmin, bar->vmax});
        else if (p.bar.seen) p.bar.agree = false;
        std::vector<PlotBuilt>& frame = built_.back();
        if (static_cast<int>(frame.size()) <= plot) frame.resize(static_cast<std::size_t>(plot) + 1);
        frame[static_cast<std::size_t>(plot)] = {{x.min, x.max}, {y.min, y.max}, bar ? Range{bar->vmin, bar->vmax} : Range{}, bar != nullptr, {}};
        return;
    }
    const PlotPins* p = pins_for(plot);
    if (!p) return;
    if (p->x.agree && p->x.kind == axis_kind(x)) x.min = p->x.range.lo, x.max = p->x.range.hi;
    if (p->y.agree && p->y.kind == axis_kind(y)) y.min = p->y.range.lo, y.max = p->y.range.hi;
    if (bar && p->bar.agree && p->bar.kind == bar_kind(*bar)) bar->vmin = p->bar.range.lo, bar->vmax = p->bar.range.hi;
}

void AxisPins::visit_cells(int plot, int ordinal, ColormapId colormap, float& vmin, float& vmax) {
    if (plot < 0 || ordinal < 0) return;
    const std::string kind = std::to_string(static_cast<int>(colormap));
    const auto at = static_cast<std::size_t>(ordinal);
    if (mode_ == Mode::collect) {
        if (built_.empty() || static_cast<int>(pins_.size()) <= plot || static_cast<int>(built_.back().size()) <= plot) return;
        PlotPins& p = pins_[static_cast<std::size_t>(plot)];
        if (p.cells.size() <= at) p.cells.resize(at + 1);
        merge(p.cells[at], kind, {vmin, vmax});
        std::vector<Range>& built = built_.back()[static_cast<std::size_t>(plot)].cells;
        if (built.size() <= at) built.resize(at + 1, Range{0, 0});
        built[at] = {vmin, vmax};
        return;
    }
    const PlotPins* p = pins_for(plot);
    if (!p || p->cells.size() <= at) return;
    const Pin& pin = p->cells[at];
    if (pin.agree && pin.kind == kind) vmin = static_cast<float>(pin.range.lo), vmax = static_cast<float>(pin.range.hi);
}

void AxisPins::hold(const std::string& name, double& lo, double& hi) {
    if (!(std::isfinite(lo) && std::isfinite(hi))) return;
    if (mode_ == Mode::collect) {
        if (held_built_.empty()) held_built_.emplace_back();
        held_built_.back()[name] = {lo, hi};
        const auto [at, first] = held_.try_emplace(name, Range{lo, hi});
        if (!first) at->second = {std::min(at->second.lo, lo), std::max(at->second.hi, hi)};
        return;
    }
    if (const auto at = held_.find(name); at != held_.end()) lo = at->second.lo, hi = at->second.hi;
}

void AxisPins::hold_flag(const std::string& name, bool& flag) {
    double lo = flag ? 1 : 0, hi = lo;
    hold(name, lo, hi);
    flag = hi > 0;
}

std::vector<AxisPins::OwnAxis> AxisPins::keep_thin_axes_own(double share) {
    std::vector<OwnAxis> own;
    auto span = [](const Pin& pin, Range r) { return pin.log ? std::log(r.hi / r.lo) : r.hi - r.lo; };
    for (std::size_t i = 0; i < pins_.size(); ++i)
        for (const bool x : {true, false}) {
            Pin& pin = x ? pins_[i].x : pins_[i].y;
            if (!pin.agree || !(span(pin, pin.range) > 0)) continue;
            OwnAxis axis{static_cast<int>(i), x, pin.label, {}};
            bool thin = false;
            for (const std::vector<PlotBuilt>& frame : built_) {
                if (i >= frame.size()) continue;
                const Range r = x ? frame[i].x : frame[i].y;
                axis.ranges.emplace_back(r.lo, r.hi);
                thin = thin || span(pin, r) < share * span(pin, pin.range);
            }
            if (!thin) continue;
            pin.agree = false;
            own.push_back(std::move(axis));
        }
    return own;
}

bool AxisPins::frame_unchanged(int frame) const {
    if (frame < 0 || frame >= frames()) return false;
    // a range the figure held differently in this frame changes what the figure builds on it
    if (static_cast<std::size_t>(frame) < held_built_.size())
        for (const auto& [name, own] : held_built_[static_cast<std::size_t>(frame)]) {
            const Range& all = held_.at(name);
            if (all.lo != own.lo || all.hi != own.hi) return false;
        }
    const std::vector<PlotBuilt>& built = built_[static_cast<std::size_t>(frame)];
    auto same = [](const Pin& pin, const Range& own) { return !pin.agree || (pin.range.lo == own.lo && pin.range.hi == own.hi); };
    for (std::size_t i = 0; i < built.size(); ++i) {
        const PlotPins* p = pins_for(static_cast<int>(i));
        if (!p) continue;
        if (!same(p->x, built[i].x) || !same(p->y, built[i].y) || (built[i].has_bar && !same(p->bar, built[i].bar))) return false;
        for (std::size_t c = 0; c < built[i].cells.size(); ++c)
            if (c >= p->cells.size() || !same(p->cells[c], built[i].cells[c])) return false;
    }
    return true;
}

}  // namespace rope::plot
