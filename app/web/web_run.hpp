// The browser app's one run (the page has one app): what the page's bridge (page_bridge.cpp) reads
// and changes between animation frames.
#pragma once

#include <memory>
#include <string>

#include "cli/window_options.hpp"
#include "gui/app/app.hpp"
#include "gui/app/reader_document.hpp"
#include "gui/drivers/frame_drivers.hpp"
#include "gui/platform/gl_renderer.hpp"
#include "services/services.hpp"
#include "session/page_address.hpp"
#include "web/web_platform.hpp"

namespace rope::gui {

// The page's services: config.json files from the page's own files (picked or dropped), no model
// folders (the Trained model panel says the desktop app reads them).
Services web_services();

struct WebRun {
    Services services;
    GuiOptions options;
    std::unique_ptr<WebPlatform> platform;
    std::unique_ptr<ImGuiContextScope> imgui;
    std::unique_ptr<GlRenderer> renderer;
    std::unique_ptr<App> app;
    std::unique_ptr<FrameDriver> driver;
    int frame = 0;
    double last_frame = 0;
    bool idle = false;
    bool ended = false;
    std::string bench_report;  // the frame benchmark's report, once it is done
    std::string address;       // the fragment last told to the page
    bool typing = false;       // a text field has the keyboard (told to the page: a phone shows its keyboard)
    // the document beside the canvas for screen readers: what was sent last, when it was last
    // written, and whether a frame ran since (the state may have changed)
    ReaderDocument reader;
    std::string reader_sent;
    double reader_written_at = -1e9;
    bool reader_due = true;
};

WebRun& web_run();

// The view keys of an address (lesson, theme, page, panel, presentation) applied to the running app;
// its parameters are applied apart.
void apply_view_keys(App& app, const session::PageAddress& address);

// After a frame: the address the state gives, told to the page when it changed (the page rewrites
// its own at most a few times a second).
void tell_page_address(WebRun& run);
// Between frames, at most twice a second: the document for screen readers, sent to the page when it
// changed (after a frame ran, or a table of it was built).
void tell_page_reader(WebRun& run, double now);
// Tells the page when a text field takes or leaves the keyboard (after a frame).
void tell_page_typing(WebRun& run);

}  // namespace rope::gui
