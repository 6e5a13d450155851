#include "gui/drivers/state_report.hpp"

#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "gui/app/app.hpp"
#include "io/atomic_file.hpp"
#include "session/session.hpp"

namespace rope::gui {

double steady_seconds() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

void StateReport::settled(const App& app, double since_steady) {
    // an animation playing never settles; a picture still computing wakes the loop when it lands
    if (path_.empty() || app.state().playing || !app.figures_complete()) return;
    const nlohmann::json report = {{"reports", ++reports_},
                                   {"settled_at", since_steady},
                                   {"frames", app.frames()},
                                   {"status", app.state().status},
                                   {"ui_scale", app.state().ui_scale},
                                   {"ui_zoom", app.state().ui_zoom},
                                   {"session", nlohmann::json::parse(session::session_json(current_session(app.state())))}};
    try {
        io::write_file_atomically(path_, report.dump(2) + "\n");
    } catch (const io::IoError& e) {
        std::fprintf(stderr, "rope-explorer: warning: --state-file: %s\n", e.what());
        path_.clear();  // said once
    }
}

}  // namespace rope::gui
