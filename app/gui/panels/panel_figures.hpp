// Each panel's picture: asked for when the values it is built from differ from those its picture
// was built from (FigureKey), never because of a counter; built on the workers (PanelBuilder); kept
// waiting when it arrives until its frame comes (a few new pictures are shown per frame, the oldest
// waiting first). Hidden panels whose inputs changed give their picture back.
#pragma once

#include <functional>
#include <vector>

#include "gui/app/app_state.hpp"
#include "gui/panels/panel_builder.hpp"
#include "gui/panels/panel_set.hpp"
#include "gui/app/ui_context.hpp"

namespace rope::gui {

FigureKey figure_key(const AppState& state, const figures::FigureDescriptor& figure, float width, float height);
// A panel whose last picture took under kQuickBuildMs to build, a frame at 60 Hz (every panel at the
// defaults; not the sweep over a million positions): asking for its next picture at once never
// holds up another panel's for long.
inline constexpr double kQuickBuildMs = 16.0;
bool builds_quickly(const PanelView& panel);
// The picture on the panel is the one its inputs give now (and complete, or waiting for nothing new).
bool figure_current(const PanelView& panel, const FigureKey& key);

// A figure built for the screen's style and text; a figure that fails says so in its picture.
figures::FigureResult build_picture(const figures::FigureDescriptor& figure, const ParamSet& params, const plot::Style& style,
                                    const plot::TextMeasure& measure, float width, float height, figures::FigureCache& cache,
                                    bool wait_for_background, bool maximized, bool touch = false, bool small_screen = false);
// A fresh build of `figure` for the state as the screen would show it (tests compare panels with it).
figures::FigureResult build_for_screen(const AppState& state, const figures::FigureDescriptor& figure, const plot::TextMeasure& measure,
                                       float width, float height, figures::FigureCache& cache, bool wait_for_background);

// Asks the builder for panel `index`'s picture at its size, unless it is current or on its way;
// `change`: the parameters' serial (the frame benchmark's clock).
void request_picture(const AppState& state, PanelSet& panels, PanelBuilder& builder, int index, std::uint64_t change);
// Takes the builds that finished: each waits on its panel, the newest replacing an older one.
void receive_finished(PanelSet& panels, std::vector<PanelBuilder::Finished>&& finished, std::uint64_t frame);
// What drawing a picture takes with software GL, estimated from its display list (ms): a fixed
// cost (its area cleared, the draw calls), its triangles and its heatmaps' pixels.
double draw_cost_ms(const plot::DisplayList& list);
// The panel shows its waiting picture from now on (its heatmaps uploaded).
void show_next(PanelSet& panels, Renderer& renderer, PanelView& panel);
// Between frames: the panel's waiting picture is drawn into the kept back buffer where its current
// one is, exactly as a frame would draw it, and shown from the next frame on. Only if the back
// buffer holds the current picture there with nothing over it; returns whether it did.
bool show_next_in_place(const AppState& state, PanelSet& panels, const FontSet& fonts, Renderer& renderer, PanelView& panel, double now);
// Pictures waiting for their frame, drawn between frames (show_next_in_place), the panel furthest
// behind first, each only if its estimated cost fits before `until` (else it is marked and the next
// frame draws it); `drawn(panel, ms)` hears of each. Returns whether any was drawn.
// A picture that would end this little past the next frame's start is still drawn between frames:
// the next frame starts that much later (still well within its interval, so on a display the swap
// meets the same vsync), where leaving it to the next frame's budget showed it a whole frame later.
inline constexpr double kSpareTimeSlackMs = 4.0;
bool draw_waiting_pictures(const AppState& state, PanelSet& panels, const FontSet& fonts, Renderer& renderer, double until,
                           const std::function<double()>& now, const std::function<void(const PanelView&, double)>& drawn);

// What the frame did with the pictures, in the panels' own records:
// a picture the back buffer held is gone where one of the app's windows drew over it;
void forget_overdrawn(PanelSet& panels, const std::vector<plot::Rect>& overdrawn);
// a replay's time is its frame's only;
void clear_replay_times(PanelSet& panels);
// a picture on screen, complete and at the panel's size, is the final one of the parameters it was
// built from, and of the current ones (`change`) if it is current; `built` hears of each picture
// built since the last call.
void note_final_pictures(const AppState& state, PanelSet& panels, std::uint64_t change, const std::function<void(const PanelView&)>& built);

// Releases the picture and textures of panels not shown whose inputs have changed.
void release_hidden_panels(const AppState& state, PanelSet& panels, Renderer& renderer);
// Gives back every panel's textures (the app closing).
void release_all_panels(PanelSet& panels, Renderer& renderer);

}  // namespace rope::gui
