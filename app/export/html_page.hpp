// The fourth back end: interactive HTML. A figure's display lists (one picture, or each frame of an
// animation) written compactly for a small canvas renderer inside one self-contained page (the
// renderer is assets/html/figure_page.js, compiled in). Frames share most of their commands: each
// distinct command is written once and a frame is a list of command numbers. The font the figure
// was measured with goes into the page, so text lands where the PNG has it; nothing is loaded from
// anywhere else.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "export/frame_sink.hpp"
#include "export/still_writers.hpp"
#include "figures/figures.hpp"
#include "figures/registry.hpp"

namespace rope::exporting {

struct HtmlPageInfo {
    std::string title;         // the page's <title> and heading for screen readers
    std::string slider_label;  // "position": what the slider moves (animations)
    int fps = 30;              // playback speed (animations)
    io::TextChunks metadata;   // the version and the parameters, in <meta> elements
};

class HtmlPage {
public:
    HtmlPage(int width, int height, const figures::FigureDescriptor* descriptor);
    // One frame: its picture, the slider's text for it ("position = 17") and its description.
    void add_frame(const figures::FigureResult& figure, const std::string& label, const std::string& alt);
    std::string text(const HtmlPageInfo& info) const;  // the whole page
    int frames() const { return static_cast<int>(frames_.size()); }

private:
    int command_number(std::string encoded);
    int image_number(const plot::ImageCmd& image);
    int width_, height_;
    const figures::FigureDescriptor* descriptor_;  // its plots' names for the hover readout
    std::string background_;
    float background_luminance_ = 1;
    std::vector<std::string> commands_, images_, labels_, alts_, plots_;
    std::vector<std::vector<int>> frames_;
    std::unordered_map<std::string, int> command_numbers_, image_numbers_;
};


}  // namespace rope::exporting
