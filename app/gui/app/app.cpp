#include "gui/app/app.hpp"

#include <imgui_internal.h>
#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <cfloat>
#include <cstdint>
#include <cmath>
#include <ctime>
#include <filesystem>

#include "export/export.hpp"
#include "gui/dialogs/page_files.hpp"
#include "gui/input/input.hpp"
#include "gui/panels/panel_figures.hpp"
#include "gui/panels/panel_grid.hpp"
#include "gui/input/shortcuts.hpp"
#include "gui/app/screen_layout.hpp"
#include "gui/app/ui_theme.hpp"
#include "gui/presentation/presenter_view.hpp"
#include "io/atomic_file.hpp"
#include "io/png_writer.hpp"
#include "session/file_metadata.hpp"
#include "session/page_address.hpp"
#include "session/hf_config.hpp"
#include "tasks/background.hpp"
#include "rope/number_format.hpp"

namespace rope::gui {

namespace {

constexpr float kUiFontSize = 18.0f;

void apply_imgui_style(plot::ThemeId id, float scale, bool touch) { ImGui::GetStyle() = ui_style(id, scale, touch, kUiFontSize); }


// rope-explorer-YYYYMMDD-HHMMSS[-N].png in the Pictures folder, never over an existing file.
std::string screenshot_path() {
    const std::string folder = default_export_folder();
    char stamp[32];
    const std::time_t now = std::time(nullptr);
    std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&now));
    for (int n = 0;; ++n) {
        const std::string path = folder + "/rope-explorer-" + stamp + (n ? "-" + std::to_string(n) : "") + ".png";
        if (access(path.c_str(), F_OK) != 0) return path;
    }
}

}  // namespace

ImGuiContextScope::ImGuiContextScope() {
    IMGUI_CHECKVERSION();
    context_ = ImGui::CreateContext();
    ImGui::SetCurrentContext(context_);  // CreateContext keeps an existing current context current
}

ImGuiContextScope::~ImGuiContextScope() { ImGui::DestroyContext(context_); }

void ImGuiContextScope::make_current() { ImGui::SetCurrentContext(context_); }

App::App(Platform& platform, Renderer& renderer, float base_scale, const Services& services)
    : platform_(platform),
      renderer_(renderer),
      measure_(fonts_),
      builder_(measure_, tasks::background().concurrent() ? 2 : 0, [&platform] { platform.wake(); }, services.read_trained),
      ui_{fonts_, measure_, renderer_, platform_, builder_, builder_.cache(), nullptr, {}, {}, {}},
      exports_(builder_.cache(), [&platform] { platform.wake(); }),
      handouts_([&platform] { platform.wake(); }) {
    state_.on_page = platform.files_through_page();
    if (platform.files_through_page()) exports_.download_through([&platform](const std::string& path, const std::string& name, const std::string& mime) { platform.download(path, name, mime); });
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // layout is ours; deterministic screenshots
    io.LogFilename = nullptr;
    io.BackendPlatformName = "rope-explorer";
    map_imgui_keys();
    clipboard_.platform = &platform_;
    io.ClipboardUserData = &clipboard_;
    io.GetClipboardTextFn = get_clipboard;
    io.SetClipboardTextFn = set_clipboard;
    state_.base_scale = base_scale;
    state_.ui_scale = state_.effective_scale(platform_.window_size().y);
    fonts_.build(state_.ui_scale, kUiFontSize);
    applied_theme_ = effective_theme(state_);
    applied_presentation_ = state_.presentation;
    applied_touch_ = state_.touch;
    apply_imgui_style(applied_theme_, state_.ui_scale, state_.touch);
    // a background computation finishing (the base-bound curve) wakes the idle loop to redraw
    builder_.cache().set_on_ready([&platform] { platform.wake(); });
    last_time_ = platform_.now();
    trimmed_params_ = state_.params();
    last_build_mark_ = builder_.cache().use_mark();
}

const char* App::get_clipboard(void* user) {
    auto* link = static_cast<Clipboard*>(user);
    link->text = link->platform->clipboard();
    return link->text.c_str();
}

void App::set_clipboard(void* user, const char* text) { static_cast<Clipboard*>(user)->platform->set_clipboard(text ? text : ""); }

App::~App() {
    // no wake-ups once the window is gone, no worker threads left; a build in progress stops at its
    // computation's next chunk, so quitting does not wait for it
    builder_.cache().stop_background();
    builder_.wait_idle();
    release_all_panels(panels_, renderer_);
}

void App::take_input() {
    ImGuiIO& io = ImGui::GetIO();
    // A text field or a dialog has the keyboard: keys go to it, paced so ImGui sees every one.
    const bool keyboard_taken = io.WantTextInput || session_dialog_.is_open() || exports_.dialog().open;
    FrameBatch batch(keyboard_taken);
    InputQueue& queue = platform_.input();
    for (const DroppedFile& dropped : queue.take_drops()) {
        Actions opened;
        open_dropped_file(state_, dropped.path, dropped.shift, opened);  // Shift held: a config.json as model B
        apply(opened);
        settle_frames_ = std::max(settle_frames_, 2);
    }
    while (!queue.empty() && !state_.quit_requested) {  // Ctrl+Q ends the app's input
        const InputEvent e = queue.front();
        if (!batch.admit(e)) break;
        queue.pop();
        // presenting: L, D, C and (with the pen on) the mouse buttons are the pointing tools'
        if (pointing_.take(e, state_.presentation && !keyboard_taken)) {
            settle_frames_ = std::max(settle_frames_, 2);
            continue;
        }
        feed_imgui(e);
        settle_frames_ = std::max(settle_frames_, 2);
        if (e.kind != InputEvent::Kind::key && e.kind != InputEvent::Kind::character) continue;
        Actions asked = key_actions({state_, panels_, exports_.recording(), keyboard_taken, {io.MousePos.x, io.MousePos.y}}, e);
        const bool dialog = opens_dialog(asked);
        apply(asked);
        if (dialog) batch.end();  // the keys after it are for the dialog
    }
    if (pointing_.holds_pointer()) io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);  // no readout under the laser or the pen
}

// Presentation mode: no controls; a lesson's panel fills the screen, its text beside it in a
// column as wide as the step's text needs (up to 45% of the window), or below it if that is not
// enough, or if the plots the step speaks of fit only in the panel's whole width (a 4:3 projector).
// A panel maximised by its key takes the whole screen, the lesson's text hidden until it is restored.
void App::layout_presentation(ImVec2 display) {
    Actions asked;
    const bool lesson_open = state_.lesson_step() >= 0;
    if (!lesson_open || state_.maximized >= 0) {
        // a panel maximised while presenting takes the whole screen (Escape or its key gives the lesson back)
        const int alone = state_.maximized >= 0 ? state_.maximized : -1;
        draw_panels(state_, panels_, ui_, asked, ImVec2(0, 0), display, alone);
        apply(asked);
        return;
    }
    const int panel = lesson_panel(state_)->index;
    lesson_.place_answer(state_, display, fonts_.bold());
    if (state_.presenter_view && !state_.asking()) {  // the text is in the presenter's window: the picture alone
        const float band = lesson_.band_height(state_, display.x);
        lesson_.draw_band(state_, ImVec2(0, 0), ImVec2(display.x, band));
        draw_panels(state_, panels_, ui_, asked, ImVec2(0, band), ImVec2(display.x, display.y - band), panel, false);
        apply(asked);
        return;
    }
    const float column = lesson_.column_width(state_, display.x, display.y, fonts_.bold());
    const bool text_beside = lesson_.height(state_, column, fonts_.bold()) <= display.y;
    // a revealed answer: a band across the top of the picture
    auto picture = [&](ImVec2 size) {
        const float band = lesson_.band_height(state_, size.x);
        lesson_.draw_band(state_, ImVec2(0, 0), ImVec2(size.x, band));
        draw_panels(state_, panels_, ui_, asked, ImVec2(0, band), ImVec2(size.x, size.y - band), panel, false);
    };
    if (text_beside && !focus_fits_only_below(display, column, panel)) {
        picture(ImVec2(display.x - column, display.y));
        lesson_.draw(state_, ImVec2(display.x - column, 0), ImVec2(column, display.y), fonts_.bold(), asked);
    } else {
        const float strip = std::min(std::round(display.y * 0.5f), lesson_.height(state_, display.x, fonts_.bold()));
        picture(ImVec2(display.x, display.y - strip));
        lesson_.draw(state_, ImVec2(0, display.y - strip), ImVec2(display.x, strip), fonts_.bold(), asked);
    }
    apply(asked);
}

// Whether the plots the open step speaks of fit in its panel (`panel`) only with the lesson's text
// below it, across the whole width, and not beside it in a column `column` wide. The text goes below
// only if it takes at most half the screen there.
bool App::focus_fits_only_below(ImVec2 display, float column, int panel) {
    const figures::FigureDescriptor& f = figures::figure_at(panel);
    const plot::Style style = screen_style(state_, &f);
    const float text_below = lesson_.height(state_, display.x, fonts_.bold());
    if (style.focus.empty() || text_below > std::round(display.y * 0.5f)) return false;
    const float sides = ImGui::GetStyle().WindowPadding.x * 2;
    auto fits = [&](float width, float height) {
        return figures::focus_fits(f, state_.params(), style, width - sides,
                                   height - panel_header_height(state_, panel, width, fonts_.bold()) - lesson_.band_height(state_, width));
    };
    return !fits(display.x - column, display.y) && fits(display.x, display.y - text_below);
}

// Each window reads the state and asks for changes; they are applied right after it is drawn, so the
// next window (and the pictures asked for after the layout) sees them in the same frame.
void App::layout() {
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    const float css = state_.base_scale * state_.ui_zoom;  // window pixels per CSS pixel
    state_.narrow = display.x < AppState::kNarrowBelow * css;
    state_.short_screen = display.y < AppState::kShortBelow * css;
    const float controls_w = std::round(std::min(display.x * 0.3f, 330.0f * state_.ui_scale));
    const bool lesson_open = state_.lesson_step() >= 0;
    Actions asked;
    // a drawer only where the controls have no column of their own (below): elsewhere it is put away,
    // so that it does not come back by itself when such a layout returns
    const bool has_drawer = state_.embedded < 0 && !state_.presentation &&
                            (state_.narrow || (state_.maximized < 0 && lesson_open && state_.short_screen));
    if (state_.drawer_open && !has_drawer) {
        asked.ask(act::ShowDrawer{false});
        apply(asked);
    }
    if (!state_.presentation || !state_.touch) way_back_menu_open_ = false;  // (its list went with presenting)
    if (state_.embedded >= 0) {  // one panel with its own header, filling the frame: nothing else
        draw_panels(state_, panels_, ui_, asked, ImVec2(0, 0), display, state_.embedded);
        apply(asked);
    } else if (state_.presentation) {
        layout_presentation(display);
        if (state_.touch) draw_touch_way_back(display, asked);
        apply(asked);
    } else if (state_.narrow) {
        layout_narrow(display);
    } else if (state_.maximized >= 0) {
        draw_panels(state_, panels_, ui_, asked, ImVec2(0, 0), display, state_.maximized);
        apply(asked);
    } else if (lesson_open && state_.short_screen) {
        // a short screen (a phone sideways): the step has the column under a bar, the controls a drawer
        const float bar_h = draw_bar(ImVec2(0, 0), controls_w, asked);
        apply(asked);
        lesson_.draw(state_, ImVec2(0, bar_h), ImVec2(controls_w, display.y - bar_h), fonts_.bold(), asked);
        apply(asked);
        draw_panels(state_, panels_, ui_, asked, ImVec2(controls_w, 0), ImVec2(display.x - controls_w, display.y), -1);
        apply(asked);
        if (state_.drawer_open) draw_drawer(display, asked);
        else drawer_shown_ = false;
        apply(asked);
    } else {
        // the lesson above the controls: as tall as its step needs, up to 60% of the window (the
        // controls below scroll)
        const float lesson_h = lesson_open ? std::min(std::round(display.y * 0.6f), lesson_.height(state_, controls_w, fonts_.bold())) : 0.0f;
        if (lesson_open) lesson_.draw(state_, ImVec2(0, 0), ImVec2(controls_w, lesson_h), fonts_.bold(), asked);
        apply(asked);
        controls_.draw(state_, builder_.cache(), ImVec2(0, lesson_h), ImVec2(controls_w, display.y - lesson_h), asked);
        apply(asked);
        draw_panels(state_, panels_, ui_, asked, ImVec2(controls_w, 0), ImVec2(display.x - controls_w, display.y), -1);
        apply(asked);
    }
    lesson_editor_.draw(state_, asked);
    apply(asked);
    draw_shortcut_overlay(state_, asked);
    apply(asked);
    draw_panel_help(state_, asked);
    apply(asked);
    session_dialog_.draw(state_, asked);
    apply(asked);
    exports_.draw_dialog(state_, panels_, asked);
    apply(asked);
    exports_.draw_progress();
    pointing_.draw(state_, platform_.now(), renderer_);
}

// The pictures the state now needs, for every shown panel at its size (after the frame's actions).
void App::request_pictures() {
    // A panel that took a waiting picture this frame asks again next frame, as it would have had the
    // picture waited: its new picture is on screen first (building on while it is shown only makes
    // pictures nobody sees, and takes the cores the slowest panel needs). Unless its pictures build
    // well within a frame: then waiting a frame only makes the change it skips a frame late.
    for (const PanelView& p : panels_.views)
        if (p.shown && (builds_quickly(p) || std::find(ui_.show_new.begin(), ui_.show_new.end(), p.figure->index) == ui_.show_new.end()))
            request_picture(state_, panels_, builder_, p.figure->index, change_serial_);
}

std::string App::page_fragment() const {
    const session::Session now = current_session(state_);
    return session::page_address_of(now.params, now.view, state_.embedded >= 0 ? std::string(figures::figure_at(state_.embedded).name) : "");
}

void App::apply(Actions& actions) {
    for (const Action& a : actions.take()) apply(a);
}

void App::apply(const Action& action) {
    if (apply_to_state(state_, action)) return;
    if (const auto* d = std::get_if<act::OpenExportDialog>(&action)) {
        if (d->write == act::OpenExportDialog::in_dialog) exports_.open(state_, d->panel, d->recording);
        else {
            Actions said;
            exports_.write_now(state_, d->panel, d->recording, d->write == act::OpenExportDialog::numbers_now, said);
            apply(said);
        }
    }
    else if (const auto* f = std::get_if<act::OpenFileDialog>(&action)) {
        if (!platform_.files_through_page()) return session_dialog_.open(state_, f->kind);
        Actions said;
        page_file_dialog(state_, f->kind, platform_, said);
        apply(said);
    }
    else if (std::holds_alternative<act::CancelRecording>(action)) exports_.cancel();
    else if (std::holds_alternative<act::CopyLink>(action)) {
        const std::string link = platform_.link_to(page_fragment());
        platform_.set_clipboard(link);
        state_.set_status("Link copied: " + link);
    }
    else if (const auto* h = std::get_if<act::WriteHandout>(&action)) {
        Actions said;
        handouts_.poll(said);  // one finished meanwhile says so first
        handouts_.start(state_.lesson(), h->path, said);
        apply(said);
    }
}

// Moves the position while playing, looping at max_position; the whole run is one undo step.
void App::advance_animation(double dt) {
    if (!state_.playing) return;
    const double max_position = static_cast<double>(state_.params()[P::max_position]);
    state_.play_position += state_.speed * std::min(dt, 0.25);
    if (state_.play_position >= max_position) state_.play_position = std::fmod(state_.play_position, max_position);
    const double m = std::floor(state_.play_position);
    if (m != static_cast<double>(state_.params()[P::position])) state_.apply_number(P::position, m, "animation");
}

// A slider or a drag ends when no item is active any more; the animation when it stops playing.
void App::close_gestures() {
    const std::string& g = state_.history().open_gesture();
    if (g.empty()) return;
    if (g == "animation" ? !state_.playing : !ImGui::IsAnyItemActive()) state_.end_gesture();
}

void App::frame() {
    ImGuiIO& io = ImGui::GetIO();
    const double now = platform_.now();
    io.DeltaTime = static_cast<float>(std::clamp(now - last_time_, 1e-4, 0.25));
    last_time_ = now;
    io.ConfigInputTextCursorBlink = !state_.reduced_motion;  // a steady cursor for less motion
    const plot::Vec2 window = platform_.window_size(), framebuffer = platform_.framebuffer_size();
    io.DisplaySize = ImVec2(window.x, window.y);
    if (window.x > 0 && window.y > 0) io.DisplayFramebufferScale = ImVec2(framebuffer.x / window.x, framebuffer.y / window.y);
    const ParamSet params_before = state_.params();
    const int maximized_before = state_.maximized, page_before = state_.page;
    const std::uint64_t cache_mark = builder_.cache().use_mark();

    take_input();
    // F12 while the animation plays: it holds still until the screenshot's frame is complete (the
    // pictures arrive from the workers a frame or two after a change, so a moving state never is).
    if (!state_.screenshot_requested) advance_animation(io.DeltaTime);
    note_change();
    if (stats_) stats_->frame_began(now, change_serial_);
    receive_finished(panels_, builder_.take_finished(), static_cast<std::uint64_t>(frames_));
    ui_.draws_between_frames = paced_ && platform_.keeps_back_buffer();
    ui_.frame = static_cast<std::uint64_t>(frames_);
    // the linked highlight shows what the pointer pointed at in the last frame
    state_.linked = state_.linked_next;
    state_.linked_next = {};
    renderer_.new_frame();
    forget_targets();
    ImGui::NewFrame();
    layout();
    if (state_.presentation) state_.room_notes = room_notes(state_, panels_);
    else state_.room_notes.clear();
    note_change();
    request_pictures();
    close_gestures();
    platform_.set_text_cursor(ImGui::GetMouseCursor() == ImGuiMouseCursor_TextInput);
    ImGui::Render();
    const std::vector<plot::Rect> uncovered =
        renderer_.render(ImGui::GetDrawData(), static_cast<int>(framebuffer.x), static_cast<int>(framebuffer.y),
                         plot::theme_by_id(effective_theme(state_)).background, platform_.keeps_back_buffer(), ui_.keep, ui_.fresh);
    if (stats_) note_draw_times();
    // where a tooltip or popup was: the pictures under it are drawn again in the next frame, which
    // comes at once
    forget_overdrawn(panels_, uncovered);
    if (!uncovered.empty()) settle_frames_ = std::max(settle_frames_, 2);
    note_final_pictures(state_, panels_, change_serial_, [this](const PanelView& p) {
        if (stats_) stats_->built(std::string(p.figure->name), p.build_ms);
    });
    drawn_in_place_ = false;  // this frame shows them
    screenshot_if_requested();
    // a file finished: the next frames show its status line
    Actions finished;
    if (exports_.poll(finished) || handouts_.poll(finished)) settle_frames_ = std::max(settle_frames_, 2);
    apply(finished);
    ++frames_;
    if (builder_.cache().use_mark() != cache_mark) last_build_mark_ = cache_mark;
    if (settle_frames_ > 0) --settle_frames_;
    if (state_.params() != params_before || state_.maximized != maximized_before || state_.page != page_before || io.MouseWheel != 0)
        settle_frames_ = std::max(settle_frames_, 2);
    if (contents_resized() || controls_.sections_resized()) settle_frames_ = std::max(settle_frames_, 1);
    // a text field that took the keys (or let them go) in this frame shows in io.WantTextInput only as
    // the next frame starts: that frame comes before the app sleeps, so the page hears of it and gives
    // a phone's keyboard its field (a tap on Type whose click came a frame late was otherwise left so)
    if ((ImGui::GetCurrentContext()->WantTextInputNextFrame == 1) != io.WantTextInput) settle_frames_ = std::max(settle_frames_, 1);
    text_field_active_ = io.WantTextInput;
    apply_view_changes();
    if (state_.params() != trimmed_params_ && ++frames_since_trim_ >= 600) idle();  // a long drag or animation
}

void App::apply_view_changes() {
    const float wanted_scale = state_.effective_scale(platform_.window_size().y);
    if (state_.presentation != applied_presentation_ || wanted_scale != state_.ui_scale) {
        // type and sizes change between frames (presentation mode, or its window resized): rebuild
        // the font atlas at the new scale
        applied_presentation_ = state_.presentation;
        state_.ui_scale = wanted_scale;
        builder_.wait_idle();  // the workers measure text with these fonts
        fonts_.build(state_.ui_scale, kUiFontSize);
        renderer_.fonts_changed();
        applied_theme_ = effective_theme(state_);
        apply_imgui_style(applied_theme_, state_.ui_scale, state_.touch);
        settle_frames_ = std::max(settle_frames_, 3);
    }
    if (effective_theme(state_) != applied_theme_ || state_.touch != applied_touch_) {
        applied_theme_ = effective_theme(state_);
        applied_touch_ = state_.touch;
        apply_imgui_style(applied_theme_, state_.ui_scale, state_.touch);
        settle_frames_ = std::max(settle_frames_, 2);
    }
    if (state_.fullscreen != applied_fullscreen_) {
        applied_fullscreen_ = state_.fullscreen;
        platform_.set_fullscreen(state_.fullscreen);
        settle_frames_ = std::max(settle_frames_, 3);
    }
}

// Each panel drawn this frame: its replay into ImGui plus the time GL took to draw its window.
void App::note_draw_times() {
    for (const Renderer::WindowTime& w : renderer_.window_times()) {
        const std::string_view name(w.name), prefix("##panel");
        if (name.rfind(prefix, 0) != 0) continue;
        const std::optional<std::int64_t> index = parse_integer(name.substr(prefix.size()));
        if (!index || *index < 0 || *index >= static_cast<std::int64_t>(panels_.views.size())) continue;
        PanelView& p = panels_[static_cast<int>(*index)];
        if (p.replay_ms >= 0) stats_->drawn(std::string(p.figure->name), p.replay_ms + w.ms);
    }
    clear_replay_times(panels_);
}

bool App::use_spare_time(double until) {
    if (!paced_ || !platform_.keeps_back_buffer() || frames_ == 0) return false;
    receive_finished(panels_, builder_.take_finished(), static_cast<std::uint64_t>(frames_));
    const bool drew = draw_waiting_pictures(state_, panels_, fonts_, renderer_, until, [this] { return platform_.now(); },
                                            [this](const PanelView& p, double ms) {
                                                if (stats_) stats_->drawn(std::string(p.figure->name), ms);
                                            });
    drawn_in_place_ = drawn_in_place_ || drew;
    return drew;
}

void App::note_change() {
    if (state_.params() == serial_params_) return;
    serial_params_ = state_.params();
    ++change_serial_;
}

std::uint64_t App::final_change() const {
    std::uint64_t final = change_serial_;
    for (const PanelView& p : panels_.views)
        if (p.shown) final = std::min(final, p.final_change);
    return final;
}

bool App::figures_complete() const {
    for (const PanelView& p : panels_.views) {
        if (!p.shown) continue;
        if (!figure_current(p, figure_key(state_, *p.figure, p.size.x, p.size.y)) || p.result.incomplete) return false;
    }
    return true;
}

// A window's scrollbar is laid out from the size of its contents the frame before: where this
// frame's contents came out another size (a section grew, a toolbar row more), one frame more shows
// the scrollbar as it is, before the app sleeps.
bool App::contents_resized() const {
    for (const ImGuiWindow* w : ImGui::GetCurrentContext()->Windows) {
        if (!w->Active || w->Hidden || (w->Flags & ImGuiWindowFlags_NoScrollbar)) continue;
        const ImVec2 now(w->DC.CursorMaxPos.x - w->DC.CursorStartPos.x, w->DC.CursorMaxPos.y - w->DC.CursorStartPos.y);
        if (std::abs(now.y - w->ContentSize.y) > 0.5f) return true;
    }
    return false;
}

bool App::wants_frame() const {
    const bool pictures_waiting = std::any_of(panels_.views.begin(), panels_.views.end(), [](const PanelView& p) { return p.shown && p.has_next; });
    return !platform_.input().empty() || platform_.input().has_drops() || settle_frames_ > 0 || state_.screenshot_requested || state_.quit_requested || pictures_waiting ||
           builder_.has_finished() || drawn_in_place_ || pointing_.animating();
}

double App::wake_after() const {
    if (wants_frame()) return 0;
    if (state_.playing) return 1.0 / 120;  // animation: frames paced by the driver, input still wakes it
    double wake = -1;
    if (text_field_active_ && !state_.reduced_motion) wake = 0.5;  // the text cursor blinks
    // presenting by touch, the corner's Menu leaves the screen when its time is up (a frame then), not
    // at the next input, however long that takes (while its list is open it stays)
    if (state_.presentation && !way_back_menu_open_ && way_back_until_ >= platform_.now()) {
        const double left = way_back_until_ - platform_.now() + 0.01;
        wake = wake < 0 ? left : std::min(wake, left);
    }
    return wake;
}

// F12: saved on the first complete frame (figures still computing in the background are waited
// for, a minute at most), into the Pictures folder (or the current one), a new name each time.
void App::screenshot_if_requested() {
    if (!state_.screenshot_requested) return;
    const double now = platform_.now();
    if (screenshot_requested_at_ < 0) screenshot_requested_at_ = now;
    // and once the layout settled: ImGui sizes scrollbars and auto-fitting windows from the frame
    // before, and pictures drawn between frames can complete a frame or two after a page change
    if ((!figures_complete() || settle_frames_ > 0) && now - screenshot_requested_at_ < 60) return;
    state_.screenshot_requested = false;
    screenshot_requested_at_ = -1;
    const bool page = platform_.files_through_page();  // the browser: a download
    const std::string path = page ? download_path(std::filesystem::path(screenshot_path()).filename().string()) : screenshot_path();
    try {
        save_screenshot(path);
        if (page) platform_.download(path, std::filesystem::path(path).filename().string(), "image/png");
        state_.set_status((page ? "Screenshot downloaded as " : "Saved screenshot ") + (page ? std::filesystem::path(path).filename().string() : path));
    } catch (const io::IoError& e) {
        state_.set_status(e.what(), true);
    }
    settle_frames_ = std::max(settle_frames_, 2);
}

void App::save_screenshot(const std::string& path) {
    const plot::Vec2 fb = platform_.framebuffer_size();
    const int w = static_cast<int>(fb.x), h = static_cast<int>(fb.y);
    std::vector<std::uint8_t> pixels = renderer_.read_back(w, h);
    if (pixels.empty()) pixels.assign(static_cast<std::size_t>(w) * h * 4, 0);  // no renderer: a black picture with the state
    const io::TextChunks text = session::screenshot_metadata(current_session(state_), std::round(kUiFontSize * state_.ui_scale));
    io::write_png(path, pixels.data(), w, h, text);
}

void App::idle(bool force) {
    // Figures come and go in blocks of every size, which leaves cached curves of past states and
    // free pages scattered through malloc's heap: drop the curves the last built frame did not use
    // and give free pages back, so a lecture-long session stays at its working set.
    if (trimmed() && !force) return;
    builder_.cache().release_unused(last_build_mark_);
#ifndef __EMSCRIPTEN__
    malloc_trim(0);  // (the page's heap gives nothing back to the browser)
#endif
    trimmed_params_ = state_.params();
    frames_since_trim_ = 0;
}

}  // namespace rope::gui
