// The one table of file formats the app writes: one row per format (its extension, what it holds,
// which options apply, whether it carries the session, its writer). The command line, the Export and
// Record dialogs, --help, docs/reference.md (generated) and the tests read it; a new format is one row plus its
// writer.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "export/export_options.hpp"
#include "export/frame_sink.hpp"
#include "export/still_writers.hpp"

namespace rope::exporting {

// A picture of the figure, the numbers behind it, or an animation of it.
enum class FormatKind { picture, table, animation };

struct FileFormatInfo {
    FileFormat id;
    std::string_view name;       // "PNG", "PNG frames": status lines and messages
    std::string_view extension;  // ".png"; "/" for a folder (a path ending in /)
    std::string_view mime;       // "image/png": the type a browser's download is given
    std::string_view label;      // the dialogs' radio button
    std::string_view help;       // one line for --help and docs/reference.md
    FormatKind kind;
    bool raster = false;           // pixels: --scale applies
    bool carries_session = false;  // reopens as a session (--session, Open, drop)
    bool animates = false;         // a picture that is also an animation with --animate (the HTML page's slider)
    StillWriter write_still = nullptr;       // pictures and tables
    FrameSinkMaker open_frames = nullptr;    // animations
};

const std::vector<FileFormatInfo>& file_formats();
const FileFormatInfo& file_format(FileFormat id);
// Whether this build writes the format (the browser's writes no PDF and no pixel animation: the
// dialogs offer those as the desktop app's).
bool writable_here(const FileFormatInfo& format);
// The format `path` names: a folder of PNGs when it ends in '/', else by its extension
// (case-insensitive); null if none of ours.
const FileFormatInfo* format_for_path(const std::string& path);
// The formats of a kind, in table order (for an animation: also the pictures that animate).
std::vector<const FileFormatInfo*> formats_of(FormatKind kind);
// ".png, .svg, .pdf or .csv": the extensions of the given kinds, for messages (a folder reads
// "a folder ending in /").
std::string extensions_text(std::initializer_list<FormatKind> kinds);
// `file_name` with its extension replaced by the format's (a folder's name has none).
std::string with_extension(const std::string& file_name, const FileFormatInfo& format);

}  // namespace rope::exporting
