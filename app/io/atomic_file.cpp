#include "io/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

namespace rope::io {

namespace {

std::string folder_of(const std::string& path) {
    const std::size_t slash = path.find_last_of('/');
    if (slash == std::string::npos) return ".";
    if (slash == 0) return "/";
    return path.substr(0, slash);
}

std::string name_of(const std::string& path) {
    const std::size_t slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string message(const std::string& path, const std::string& reason) {
    return "cannot write '" + path + "': " + reason;
}

}  // namespace

WriteTarget resolve_write_target(const std::string& path) {
    WriteTarget t{path, false};
    struct stat st {};
    if (lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {
        // write where the link points, never replace the link itself
        if (char* real = realpath(path.c_str(), nullptr)) {
            t.path = real;
            std::free(real);
        }
    }
    if (stat(t.path.c_str(), &st) == 0) {
        if (S_ISDIR(st.st_mode)) throw IoError(message(path, "it is a folder"));
        t.special = !S_ISREG(st.st_mode);
    }
    return t;
}

TemporaryBeside make_temporary_beside(const std::string& target, const std::string& shown) {
    const std::string folder = folder_of(target);
    struct stat st {};
    if (stat(folder.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) throw IoError(message(shown, "folder '" + folder + "' does not exist"));
    std::string pattern = folder + "/." + name_of(target) + ".XXXXXX";
    std::vector<char> buf(pattern.begin(), pattern.end());
    buf.push_back('\0');
    const int fd = mkstemp(buf.data());
    if (fd < 0) throw IoError(message(shown, std::strerror(errno)));
#ifdef __EMSCRIPTEN__
    fchmod(fd, 0644);  // the page's umask starts at 0777: its script could not read the file back
#else
    const mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
#endif
    return {fd, buf.data()};
}

AtomicFile::AtomicFile(std::string path) : path_(std::move(path)) {
    if (path_.empty()) throw IoError("cannot write '': empty file name");
    const WriteTarget target = resolve_write_target(path_);
    if (target.special) {
        // a device or pipe: write in place, report its errors, never rename over it
        in_place_ = true;
        file_ = std::fopen(target.path.c_str(), "wb");
        if (!file_) throw IoError(message(path_, std::strerror(errno)));
        return;
    }
    const TemporaryBeside temp = make_temporary_beside(target.path, path_);
    temp_ = temp.path;
    file_ = fdopen(temp.fd, "wb");
    if (!file_) {
        const int e = errno;
        close(temp.fd);
        unlink(temp_.c_str());
        throw IoError(message(path_, std::strerror(e)));
    }
    path_ = target.path;  // rename onto the link's target, keeping the link
}

AtomicFile::~AtomicFile() {
    if (file_) std::fclose(file_);
    if (!committed_ && !temp_.empty()) unlink(temp_.c_str());
}

void AtomicFile::fail(int error) {
    if (file_) {
        std::fclose(file_);
        file_ = nullptr;
    }
    if (!temp_.empty()) {
        unlink(temp_.c_str());
        temp_.clear();
    }
    throw IoError(message(path_, std::strerror(error)));
}

void AtomicFile::write(const void* data, std::size_t bytes) {
    if (bytes && std::fwrite(data, 1, bytes, file_) != bytes) fail(errno ? errno : EIO);
}

void AtomicFile::commit() {
    if (!file_) throw IoError(message(path_, "already closed"));
    errno = 0;
    if (std::fflush(file_) != 0 || std::ferror(file_)) fail(errno ? errno : EIO);
    const int rc = std::fclose(file_);
    file_ = nullptr;
    if (rc != 0) fail(errno ? errno : EIO);
    if (!in_place_ && std::rename(temp_.c_str(), path_.c_str()) != 0) fail(errno);
    committed_ = true;
    temp_.clear();
}

void write_file_atomically(const std::string& path, const std::string& content) {
    AtomicFile f(path);
    f.write(content);
    f.commit();
}

std::string read_file(const std::string& path) {
    struct stat st {};
    if (stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) throw IoError("cannot read '" + path + "': it is a folder");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw IoError("cannot read '" + path + "': " + std::strerror(errno));
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace rope::io
