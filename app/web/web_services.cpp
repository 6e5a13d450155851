#include "session/hf_config.hpp"
#include "web/web_run.hpp"

namespace rope::gui {

Services web_services() { return {session::config_importer(), {}}; }

}  // namespace rope::gui
