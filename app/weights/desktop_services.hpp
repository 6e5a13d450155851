// The desktop programs' services (services/services.hpp): config.json files and model folders read
// from this machine's file system.
#pragma once

#include "services/services.hpp"

namespace rope::weights {

Services desktop_services();

}  // namespace rope::weights
