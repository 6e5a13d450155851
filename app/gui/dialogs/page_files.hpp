// Save, Open, Config and the lesson's files on a page (the browser), where the app has no folders of
// the person's to show: saving writes the file in the page's memory and hands it over as a download,
// opening asks the page's own file picker (the file picked arrives as a drop and opens by its content).
#pragma once

#include <string>

#include "gui/app/actions.hpp"
#include "gui/app/app_state.hpp"
#include "gui/platform/platform.hpp"

namespace rope::gui {

// What the Save / Open / Config / lesson buttons do on a platform whose files go through its page;
// the outcome for the status line as actions. Throws nothing.
void page_file_dialog(const AppState& state, act::OpenFileDialog::Kind kind, Platform& platform, Actions& out);

// "How RoPE works" -> "how-rope-works": a file name from a title (`fallback` if nothing is left).
std::string file_stem(const std::string& title, const char* fallback);
// `name` in the folder where files to download are written first (the page's memory; made if need
// be): rope-explorer-downloads in the temporary folder ($TMPDIR, else /tmp).
std::string download_path(const std::string& name);

}  // namespace rope::gui
