#include "session/ui_settings.hpp"

#include <cmath>
#include <nlohmann/json.hpp>

#include "io/atomic_file.hpp"
#include "session/session.hpp"

namespace rope::session {

std::string ui_settings_path() {
    const std::string last = last_session_path();
    return last.substr(0, last.find_last_of('/')) + "/settings.json";
}

UiSettings kept_ui_settings() {
    UiSettings s;
    try {
        const nlohmann::json j = nlohmann::json::parse(io::read_file(ui_settings_path()));
        const double zoom = j.at("ui_zoom").get<double>();
        if (zoom >= 0.5 && zoom <= 3.0) s.ui_zoom = static_cast<float>(zoom);
    } catch (const std::exception&) {
        // none kept yet, or not ours to read: the defaults
    }
    return s;
}

void keep_ui_settings(const UiSettings& settings) {
    make_state_folder();
    try {
        const double zoom = std::round(static_cast<double>(settings.ui_zoom) * 100) / 100;  // 1.1, not 1.100000023841858
        io::write_file_atomically(ui_settings_path(), nlohmann::json{{"ui_zoom", zoom}}.dump(2) + "\n");
    } catch (const std::exception&) {
        // a convenience: the app goes on at this zoom all the same
    }
}

}  // namespace rope::session
