#include "gui/platform/glfw_platform.hpp"

// Before X11's headers: they #define Success, which Eigen (via the parameter table) declares.
#include "cli/arguments.hpp"

#include <GLFW/glfw3.h>
#include <GL/glx.h>
#include <dlfcn.h>

// GLFW's native access (glfw3native.h would also want the Xrandr headers for nothing we use).
extern "C" {
Display* glfwGetX11Display(void);
GLXWindow glfwGetGLXWindow(GLFWwindow* window);
}

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

namespace rope::gui {

namespace {

std::string g_glfw_error;

void on_glfw_error(int, const char* description) { g_glfw_error = description ? description : "unknown error"; }

// AddressSanitizer builds only: GLFW loads the GL libraries (and they the Mesa driver) at run time
// and glfwTerminate unloads them, so at exit LeakSanitizer finds the blocks their globals still
// point to unreachable and reports them as leaks of an unknown module. Loaded here with
// RTLD_NODELETE they stay mapped to the end and those blocks stay reachable, as in a normal run.
void keep_gl_libraries_mapped() {
#if defined(__SANITIZE_ADDRESS__)
    for (const char* lib : {"libGL.so.1", "libGLX.so.0", "libGLX_mesa.so.0", "libGLdispatch.so.0",
                            "/usr/lib/x86_64-linux-gnu/dri/swrast_dri.so"})
        dlopen(lib, RTLD_NOW | RTLD_GLOBAL | RTLD_NODELETE);
#endif
}

// Software GL (Mesa's llvmpipe) rasterises a frame in as many threads as there are cores. On a small
// machine one of them is often descheduled for the panels' builders or the X server, and the frame
// waits for it. Twice as many threads share the frame in smaller pieces: on 2 cores the frame time
// of a slider sweep went from p50 7.1 / p99 12.7 ms to 5.5 / 9.7-10.3 ms. Other drivers ignore it.
void share_software_rasterising() {
    const unsigned cores = std::thread::hardware_concurrency();
    if (cores == 0 || cores > 4) return;
    setenv("LP_NUM_THREADS", std::to_string(2 * cores).c_str(), /*overwrite=*/0);
}

}  // namespace

GlfwPlatform::GlfwPlatform(int width, int height, const char* title) {
    const char* display = std::getenv("DISPLAY");
    const char* wayland = std::getenv("WAYLAND_DISPLAY");
    if ((!display || !*display) && (!wayland || !*wayland))
        throw cli::RuntimeFailure(
            "no display to open a window on (DISPLAY is not set); run it in a desktop session, or headless with: "
            "xvfb-run -s \"-screen 0 1920x1080x24\" rope-explorer");
    glfwSetErrorCallback(on_glfw_error);
    keep_gl_libraries_mapped();
    share_software_rasterising();
    if (!glfwInit())
        throw cli::RuntimeFailure("cannot open the display '" + std::string(display ? display : "") + "' (" + g_glfw_error +
                                  "); run it in a desktop session, or under xvfb-run -s \"-screen 0 1920x1080x24\"");
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    window_ = glfwCreateWindow(width, height, title, nullptr, nullptr);
    if (!window_) {
        const std::string why = g_glfw_error;
        glfwTerminate();
        throw cli::RuntimeFailure("cannot create an OpenGL 3.3 window (" + why + ")");
    }
    glfwMakeContextCurrent(window_);
    glfwSwapInterval(1);
    // full screen (F11) it stays on screen when the presenter view's window takes the focus
    glfwSetWindowAttrib(window_, GLFW_AUTO_ICONIFY, GLFW_FALSE);
    input_.connect(window_);
    text_cursor_ = glfwCreateStandardCursor(GLFW_IBEAM_CURSOR);
    // GLX_MESA_copy_sub_buffer shows the back buffer without swapping it away: what was drawn stays
    // there, so a frame redraws only what changed (software GL pays for every pixel).
    // ROPE_SWAP_BUFFERS=1 swaps instead (every frame draws everything).
    Display* x11 = glfwGetX11Display();
    const char* extensions = x11 ? glXQueryExtensionsString(x11, DefaultScreen(x11)) : nullptr;
    if (extensions && std::strstr(extensions, "GLX_MESA_copy_sub_buffer") && !std::getenv("ROPE_SWAP_BUFFERS"))
        copy_sub_buffer_ = reinterpret_cast<CopySubBuffer>(glXGetProcAddress(reinterpret_cast<const GLubyte*>("glXCopySubBufferMESA")));
    windowed_[2] = width;
    windowed_[3] = height;
}

GlfwPlatform::~GlfwPlatform() {
    if (text_cursor_) glfwDestroyCursor(text_cursor_);
    glfwDestroyWindow(window_);
    glfwTerminate();
}

plot::Vec2 GlfwPlatform::window_size() const {
    int w = 0, h = 0;
    glfwGetWindowSize(window_, &w, &h);
    return {static_cast<float>(w), static_cast<float>(h)};
}

plot::Vec2 GlfwPlatform::framebuffer_size() const {
    int w = 0, h = 0;
    glfwGetFramebufferSize(window_, &w, &h);
    return {static_cast<float>(w), static_cast<float>(h)};
}

double GlfwPlatform::now() const { return glfwGetTime(); }

void GlfwPlatform::set_fullscreen(bool on) {
    if (on) {
        glfwGetWindowPos(window_, &windowed_[0], &windowed_[1]);
        glfwGetWindowSize(window_, &windowed_[2], &windowed_[3]);
        GLFWmonitor* monitor = glfwGetPrimaryMonitor();
        const GLFWvidmode* mode = monitor ? glfwGetVideoMode(monitor) : nullptr;
        if (mode) glfwSetWindowMonitor(window_, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
    } else {
        glfwSetWindowMonitor(window_, nullptr, windowed_[0], windowed_[1], windowed_[2], windowed_[3], 0);
    }
}

void GlfwPlatform::wake() {
    ++frame_requests_;  // before the event: a wait that ends on it sees the count changed
    glfwPostEmptyEvent();
}

std::string GlfwPlatform::clipboard() const {
    const char* text = glfwGetClipboardString(window_);
    return text ? text : "";
}

void GlfwPlatform::set_clipboard(const std::string& text) { glfwSetClipboardString(window_, text.c_str()); }

void GlfwPlatform::set_text_cursor(bool on) {
    if (on == text_cursor_on_) return;
    text_cursor_on_ = on;
    glfwSetCursor(window_, on ? text_cursor_ : nullptr);
}

float GlfwPlatform::content_scale() const {
    float sx = 1, sy = 1;
    glfwGetWindowContentScale(window_, &sx, &sy);
    return sx > sy ? sx : sy;
}

bool GlfwPlatform::should_close() const { return glfwWindowShouldClose(window_); }
void GlfwPlatform::request_close() { glfwSetWindowShouldClose(window_, GLFW_TRUE); }
void GlfwPlatform::poll() { glfwPollEvents(); }
void GlfwPlatform::wait(double timeout) {
    if (timeout < 0) glfwWaitEvents();
    else glfwWaitEventsTimeout(timeout);
}
void GlfwPlatform::swap(const std::vector<plot::Rect>& changed) {
    if (!copy_sub_buffer_) {
        glfwSwapBuffers(window_);
        return;
    }
    // The back buffer is shown, and kept: the next frame redraws only what changed. Only what this
    // frame changed is copied (the X server copies every pixel it is sent: 1.3 ms a frame for all).
    int w = 0, h = 0;
    glfwGetFramebufferSize(window_, &w, &h);
    glFlush();
    Display* display = glfwGetX11Display();
    const GLXWindow window = glfwGetGLXWindow(window_);
    if (input_.take_refresh()) {  // the window system lost the window's contents (or the first frame)
        copy_sub_buffer_(display, window, 0, 0, w, h);
        return;
    }
    for (const plot::Rect& r : changed) {
        const int x0 = std::max(0, static_cast<int>(std::floor(r.x0))), y0 = std::max(0, static_cast<int>(std::floor(r.y0)));
        const int x1 = std::min(w, static_cast<int>(std::ceil(r.x1))), y1 = std::min(h, static_cast<int>(std::ceil(r.y1)));
        if (x1 > x0 && y1 > y0) copy_sub_buffer_(display, window, x0, h - y1, x1 - x0, y1 - y0);
    }
}

}  // namespace rope::gui
