// What the app's files carry besides their picture, written and read in this one module: the app's
// version, the figure and every parameter as --set text (PNG text chunks, SVG <metadata>, PDF
// Subject/Keywords, video tags, the GIF comment), the view for a window's screenshot, and a PNG's
// chunks read back as a session. A key written here is a key read here.
#pragma once

#include <string>
#include <string_view>

#include "io/png_writer.hpp"
#include "session/session.hpp"

namespace rope::session {

// "Software", "rope-explorer-version", "figure" (when given), then every parameter in table order.
io::TextChunks parameter_metadata(const ParamSet& params, std::string_view figure_name = "");

// A screenshot of the window: the parameters, then the view (view:maximized, view:page, view:theme,
// view:presentation, view:lesson_step) and the UI's font size in pixels (view:ui_font_px).
io::TextChunks screenshot_metadata(const Session& session, double ui_font_px);

// A session from a PNG's text chunks (parameter keys and view:* keys), on top of `base`; a PNG with
// no parameters, or one whose values the table refuses, is a SessionError naming `name`.
Session session_from_png_text(const io::TextChunks& chunks, const std::string& name, const Session& base = {});

}  // namespace rope::session
