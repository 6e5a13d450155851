// A small program the sanitizer-runtime tests run to show that LeakSanitizer still finds leaks with
// the options every sanitized binary carries (app/sanitizer_defaults.cpp), and still sees what thread
// storage holds. Modes: `leak` drops 100 heap blocks; `held` keeps blocks only in thread_local
// storage, of the main thread and of a thread still running at exit.
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>

namespace {

void* volatile g_sink = nullptr;  // the only pointer to each block in `leak` mode, overwritten at once
thread_local void* t_held = nullptr;

__attribute__((noinline)) void drop_blocks() {
    for (int i = 0; i < 100; ++i) {
        g_sink = std::malloc(48);
        g_sink = nullptr;
    }
}

}  // namespace

int main(int argc, char** argv) {
    if (argc == 2 && std::strcmp(argv[1], "leak") == 0) {
        drop_blocks();
        return 0;
    }
    if (argc == 2 && std::strcmp(argv[1], "held") == 0) {
        t_held = std::malloc(48);
        std::mutex mutex;
        std::condition_variable ready;
        bool stored = false;
        // Stays blocked until the process exits, so its storage is live when the leak check runs.
        std::thread worker([&] {
            t_held = std::malloc(48);
            std::unique_lock<std::mutex> lock(mutex);
            stored = true;
            ready.notify_all();
            ready.wait(lock, [] { return false; });
        });
        {
            std::unique_lock<std::mutex> lock(mutex);
            ready.wait(lock, [&] { return stored; });
        }
        worker.detach();
        std::exit(0);
    }
    std::fprintf(stderr, "usage: leak_canary leak|held\n");
    return 2;
}
