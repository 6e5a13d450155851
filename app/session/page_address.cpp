#include "session/page_address.hpp"

#include <algorithm>
#include <cctype>

#include "figures/registry.hpp"
#include "plot/style.hpp"
#include "rope/number_format.hpp"
#include "rope/number_parse.hpp"

namespace rope::session {

namespace {

constexpr std::string_view kViewKeys = "lesson, presentation, page, panel, theme, embed, bench-frames, sweep";

bool same_text(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
           });
}

std::string refusal(const std::string& key, const std::string& value, const std::string& allowed) {
    return key + "=" + shorten_for_message(value) + " in the page's address: " + allowed;
}

std::string figure_names() {
    std::string s;
    for (const figures::FigureDescriptor* f : figures::all_figures()) s += (s.empty() ? "" : ", ") + std::string(f->name);
    return s;
}

std::optional<int> whole_number(const std::string& value, int lo, int hi) {
    const std::optional<std::int64_t> n = parse_integer(value);
    if (!n || *n < lo || *n > hi) return std::nullopt;
    return static_cast<int>(*n);
}

// One key=value of the address into `out` (or a refusal into out.errors).
void read_pair(const std::string& key, const std::string& value, PageAddress& out) {
    if (key == "lesson") {
        if (const auto n = whole_number(value, 1, 1000)) out.lesson = *n;
        else out.errors.push_back(refusal(key, value, "a lesson step number from 1"));
    } else if (key == "presentation") {
        if (value == "1" || value == "true") out.presentation = true;
        else if (value == "0" || value == "false") out.presentation = false;
        else out.errors.push_back(refusal(key, value, "1 (presentation mode) or 0"));
    } else if (key == "page") {
        const auto& names = figures::pages();
        std::optional<int> page = whole_number(value, 1, static_cast<int>(names.size()));
        if (page) --*page;
        for (std::size_t i = 0; !page && i < names.size(); ++i)
            if (same_text(names[i], value)) page = static_cast<int>(i);
        if (page) out.page = page;
        else out.errors.push_back(refusal(key, value, "a page from 1 to " + std::to_string(names.size()) + " or its name"));
    } else if (key == "panel" || key == "embed") {
        const figures::FigureDescriptor* f = figures::find_figure(value);
        if (!f) return out.errors.push_back(refusal(key, value, "one of " + figure_names()));
        if (key == "panel") out.maximized = f->index;
        else out.embed = std::string(f->name);
    } else if (key == "theme") {
        if (plot::theme_from_name(value)) out.theme = value;
        else out.errors.push_back(refusal(key, value, plot::theme_names()));
    } else if (key == "bench-frames") {
        if (const auto n = whole_number(value, 1, 100000)) out.bench_frames = *n;
        else out.errors.push_back(refusal(key, value, "a number of frames from 1 to 100000"));
    } else if (key == "sweep") {
        std::vector<ParamId> keys;
        std::size_t from = 0;
        while (from <= value.size()) {
            const std::size_t comma = std::min(value.find(',', from), value.size());
            const ParamSpec* spec = find_param(value.substr(from, comma - from));
            if (!spec || !spec->numeric()) return out.errors.push_back(refusal(key, value, "numeric parameters' keys, joined by commas"));
            keys.push_back(spec->id);
            from = comma + 1;
        }
        out.sweep = keys;
    } else if (find_param(key) || key == "layer_type") {
        out.sets.push_back(key + "=" + value);
    } else {
        out.errors.push_back("'" + shorten_for_message(key) + "' in the page's address: not a key (the parameters as --set names them, or " +
                             std::string(kViewKeys) + ")");
    }
}

}  // namespace

std::string percent_encode(std::string_view text) {
    static const char* hex = "0123456789ABCDEF";
    std::string out;
    for (const char ch : text) {
        const auto c = static_cast<unsigned char>(ch);
        if (std::isalnum(c) || std::string_view("-_.~,:/").find(ch) != std::string_view::npos) {
            out += ch;
        } else {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

std::string percent_decode(std::string_view text) {
    auto digit = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) ? c - '0' : std::isxdigit(static_cast<unsigned char>(c)) ? (std::tolower(static_cast<unsigned char>(c)) - 'a' + 10) : -1; };
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '%' && i + 2 < text.size() + 0 && digit(text[i + 1]) >= 0 && digit(text[i + 2]) >= 0) {
            out += static_cast<char>(digit(text[i + 1]) * 16 + digit(text[i + 2]));
            i += 2;
        } else {
            out += text[i];
        }
    }
    return out;
}

PageAddress parse_page_address(std::string_view fragment) {
    PageAddress out;
    if (!fragment.empty() && fragment.front() == '#') fragment.remove_prefix(1);
    std::size_t from = 0;
    while (from < fragment.size()) {
        const std::size_t amp = std::min(fragment.find('&', from), fragment.size());
        const std::string_view pair = fragment.substr(from, amp - from);
        from = amp + 1;
        if (pair.empty()) continue;
        const std::size_t eq = pair.find('=');
        const std::string key = percent_decode(pair.substr(0, eq));
        if (eq == std::string_view::npos) {
            out.errors.push_back("'" + shorten_for_message(key) + "' in the page's address: a key needs a value (key=value)");
            continue;
        }
        read_pair(key, percent_decode(pair.substr(eq + 1)), out);
    }
    return out;
}

std::string page_address_of(const ParamSet& params, const ViewState& view, const std::string& embed) {
    std::vector<std::string> pairs;
    auto add = [&](std::string_view key, const std::string& value) { pairs.push_back(percent_encode(key) + "=" + percent_encode(value)); };
    // The preset first; then each key where this state differs from what the keys before it give
    // (a preset sets some keys, layer among them: layer=none after one is written too). Read in this
    // order, as a page applies them, the pairs give these parameters back.
    ParamSet replayed;
    auto differs = [&](ParamId id) { return params.value_text(id) != replayed.value_text(id); };
    auto write = [&](ParamId id) {
        add(param_spec(id).name, params.value_text(id));
        try {
            replayed.set(id, params.value_text(id));
        } catch (const std::exception&) {
            // (a value this state holds is one set() takes: not reached)
        }
    };
    if (differs(ParamId::preset)) write(ParamId::preset);
    for (int pass = 0; pass < 3; ++pass)  // a key set can move another (again, at most twice)
        for (const ParamSpec& spec : parameter_table())
            if (spec.id != ParamId::preset && differs(spec.id)) write(spec.id);
    const ViewState fresh;
    if (view.lesson_step >= 0) add("lesson", std::to_string(view.lesson_step + 1));
    if (view.presentation) add("presentation", "1");
    if (view.page != fresh.page && view.lesson_step < 0) add("page", std::to_string(view.page + 1));
    if (view.maximized >= 0) add("panel", std::string(figures::figure_at(view.maximized).name));
    if (view.theme != fresh.theme) add("theme", view.theme);
    if (!embed.empty()) add("embed", embed);
    std::string out;
    for (const std::string& p : pairs) out += (out.empty() ? "" : "&") + p;
    return out;
}

}  // namespace rope::session
