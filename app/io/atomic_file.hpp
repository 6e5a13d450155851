// Writing files safely: a temporary file in the target folder, renamed into place only when
// complete, so nothing half-written is ever seen and nothing that was there is damaged. A target
// that is not a regular file (a device such as /dev/full) is written in place instead and its
// error reported; a folder that does not exist is not created.
#pragma once

#include <cstdio>
#include <stdexcept>
#include <string>

namespace rope::io {

// One line: "cannot write 'PATH': REASON".
class IoError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class AtomicFile {
public:
    explicit AtomicFile(std::string path);  // throws IoError
    ~AtomicFile();                          // removes the temporary unless committed
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    std::FILE* stream() { return file_; }
    void write(const void* data, std::size_t bytes);
    void write(const std::string& s) { write(s.data(), s.size()); }
    void commit();  // flush, close, rename; throws IoError naming the path and the system's reason
    const std::string& path() const { return path_; }

private:
    [[noreturn]] void fail(int error);

    std::string path_;
    std::string temp_;
    std::FILE* file_ = nullptr;
    bool in_place_ = false;
    bool committed_ = false;
};

// Where a write to `path` lands: a symbolic link's target (the link itself is kept), and whether
// something other than a regular file (a device, a pipe) is there, which cannot be renamed over.
// Throws IoError naming `path` when it is a folder.
struct WriteTarget {
    std::string path;
    bool special = false;
};
WriteTarget resolve_write_target(const std::string& path);

// A new empty file ".NAME.XXXXXX" in `target`'s folder, mode 0666 less the umask, open for writing:
// written first and renamed onto `target` when whole. Throws IoError naming `shown` (the path the
// caller was given) when the folder does not exist or the file cannot be made.
struct TemporaryBeside {
    int fd = -1;
    std::string path;
};
TemporaryBeside make_temporary_beside(const std::string& target, const std::string& shown);

// Writes the whole of `content` atomically.
void write_file_atomically(const std::string& path, const std::string& content);

// Reads a whole file; throws IoError.
std::string read_file(const std::string& path);

}  // namespace rope::io
