// What the app reads from outside that depends on where it runs: a config.json named as model B
// (compare_to=PATH) and a model folder's weights (the Trained model panel). The core and the figures
// read no files. Each entry point makes one Services and passes it on: the desktop programs
// (weights/desktop_services.hpp, through cli/launcher.cpp's run_guarded) to the window's App and to
// `export`; the web page (web/web_services.cpp), whose files are the page's own, to its App.
#pragma once

#include "figures/trained_reader.hpp"
#include "rope/presets.hpp"

namespace rope {

struct Services {
    ModelImporter import_model;           // a config.json as model B; null: compare_to names presets only
    figures::TrainedReader read_trained;  // model folders; null: the Trained model panel says it cannot read them
};

// Parameters are checked wherever they arrive (--set, a session, a slider, a lesson step), and the
// core asks for compare_to=PATH's model there: it asks the importer of these services from now on.
// Each entry point calls this once, with the services it passes on.
inline void answer_model_imports(const Services& services) { set_model_importer(services.import_model); }

}  // namespace rope
