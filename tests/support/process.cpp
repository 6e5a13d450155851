#include "support/process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

extern char** environ;

namespace rope::test {

namespace {

// The current environment with `extra` entries replacing those of the same name.
std::vector<std::string> merged_environment(const std::vector<std::string>& extra) {
    std::vector<std::string> env;
    for (char** e = environ; *e; ++e) {
        const std::string entry = *e;
        const std::string name = entry.substr(0, entry.find('='));
        bool replaced = false;
        for (const auto& x : extra) replaced = replaced || x.substr(0, x.find('=')) == name;
        if (!replaced) env.push_back(entry);
    }
    for (const auto& x : extra) env.push_back(x);
    return env;
}

// argv/envp style: pointers into the strings, ending with a null.
std::vector<char*> c_strings(std::vector<std::string>& strings) {
    std::vector<char*> out;
    for (auto& s : strings) out.push_back(s.data());
    out.push_back(nullptr);
    return out;
}

// Starts argv with the environment plus `extra_env`, the file actions already set up (and freed here).
pid_t spawn(const std::vector<std::string>& argv, const std::vector<std::string>& extra_env,
            posix_spawn_file_actions_t& actions) {
    std::vector<std::string> argv_storage = argv;
    std::vector<char*> args = c_strings(argv_storage);
    std::vector<std::string> env_storage = merged_environment(extra_env);
    std::vector<char*> env = c_strings(env_storage);
    pid_t pid = 0;
    const int rc = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), env.data());
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) throw std::runtime_error(std::string("cannot start ") + argv[0] + ": " + std::strerror(rc));
    return pid;
}

}  // namespace

ProcessResult run_process(const std::vector<std::string>& argv, const std::string& input,
                          const std::vector<std::string>& extra_env) {
    int out_pipe[2], err_pipe[2], in_pipe[2];
    if (pipe(out_pipe) || pipe(err_pipe) || pipe(in_pipe)) throw std::runtime_error("pipe failed");
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in_pipe[0], 0);
    posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
    posix_spawn_file_actions_adddup2(&actions, err_pipe[1], 2);
    for (int fd : {in_pipe[0], in_pipe[1], out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1]})
        posix_spawn_file_actions_addclose(&actions, fd);

    pid_t pid = 0;
    try {
        pid = spawn(argv, extra_env, actions);
    } catch (...) {
        for (int fd : {in_pipe[0], in_pipe[1], out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1]}) close(fd);
        throw;
    }
    close(in_pipe[0]);
    close(out_pipe[1]);
    close(err_pipe[1]);

    ProcessResult result;
    std::size_t written = 0;
    if (input.empty()) {
        close(in_pipe[1]);
        in_pipe[1] = -1;
    }
    pollfd fds[3] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}, {in_pipe[1], POLLOUT, 0}};
    int open_fds = 2;
    char buf[65536];
    while (open_fds > 0) {
        const nfds_t n = in_pipe[1] >= 0 ? 3 : 2;
        if (poll(fds, n, -1) < 0) break;
        for (int i = 0; i < 2; ++i) {
            if (fds[i].fd >= 0 && (fds[i].revents & (POLLIN | POLLHUP))) {
                const ssize_t got = read(fds[i].fd, buf, sizeof buf);
                if (got <= 0) {
                    close(fds[i].fd);
                    fds[i].fd = -1;
                    --open_fds;
                } else {
                    (i == 0 ? result.out : result.err).append(buf, static_cast<std::size_t>(got));
                }
            }
        }
        if (in_pipe[1] >= 0 && (fds[2].revents & (POLLOUT | POLLERR | POLLHUP))) {
            const ssize_t put = write(in_pipe[1], input.data() + written, input.size() - written);
            if (put > 0) written += static_cast<std::size_t>(put);
            if (put <= 0 || written == input.size()) {
                close(in_pipe[1]);
                in_pipe[1] = -1;
            }
        }
    }
    int status = 0;
    waitpid(pid, &status, 0);
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return result;
}

StreamedProcess::StreamedProcess(const std::vector<std::string>& argv) {
    int out_pipe[2], err_pipe[2];
    if (pipe(out_pipe)) throw std::runtime_error("pipe failed");
    if (pipe(err_pipe)) {
        close(out_pipe[0]);
        close(out_pipe[1]);
        throw std::runtime_error("pipe failed");
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
    posix_spawn_file_actions_adddup2(&actions, err_pipe[1], 2);
    for (int fd : {out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1]}) posix_spawn_file_actions_addclose(&actions, fd);
    try {
        pid_ = spawn(argv, {}, actions);
    } catch (...) {
        for (int fd : {out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1]}) close(fd);
        throw;
    }
    close(out_pipe[1]);
    close(err_pipe[1]);
    // Standard error is read at the end: what the app writes there (a line) fits in the pipe.
    err_fd_ = err_pipe[0];
    out_ = fdopen(out_pipe[0], "r");
    static constexpr std::size_t kBuffer = 1 << 20;
    std::setvbuf(out_, nullptr, _IOFBF, kBuffer);
}

StreamedProcess::~StreamedProcess() {
    if (pid_ > 0 && exit_code_ < 0) {
        kill(pid_, SIGKILL);
        waitpid(pid_, nullptr, 0);
    }
    if (out_) std::fclose(out_);
    if (err_fd_ >= 0) close(err_fd_);
    std::free(line_);
}

bool StreamedProcess::next_line(std::string& line) {
    if (!out_) return false;
    const ssize_t n = getline(&line_, &capacity_, out_);
    if (n < 0) return false;
    const std::size_t length = static_cast<std::size_t>(n) - (n > 0 && line_[n - 1] == '\n' ? 1 : 0);
    line.assign(line_, length);
    return true;
}

int StreamedProcess::finish() {
    if (exit_code_ >= 0) return exit_code_;
    std::string ignored;
    while (next_line(ignored)) {
    }
    char buf[4096];
    ssize_t got = 0;
    while ((got = read(err_fd_, buf, sizeof buf)) > 0) err_.append(buf, static_cast<std::size_t>(got));
    int status = 0;
    waitpid(pid_, &status, 0);
    exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return exit_code_;
}

int spawn_background(const std::vector<std::string>& argv, const std::vector<std::string>& extra_env) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    return spawn(argv, extra_env, actions);
}

int wait_exit(int pid, double seconds) {
    for (int i = 0; i < static_cast<int>(seconds * 20); ++i) {
        int status = 0;
        const pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid) return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        usleep(50000);
    }
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
    return -1;
}

std::string read_file(const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) return "";
    std::string out;
    char buf[65536];
    std::size_t n = 0;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
    std::fclose(f);
    return out;
}

int count_lines(const std::string& s) {
    int n = 0;
    for (char c : s) n += c == '\n';
    if (!s.empty() && s.back() != '\n') ++n;
    return n;
}

std::vector<std::string> split_lines(const std::string& s) {
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start < s.size()) {
        std::size_t end = s.find('\n', start);
        if (end == std::string::npos) end = s.size();
        lines.push_back(s.substr(start, end - start));
        start = end + 1;
    }
    return lines;
}

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (true) {
        const std::size_t end = s.find(sep, start);
        parts.push_back(s.substr(start, end == std::string::npos ? std::string::npos : end - start));
        if (end == std::string::npos) break;
        start = end + 1;
    }
    return parts;
}

std::string summary_value(const std::string& table, const std::string& key) {
    for (const std::string& line : split_lines(table))
        if (line.rfind(key + ",", 0) == 0) return line.substr(key.size() + 1);
    return "(missing)";
}

}  // namespace rope::test
