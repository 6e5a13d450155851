#include "support/composition_rule.hpp"

#include "plot/label_placer.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <sstream>
#include <variant>

namespace rope::test {

namespace {

// A coarse map of the picture, one cell per kCell pixels: true where something is drawn.
class Coverage {
public:
    static constexpr float kCell = 4;
    Coverage(float width, float height)
        : cols_(std::max(1, static_cast<int>(std::ceil(width / kCell)))), rows_(std::max(1, static_cast<int>(std::ceil(height / kCell)))),
          cells_(static_cast<std::size_t>(cols_ * rows_), false) {}

    void fill(plot::Rect r) {
        const int c0 = clamp_col(r.x0), c1 = clamp_col(r.x1), r0 = clamp_row(r.y0), r1 = clamp_row(r.y1);
        for (int y = r0; y <= r1; ++y)
            for (int x = c0; x <= c1; ++x) cells_[static_cast<std::size_t>(y * cols_ + x)] = true;
    }
    void segment(plot::Vec2 a, plot::Vec2 b, float half_width) {
        const float len = std::hypot(b.x - a.x, b.y - a.y);
        const int steps = std::max(1, static_cast<int>(len / (kCell / 2)));
        for (int i = 0; i <= steps; ++i) {
            const float t = static_cast<float>(i) / static_cast<float>(steps);
            const plot::Vec2 p{a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t};
            fill({p.x - half_width, p.y - half_width, p.x + half_width, p.y + half_width});
        }
    }
    // The largest all-empty rectangle in pixels (the histogram method, row by row of cells).
    plot::Rect largest_empty() const {
        std::vector<int> height(static_cast<std::size_t>(cols_), 0);
        long best = 0;
        plot::Rect found{0, 0, 0, 0};
        for (int y = 0; y < rows_; ++y) {
            for (int x = 0; x < cols_; ++x)
                height[static_cast<std::size_t>(x)] = cells_[static_cast<std::size_t>(y * cols_ + x)] ? 0 : height[static_cast<std::size_t>(x)] + 1;
            largest_under(height, y, best, found);
        }
        return found;
    }

private:
    static void largest_under(const std::vector<int>& h, int row, long& best, plot::Rect& found) {
        std::vector<int> stack;
        const int n = static_cast<int>(h.size());
        for (int i = 0; i <= n; ++i) {
            const int cur = i == n ? 0 : h[static_cast<std::size_t>(i)];
            while (!stack.empty() && h[static_cast<std::size_t>(stack.back())] >= cur) {
                const int top = h[static_cast<std::size_t>(stack.back())];
                stack.pop_back();
                const int left = stack.empty() ? -1 : stack.back();
                const long area = static_cast<long>(top) * (i - left - 1);
                if (area > best) {
                    best = area;
                    found = {static_cast<float>(left + 1) * kCell, static_cast<float>(row + 1 - top) * kCell, static_cast<float>(i) * kCell,
                             static_cast<float>(row + 1) * kCell};
                }
            }
            stack.push_back(i);
        }
    }
    int clamp_col(float x) const { return std::clamp(static_cast<int>(std::floor(x / kCell)), 0, cols_ - 1); }
    int clamp_row(float y) const { return std::clamp(static_cast<int>(std::floor(y / kCell)), 0, rows_ - 1); }
    int cols_, rows_;
    std::vector<bool> cells_;
};

bool same_colour(const plot::Color& a, const plot::Color& b) {
    return std::abs(a.r - b.r) < 0.01f && std::abs(a.g - b.g) < 0.01f && std::abs(a.b - b.b) < 0.01f;
}

void cover(Coverage& map, const plot::Command& c, const plot::DisplayList& list, const plot::TextMeasure& measure) {
    if (const auto* t = std::get_if<plot::TextCmd>(&c)) {
        if (!t->text.empty()) map.fill(plot::text_box(*t, measure));
    } else if (const auto* r = std::get_if<plot::RectCmd>(&c)) {
        if (r->fill.a > 0.05f && !same_colour(r->fill, list.background)) map.fill(r->rect);
        else if (r->stroke.a > 0.05f) {
            const plot::Rect q = r->rect;
            for (auto [a, b] : {std::pair{plot::Vec2{q.x0, q.y0}, plot::Vec2{q.x1, q.y0}}, {plot::Vec2{q.x1, q.y0}, plot::Vec2{q.x1, q.y1}},
                                {plot::Vec2{q.x1, q.y1}, plot::Vec2{q.x0, q.y1}}, {plot::Vec2{q.x0, q.y1}, plot::Vec2{q.x0, q.y0}}})
                map.segment(a, b, r->stroke_width / 2);
        }
    } else if (const auto* l = std::get_if<plot::PolylineCmd>(&c)) {
        for (std::size_t i = 0; i + 1 < l->points.size(); ++i) map.segment(l->points[i], l->points[i + 1], l->width / 2);
        if (l->closed && l->points.size() > 2) map.segment(l->points.back(), l->points.front(), l->width / 2);
    } else if (const auto* p = std::get_if<plot::PolygonCmd>(&c)) {
        plot::Rect box{1e9f, 1e9f, -1e9f, -1e9f};
        for (const plot::Vec2& v : p->points) box = {std::min(box.x0, v.x), std::min(box.y0, v.y), std::max(box.x1, v.x), std::max(box.y1, v.y)};
        if (!p->points.empty()) map.fill(box);
    } else if (const auto* ci = std::get_if<plot::CircleCmd>(&c)) {
        map.fill({ci->center.x - ci->radius, ci->center.y - ci->radius, ci->center.x + ci->radius, ci->center.y + ci->radius});
    } else if (const auto* im = std::get_if<plot::ImageCmd>(&c)) {
        map.fill(im->rect);
    }
}

std::string lower(std::string s) {
    for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return s;
}

// The interaction a text asks of a person ("click", "drag", ...), or "".
std::string interaction_word(const std::string& text) {
    const std::string t = " " + lower(text) + " ";
    for (const char* word : {"click", "drag", "hover", "maximise", "maximize", "press", "scroll", "ctrl+", "double-click", "select a", "pick a"}) {
        const std::size_t at = t.find(word);
        if (at != std::string::npos && !std::isalpha(static_cast<unsigned char>(t[at - 1]))) return word;
    }
    return "";
}

// A text cut short: it ends in "…" or "..." (a range "10³ … 10⁵" keeps spaces on both sides).
bool cut(const std::string& text) {
    for (const std::string end : {"\xE2\x80\xA6", "..."}) {
        if (text.size() >= end.size() && text.compare(text.size() - end.size(), end.size(), end) == 0) return true;
        const std::size_t at = text.find(end);
        if (at != std::string::npos && (at == 0 || text[at - 1] != ' ')) return true;
    }
    return false;
}

std::vector<std::string> focus_names(const std::string& focus) {
    std::vector<std::string> out;
    std::stringstream in(focus);
    for (std::string name; std::getline(in, name, ',');)
        if (!name.empty()) out.push_back(name);
    return out;
}

void check_plots(const CompositionInput& in, std::vector<std::string>& out) {
    const figures::FigureResult& r = *in.result;
    for (const std::string& name : focus_names(in.style->focus)) {
        if (!figures::find_plot(*in.figure, name)) continue;
        const figures::PlotGeometry* g = r.plot(name);
        if (!g || g->frame.width() <= 0) out.push_back("focus plot " + name + " is not drawn");
    }
    for (const figures::PlotGeometry& g : r.plots) {
        const figures::PlotDescriptor* d = figures::find_plot(*in.figure, g.name);
        if (!d || g.frame.width() <= 0) continue;
        // the frame holds the plot's caption, ticks and labels: its cell less a margin of a few pixels
        const float slack = in.style->px(12);
        const float min_w = in.style->px(d->min_size.x) - slack, min_h = in.style->px(d->min_size.y) - slack;
        // a plot that keeps its shape (a map of square patches) reaches its minimum one way at least
        const bool small = d->keeps_shape ? g.frame.width() < min_w && g.frame.height() < min_h
                                          : g.frame.width() < min_w || g.frame.height() < min_h;
        if (small) {
            std::ostringstream s;
            s << "plot " << g.name << " is " << static_cast<int>(g.frame.width()) << "x" << static_cast<int>(g.frame.height())
              << ", below its minimum " << static_cast<int>(min_w + slack) << "x" << static_cast<int>(min_h + slack);
            out.push_back(s.str());
        }
    }
}

void check_texts(const CompositionInput& in, std::vector<std::string>& out) {
    const plot::TextCmd* smallest_text = nullptr;
    for (const plot::Command& c : in.result->list.commands) {
        const auto* t = std::get_if<plot::TextCmd>(&c);
        if (!t) continue;
        const bool waiting = in.result->incomplete && t->text.find("computing") != std::string::npos;
        // a lone "…" marks tokens left out of a row (position ids), not a text cut short
        const bool elision = t->text == "\xE2\x80\xA6";
        if (!waiting && !elision && cut(t->text))
            out.push_back("text cut: \"" + t->text + "\"");
        if (in.clean && !interaction_word(t->text).empty())
            out.push_back("interaction hint in a clean export (" + interaction_word(t->text) + "): \"" + t->text + "\"");
        // in a file every text counts: nothing is smaller than the tick labels' floor
        if (!smallest_text || t->size < smallest_text->size) smallest_text = t;
    }
    if (smallest_text && in.min_text_px > 0 && smallest_text->size < in.min_text_px - 0.01f) {
        std::ostringstream s;
        s << "text down to " << smallest_text->size << " px (\"" << smallest_text->text << "\"), below " << in.min_text_px;
        out.push_back(s.str());
    }
}

}  // namespace

plot::Rect largest_empty_rect(const figures::FigureResult& result, const plot::TextMeasure& measure) {
    Coverage map(result.list.width, result.list.height);
    for (const plot::Command& c : result.list.commands) cover(map, c, result.list, measure);
    for (const figures::PlotGeometry& g : result.plots) map.fill(g.area);
    return map.largest_empty();
}

float largest_empty_share(const figures::FigureResult& result, const plot::TextMeasure& measure) {
    const plot::Rect r = largest_empty_rect(result, measure);
    const float cells = std::ceil(result.list.width / Coverage::kCell) * std::ceil(result.list.height / Coverage::kCell);
    return (r.x1 - r.x0) * (r.y1 - r.y0) / (Coverage::kCell * Coverage::kCell) / std::max(1.0f, cells);
}

std::vector<std::string> composition_problems(const CompositionInput& in) {
    std::vector<std::string> out;
    check_plots(in, out);
    check_texts(in, out);
    const float empty = largest_empty_share(*in.result, *in.measure);
    if (empty >= kLargestEmptyShare) {
        std::ostringstream s;
        s << "an empty block of " << static_cast<int>(std::lround(empty * 100)) << "% of the picture";
        out.push_back(s.str());
    }
    return out;
}

}  // namespace rope::test
