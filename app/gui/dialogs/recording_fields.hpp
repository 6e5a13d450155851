// The Record dialog's own fields: which parameter moves, from where to where, how many frames at
// what rate, and the file type. Their defaults come from what the person is doing: the running
// animation (position moving at the play speed) or a sweep of the slider they last used, across
// the range that slider covers.
#pragma once

#include <string>
#include <vector>

#include "export/animation.hpp"
#include "gui/app/app_state.hpp"

namespace rope::gui {

// What a recording moves and how (the Record dialog): `key` from `from` to `to` over `frames`
// frames at `fps`, into a GIF, an MP4, a WebM or a folder of PNGs.
struct RecordingFields {
    exporting::FileFormat format = exporting::FileFormat::gif;  // an animation's format
    std::optional<ParamId> key = ParamId::position;  // none: the figure has no number to move
    double from = 0, to = 0;
    int frames = 60, fps = 30;
    float scale = 1;  // a recording's own: GIFs for blogs are small
    bool operator==(const RecordingFields& o) const {
        return format == o.format && key == o.key && from == o.from && to == o.to && frames == o.frames && fps == o.fps &&
               scale == o.scale;
    }
};


// The numeric parameters `figure` reads: the keys a recording of it can move.
std::vector<ParamId> animatable_keys(const figures::FigureDescriptor& figure);

// Fills `rec` for `figure`: position over its whole range now (0 to the context), or the run Play
// makes while it plays; for a figure that does not read position, the selected slider's sweep (or
// the first key the figure reads).
// Recordings start at scale 1 (a GIF for a blog), whatever the picture export uses.
void default_recording(const AppState& state, const figures::FigureDescriptor& figure, RecordingFields& rec);
// FROM and TO for `key`: its slider's span now (the context for position and key_position, the
// pairs for pair).
void default_sweep(const AppState& state, ParamId key, RecordingFields& rec);
// Position as the animation plays it: from where it is now, at the play speed (tokens per second),
// for the recording's length (frames / fps), kept inside the context.
void play_run(const AppState& state, RecordingFields& rec);

// "rope-vectors-position-0-4095.gif": the figure, the key and its range, the format's extension.
std::string recording_file_name(const figures::FigureDescriptor& figure, const RecordingFields& rec);

// The fields as the command line's --animate, --frames and --fps.
exporting::Animation animation_of(const RecordingFields& rec);

// "" if the fields make a recording of `figure` from `params`; else what to fix, in one line.
std::string recording_problem(const ParamSet& params, const figures::FigureDescriptor& figure, const RecordingFields& rec);

// A format's radio button with its help as the tooltip; a format this build does not write (the
// browser's: PDF, GIF, MP4, WebM, PNG frames) is shown greyed, and says the desktop app writes it.
bool format_choice(const exporting::FileFormatInfo& format, bool selected);
// The formats as radio buttons in two columns (format_choice each), and under them the line below;
// the one chosen this frame, or null.
const exporting::FileFormatInfo* format_choices(const std::vector<const exporting::FileFormatInfo*>& formats, exporting::FileFormat current);
// Under the formats: a line naming those this build does not write (none on the desktop: nothing).
void say_desktop_only(const std::vector<const exporting::FileFormatInfo*>& formats);

// Draws the fields (format, key, from, to, frames, fps); `file_name` follows the format.
void draw_recording_fields(const AppState& state, const figures::FigureDescriptor& figure, RecordingFields& rec, char* file_name,
                           std::size_t file_name_size);

}  // namespace rope::gui
