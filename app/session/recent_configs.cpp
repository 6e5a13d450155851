#include "session/recent_configs.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "io/atomic_file.hpp"
#include "session/session.hpp"

namespace rope::session {

namespace {

bool is_file(const std::string& path) {
    struct stat st {};
    return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::vector<std::string> read_list() {
    std::vector<std::string> list;
    try {
        const nlohmann::json j = nlohmann::json::parse(io::read_file(recent_configs_path()));
        for (const auto& path : j.at("configs"))
            if (path.is_string() && is_file(path.get<std::string>()) && list.size() < kRecentConfigs) list.push_back(path.get<std::string>());
    } catch (const std::exception&) {
        list.clear();  // none kept yet, or not ours to read: start afresh
    }
    return list;
}

std::vector<std::string>& list() {
    static std::vector<std::string> kept = read_list();
    return kept;
}

std::string absolute(const std::string& path) {
    char resolved[PATH_MAX];
    return realpath(path.c_str(), resolved) ? std::string(resolved) : path;
}

}  // namespace

bool still_there(const std::string& path) { return is_file(path); }

std::string recent_configs_path() {
    const std::string last = last_session_path();
    return last.substr(0, last.find_last_of('/')) + "/recent-configs.json";
}

const std::vector<std::string>& recent_configs() { return list(); }

void remember_config(const std::string& path) {
    std::vector<std::string>& kept = list();
    const std::string full = absolute(path);
    kept.erase(std::remove(kept.begin(), kept.end(), full), kept.end());
    kept.insert(kept.begin(), full);
    if (kept.size() > kRecentConfigs) kept.resize(kRecentConfigs);
    const std::string file = recent_configs_path();
    make_state_folder();
    try {
        io::write_file_atomically(file, nlohmann::json{{"configs", kept}}.dump(2) + "\n");
    } catch (const std::exception&) {
        // the list is a convenience: the config is open all the same
    }
}

}  // namespace rope::session
