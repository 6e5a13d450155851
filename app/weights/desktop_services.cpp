#include "weights/desktop_services.hpp"

#include "session/hf_config.hpp"
#include "weights/trained_weights.hpp"

namespace rope::weights {

Services desktop_services() { return {session::config_importer(), folder_reader()}; }

}  // namespace rope::weights
