#include "support/chromium.hpp"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <algorithm>
#include <cstring>
#include <map>
#include <stdexcept>
#include <thread>

#include <gtest/gtest.h>

#include "support/process.hpp"
#include "support/web_page.hpp"

extern char** environ;

namespace rope::test {

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// base64 as the protocol sends screenshots
std::vector<unsigned char> from_base64(const std::string& text) {
    std::vector<unsigned char> out;
    int value = 0, bits = -8;
    for (const char c : text) {
        const char* table = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        const char* at = std::strchr(table, c);
        if (!at || c == '\0') continue;
        value = (value << 6) + static_cast<int>(at - table);
        bits += 6;
        if (bits >= 0) {
            out.push_back(static_cast<unsigned char>((value >> bits) & 0xff));
            bits -= 8;
        }
    }
    return out;
}

}  // namespace

Chromium::Chromium(int width, int height, const std::string& profile_dir) {
    int to[2], from[2];
    if (pipe(to) || pipe(from)) throw std::runtime_error("pipe failed");
    static const bool own_network = run_process({"/usr/bin/unshare", "-n", "/bin/true"}).exit_code == 0;
    std::vector<std::string> argv;
    if (own_network) argv = {"/usr/bin/unshare", "-n"};
    for (const std::string& a :
         {std::string("/usr/bin/chromium"), std::string("--headless=new"), std::string("--no-sandbox"), std::string("--remote-debugging-pipe"),
          std::string("--use-angle=swiftshader"), std::string("--enable-unsafe-swiftshader"), std::string("--hide-scrollbars"),
          std::string("--force-device-scale-factor=1"), "--window-size=" + std::to_string(width) + "," + std::to_string(height),
          "--user-data-dir=" + profile_dir, std::string("--proxy-server=127.0.0.1:9"), std::string("--host-resolver-rules=MAP * ~NOTFOUND"),
          std::string("--disable-background-networking"), std::string("--disable-component-update"), std::string("--disable-sync"),
          std::string("--no-first-run"), std::string("--disable-default-apps"), std::string("--allow-file-access-from-files"),
          std::string("--disable-renderer-backgrounding"), std::string("--disable-background-timer-throttling"),
          std::string("--disable-backgrounding-occluded-windows"), std::string("about:blank")})
        argv.push_back(a);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, to[0], 3);
    posix_spawn_file_actions_adddup2(&actions, from[1], 4);
    std::vector<char*> args;
    for (std::string& a : argv) args.push_back(a.data());
    args.push_back(nullptr);
    const int rc = posix_spawn(&pid_, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(to[0]);
    close(from[1]);
    to_browser_ = to[1];
    from_browser_ = from[0];
    if (rc != 0) throw std::runtime_error("cannot start chromium");
    // the page target the browser opened, attached with a session of its own
    const nlohmann::json targets = command("Target.getTargets", nlohmann::json::object(), false);
    for (const auto& t : targets["targetInfos"])
        if (t["type"] == "page") {
            session_ = command("Target.attachToTarget", {{"targetId", t["targetId"]}, {"flatten", true}}, false)["sessionId"];
            break;
        }
    if (session_.empty()) throw std::runtime_error("chromium opened no page");
    command("Page.enable");
    command("Runtime.enable");
    command("Network.enable");
    // the page's viewport is the window's size (a headless window keeps room for a toolbar it has not)
    command("Emulation.setDeviceMetricsOverride", {{"width", width}, {"height", height}, {"deviceScaleFactor", 1}, {"mobile", false}});
}

void Chromium::let_run(double seconds) {
    const auto t0 = std::chrono::steady_clock::now();
    for (;;) {
        for (std::size_t end; (end = buffer_.find('\0')) != std::string::npos;) {
            const nlohmann::json message = nlohmann::json::parse(buffer_.substr(0, end), nullptr, false);
            buffer_.erase(0, end + 1);
            if (!message.is_discarded() && message.contains("method")) note_event(message);
        }
        const double left = seconds - seconds_since(t0);
        if (left <= 0) return;
        pollfd fd{from_browser_, POLLIN, 0};
        const int ready = poll(&fd, 1, static_cast<int>(left * 1000) + 1);
        if (ready < 0) return;
        if (ready == 0) continue;
        char chunk[65536];
        const ssize_t n = read(from_browser_, chunk, sizeof chunk);
        if (n <= 0) return;  // the browser has gone: what it said is noted
        buffer_.append(chunk, static_cast<std::size_t>(n));
    }
}

void Chromium::guard() {
    if (session_.empty() || from_browser_ < 0) return;
    try {
        // frames after the test's last step: half a second (times the patience). On the checked page,
        // by the page's own clock, awaited: a frame there can take a second or more, so what was due
        // before it answers still runs and the events it sends on the way are noted. (The page's own
        // stall of 12-14 s after a settle, the reader's heatmap table written as its whole CSV, is
        // gone since e2af792; the page keeps the browser's time as it comes.)
        if (web_page_checked()) {
            evaluate("new Promise(done => setTimeout(() => done(true), " + std::to_string(static_cast<int>(500 * web_patience())) + "))");
            let_run(0.2);
        } else {
            let_run(0.5);
        }
    } catch (...) {
    }
    auto last_lines = [&] {  // the console's last lines: a sanitizer's report and its stack
        std::string text;
        const std::size_t from = console_.size() > 60 ? console_.size() - 60 : 0;
        for (std::size_t i = from; i < console_.size(); ++i) text += "\n  " + console_[i].substr(0, 400);
        return text;
    };
    for (const std::string& e : exceptions_)
        ADD_FAILURE() << "the page threw an uncaught exception (Runtime.exceptionThrown): " << e.substr(0, 4000) << "\nthe console's last lines:"
                      << last_lines();
    if (exceptions_.empty() && !fatal_console_.empty())
        ADD_FAILURE() << "the page reported a fault on its console: " << fatal_console_.front().substr(0, 4000) << "\nthe console's last lines:"
                      << last_lines();
}

Chromium::~Chromium() {
    guard();
    if (to_browser_ >= 0) {
        try {
            send({{"id", next_id_++}, {"method", "Browser.close"}});
        } catch (...) {
        }
        close(to_browser_);
    }
    for (int i = 0; i < 100 && pid_ > 0 && waitpid(pid_, nullptr, WNOHANG) == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    if (pid_ > 0 && waitpid(pid_, nullptr, WNOHANG) == 0) {
        kill(pid_, SIGKILL);
        waitpid(pid_, nullptr, 0);
    }
    if (from_browser_ >= 0) close(from_browser_);
}

void Chromium::send(const nlohmann::json& message) {
    std::string text = message.dump();
    text.push_back('\0');
    for (std::size_t written = 0; written < text.size();) {
        const ssize_t n = write(to_browser_, text.data() + written, text.size() - written);
        if (n <= 0) throw std::runtime_error("chromium's pipe closed");
        written += static_cast<std::size_t>(n);
    }
}

std::string Chromium::read_message() {
    for (;;) {
        const std::size_t end = buffer_.find('\0');
        if (end != std::string::npos) {
            std::string message = buffer_.substr(0, end);
            buffer_.erase(0, end + 1);
            return message;
        }
        pollfd fd{from_browser_, POLLIN, 0};
        if (poll(&fd, 1, static_cast<int>(web_deadline(120) * 1000)) <= 0)
            throw std::runtime_error("chromium said nothing for " + std::to_string(static_cast<int>(web_deadline(120))) + " s");
        char chunk[65536];
        const ssize_t n = read(from_browser_, chunk, sizeof chunk);
        if (n <= 0) throw std::runtime_error("chromium's pipe closed");
        buffer_.append(chunk, static_cast<std::size_t>(n));
    }
}

void Chromium::note_event(const nlohmann::json& event) {
    const std::string method = event.value("method", "");
    const nlohmann::json& p = event.contains("params") ? event["params"] : nlohmann::json::object();
    if (method == "Network.requestWillBeSent") requests_.push_back(p["request"].value("url", ""));
    else if (method == "Runtime.exceptionThrown") exceptions_.push_back(p["exceptionDetails"].dump());
    else if (method == "Page.loadEventFired") loaded_ = true;
    else if (method == "Runtime.consoleAPICalled") {
        std::string text = p.value("type", "");
        for (const auto& a : p["args"]) text += " " + (a.contains("value") ? (a["value"].is_string() ? a["value"].get<std::string>() : a["value"].dump()) : a.value("description", ""));
        console_.push_back(text);
        // emscripten's abort ("Aborted(...)", also a failed -sASSERTIONS check's), a RuntimeError
        // (a trap: "memory access out of bounds", "unreachable"), a sanitizer's report
        if (text.find("Aborted(") != std::string::npos || text.find("RuntimeError") != std::string::npos ||
            text.find("AddressSanitizer") != std::string::npos || text.find("UndefinedBehaviorSanitizer") != std::string::npos)
            fatal_console_.push_back(text);
    }
}

nlohmann::json Chromium::receive(int id) {
    for (;;) {
        const nlohmann::json message = nlohmann::json::parse(read_message(), nullptr, false);
        if (message.is_discarded()) continue;
        if (message.contains("id") && message["id"] == id) {
            if (message.contains("error")) throw std::runtime_error("chromium: " + message["error"].dump());
            return message.value("result", nlohmann::json::object());
        }
        if (message.contains("method")) note_event(message);
    }
}

nlohmann::json Chromium::command(const std::string& method, const nlohmann::json& params, bool page) {
    const int id = next_id_++;
    nlohmann::json message = {{"id", id}, {"method", method}, {"params", params}};
    if (page) message["sessionId"] = session_;
    send(message);
    return receive(id);
}

void Chromium::open(const std::string& url) {
    loaded_ = false;
    command("Page.navigate", {{"url", url}});
    const auto t0 = std::chrono::steady_clock::now();
    while (!loaded_ && seconds_since(t0) < web_deadline(120)) {  // a busy machine loads the page's wasm slowly
        const nlohmann::json message = nlohmann::json::parse(read_message(), nullptr, false);
        if (!message.is_discarded() && message.contains("method")) note_event(message);
    }
}

nlohmann::json Chromium::evaluate(const std::string& expression) {
    const nlohmann::json r = command("Runtime.evaluate", {{"expression", expression}, {"returnByValue", true}, {"awaitPromise", true}});
    if (r.contains("exceptionDetails")) throw std::runtime_error("script: " + r["exceptionDetails"].dump());
    return r["result"].value("value", nlohmann::json());
}

double Chromium::wait_for(const std::string& expression, double seconds) {
    const auto t0 = std::chrono::steady_clock::now();
    while (seconds_since(t0) < seconds) {
        if (evaluate("Boolean(" + expression + ")") == true) return seconds_since(t0);
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return -1;
}

nlohmann::json Chromium::accessibility_tree() {
    command("Accessibility.enable");
    return command("Accessibility.getFullAXTree")["nodes"];
}

void Chromium::focus_node(int backend_node_id) {
    command("DOM.enable");
    command("DOM.focus", {{"backendNodeId", backend_node_id}});
}

std::vector<unsigned char> Chromium::screenshot() {
    return from_base64(command("Page.captureScreenshot", {{"format", "png"}})["data"].get<std::string>());
}

std::vector<std::pair<std::string, double>> Chromium::profile(double seconds) {
    command("Profiler.enable");
    command("Profiler.setSamplingInterval", {{"interval", 200}});
    command("Profiler.start");
    std::this_thread::sleep_for(std::chrono::milliseconds(static_cast<int>(seconds * 1000)));
    const nlohmann::json p = command("Profiler.stop")["profile"];
    std::map<long, std::string> names;
    for (const auto& n : p["nodes"]) names[n["id"].get<long>()] = n["callFrame"].value("functionName", "");
    std::map<std::string, double> count;
    double total = 0;
    for (const auto& s : p["samples"]) {
        count[names[s.get<long>()]] += 1;
        total += 1;
    }
    std::vector<std::pair<std::string, double>> out(count.begin(), count.end());
    for (auto& [name, c] : out) c /= std::max(1.0, total);
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    return out;
}

void Chromium::key(const std::string& key, int modifiers) {
    // the code and key code a keyboard sends for it (GLFW's emulation reads keyCode)
    struct Known {
        const char* key;
        const char* code;
        int key_code;
    };
    static const Known known[] = {{"ArrowRight", "ArrowRight", 39}, {"ArrowLeft", "ArrowLeft", 37}, {"ArrowUp", "ArrowUp", 38},
                                  {"ArrowDown", "ArrowDown", 40},   {"PageDown", "PageDown", 34},   {"PageUp", "PageUp", 33},
                                  {"Tab", "Tab", 9},                {"Escape", "Escape", 27},       {"Enter", "Enter", 13},
                                  {"Home", "Home", 36},             {"End", "End", 35},             {"F5", "F5", 116},
                                  {" ", "Space", 32}};
    nlohmann::json down = {{"type", "keyDown"}, {"key", key}, {"modifiers", modifiers}};
    bool found = false;
    for (const Known& k : known)
        if (key == k.key) {
            down["code"] = k.code;
            down["windowsVirtualKeyCode"] = k.key_code;
            if (key == " " || key == "Enter") down["text"] = key == " " ? " " : "\r";  // a keypress: what activates a button
            found = true;
        }
    if (!found && key.size() == 1) {
        const char upper = static_cast<char>(std::toupper(static_cast<unsigned char>(key[0])));
        down["code"] = std::isalpha(static_cast<unsigned char>(key[0])) ? std::string("Key") + upper : std::string("Digit") + key;
        down["windowsVirtualKeyCode"] = static_cast<int>(upper);
        if (!(modifiers & 2)) down["text"] = key;
    }
    // the modifiers go down first and up last, as a keyboard sends them (GLFW's emulation follows
    // the modifier keys themselves, not the flags on the key)
    struct Modifier {
        int bit;
        const char* key;
        const char* code;
        int key_code;
    };
    static const Modifier modifier_keys[] = {{2, "Control", "ControlLeft", 17}, {8, "Shift", "ShiftLeft", 16}, {1, "Alt", "AltLeft", 18}};
    int held = 0;
    for (const Modifier& m : modifier_keys)
        if (modifiers & m.bit) {
            held |= m.bit;
            command("Input.dispatchKeyEvent", {{"type", "rawKeyDown"}, {"key", m.key}, {"code", m.code}, {"windowsVirtualKeyCode", m.key_code}, {"modifiers", held}});
        }
    command("Input.dispatchKeyEvent", down);
    nlohmann::json up = down;
    up["type"] = "keyUp";
    up.erase("text");
    command("Input.dispatchKeyEvent", up);
    for (const Modifier& m : modifier_keys)
        if (modifiers & m.bit) {
            held &= ~m.bit;
            command("Input.dispatchKeyEvent", {{"type", "keyUp"}, {"key", m.key}, {"code", m.code}, {"windowsVirtualKeyCode", m.key_code}, {"modifiers", held}});
        }
}

void Chromium::mouse(const std::string& type, double x, double y, int buttons) {
    nlohmann::json e = {{"type", type}, {"x", x}, {"y", y}, {"buttons", buttons}};
    if (type != "mouseMoved") e["button"] = "left", e["clickCount"] = 1;
    command("Input.dispatchMouseEvent", e);
}

void Chromium::drag(double x0, double y0, double x1, double y1, int steps) {
    mouse("mouseMoved", x0, y0);
    mouse("mousePressed", x0, y0, 1);
    for (int i = 1; i <= steps; ++i) {
        mouse("mouseMoved", x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps, 1);
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    mouse("mouseReleased", x1, y1);
}

void Chromium::emulate(int width, int height, double device_pixel_ratio, bool mobile) {
    command("Emulation.setDeviceMetricsOverride",
            {{"width", width}, {"height", height}, {"deviceScaleFactor", device_pixel_ratio}, {"mobile", mobile}});
    command("Emulation.setTouchEmulationEnabled", {{"enabled", mobile}, {"maxTouchPoints", mobile ? 5 : 1}});
    if (mobile) command("Emulation.setEmitTouchEventsForMouse", {{"enabled", false}});
}

void Chromium::prefer_reduced_motion(bool reduce) {
    command("Emulation.setEmulatedMedia",
            {{"features", nlohmann::json::array({{{"name", "prefers-reduced-motion"}, {"value", reduce ? "reduce" : "no-preference"}}})}});
}

void Chromium::wheel(double x, double y, double dy) {
    command("Input.dispatchMouseEvent", {{"type", "mouseWheel"}, {"x", x}, {"y", y}, {"deltaX", 0}, {"deltaY", dy}});
}

void Chromium::tap(double x, double y) {
    // Each event carries the time a finger would make it: the lift 60 ms after the touch, however
    // long the page took to take the touch (the protocol answers a touch only once the page has
    // handled it, so on a page busy for a second the lift would otherwise come a second late, and
    // the page would rightly call that finger held).
    constexpr double kTapSeconds = 0.06;
    const double touched = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
    command("Input.dispatchTouchEvent",
            {{"type", "touchStart"}, {"touchPoints", nlohmann::json::array({{{"x", x}, {"y", y}, {"id", 0}}})}, {"timestamp", touched}});
    std::this_thread::sleep_for(std::chrono::duration<double>(kTapSeconds));
    command("Input.dispatchTouchEvent", {{"type", "touchEnd"}, {"touchPoints", nlohmann::json::array()}, {"timestamp", touched + kTapSeconds}});
}

void Chromium::touch_drag(double x0, double y0, double x1, double y1, int steps) {
    auto at = [](double x, double y) { return nlohmann::json::array({{{"x", x}, {"y", y}, {"id", 0}}}); };
    command("Input.dispatchTouchEvent", {{"type", "touchStart"}, {"touchPoints", at(x0, y0)}});
    for (int i = 1; i <= steps; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        command("Input.dispatchTouchEvent", {{"type", "touchMove"}, {"touchPoints", at(x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps)}});
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    command("Input.dispatchTouchEvent", {{"type", "touchEnd"}, {"touchPoints", nlohmann::json::array()}});
}

void Chromium::touch_hold(double x, double y, double seconds) {
    command("Input.dispatchTouchEvent", {{"type", "touchStart"}, {"touchPoints", nlohmann::json::array({{{"x", x}, {"y", y}, {"id", 0}}})}});
    std::this_thread::sleep_for(std::chrono::milliseconds(static_cast<int>(seconds * 1000)));
}

void Chromium::insert_text(const std::string& text) { command("Input.insertText", {{"text", text}}); }

void Chromium::touch_lift() { command("Input.dispatchTouchEvent", {{"type", "touchEnd"}, {"touchPoints", nlohmann::json::array()}}); }

void Chromium::pinch(double cx, double cy, double spread, double factor, int steps) {
    auto points = [&](double s) {
        return nlohmann::json::array({{{"x", cx - s}, {"y", cy}, {"id", 0}}, {{"x", cx + s}, {"y", cy}, {"id", 1}}});
    };
    command("Input.dispatchTouchEvent", {{"type", "touchStart"}, {"touchPoints", points(spread)}});
    for (int i = 1; i <= steps; ++i) {
        command("Input.dispatchTouchEvent", {{"type", "touchMove"}, {"touchPoints", points(spread * (1 + (factor - 1) * i / steps))}});
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    command("Input.dispatchTouchEvent", {{"type", "touchEnd"}, {"touchPoints", nlohmann::json::array()}});
}

}  // namespace rope::test
