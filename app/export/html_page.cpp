#include "export/html_page.hpp"

#include <cmath>
#include <cstdio>
#include <optional>
#include <nlohmann/json.hpp>

#include "export/svg_writer.hpp"
#include "html_sources.hpp"
#include "io/atomic_file.hpp"

namespace rope::exporting {

namespace {

void put_number(std::string& out, double v) { out += svg_number(v); }

// A colour as canvas reads it, quoted; null for a transparent one (nothing drawn).
void put_colour(std::string& out, plot::Color c) {
    if (c.a <= 0) {
        out += "null";
        return;
    }
    if (c.a >= 0.999f) {
        out += "\"" + hex_colour(c) + "\"";
        return;
    }
    auto b = [](float v) { return static_cast<int>(std::lround(std::fmin(1.f, std::fmax(0.f, v)) * 255)); };
    char buf[48];
    std::snprintf(buf, sizeof buf, "\"rgba(%d,%d,%d,%.3g)\"", b(c.r), b(c.g), b(c.b), c.a);
    out += buf;
}

void put_points(std::string& out, const std::vector<plot::Vec2>& points) {
    out += '[';
    for (std::size_t i = 0; i < points.size(); ++i) {
        if (i) out += ',';
        put_number(out, points[i].x);
        out += ',';
        put_number(out, points[i].y);
    }
    out += ']';
}

// Numbers and colours joined by commas after the command's letter: ["r",1,2,...].
struct Encoder {
    std::string s;
    explicit Encoder(const char* kind) { s = std::string("[\"") + kind + "\""; }
    Encoder& n(double v) { s += ','; put_number(s, v); return *this; }
    Encoder& c(plot::Color v) { s += ','; put_colour(s, v); return *this; }
    Encoder& raw(const std::string& v) { s += ',' + v; return *this; }
    std::string done() { return s + ']'; }
};

std::string json_text(const std::string& s) { return nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace); }

// JSON inside <script>: no '<' at all (written \u003c, which JSON reads back as '<'), so that no
// "</script" or "<!--" in a label can end the element or change how the page is parsed. '<' only
// occurs inside JSON strings.
std::string script_safe_json(const std::string& json) {
    std::string out;
    out.reserve(json.size());
    for (const char c : json) out += c == '<' ? std::string("\\u003c") : std::string(1, c);
    return out;
}

const char* axis_word(figures::AxisRole role, const char* other) {
    switch (role) {
        case figures::AxisRole::pair: return "pair";
        case figures::AxisRole::position: return "position";
        case figures::AxisRole::index: return "index";
        default: return other;
    }
}

// A plot's place and ranges for the hover readout: name, x0, y0, x1, y1, [xmin, xmax], [ymin, ymax],
// xlog, ylog, the axes' words, whether they count whole numbers.
std::string plot_entry(const figures::PlotGeometry& g, const figures::FigureDescriptor* figure) {
    std::string name = g.name;
    if (figure && g.tag >= 0 && g.tag < static_cast<int>(figure->plots.size())) name = std::string(figure->plots[g.tag].short_title);
    if (g.model == 1) name += " (B)";
    Encoder e("");
    e.s = "[" + json_text(name);
    e.n(g.area.x0).n(g.area.y0).n(g.area.x1).n(g.area.y1);
    auto finite = [](double v) { return std::isfinite(v) ? v : 0.0; };  // JSON has no infinity
    char range[160];
    std::snprintf(range, sizeof range, "[%.17g,%.17g],[%.17g,%.17g]", finite(g.x_min), finite(g.x_max), finite(g.y_min), finite(g.y_max));
    e.raw(range).raw(g.x_log ? "true" : "false").raw(g.y_log ? "true" : "false");
    e.raw(json_text(axis_word(g.x_role, "x"))).raw(json_text(axis_word(g.y_role, "y")));
    e.raw(g.x_role != figures::AxisRole::other ? "true" : "false").raw(g.y_role != figures::AxisRole::other ? "true" : "false");
    return e.done();
}

}  // namespace

HtmlPage::HtmlPage(int width, int height, const figures::FigureDescriptor* descriptor)
    : width_(width), height_(height), descriptor_(descriptor) {}

int HtmlPage::command_number(std::string encoded) {
    const auto [it, added] = command_numbers_.emplace(std::move(encoded), static_cast<int>(commands_.size()));
    if (added) commands_.push_back(it->first);
    return it->second;
}

int HtmlPage::image_number(const plot::ImageCmd& image) {
    std::string uri = "data:image/png;base64," + base64(cells_png(image));
    const auto [it, added] = image_numbers_.emplace(std::move(uri), static_cast<int>(images_.size()));
    if (added) images_.push_back(it->first);
    return it->second;
}

void HtmlPage::add_frame(const figures::FigureResult& figure, const std::string& label, const std::string& alt) {
    std::string bg;
    put_colour(bg, figure.list.background.with_alpha(1));
    background_ = bg;
    const plot::Color b = figure.list.background;
    background_luminance_ = 0.2126f * b.r + 0.7152f * b.g + 0.0722f * b.b;
    std::vector<int> list;
    list.reserve(figure.list.commands.size());
    for (const plot::Command& c : figure.list.commands) {
        if (const auto* l = std::get_if<plot::PolylineCmd>(&c)) {
            if (l->points.size() < 2) continue;
            Encoder e("l");
            e.c(l->color).n(l->width).n(l->dash).raw(l->closed ? "true" : "false").s += ',';
            put_points(e.s, l->points);
            list.push_back(command_number(e.done()));
        } else if (const auto* pg = std::get_if<plot::PolygonCmd>(&c)) {
            if (pg->points.empty()) continue;
            Encoder e("g");
            e.c(pg->fill).s += ',';
            put_points(e.s, pg->points);
            list.push_back(command_number(e.done()));
        } else if (const auto* r = std::get_if<plot::RectCmd>(&c)) {
            list.push_back(command_number(
                Encoder("r").n(r->rect.x0).n(r->rect.y0).n(r->rect.width()).n(r->rect.height()).c(r->fill).c(r->stroke).n(r->stroke_width).done()));
        } else if (const auto* ci = std::get_if<plot::CircleCmd>(&c)) {
            list.push_back(command_number(
                Encoder("c").n(ci->center.x).n(ci->center.y).n(ci->radius).c(ci->fill).c(ci->stroke).n(ci->stroke_width).done()));
        } else if (const auto* t = std::get_if<plot::TextCmd>(&c)) {
            list.push_back(command_number(Encoder("t")
                                              .n(t->pos.x)
                                              .n(t->pos.y)
                                              .n(t->size)
                                              .c(t->color)
                                              .n(static_cast<int>(t->halign))
                                              .n(static_cast<int>(t->valign))
                                              .n(t->vertical ? 1 : 0)
                                              .raw(json_text(t->text))
                                              .done()));
        } else if (const auto* img = std::get_if<plot::ImageCmd>(&c)) {
            if (img->cols <= 0 || img->rows <= 0) continue;
            list.push_back(command_number(
                Encoder("i").n(img->rect.x0).n(img->rect.y0).n(img->rect.width()).n(img->rect.height()).n(image_number(*img)).done()));
        } else if (const auto* cl = std::get_if<plot::ClipCmd>(&c)) {
            list.push_back(command_number(cl->push ? Encoder("p").n(cl->rect.x0).n(cl->rect.y0).n(cl->rect.width()).n(cl->rect.height()).done()
                                                   : Encoder("q").done()));
        }
    }
    frames_.push_back(std::move(list));
    labels_.push_back(label);
    alts_.push_back(alt);
    std::string plots = "[";
    for (const figures::PlotGeometry& g : figure.plots) plots += (plots.size() > 1 ? "," : "") + plot_entry(g, descriptor_);
    plots_.push_back(plots + "]");
}

std::string HtmlPage::text(const HtmlPageInfo& info) const {
    const bool animated = frames_.size() > 1;
    std::string data = "{\"width\":" + std::to_string(width_) + ",\"height\":" + std::to_string(height_) +
                       ",\"background\":" + (background_.empty() ? "\"#ffffff\"" : background_) + ",\"fps\":" + std::to_string(info.fps);
    auto list = [&](const char* name, const std::vector<std::string>& items, bool quote) {
        data += ",\"" + std::string(name) + "\":[";
        for (std::size_t i = 0; i < items.size(); ++i) data += (i ? "," : "") + (quote ? json_text(items[i]) : items[i]);
        data += "]";
    };
    list("labels", labels_, true);
    list("alt", alts_, true);
    list("images", images_, true);
    list("commands", commands_, false);
    list("plots", plots_, false);
    data += ",\"frames\":[";
    for (std::size_t f = 0; f < frames_.size(); ++f) {
        data += f ? ",[" : "[";
        for (std::size_t i = 0; i < frames_[f].size(); ++i) data += (i ? "," : "") + std::to_string(frames_[f][i]);
        data += "]";
    }
    data += "],\"font\":\"" + base64(dejavu_font_bytes()) + "\"}";

    const std::string w = std::to_string(width_), h = std::to_string(height_);
    const std::string first_alt = alts_.empty() ? info.title : alts_.front();
    // the controls' words in the figure's theme: dark on a light page, light on a dark one
    const std::string text_colour = background_luminance_ > 0.5f ? "#333333" : "#d8d8d8";
    std::string page;
    page.reserve(data.size() + 16384);
    page += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
    page += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
    page += "<meta name=\"generator\" content=\"RoPE Explorer " ROPE_EXPLORER_VERSION "\">\n";
    page += "<meta name=\"description\" content=\"" + xml_escape(first_alt) + "\">\n";
    for (const auto& [k, v] : info.metadata)  // a page to publish: a local file's path (config=, compare_to=) stays out
        if (v.find('/') == std::string::npos) page += "<meta name=\"rope-explorer:" + xml_escape(k) + "\" content=\"" + xml_escape(v) + "\">\n";
    page += "<title>" + xml_escape(info.title) + "</title>\n<style>\n";
    page += "html, body { margin: 0; padding: 0; background: " + (background_.empty() ? std::string("#ffffff") : background_.substr(1, background_.size() - 2)) + "; }\n";
    page += "body { font: 15px \"DejaVu Sans\", Verdana, sans-serif; color: " + text_colour + "; }\n";
    page += "figure { margin: 0 auto; max-width: " + w + "px; }\n";
    page += "canvas { display: block; width: 100%; height: auto; aspect-ratio: " + w + " / " + h + "; }\n";
    page += ".controls { display: flex; flex-wrap: wrap; align-items: center; gap: 6px 10px; padding: 6px 4px; }\n";
    page += ".controls input { flex: 1; min-width: 120px; }\n";
    page += ".controls button { min-width: 6.5em; font: inherit; }\n";
    page += "#frame-label { min-width: 9em; font-variant-numeric: tabular-nums; }\n";
    page += "#readout { position: absolute; pointer-events: none; background: rgba(20,20,20,0.85); color: #fff; padding: 3px 6px; "
            "border-radius: 3px; font-size: 13px; white-space: nowrap; }\n";
    page += "</style>\n</head>\n<body>\n<figure>\n";
    page += "<canvas id=\"canvas\" width=\"" + w + "\" height=\"" + h + "\" role=\"img\" aria-label=\"" + xml_escape(first_alt) + "\"></canvas>\n";
    if (animated) {
        const std::string max = std::to_string(frames_.size() - 1);
        page += "<div class=\"controls\">\n";
        page += "<button id=\"play\" type=\"button\" aria-label=\"Play\">&#9654; Play</button>\n";
        page += "<input id=\"frame\" type=\"range\" min=\"0\" max=\"" + max + "\" step=\"1\" value=\"0\" aria-label=\"" +
                xml_escape(info.slider_label) + " (frame)\" aria-valuetext=\"" + xml_escape(labels_.front()) + "\">\n";
        page += "<output id=\"frame-label\" for=\"frame\">" + xml_escape(labels_.front()) + "</output>\n</div>\n";
    }
    page += "</figure>\n<div id=\"readout\" role=\"status\" hidden></div>\n";
    page += "<script type=\"application/json\" id=\"rope-figure\">" + script_safe_json(data) + "</script>\n";
    page += "<script>\n" + std::string(kHtml_figure_page_js) + "</script>\n</body>\n</html>\n";  // ours: no "</script" in it
    return page;
}

namespace {

class HtmlSink : public FrameSink {
public:
    explicit HtmlSink(const FrameSinkRequest& r) : request_(r) {}
    void add_figure(const figures::FigureResult& figure, const ExportOptions& o, int index) override {
        if (!page_) page_.emplace(o.width, o.height, request_.figure);  // vector: the figure's size, not the scaled one
        page_->add_frame(figure, request_.frame_label ? request_.frame_label(index) : "",
                        request_.frame_alt ? request_.frame_alt(index) : request_.title);
    }
    void finish() override {
        if (!page_) throw io::IoError("cannot write '" + request_.path + "': an animation without frames");
        io::write_file_atomically(request_.path, page_->text({request_.title, request_.slider_label, request_.fps, request_.metadata}));
    }

private:
    FrameSinkRequest request_;
    std::optional<HtmlPage> page_;
};

}  // namespace

void write_html_file(const StillFile& f, ExportResult& result) {
    HtmlPage page(f.options.width, f.options.height, f.descriptor);
    page.add_frame(f.figure, "", f.alt.empty() ? f.title : f.alt);
    io::write_file_atomically(f.options.path, page.text({f.title, "", 30, f.metadata}));
    result.pixel_width = f.options.width;
    result.pixel_height = f.options.height;
}

std::unique_ptr<FrameSink> open_html(const FrameSinkRequest& request) { return std::make_unique<HtmlSink>(request); }

}  // namespace rope::exporting
