#include "session/file_metadata.hpp"

#include <climits>
#include <cmath>
#include <nlohmann/json.hpp>

#include "rope/number_format.hpp"
#include "rope/number_parse.hpp"

namespace rope::session {

namespace {

using nlohmann::json;

constexpr std::string_view kViewPrefix = "view:";

// A view key's text as the JSON value a session file would hold: whole numbers for panels, pages
// and steps, true/false, a number for the speed; anything else stays text and is refused with the
// view key's own message.
json view_value(std::string_view key, const std::string& text) {
    if (key == "maximized" || key == "lesson_step" || key == "page") {
        const std::optional<std::int64_t> n = parse_integer(text);
        if (n && *n >= INT_MIN && *n <= INT_MAX) return *n;
    } else if (key == "presentation" || key == "playing") {
        return text == "true";
    } else if (key == "speed") {
        const std::optional<double> x = parse_number(text);
        if (x && std::isfinite(*x)) return *x;
    }
    return text;
}

}  // namespace

io::TextChunks parameter_metadata(const ParamSet& params, std::string_view figure_name) {
    io::TextChunks meta;
    meta.emplace_back("Software", "RoPE Explorer " ROPE_EXPLORER_VERSION);
    meta.emplace_back("rope-explorer-version", ROPE_EXPLORER_VERSION);
    if (!figure_name.empty()) meta.emplace_back("figure", std::string(figure_name));
    for (const ParamSpec& spec : parameter_table()) meta.emplace_back(std::string(spec.name), params.value_text(spec.id));
    return meta;
}

io::TextChunks screenshot_metadata(const Session& s, double ui_font_px) {
    io::TextChunks text = parameter_metadata(s.params);
    const std::string view(kViewPrefix);
    text.emplace_back(view + "maximized", std::to_string(s.view.maximized));
    text.emplace_back(view + "page", std::to_string(s.view.page));
    text.emplace_back(view + "theme", s.view.theme);
    text.emplace_back(view + "presentation", s.view.presentation ? "true" : "false");
    text.emplace_back(view + "lesson_step", std::to_string(s.view.lesson_step));
    if (!s.view.lesson_file.empty()) text.emplace_back(view + "lesson_file", s.view.lesson_file);  // whose step that is
    text.emplace_back(view + "ui_font_px", format_number(ui_font_px));
    return text;
}

Session session_from_png_text(const io::TextChunks& chunks, const std::string& name, const Session& base) {
    json j = {{"parameters", json::object()}, {"view", json::object()}};
    for (const auto& [k, v] : chunks) {
        if (find_param(k)) j["parameters"][k] = v;
        if (k.rfind(kViewPrefix, 0) == 0) {
            const std::string key = k.substr(kViewPrefix.size());
            j["view"][key] = view_value(key, v);
        }
    }
    if (j["parameters"].empty()) throw SessionError("session '" + name + "': this PNG carries no RoPE Explorer parameters");
    // text chunks are bytes from a file: anything that is not UTF-8 becomes U+FFFD and is then
    // refused by the parameter's own check, never a crash in the JSON writer
    return parse_session_json(j.dump(-1, ' ', false, json::error_handler_t::replace), name, base);
}

}  // namespace rope::session
