// The cairo back end of the drawing interface: PNG pixels and PDF (the desktop's; the SVG writer and
// what the writers share are svg_writer.hpp's). Text is DejaVu Sans everywhere, sized as the screen
// sizes it (a size is the font's pixel height, ascent to descent).
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "export/svg_writer.hpp"
#include "plot/display_list.hpp"

typedef struct _cairo cairo_t;
typedef struct _cairo_font_face cairo_font_face_t;

namespace rope::exporting {

// Measures with cairo and the TTF the screen uses.
class CairoTextMeasure : public plot::TextMeasure {
public:
    CairoTextMeasure();
    ~CairoTextMeasure() override;
    plot::Vec2 measure(const std::string& text, float size) const override;  // from several threads at once too

private:
    cairo_t* cr_ = nullptr;
    mutable std::mutex mutex_;  // one cairo context: a figure with model B builds A and B on two threads
};

// DejaVu Sans (or its bold) as a cairo font face from the TTF the screen uses, one for the process.
cairo_font_face_t* dejavu_face(bool bold = false);

// Replays a display list on a cairo context (already scaled for the output).
void replay_cairo(const plot::DisplayList& list, cairo_t* cr);

}  // namespace rope::exporting
