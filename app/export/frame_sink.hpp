// Where an animation's frames go (file_formats.hpp's FrameSinkMaker): a folder of PNGs, a GIF, an MP4
// or a WebM. A sink writes under a temporary name and puts the file (or folder) in place on
// finish(); dropped unfinished, it removes what it wrote.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "export/export_options.hpp"
#include "figures/figures.hpp"
#include "io/png_writer.hpp"

namespace rope::exporting {

class FrameSink {
public:
    virtual ~FrameSink() = default;
    // Frame `index` (0-based, in order) as the figure built for the file.
    virtual void add_figure(const figures::FigureResult& figure, const ExportOptions& options, int index) = 0;
    virtual void finish() = 0;
};

// A sink of pixels (a GIF, a video, PNG frames): each frame rasterized as the PNG export does it.
class PixelFrameSink : public FrameSink {
public:
    void add_figure(const figures::FigureResult& figure, const ExportOptions& options, int index) override;
    virtual void add(const std::vector<std::uint8_t>& rgba, int width, int height, int index) = 0;
};

struct FrameSinkRequest {
    std::string path;  // as given (a folder's ends in /)
    int width = 0, height = 0, fps = 30;
    io::TextChunks metadata;  // the animation's: the moving key as FROM:TO (a GIF's comment, a video's tags)
    // A frame's own, for a format that writes each frame as a file (a PNG folder): its parameters
    // with the moving key at that frame's value, so the frame opens as a session.
    std::function<io::TextChunks(int index)> frame_metadata;
    double dpi = 96;
    // The colours a palette must keep exact (a GIF's): asked for only by formats with a palette.
    std::function<std::vector<std::uint32_t>()> exact_colours;
    // For a format that shows the frames itself (an HTML page): the figure, its title, what the
    // slider moves ("position"), each frame's slider text ("position = 17") and description.
    const figures::FigureDescriptor* figure = nullptr;
    std::string title;
    std::string slider_label;
    std::function<std::string(int index)> frame_label;
    std::function<std::string(int index)> frame_alt;
};

using FrameSinkMaker = std::unique_ptr<FrameSink> (*)(const FrameSinkRequest& request);

std::unique_ptr<FrameSink> open_png_folder(const FrameSinkRequest& request);
std::unique_ptr<FrameSink> open_gif(const FrameSinkRequest& request);
std::unique_ptr<FrameSink> open_mp4(const FrameSinkRequest& request);
std::unique_ptr<FrameSink> open_webm(const FrameSinkRequest& request);
std::unique_ptr<FrameSink> open_html(const FrameSinkRequest& request);  // export/html_page.cpp

// The name of frame i (0-based) in a PNG folder: frame-0001.png, ...
std::string frame_file_name(int index);

}  // namespace rope::exporting
