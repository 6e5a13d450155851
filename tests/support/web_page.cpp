#include "support/web_page.hpp"

#include <cstdlib>
#include <string>

namespace rope::test {

std::string web_page_path() {
    const char* given = std::getenv("ROPE_WEB_PAGE_OVERRIDE");
    return given && *given ? given : ROPE_WEB_PAGE;
}

std::string web_page_url() { return "file://" + web_page_path(); }

double web_patience() {
    const char* given = std::getenv("ROPE_WEB_PATIENCE");
    const double factor = given ? std::atof(given) : 1.0;
    return factor >= 1.0 ? factor : 1.0;
}

bool web_page_checked() {
    const char* given = std::getenv("ROPE_WEB_CHECKED");
    return given && std::string(given) == "1";
}

double web_deadline(double seconds) { return seconds * web_patience(); }

}  // namespace rope::test
