// Where labels go: the boxes of text placed so far and the data lines of a figure, and a choice
// among candidate boxes for a new label that overlaps neither (annotations, marker tags, legends).
// A label with no free candidate near its anchor moves to the nearest free spot and gets a leader
// line back to what it names. Segments are kept in a coarse grid, so a query costs the segments
// near the box, not all of them.
#pragma once

#include <cstddef>
#include <vector>

#include "plot/display_list.hpp"

namespace rope::plot {

// The box a text command covers on the page (a vertical text's box turned with it).
Rect text_box(const TextCmd& t, const TextMeasure& measure);
// The box of `size` placed at `at` with an alignment, as a TextCmd aligns its text.
Rect aligned_box(Vec2 at, Vec2 size, HAlign h, VAlign v);
bool overlaps(const Rect& a, const Rect& b, float tolerance = 0);
// Whether the segment a-b passes through the box shrunk by `tolerance` on every side.
bool segment_crosses(Vec2 a, Vec2 b, const Rect& box, float tolerance = 0);

class LabelPlacer {
public:
    // `bounds`: where labels may go (every candidate is kept inside it).
    explicit LabelPlacer(Rect bounds);

    // Everything already drawn: the boxes of its texts and the segments of its data lines.
    void add_list(const DisplayList& list, const TextMeasure& measure);
    void add_box(const Rect& box) { boxes_.push_back(box); }
    void add_segment(Vec2 a, Vec2 b);

    // 0 for a box that touches no text, no data line and stays inside the bounds; more the worse.
    float cost(const Rect& box) const;
    // The first free candidate, else the cheapest; -1 for none.
    int choose(const std::vector<Rect>& candidates) const;
    // The free box of `size` nearest to `anchor` (scanned on a grid inside the bounds); false if none.
    bool nearest_free(Vec2 anchor, Vec2 size, Rect* out) const;
    const Rect& bounds() const { return bounds_; }

private:
    struct Segment {
        Vec2 a, b;
    };
    int cell_of(float v, float origin, int cells) const;
    Rect bounds_;
    float cell_ = 48;
    int cols_ = 1, rows_ = 1;
    std::vector<Rect> boxes_;
    std::vector<Segment> segments_;
    std::vector<std::vector<std::size_t>> grid_;  // segment indices per cell
    mutable std::vector<std::size_t> seen_;        // per segment: the query stamp that last tested it
    mutable std::size_t stamp_ = 0;
};

}  // namespace rope::plot
