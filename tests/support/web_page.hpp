// The page the web tests open, and how long they wait for it. By default the page of the browser
// build (build-web/rope-explorer.html, `bash .ci/setup --web`); in the environment,
// ROPE_WEB_PAGE_OVERRIDE=FILE names another page (the checked page, build-web-checked, which
// tests/CMakeLists.txt registers the same tests on under label sanitize; a page before and after a
// change for PageBench.*), ROPE_WEB_PATIENCE=N multiplies every wait by N (a checked page is several
// times slower) and ROPE_WEB_CHECKED=1 says the page is a checked build: assertions about its speed
// are skipped there.
#pragma once

#include <string>

namespace rope::test {

std::string web_page_path();
std::string web_page_url();  // file:// and the path
// The factor every wait and deadline of the web tests is multiplied by (1 unless ROPE_WEB_PATIENCE).
double web_patience();
bool web_page_checked();
// How long a test waits for what its input should produce before it fails, times web_patience():
// far past what any machine needs (a busy machine only makes it wait longer), so that only a real
// fault reaches it.
double web_deadline(double seconds = 120);

}  // namespace rope::test
