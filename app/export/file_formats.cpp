#include "export/file_formats.hpp"

#include <array>
#include <cctype>

namespace rope::exporting {

// The browser build has no cairo, giflib or libav: PDF and the pixel animations are the desktop
// app's, and their rows there have no writer (the dialogs say so).
#ifdef __EMSCRIPTEN__
#define ROPE_DESKTOP_ONLY(writer) nullptr
#else
#define ROPE_DESKTOP_ONLY(writer) writer
#endif

namespace {

// id, name, extension, MIME type (a download's), the dialogs' label, the help line, kind, raster
// (--scale applies), carries a session, animates too, its writers: a still writer and/or a frame sink
constexpr std::array<FileFormatInfo, static_cast<std::size_t>(FileFormat::png_folder) + 1> kRows = {{
    {FileFormat::png, "PNG", ".png", "image/png", "PNG (picture)",
     "pixels drawn by cairo, the parameters and a Description as text chunks (opens again as a session)", FormatKind::picture, true, true, false,
     write_png_file, nullptr},
    {FileFormat::svg, "SVG", ".svg", "image/svg+xml", "SVG (vector, editable text)",
     "vector, real <text>, crisp heatmap cells, <title> and <desc>, the parameters in <metadata>", FormatKind::picture, false, false, false, write_svg_file,
     nullptr},
    {FileFormat::pdf, "PDF", ".pdf", "application/pdf", "PDF (vector)", "vector by cairo, searchable text, what it shows in Subject, the parameters in Keywords",
     FormatKind::picture, false, false, false, ROPE_DESKTOP_ONLY(write_pdf_file), nullptr},
    {FileFormat::csv, "CSV", ".csv", "text/csv", "CSV (the numbers)", "the numbers behind the figure, one table", FormatKind::table, false, false, false,
     write_csv_file, nullptr},
    {FileFormat::html, "HTML", ".html", "text/html", "HTML (interactive; for blogs)",
     "one self-contained page: vector, hover readout, nothing loaded; animated: a slider, play/pause, #frame=K",
     FormatKind::picture, false, false, true, write_html_file, open_html},
    {FileFormat::gif, "GIF", ".gif", "image/gif", "GIF (loops; for blogs)",
     "an animation: one palette for all frames, loops, the parameters in a comment", FormatKind::animation, true, false, false, nullptr,
     ROPE_DESKTOP_ONLY(open_gif)},
    {FileFormat::mp4, "MP4", ".mp4", "video/mp4", "MP4 (H.264)", "an animation: H.264, yuv420p, the parameters in the container's tags",
     FormatKind::animation, true, false, false, nullptr, ROPE_DESKTOP_ONLY(open_mp4)},
    {FileFormat::webm, "WebM", ".webm", "video/webm", "WebM (VP9)", "an animation: VP9, yuv420p, the parameters in the container's tags",
     FormatKind::animation, true, false, false, nullptr, ROPE_DESKTOP_ONLY(open_webm)},
    {FileFormat::png_folder, "PNG frames", "/", "inode/directory", "PNG frames (a folder)",
     "an animation as a new folder of frame-0001.png, ..., each with the PNG's text chunks", FormatKind::animation, true, true, false,
     nullptr, ROPE_DESKTOP_ONLY(open_png_folder)},
}};

// file_format(id) reads the row at the id's place: the rows follow FileFormat's order, one each.
constexpr bool rows_follow_the_enum() {
    for (std::size_t i = 0; i < kRows.size(); ++i)
        if (static_cast<std::size_t>(kRows[i].id) != i) return false;
    return true;
}
static_assert(rows_follow_the_enum(), "file_formats.cpp's rows must be in FileFormat's order, one per format");

}  // namespace

const std::vector<FileFormatInfo>& file_formats() {
    static const std::vector<FileFormatInfo> table(kRows.begin(), kRows.end());
    return table;
}

bool writable_here(const FileFormatInfo& format) { return format.write_still || format.open_frames; }

const FileFormatInfo& file_format(FileFormat id) { return file_formats()[static_cast<std::size_t>(id)]; }

const FileFormatInfo* format_for_path(const std::string& path) {
    if (!path.empty() && path.back() == '/') return &file_format(FileFormat::png_folder);
    const std::size_t dot = path.find_last_of('.'), slash = path.find_last_of('/');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return nullptr;
    std::string ext = path.substr(dot);
    for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (const FileFormatInfo& f : file_formats())
        if (f.extension == ext) return &f;
    return nullptr;
}

std::vector<const FileFormatInfo*> formats_of(FormatKind kind) {
    std::vector<const FileFormatInfo*> out;
    for (const FileFormatInfo& f : file_formats())
        if (f.kind == kind || (kind == FormatKind::animation && f.animates)) out.push_back(&f);
    return out;
}

std::string extensions_text(std::initializer_list<FormatKind> kinds) {
    std::vector<std::string> words;
    for (FormatKind k : kinds)
        for (const FileFormatInfo* f : formats_of(k)) words.push_back(f->extension == "/" ? "a folder ending in /" : std::string(f->extension));
    std::string s;
    for (std::size_t i = 0; i < words.size(); ++i) s += (i == 0 ? "" : i + 1 == words.size() ? " or " : ", ") + words[i];
    return s;
}

std::string with_extension(const std::string& file_name, const FileFormatInfo& format) {
    const std::size_t dot = file_name.find_last_of('.');
    const std::string stem = dot == std::string::npos ? file_name : file_name.substr(0, dot);
    return stem + (format.extension == "/" ? "" : std::string(format.extension));
}

}  // namespace rope::exporting
