// Runs a program and captures its exit code, standard output and standard error (tests only).
#pragma once

#include <cstdio>
#include <string>
#include <vector>

namespace rope::test {

struct ProcessResult {
    int exit_code = -1;
    std::string out;
    std::string err;
};

// argv[0] is the program path; `input` is written to its standard input.
ProcessResult run_process(const std::vector<std::string>& argv, const std::string& input = "",
                          const std::vector<std::string>& extra_env = {});

// A program whose standard output is read a line at a time as it writes: for outputs too large to
// hold (a table of a billion bytes). Standard error, read at the end, must fit in a pipe (64 kB).
class StreamedProcess {
public:
    explicit StreamedProcess(const std::vector<std::string>& argv);
    ~StreamedProcess();  // a process still running is killed
    StreamedProcess(const StreamedProcess&) = delete;
    StreamedProcess& operator=(const StreamedProcess&) = delete;
    // The next line of standard output, without its '\n'; false at the end (split_lines' lines).
    bool next_line(std::string& line);
    // Reads what is left of standard output, waits for the exit; the exit code.
    int finish();
    const std::string& err() const { return err_; }

private:
    int pid_ = -1;
    std::FILE* out_ = nullptr;
    int err_fd_ = -1;
    char* line_ = nullptr;
    std::size_t capacity_ = 0;
    std::string err_;
    int exit_code_ = -1;
};

// Starts a program without waiting (standard streams to /dev/null); returns its pid.
int spawn_background(const std::vector<std::string>& argv, const std::vector<std::string>& extra_env = {});
// Waits up to `seconds` for pid to exit; returns its exit code, or -1 on time-out (then kills it).
int wait_exit(int pid, double seconds);

// Number of lines in s (a last line without '\n' counts).
int count_lines(const std::string& s);

std::vector<std::string> split_lines(const std::string& s);
// A whole file's bytes ("" if it cannot be read).
std::string read_file(const std::string& path);
std::vector<std::string> split(const std::string& s, char sep);
// The value of `key` in a `key,value` table (compute summary), or "(missing)".
std::string summary_value(const std::string& table, const std::string& key);

}  // namespace rope::test
