// The app: its state and one frame of it. A frame takes its share of the queued input (shortcuts
// act on each key with the key's own modifiers; Dear ImGui gets what its widgets need), moves the
// animation, lays out the windows (controls, lesson, panels, dialogs), applies what they asked for
// (App::apply: the one place the state changes), asks for the pictures the state now needs,
// renders, and applies view changes (presentation mode's fonts, theme, fullscreen). The platform
// and the renderer are behind interfaces: the window uses GLFW and OpenGL, tests run the same
// frames headless.
#pragma once

#include <imgui.h>

#include <cstdint>
#include <string>

#include "gui/app/actions.hpp"
#include "gui/app/app_state.hpp"
#include "gui/panels/controls_panel.hpp"
#include "gui/dialogs/export_dialog.hpp"
#include "gui/dialogs/handout_job.hpp"
#include "gui/platform/fonts.hpp"
#include "gui/drivers/frame_stats.hpp"
#include "gui/panels/panel_builder.hpp"
#include "gui/platform/platform.hpp"
#include "gui/panels/panel_set.hpp"
#include "gui/platform/renderer.hpp"
#include "gui/dialogs/session_dialog.hpp"
#include "gui/presentation/lesson_editor.hpp"
#include "gui/presentation/pointing.hpp"
#include "gui/presentation/teaching.hpp"
#include "gui/app/ui_context.hpp"
#include "services/services.hpp"

namespace rope::gui {

// A Dear ImGui context for the app's lifetime (create it before the renderer).
class ImGuiContextScope {
public:
    ImGuiContextScope();
    ~ImGuiContextScope();
    ImGuiContextScope(const ImGuiContextScope&) = delete;
    ImGuiContextScope& operator=(const ImGuiContextScope&) = delete;
    void make_current();  // several apps in one process (tests) each use their own

private:
    ImGuiContext* context_;
};

class App {
public:
    // `base_scale`: the monitor's content scale (or the user's --ui-scale); `services`: how the
    // Trained model panel reads model folders (the entry point's; it answers model imports itself).
    App(Platform& platform, Renderer& renderer, float base_scale, const Services& services);
    ~App();
    App(const App&) = delete;
    App& operator=(const App&) = delete;

    AppState& state() { return state_; }
    const AppState& state() const { return state_; }
    const PanelSet& panels() const { return panels_; }
    const UiContext& ui() const { return ui_; }
    figures::FigureCache& cache() { return builder_.cache(); }
    ExportJobs& exports() { return exports_; }
    const HandoutJob& handouts() const { return handouts_; }
    const SessionDialog& session_dialog() const { return session_dialog_; }
    const LessonEditor& lesson_editor() const { return lesson_editor_; }
    const PointingTools& pointing() const { return pointing_; }
    // Applies one action: the one place the state, the view and the dialogs change (actions.hpp).
    void apply(const Action& action);
    void apply(Actions& actions);
    // The parameters' serial: goes up when they change (the frame benchmark's clock).
    std::uint64_t change_serial() const { return change_serial_; }

    void frame();
    // The time until `until` (the platform's clock), before the next frame: pictures that arrived
    // are drawn in place while their drawing fits. Returns whether it drew any (false: nothing fits).
    bool use_spare_time(double until);
    // Without the builders' threads (the browser): builds one waiting picture here; whether it did.
    bool build_here() { return builder_.build_here(); }
    // Frames come at most every so often (the driver paces them): new pictures are drawn in the time
    // between, and a frame draws only those that waited a whole frame.
    void set_paced(bool paced) { paced_ = paced; }
    int frames() const { return frames_; }
    double now() const { return platform_.now(); }
    // More frames are needed now (input waiting, a change settling, a screenshot waiting); else the
    // app can sleep until an event.
    bool wants_frame() const;
    // This view's address on a page (after its #): the parameters and view keys
    // (session/page_address.hpp), embed= for an embedded panel.
    std::string page_fragment() const;
    // When the next frame is due without an event: 0 now, -1 not until an event, else seconds.
    double wake_after() const;
    // Every shown panel holds the picture its inputs give now, complete (nothing computing for it).
    bool figures_complete() const;
    // The window just rendered as a PNG that reopens as a session (its parameters and view in text
    // chunks). Throws io::IoError.
    void save_screenshot(const std::string& path);
    // About to sleep: drop cached curves no recent frame used and give free memory back (if the
    // parameters changed since the last time, or `force`).
    void idle(bool force = false);
    // The frame benchmark's measurements (null: none); set before the first frame.
    void set_stats(FrameStats* stats) {
        stats_ = stats;
        ui_.stats = stats;
    }
    // Each window drawn and timed alone (the benchmark's draw-time pass).
    void time_windows(bool on) { renderer_.time_windows(on); }
    // Pictures are being built, or background results computed.
    bool working() const { return builder_.busy() || builder_.cache().background_busy(); }
    // Every shown panel holds the final picture of the parameters of serial `change` or newer.
    std::uint64_t final_change() const;
    // The heap was trimmed at least once since the parameters last changed.
    bool trimmed() const { return trimmed_params_ == state_.params(); }

private:
    void take_input();
    void advance_animation(double dt);
    void layout();
    void layout_presentation(ImVec2 display);
    void layout_narrow(ImVec2 display);                  // small_screens.cpp
    void draw_drawer(ImVec2 display, Actions& asked);    // small_screens.cpp
    float draw_bar(ImVec2 pos, float width, Actions& asked);  // small_screens.cpp
    void draw_touch_way_back(ImVec2 display, Actions& asked);  // small_screens.cpp
    bool focus_fits_only_below(ImVec2 display, float column, int panel);
    void request_pictures();
    void close_gestures();
    void apply_view_changes();
    void screenshot_if_requested();
    void apply_theme();
    void note_change();
    void note_draw_times();

    Platform& platform_;
    Renderer& renderer_;
    AppState state_;
    FontSet fonts_;
    ImGuiTextMeasure measure_;
    PanelBuilder builder_;  // after the fonts it uses: it goes first
    PanelSet panels_;
    UiContext ui_;
    ExportJobs exports_;
    HandoutJob handouts_;
    ControlsPanel controls_;
    LessonPanel lesson_;
    LessonEditor lesson_editor_;
    PointingTools pointing_;
    SessionDialog session_dialog_;
    std::uint64_t change_serial_ = 0;
    struct Clipboard {
        Platform* platform = nullptr;
        std::string text;  // what ImGui last read (it keeps the pointer)
    } clipboard_;
    static const char* get_clipboard(void* user);
    static void set_clipboard(void* user, const char* text);
    plot::ThemeId applied_theme_ = plot::ThemeId::dark;
    bool applied_presentation_ = false;
    bool applied_touch_ = false;
    bool drawer_shown_ = false;     // and it was drawn in the last frame
    double way_back_until_ = -1;    // presenting by touch: the corner's Menu shows until then
    int way_back_shown_at_frame_ = -1;  // the frame whose tap showed it
    bool way_back_menu_open_ = false;  // and its list is open (it stays until a choice or a tap elsewhere)
    bool applied_fullscreen_ = false;
    int frames_ = 0;
    int settle_frames_ = 3;  // frames to draw after a change before sleeping
    bool contents_resized() const;
    bool text_field_active_ = false;
    bool paced_ = false;
    bool drawn_in_place_ = false;  // pictures drawn between frames that no frame has shown yet
    double last_time_ = 0;
    double screenshot_requested_at_ = -1;
    ParamSet trimmed_params_;
    ParamSet serial_params_;  // the parameters of state_.change_serial
    FrameStats* stats_ = nullptr;
    std::uint64_t last_build_mark_ = 0;  // the cache's clock before the last frame that used it
    int frames_since_trim_ = 0;
};

}  // namespace rope::gui
