#include "plot/label_placer.hpp"

#include <algorithm>
#include <cmath>

namespace rope::plot {

Rect aligned_box(Vec2 at, Vec2 size, HAlign h, VAlign v) {
    const float x0 = h == HAlign::left ? at.x : h == HAlign::center ? at.x - size.x / 2 : at.x - size.x;
    const float y0 = v == VAlign::top ? at.y : v == VAlign::middle ? at.y - size.y / 2 : at.y - size.y;
    return {x0, y0, x0 + size.x, y0 + size.y};
}

Rect text_box(const TextCmd& t, const TextMeasure& measure) {
    const Vec2 size{measure.measure(t.text, t.size).x, t.size};
    if (!t.vertical) return aligned_box(t.pos, size, t.halign, t.valign);
    // drawn turned a quarter counter-clockwise about pos: local (u, v) lands at (x + v, y - u)
    const Rect local = aligned_box({0, 0}, size, t.halign, t.valign);
    return {t.pos.x + local.y0, t.pos.y - local.x1, t.pos.x + local.y1, t.pos.y - local.x0};
}

bool overlaps(const Rect& a, const Rect& b, float tolerance) {
    return a.x0 < b.x1 - tolerance && b.x0 < a.x1 - tolerance && a.y0 < b.y1 - tolerance && b.y0 < a.y1 - tolerance;
}

bool segment_crosses(Vec2 a, Vec2 b, const Rect& box, float tolerance) {
    const float x0 = box.x0 + tolerance, x1 = box.x1 - tolerance, y0 = box.y0 + tolerance, y1 = box.y1 - tolerance;
    if (x1 <= x0 || y1 <= y0) return false;
    // Liang-Barsky: clip the segment's parameter range against the four sides
    float t0 = 0, t1 = 1;
    const float dx = b.x - a.x, dy = b.y - a.y;
    const float p[4] = {-dx, dx, -dy, dy};
    const float q[4] = {a.x - x0, x1 - a.x, a.y - y0, y1 - a.y};
    for (int i = 0; i < 4; ++i) {
        if (p[i] == 0) {
            if (q[i] <= 0) return false;  // parallel and outside (or on the edge)
            continue;
        }
        const float r = q[i] / p[i];
        if (p[i] < 0) t0 = std::max(t0, r);
        else t1 = std::min(t1, r);
        if (t0 > t1) return false;
    }
    return t1 > t0 || (t0 == t1 && t0 > 0 && t0 < 1);
}

LabelPlacer::LabelPlacer(Rect bounds) : bounds_(bounds) {
    cols_ = std::clamp(static_cast<int>(std::ceil(std::max(1.f, bounds.width()) / cell_)), 1, 256);
    rows_ = std::clamp(static_cast<int>(std::ceil(std::max(1.f, bounds.height()) / cell_)), 1, 256);
    grid_.resize(static_cast<std::size_t>(cols_ * rows_));
}

int LabelPlacer::cell_of(float v, float origin, int cells) const {
    if (!std::isfinite(v)) return 0;
    return std::clamp(static_cast<int>(std::floor((v - origin) / cell_)), 0, cells - 1);
}

void LabelPlacer::add_segment(Vec2 a, Vec2 b) {
    if (!std::isfinite(a.x) || !std::isfinite(a.y) || !std::isfinite(b.x) || !std::isfinite(b.y)) return;
    const std::size_t index = segments_.size();
    segments_.push_back({a, b});
    seen_.push_back(0);
    const int c0 = cell_of(std::min(a.x, b.x), bounds_.x0, cols_), c1 = cell_of(std::max(a.x, b.x), bounds_.x0, cols_);
    const int r0 = cell_of(std::min(a.y, b.y), bounds_.y0, rows_), r1 = cell_of(std::max(a.y, b.y), bounds_.y0, rows_);
    for (int r = r0; r <= r1; ++r)
        for (int c = c0; c <= c1; ++c) grid_[static_cast<std::size_t>(r * cols_ + c)].push_back(index);
}

void LabelPlacer::add_list(const DisplayList& list, const TextMeasure& measure) {
    // only what reaches the bounds can be in a label's way
    const Rect near{bounds_.x0 - 1, bounds_.y0 - 1, bounds_.x1 + 1, bounds_.y1 + 1};
    auto reaches = [&](Vec2 a, Vec2 b) {
        return std::max(a.x, b.x) >= near.x0 && std::min(a.x, b.x) <= near.x1 && std::max(a.y, b.y) >= near.y0 &&
               std::min(a.y, b.y) <= near.y1;
    };
    for (const Command& c : list.commands) {
        if (const auto* t = std::get_if<TextCmd>(&c)) {
            if (t->text.empty()) continue;
            const Rect box = text_box(*t, measure);
            if (overlaps(box, near)) add_box(box);
        } else if (const auto* l = std::get_if<PolylineCmd>(&c)) {
            if (l->role != Role::data) continue;
            const std::size_t n = l->points.size();
            for (std::size_t i = 1; i < n; ++i)
                if (reaches(l->points[i - 1], l->points[i])) add_segment(l->points[i - 1], l->points[i]);
            if (l->closed && n > 2 && reaches(l->points.back(), l->points.front())) add_segment(l->points.back(), l->points.front());
        }
    }
}

float LabelPlacer::cost(const Rect& box) const {
    float total = 0;
    // outside the bounds: the worst, by how far
    const float out = std::max(0.f, bounds_.x0 - box.x0) + std::max(0.f, box.x1 - bounds_.x1) +
                      std::max(0.f, bounds_.y0 - box.y0) + std::max(0.f, box.y1 - bounds_.y1);
    total += out * 1000;
    for (const Rect& b : boxes_)
        if (overlaps(box, b)) {
            const float w = std::min(box.x1, b.x1) - std::max(box.x0, b.x0), h = std::min(box.y1, b.y1) - std::max(box.y0, b.y0);
            total += 200 + w * h;
        }
    ++stamp_;
    const int c0 = cell_of(box.x0, bounds_.x0, cols_), c1 = cell_of(box.x1, bounds_.x0, cols_);
    const int r0 = cell_of(box.y0, bounds_.y0, rows_), r1 = cell_of(box.y1, bounds_.y0, rows_);
    for (int r = r0; r <= r1; ++r)
        for (int c = c0; c <= c1; ++c)
            for (std::size_t i : grid_[static_cast<std::size_t>(r * cols_ + c)]) {
                if (seen_[i] == stamp_) continue;
                seen_[i] = stamp_;
                if (segment_crosses(segments_[i].a, segments_[i].b, box)) total += 100;
            }
    return total;
}

int LabelPlacer::choose(const std::vector<Rect>& candidates) const {
    int best = -1;
    float best_cost = 0;
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        const float c = cost(candidates[i]);
        if (c == 0) return static_cast<int>(i);
        if (best < 0 || c < best_cost) {
            best = static_cast<int>(i);
            best_cost = c;
        }
    }
    return best;
}

bool LabelPlacer::nearest_free(Vec2 anchor, Vec2 size, Rect* out) const {
    // every spot on a grid inside the bounds, nearest first: the first free one wins
    const float step = std::max(4.f, std::min(size.y, 12.f) / 2);
    struct Spot {
        float distance;
        Rect box;
    };
    std::vector<Spot> spots;
    for (float y = bounds_.y0; y + size.y <= bounds_.y1; y += step)
        for (float x = bounds_.x0; x + size.x <= bounds_.x1; x += step) {
            const Rect r{x, y, x + size.x, y + size.y};
            const float cx = std::clamp(anchor.x, r.x0, r.x1) - anchor.x, cy = std::clamp(anchor.y, r.y0, r.y1) - anchor.y;
            spots.push_back({cx * cx + cy * cy, r});
        }
    std::stable_sort(spots.begin(), spots.end(), [](const Spot& a, const Spot& b) { return a.distance < b.distance; });
    for (const Spot& s : spots)
        if (cost(s.box) == 0) {
            *out = s.box;
            return true;
        }
    return false;
}

}  // namespace rope::plot
