#include "figures/compared_build.hpp"

#include <algorithm>
#include <cmath>
#include <future>
#include <limits>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "figures/figures.hpp"
#include "plot/axis_pins.hpp"
#include "plot/label_placer.hpp"
#include "plot/ticks.hpp"
#include "tasks/background.hpp"

namespace rope::figures::detail {

std::optional<ParamSet> model_b(const ParamSet& params) {
    try {
        return params.compared_model();
    } catch (const std::invalid_argument&) {
        return std::nullopt;
    } catch (const ParamError&) {  // a config path that was never read: no B (setting compare_to reads it)
        return std::nullopt;
    }
}

std::string named_model(const ParamSet& a) {
    const std::string preset(a[P::preset]);
    if (preset != "none") return preset;
    return a.has(P::model_name) ? std::string(a[P::model_name]) : "";
}

std::string model_label(const ParamSet& a, bool b) {
    if (b) return a.compared_model_name();
    const std::string name = named_model(a);
    return name.empty() ? "this model" : name;
}

namespace {

// The pairs a model's pair axes show (RopeConfig::rotated_pairs), from the three keys it depends on
// only: a figure that never reads the scaling's other keys must not be made to.
int pair_count(const ParamSet& p) {
    RopeConfig c;
    c.dim = static_cast<int>(p[P::dim]);
    c.rotary_fraction = p[P::rotary_fraction];
    c.scaling = p[P::scaling];
    return c.rotated_pairs();
}

}  // namespace

bool pair_fraction_axis(const FigureDescriptor& figure, const ParamSet& a, const ParamSet& b) {
    return figure.pair_axis && pair_count(a) != pair_count(b);
}

std::optional<ParamSet> second_picture_model(const FigureDescriptor& figure, const ParamSet& params) {
    if (figure.model_b == ModelBView::itself || (figure.draws_b_itself && figure.draws_b_itself(params))) return std::nullopt;
    return model_b(params);
}

namespace {

// The style whose focus is what must stay legible in each half: a lesson step's focus, else the
// figure's main plots (else its first). (What the plots' minimums leave out, legends and notes, is
// checked on the built pictures: legible() below.)
plot::Style must_fit(const FigureDescriptor& figure, const plot::Style& st, const ParamSet& params) {
    plot::Style s = st;
    if (!s.focus.empty()) return s;
    if (const char* own = figure.own_plot ? figure.own_plot(params) : nullptr) return s.focus = own, s;
    for (const PlotDescriptor& d : figure.plots)
        if (d.role == PlotRole::main) s.focus += (s.focus.empty() ? "" : ",") + std::string(d.name);
    if (s.focus.empty() && !figure.plots.empty()) s.focus = std::string(figure.plots.front().name);
    return s;
}

}  // namespace

ComparedSplit compared_split(const FigureDescriptor& figure, const ParamSet& a, const ParamSet& b, const plot::Style& st,
                             float width, float height) {
    ComparedSplit s;
    s.title = st.draw_titles ? st.px(st.title_font) * 1.4f : 0;
    s.caption = st.px(st.label_font) * 1.45f;
    const float gap = st.px(14);
    const float h = std::max(0.0f, height - s.title);
    const plot::Rect side_a{0, s.title + s.caption, std::max(1.0f, (width - gap) / 2), s.title + std::max(s.caption + 1, h)};
    const plot::Rect side_b{side_a.x1 + gap, side_a.y0, width, side_a.y1};
    const float stack_h = std::max(1.0f, (h - gap) / 2 - s.caption);
    const plot::Rect stack_a{0, s.title + s.caption, width, s.title + s.caption + stack_h};
    const plot::Rect stack_b{0, stack_a.y1 + gap + s.caption, width, stack_a.y1 + gap + s.caption + stack_h};
    const plot::Style need_a = must_fit(figure, st, a), need_b = must_fit(figure, st, b);
    auto holds = [&](const plot::Rect& ra, const plot::Rect& rb) {
        return focus_fits_one(figure, a, need_a, ra.width(), ra.height()) && focus_fits_one(figure, b, need_b, rb.width(), rb.height());
    };
    const bool side_ok = figure.model_b != ModelBView::stacked && holds(side_a, side_b);
    const bool stack_ok = holds(stack_a, stack_b);
    // both hold (or neither): the halves whose shape is nearer the figure's own (its export size)
    const float aspect = static_cast<float>(figure.export_width) / static_cast<float>(figure.export_height);
    const float side_miss = std::abs(std::log(side_a.width() / side_a.height() / aspect));
    const float stack_miss = std::abs(std::log(stack_a.width() / stack_a.height() / aspect));
    s.both = side_ok || stack_ok;
    s.side_by_side = side_ok && (!stack_ok || side_miss < stack_miss);
    if (!s.both) {
        s.side_by_side = false;
        s.a = {0, s.title + s.caption, width, std::max(s.title + s.caption + 1, height)};
        return s;
    }
    s.a = s.side_by_side ? side_a : stack_a;
    s.b = s.side_by_side ? side_b : stack_b;
    return s;
}

DataTable long_form(const DataTable& a, const DataTable& b) {
    DataTable t;
    t.label_column = "model";
    t.columns = a.columns;
    for (const std::string& c : b.columns)
        if (std::find(t.columns.begin(), t.columns.end(), c) == t.columns.end()) t.columns.push_back(c);
    t.values.assign(t.columns.size(), {});
    t.words.assign(t.columns.size(), {});
    const double missing = std::numeric_limits<double>::quiet_NaN();
    for (const auto& [part, label] : {std::pair<const DataTable*, const char*>{&a, "a"}, {&b, "b"}}) {
        const std::size_t rows = part->rows();
        t.labels.insert(t.labels.end(), rows, label);
        for (std::size_t c = 0; c < t.columns.size(); ++c) {
            const auto at = std::find(part->columns.begin(), part->columns.end(), t.columns[c]);
            if (at == part->columns.end()) t.values[c].insert(t.values[c].end(), rows, missing);
            else {
                const std::size_t from = static_cast<std::size_t>(at - part->columns.begin());
                const auto& v = part->values[from];
                t.values[c].insert(t.values[c].end(), v.begin(), v.end());
                if (from < part->words.size() && !part->words[from].empty()) t.words[c] = part->words[from];  // both models' codes alike
            }
        }
    }
    return t;
}

namespace {

// Model B's picture is built beside A's on a thread of its own where there are threads; in the
// browser, after A's on the page's thread.
std::launch concurrently() { return tasks::background().concurrent() ? std::launch::async : std::launch::deferred; }

void shift(plot::Vec2& p, plot::Vec2 d) {
    p.x += d.x;
    p.y += d.y;
}
void shift(plot::Rect& r, plot::Vec2 d) {
    r.x0 += d.x;
    r.x1 += d.x;
    r.y0 += d.y;
    r.y1 += d.y;
}

void shift(plot::Command& c, plot::Vec2 d) {
    std::visit(
        [&](auto& cmd) {
            using T = std::decay_t<decltype(cmd)>;
            if constexpr (std::is_same_v<T, plot::PolylineCmd> || std::is_same_v<T, plot::PolygonCmd>) {
                for (plot::Vec2& p : cmd.points) shift(p, d);
            } else if constexpr (std::is_same_v<T, plot::CircleCmd>) {
                shift(cmd.center, d);
            } else if constexpr (std::is_same_v<T, plot::TextCmd>) {
                shift(cmd.pos, d);
            } else {
                shift(cmd.rect, d);
            }
        },
        c);
}

// One model's picture moved into `area` of the composed figure, its plots marked with `model`.
void place(FigureResult& into, FigureResult&& part, plot::Rect area, int model) {
    const plot::Vec2 d{area.x0, area.y0};
    into.list.push_clip(area);
    for (plot::Command& c : part.list.commands) {
        shift(c, d);
        into.list.add(std::move(c));
    }
    into.list.add(plot::ClipCmd{area, false});
    for (PlotGeometry g : part.plots) {
        shift(g.area, d);
        shift(g.frame, d);
        g.model = model;
        into.plots.push_back(g);
    }
    if (model == 0 && part.shared_key.width() > 0) {
        into.shared_key = part.shared_key;
        shift(into.shared_key, d);
    }
    into.incomplete = into.incomplete || part.incomplete;
    into.error = into.error || part.error;
    if (!part.left_out.empty()) into.left_out += (into.left_out.empty() ? "" : "; ") + std::string(model == 0 ? "A: " : "B: ") + part.left_out;
}


// The least share of a shared axis a model's own range must cover (else the axis is not shared: a
// model's data would fill a sliver of its plot, 4096 positions on an axis to 131072).
constexpr double kReadableShare = 0.5;

// ", own axis: position m 0–4096": what a caption adds for each axis its picture keeps to its own
// range (the other picture's caption gives the other's, so the two read as a ratio).
std::string own_axes_note(const std::vector<plot::AxisPins::OwnAxis>& own, int model, bool with_ranges) {
    std::string note;
    std::vector<std::string> said;
    for (const plot::AxisPins::OwnAxis& axis : own) {
        if (static_cast<int>(axis.ranges.size()) <= model) continue;
        // the label's words before its unit or aside: "position m (tokens)", "score ⟨q at m, k at n⟩": "position m", "score"
        std::string label = axis.label;
        for (const char* aside : {" (", " ⟨", " ["}) label = label.substr(0, label.find(aside));
        if (std::find(said.begin(), said.end(), label) != said.end()) continue;
        said.push_back(label);
        const auto [lo, hi] = axis.ranges[static_cast<std::size_t>(model)];
        note += " · own " + (label.empty() ? std::string(axis.x ? "x" : "y") : label) + " axis";
        if (with_ranges) note += ": " + plot::grouped_number(lo) + "–" + plot::grouped_number(hi);
    }
    // without the ranges, two axes or more read as one note
    if (!with_ranges && said.size() > 1) note = " · own axes";
    return note;
}

// "A: llama-2-7b" above a picture, after a short line (solid for A, dashed for B, as in the overlays):
// the first of `texts` (longest first) that fits the picture's width, the last shrunk to fit if none does.
void caption(FigureResult& r, const plot::Style& st, const plot::TextMeasure& measure, plot::Rect picture, float height,
             const std::vector<std::string>& texts, int model) {
    float size = st.px(st.label_font);
    const float y = picture.y0 - height / 2;
    const float x0 = picture.x0 + st.px(6), swatch = st.px(22);
    r.list.segment({x0, y}, {x0 + swatch, y}, st.theme.series[static_cast<std::size_t>(model)], st.px(st.line_width),
                   model == 0 ? 0.0f : st.px(6));
    const float room = picture.width() - swatch - st.px(16);
    std::string shown = texts.back();
    for (const std::string& t : texts)
        if (measure.measure(t, size).x <= room) {
            shown = t;
            break;
        }
    const float wide = measure.measure(shown, size).x;
    if (wide > room) size = std::max(size * room / wide, st.px(st.min_text));
    r.list.text({x0 + swatch + st.px(8), y}, shown, size, st.theme.text, plot::HAlign::left, plot::VAlign::middle);
}

// What a picture's caption may say, longest first: "A: llama-2-7b · own position m axis: 0–4 096, d =
// 128, base 10⁴" (the head and base only where the figure depends on them), then without the head and
// base, then the own axes by name alone, then the model's name alone.
std::vector<std::string> caption_texts(const FigureDescriptor& figure, const std::string& letter, const std::string& name,
                                       const ParamSet& p, const std::vector<plot::AxisPins::OwnAxis>& own, int model) {
    std::string head;
    const auto reads = [&](ParamId id) { return std::find(figure.reads.begin(), figure.reads.end(), id) != figure.reads.end(); };
    if (reads(P::dim)) head += ", d = " + std::to_string(static_cast<std::int64_t>(p[P::dim]));
    if (reads(P::base)) head += ", base " + plot::base_label(p[P::base]);  // "base 10⁶", "base 500 000"
    const std::string named = letter + ": " + name;
    const std::string ranges = own_axes_note(own, model, true), axes = own_axes_note(own, model, false);
    return {named + ranges + head, named + ranges, named + axes, named};
}

// Every text of a picture lies within it, and none lies on another (a picture squeezed below what its
// text needs pushes some out or stacks them).
bool texts_inside(const plot::DisplayList& list, const plot::TextMeasure& measure) {
    std::vector<plot::Rect> boxes;
    for (const plot::Command& c : list.commands)
        if (const auto* t = std::get_if<plot::TextCmd>(&c)) {
            if (t->text.empty()) continue;
            const plot::Rect r = plot::text_box(*t, measure);
            if (r.x0 < -1 || r.y0 < -1 || r.x1 > list.width + 1 || r.y1 > list.height + 1) return false;
            for (const plot::Rect& o : boxes)
                if (std::min(r.x1, o.x1) - std::max(r.x0, o.x0) > 1 && std::min(r.y1, o.y1) - std::max(r.y0, o.y0) > 1) return false;
            boxes.push_back(r);
        }
    return true;
}

// Every plot of a picture at its smallest legible size or more (its descriptor's, its caption, ticks and
// labels included) and every text within the picture.
bool legible(const FigureResult& r, const FigureDescriptor& figure, const plot::Style& st, const plot::TextMeasure& measure) {
    for (const PlotGeometry& g : r.plots) {
        const PlotDescriptor& d = figure.plots.at(static_cast<std::size_t>(g.tag));
        if (g.frame.width() + 1 < st.px(d.min_size.x) || g.frame.height() + 1 < st.px(d.min_size.y)) return false;
    }
    return texts_inside(r.list, measure);
}

// Too small for two legible pictures: A's alone, as it is without B (its title names A; maximising
// the panel shows both); the table still holds both models. Unless B's picture is A's (titles aside,
// which name their models): then it stands for both, and its title names both.
FigureResult only_a(const FigureRequest& request, const ParamSet& a, const ParamSet& b, FigureCache& cache, SingleBuild single) {
    FigureRequest untitled = request;
    untitled.style.draw_titles = false;
    FigureResult pic_a = single(untitled, a, cache);
    const FigureResult pic_b = single(untitled, b, cache);
    const bool same = same_picture(pic_a.list, pic_b.list);
    ParamSet alone = a;
    if (!same) alone.set(P::compare_to, "unscaled");
    FigureResult out = request.style.draw_titles ? single(request, alone, cache) : std::move(pic_a);
    if (request.with_table) out.table = long_form(request.style.draw_titles ? pic_a.table : out.table, pic_b.table);
    if (same) out.same_for_b = model_label(a, true);
    else out.hidden_b = model_label(a, true);
    return out;
}

// A's and B's pictures in their halves (titles off). On screen and in stills they share every range
// they agree on: each is built once to collect its ranges (the two at once, on two threads), then again
// on the ranges of both where that changes it. An animation's run has pins of its own, which see A's
// plots, then B's, frame after frame; figures of curves keep their own axes (one build each).
std::pair<FigureResult, FigureResult> build_pictures(const FigureRequest& half, const ParamSet& a, const ParamSet& b,
                                                     const ComparedSplit& split, FigureCache& cache, SingleBuild single,
                                                     std::vector<plot::AxisPins::OwnAxis>& own_axes) {
    auto build = [&](const ParamSet& params, plot::Rect area, plot::AxisPins* pins) {
        FigureRequest r = half;
        r.width = area.width();
        r.height = area.height();
        if (pins) r.style.pins = pins;
        // each model's own case first (its layout's patch map), unless a lesson step names a plot
        if (r.style.focus.empty() && r.figure->own_plot)
            if (const char* own = r.figure->own_plot(params)) r.style.focus = own;
        return single(r, params, cache);
    };
    if (half.style.pins) return {build(a, split.a, nullptr), build(b, split.b, nullptr)};
    if (!half.figure->b_shares_ranges) {
        auto b_job = std::async(concurrently(), [&] { return build(b, split.b, nullptr); });
        FigureResult ra = build(a, split.a, nullptr);
        return {std::move(ra), b_job.get()};
    }
    plot::AxisPins pins_a, pins_b;
    pins_a.start_build(plot::AxisPins::Mode::collect);
    pins_b.start_build(plot::AxisPins::Mode::collect);
    auto b_job = std::async(concurrently(), [&] { return build(b, split.b, &pins_b); });
    FigureResult ra = build(a, split.a, &pins_a);
    FigureResult rb = b_job.get();
    pins_a.absorb(pins_b);  // frame 0: A, frame 1: B
    own_axes = pins_a.keep_thin_axes_own(kReadableShare);
    const bool redo_a = !pins_a.frame_unchanged(0), redo_b = !pins_a.frame_unchanged(1);
    plot::AxisPins apply_a = pins_a, apply_b = pins_a;
    apply_a.start_build(plot::AxisPins::Mode::apply);
    apply_b.start_build(plot::AxisPins::Mode::apply);
    std::future<FigureResult> b_again;
    if (redo_b) b_again = std::async(concurrently(), [&] { return build(b, split.b, &apply_b); });
    if (redo_a) ra = build(a, split.a, &apply_a);
    if (redo_b) rb = b_again.get();
    return {std::move(ra), std::move(rb)};
}

}  // namespace

FigureResult build_compared(const FigureRequest& request, const ParamSet& a, const ParamSet& b, FigureCache& cache,
                            SingleBuild single) {
    const plot::Style& st = request.style;
    plot::ApproximateTextMeasure fallback;
    const plot::TextMeasure& measure = request.measure ? *request.measure : fallback;
    const ComparedSplit split = compared_split(*request.figure, a, b, st, request.width, request.height);
    if (!split.both) return only_a(request, a, b, cache, single);

    FigureRequest half = request;
    half.style.draw_titles = false;
    half.pair_fraction_axis = pair_fraction_axis(*request.figure, a, b);  // one axis that means the same for both
    std::vector<plot::AxisPins::OwnAxis> own_axes;
    auto [ra, rb] = build_pictures(half, a, b, split, cache, single, own_axes);
    // a half that could not hold its picture after all (a plot squeezed below its legible size, a
    // table's rows at the smallest type pushed out): A alone
    if (!legible(ra, *request.figure, half.style, measure) || !legible(rb, *request.figure, half.style, measure))
        return only_a(request, a, b, cache, single);

    // the same picture for both (a figure that does not depend on what differs, the gallery shown when
    // neither model has layers): once, as it is without B
    // (at full size, where the panel may show plots the halves left out, they may differ after all)
    if (same_picture(ra.list, rb.list)) return only_a(request, a, b, cache, single);
    DataTable table = request.with_table ? long_form(ra.table, rb.table) : DataTable{};
    FigureResult out;
    out.background_stamp = std::min(ra.background_stamp, rb.background_stamp);
    out.list.width = request.width;
    out.list.height = request.height;
    out.list.background = st.theme.background;
    if (st.draw_titles)
        out.list.text({request.width / 2, st.px(6)}, figure_title(*request.figure, a), st.px(st.title_font), st.theme.text,
                      plot::HAlign::center, plot::VAlign::top);
    caption(out, st, measure, split.a, split.caption, caption_texts(*request.figure, "A", model_label(a), a, own_axes, 0), 0);
    caption(out, st, measure, split.b, split.caption, caption_texts(*request.figure, "B", model_label(a, true), b, own_axes, 1), 1);
    place(out, std::move(ra), split.a, 0);
    place(out, std::move(rb), split.b, 1);
    out.table = std::move(table);
    return out;
}

}  // namespace rope::figures::detail
