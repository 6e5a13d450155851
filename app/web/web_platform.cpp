#include "web/web_platform.hpp"

#include <GLFW/glfw3.h>
#include <emscripten.h>
#include <emscripten/html5.h>

#include <chrono>
#include <cmath>
#include <filesystem>

#include "cli/arguments.hpp"

namespace rope::gui {

namespace {

// The page's clipboard: asked for asynchronously by the browser, so written and not read.
EM_JS(void, rope_write_clipboard, (const char* text), {
    if (navigator.clipboard) navigator.clipboard.writeText(UTF8ToString(text)).catch(function() {});
});

EM_JS(void, rope_set_cursor, (int text), { Module['canvas'].style.cursor = text ? 'text' : 'default'; });

// A PNG is drawn by the page from the SVG the app wrote (web_writers.cpp): its text chunks beside it.
EM_JS(void, rope_offer_download, (const char* path, const char* name, const char* mime, int from_svg), {
    if (Module['ropePage']) Module['ropePage'].download(UTF8ToString(path), UTF8ToString(name), from_svg ? 'png-from-svg' : UTF8ToString(mime));
});
EM_JS(void, rope_page_fullscreen, (int on), { if (Module['ropePage']) Module['ropePage'].fullscreen(!!on); });
EM_JS(void, rope_pick_file, (const char* accept, int as_b), { if (Module['ropePage']) Module['ropePage'].pickFile(UTF8ToString(accept), as_b); });
EM_JS(char*, rope_page_location, (), {  // the page's address without its fragment (malloc'd)
    var text = location.href.split("#")[0];
    var size = lengthBytesUTF8(text) + 1;
    var out = _malloc(size);
    stringToUTF8(text, out, size);
    return out;
});
EM_JS(double, rope_device_pixel_ratio, (), { return window.devicePixelRatio || 1; });

// The canvas's CSS size, in CSS pixels.
EM_JS(void, rope_canvas_css_size, (int* width, int* height), {
    var r = Module['canvas'].getBoundingClientRect();
    HEAP32[width >> 2] = Math.max(1, Math.round(r.width));
    HEAP32[height >> 2] = Math.max(1, Math.round(r.height));
});

// The current WebGL context as the canvas's own (emscripten's GLFW reuses Module.ctx).
EM_JS(void, rope_adopt_context, (), { Module.ctx = GL.currentContext.GLctx; });

EM_BOOL on_resize(int, const EmscriptenUiEvent*, void* platform) {
    static_cast<WebPlatform*>(platform)->fit_canvas();
    return EM_FALSE;
}

}  // namespace

WebPlatform::WebPlatform() {
    if (!glfwInit()) throw cli::RuntimeFailure("this browser cannot run the app (no GLFW)");
    // The WebGL 2 context with its drawing kept from frame to frame (as the desktop's window keeps its
    // back buffer): a frame redraws only what changed, and software WebGL pays for every pixel.
    // GLFW's window then takes this context (emscripten reuses a canvas's context).
    EmscriptenWebGLContextAttributes attributes;
    emscripten_webgl_init_context_attributes(&attributes);
    attributes.majorVersion = 2;
    attributes.minorVersion = 0;
    attributes.alpha = EM_FALSE;
    attributes.depth = EM_FALSE;
    attributes.stencil = EM_FALSE;
    attributes.antialias = EM_FALSE;
    attributes.preserveDrawingBuffer = EM_TRUE;
    const EMSCRIPTEN_WEBGL_CONTEXT_HANDLE context = emscripten_webgl_create_context("#canvas", &attributes);
    if (context <= 0 || emscripten_webgl_make_context_current(context) != EMSCRIPTEN_RESULT_SUCCESS)
        throw cli::RuntimeFailure("this browser has no WebGL 2, which the app draws with");
    rope_adopt_context();
    glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
    window_ = glfwCreateWindow(1280, 720, "RoPE Explorer", nullptr, nullptr);
    if (!window_) throw cli::RuntimeFailure("this browser has no WebGL 2, which the app draws with");
    glfwMakeContextCurrent(window_);
    input_.connect(window_);
    emscripten_set_resize_callback(EMSCRIPTEN_EVENT_TARGET_WINDOW, this, EM_FALSE, on_resize);
    fit_canvas();
}

WebPlatform::~WebPlatform() {
    emscripten_set_resize_callback(EMSCRIPTEN_EVENT_TARGET_WINDOW, nullptr, EM_FALSE, nullptr);
    glfwDestroyWindow(window_);
    glfwTerminate();
}

void WebPlatform::fit_canvas() {
    int css_w = 0, css_h = 0;
    rope_canvas_css_size(&css_w, &css_h);
    const double ratio = rope_device_pixel_ratio();
    const int w = static_cast<int>(std::lround(css_w * ratio)), h = static_cast<int>(std::lround(css_h * ratio));
    if (w != width_ || h != height_) {
        emscripten_set_canvas_element_size("#canvas", w, h);
        width_ = w;
        height_ = h;
    }
    woken_ = true;
}

plot::Vec2 WebPlatform::framebuffer_size() const { return {static_cast<float>(width_), static_cast<float>(height_)}; }

double WebPlatform::now() const { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

void WebPlatform::set_fullscreen(bool on) {
    // the browser enters full screen only in a key or click handler: the page does at the next one
    // (the canvas follows the page's new size)
    rope_page_fullscreen(on ? 1 : 0);
    woken_ = true;
}

void WebPlatform::set_clipboard(const std::string& text) {
    clipboard_ = text;
    rope_write_clipboard(text.c_str());
}

void WebPlatform::download(const std::string& path, const std::string& name, const std::string& mime) {
    std::error_code ec;
    const bool from_svg = mime == "image/png" && std::filesystem::exists(path + ".text", ec);
    rope_offer_download(path.c_str(), name.c_str(), mime.c_str(), from_svg ? 1 : 0);
}

void WebPlatform::pick_file(const std::string& accept, bool as_b) { rope_pick_file(accept.c_str(), as_b ? 1 : 0); }

std::string WebPlatform::link_to(const std::string& fragment) const {
    char* page = rope_page_location();
    std::string link = page;
    std::free(page);
    return fragment.empty() ? link : link + "#" + fragment;
}

void WebPlatform::set_text_cursor(bool on) { rope_set_cursor(on ? 1 : 0); }

float WebPlatform::content_scale() const { return static_cast<float>(rope_device_pixel_ratio()); }

bool WebPlatform::take_wake() {
    const bool was = woken_;
    woken_ = false;
    return was;
}

}  // namespace rope::gui
