#include "session/session.hpp"


#include <sys/stat.h>

#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "figures/registry.hpp"
#include "io/atomic_file.hpp"
#include "io/png_text.hpp"
#include "io/png_writer.hpp"
#include "plot/style.hpp"
#include "session/file_metadata.hpp"
#include "rope/number_format.hpp"
#include "rope/number_parse.hpp"

namespace rope::session {

namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string& name, const std::string& what) {
    throw SessionError("session '" + name + "': " + what);
}

// A value as a refusal names it: as the file writes it, shortened to a line.
std::string shown(const json& v) { return shorten_for_message(v.dump()); }

void apply_parameter(ParamSet& p, const std::string& name, const ParamSpec* spec, const json& v) {
    const ParamId key = spec->id;
    try {
        if (v.is_number()) {
            if (spec->numeric()) {
                p.set_number(key, v.get<double>());
            } else if (spec->type == ParamType::real_list) {
                p.set(key, format_number(v.get<double>()));
            } else {
                fail(name, "parameters." + std::string(spec->name) + " is " + shown(v) + "; it must be a string (" + spec->allowed() + ")");
            }
        } else if (v.is_string()) {
            p.set(key, v.get<std::string>());
        } else if (v.is_boolean() && spec->type == ParamType::boolean) {
            p.set(key, v.get<bool>() ? "true" : "false");
        } else if (v.is_null() && spec->optional) {
            p.reset(key);
        } else if (v.is_array() && spec->type == ParamType::real_list) {
            std::string text;
            for (const json& item : v) {
                if (!item.is_number())
                    fail(name, "parameters." + std::string(spec->name) + " has " + shown(item) + "; its list's items must be numbers");
                text += (text.empty() ? "" : ",") + format_number(item.get<double>());
            }
            p.set(key, text);
        } else {
            fail(name, "parameters." + std::string(spec->name) + " is " + shown(v) + "; it must be a number or a string (" + spec->allowed() + ")");
        }
    } catch (const ParamError& e) {
        fail(name, std::string("parameters: ") + e.what());
    }
}

void apply_view(ViewState& view, const std::string& name, const json& j) {
    if (!j.is_object()) fail(name, "\"view\" is " + shown(j) + "; it must be an object");
    for (const auto& [k, v] : j.items()) {
        if (k == "maximized") {
            if (!v.is_number_integer() || v.get<int>() < -1 || v.get<int>() >= figures::figure_count())
                fail(name, "view.maximized is " + shown(v) + "; it must be -1 or a panel 0 to " + std::to_string(figures::figure_count() - 1));
            view.maximized = v.get<int>();
        } else if (k == "page") {
            if (!v.is_number_integer() || v.get<int>() < 0 || v.get<int>() >= static_cast<int>(figures::pages().size()))
                fail(name, "view.page is " + shown(v) + "; it must be a page 0 to " + std::to_string(static_cast<int>(figures::pages().size()) - 1));
            view.page = v.get<int>();
        } else if (k == "theme") {
            if (!v.is_string() || !plot::theme_from_name(v.get<std::string>()))
                fail(name, "view.theme is " + shown(v) + "; it must be " + plot::theme_names());
            view.theme = v.get<std::string>();
        } else if (k == "presentation") {
            if (!v.is_boolean()) fail(name, "view.presentation is " + shown(v) + "; it must be true or false");
            view.presentation = v.get<bool>();
        } else if (k == "lesson_step") {
            if (!v.is_number_integer() || v.get<int>() < -1 || v.get<int>() > 1000)
                fail(name, "view.lesson_step is " + shown(v) + "; it must be -1 or a step number");
            view.lesson_step = v.get<int>();
        } else if (k == "playing") {
            if (!v.is_boolean()) fail(name, "view.playing is " + shown(v) + "; it must be true or false");
            view.playing = v.get<bool>();
        } else if (k == "reduced_motion") {
            if (!v.is_boolean()) fail(name, "view.reduced_motion is " + shown(v) + "; it must be true or false");
            view.reduced_motion = v.get<bool>();
        } else if (k == "lesson_file") {
            if (!v.is_string())
                fail(name, "view.lesson_file is " + shown(v) + "; it must be a lesson file's path (a string; \"\" for the built-in lesson)");
            view.lesson_file = v.get<std::string>();
        } else if (k == "speed") {
            if (!v.is_number() || !(v.get<double>() >= kMinSpeed && v.get<double>() <= kMaxSpeed))
                fail(name, "view.speed is " + shown(v) + "; it must be a number of tokens per second from 0.5 to 10000");
            view.speed = v.get<double>();
        }  // other view keys: ignored (newer versions may add some)
    }
}

bool is_png(const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) return false;
    unsigned char sig[8] = {};
    const bool png = std::fread(sig, 1, 8, f) == 8 && sig[0] == 0x89 && sig[1] == 'P' && sig[2] == 'N' && sig[3] == 'G';
    std::fclose(f);
    return png;
}

}  // namespace

Session parse_session_json(const std::string& text, const std::string& name, const Session& base) {
    json j;
    try {
        j = json::parse(text);
    } catch (const json::exception& e) {  // syntax errors, and numbers too big for a double
        std::string what = e.what();
        const std::size_t id_end = what.find("] ");  // keep nlohmann's reason, drop its id prefix
        fail(name, "not valid JSON (" + (id_end == std::string::npos ? what : what.substr(id_end + 2)) + ")");
    }
    if (!j.is_object()) fail(name, "the file holds " + shown(j) + "; a session is a JSON object with \"parameters\"");
    if (!j.contains("parameters")) fail(name, "no \"parameters\" object");
    const json& params = j["parameters"];
    if (!params.is_object()) fail(name, "\"parameters\" is " + shown(params) + "; it must be an object of keys and values");
    Session s = base;
    for (const auto& [k, v] : params.items())
        if (!find_param(k)) fail(name, "parameters." + k + ": unknown key");
    // in the table's order, whatever the file's: a preset first (it resets the keys it sets), the
    // model's layers, then the layer (it loads its kind), then dim and the values that refine them
    for (const ParamSpec& spec : parameter_table()) {
        const std::string key(spec.name);
        if (params.contains(key)) apply_parameter(s.params, name, &spec, params[key]);
    }
    try {
        s.params.validate();
    } catch (const ParamError& e) {
        fail(name, std::string("parameters: ") + e.what());
    }
    if (j.contains("view")) apply_view(s.view, name, j["view"]);
    return s;
}

Session load_session(const std::string& path, const Session& base) {
    struct stat st {};
    if (stat(path.c_str(), &st) != 0) fail(path, "no such file");
    if (S_ISDIR(st.st_mode)) fail(path, "is a folder");
    if (is_png(path)) {
        io::TextChunks text;
        try {
            text = io::read_png_text_file(path);
        } catch (const io::IoError& e) {
            fail(path, e.what());
        }
        return session_from_png_text(text, path, base);
    }
    std::string text;
    try {
        text = io::read_file(path);
    } catch (const io::IoError& e) {
        fail(path, e.what());
    }
    return parse_session_json(text, path, base);
}

namespace {

json parameters_object(const ParamSet& p, const ParamSet* unlike) {
    json params = json::object();
    for (const ParamSpec& spec : parameter_table()) {
        const std::string key(spec.name);
        if (!p.has(spec.id)) continue;
        const ParamValue& v = p.value(spec.id);
        if (unlike && unlike->has(spec.id) && unlike->value(spec.id) == v) continue;
        if (spec.type == ParamType::integer) params[key] = std::get<std::int64_t>(v);
        else if (spec.type == ParamType::real) params[key] = std::get<double>(v);
        else if (spec.type == ParamType::boolean) params[key] = std::get<bool>(v);
        else params[key] = p.value_text(spec.id);
    }
    return params;
}

}  // namespace

std::string parameters_json(const ParamSet& params, const ParamSet* unlike) { return parameters_object(params, unlike).dump(); }

std::string session_json(const Session& s) {
    const json params = parameters_object(s.params, nullptr);
    json j = {{"format", "rope-explorer session"},
              {"version", ROPE_EXPLORER_VERSION},
              {"parameters", params},
              {"view",
               {{"maximized", s.view.maximized},
                {"page", s.view.page},
                {"theme", s.view.theme},
                {"presentation", s.view.presentation},
                {"lesson_step", s.view.lesson_step},
                {"playing", s.view.playing},
                {"reduced_motion", s.view.reduced_motion},
                {"speed", s.view.speed}}}};
    if (!s.view.lesson_file.empty()) j["view"]["lesson_file"] = s.view.lesson_file;
    return j.dump(2) + "\n";
}

void save_session(const std::string& path, const Session& s) { io::write_file_atomically(path, session_json(s)); }

void make_state_folder() {
    const std::string last = last_session_path();
    const std::string dir = last.substr(0, last.find_last_of('/'));
    for (std::size_t at = 1; at != std::string::npos; at = dir.find('/', at + 1)) mkdir(dir.substr(0, at).c_str(), 0700);
    mkdir(dir.c_str(), 0700);
}

FileKind file_kind(const std::string& path) {
    std::string text;
    try {
        text = io::read_file(path);
    } catch (const io::IoError&) {
        return FileKind::session;
    }
    if (text.size() >= 4 && static_cast<unsigned char>(text[0]) == 0x89 && text.compare(1, 3, "PNG") == 0) return FileKind::session;
    const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    if (!j.is_object() || j.contains("parameters")) return FileKind::session;
    return j.contains("steps") ? FileKind::lesson : FileKind::config;
}

std::string last_session_path() {
    std::string base;
    if (const char* xdg = std::getenv("XDG_STATE_HOME"); xdg && *xdg)
        base = xdg;
    else if (const char* home = std::getenv("HOME"); home && *home)
        base = std::string(home) + "/.local/state";
    else
        base = "/tmp";
    return base + "/rope-explorer/last-session.json";
}

}  // namespace rope::session
