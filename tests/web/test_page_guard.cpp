// The guard every page test runs under (support/chromium.hpp): a page that throws after the test's
// last step, or prints emscripten's abort then, fails the test that opened it (label web; checked.*
// under label sanitize). Each case runs a page that does so inside EXPECT_NONFATAL_FAILURE, which
// passes only if exactly that one failure is reported.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <string>

#include "support/chromium.hpp"
#include "support/temp_dir.hpp"
#include "support/web_page.hpp"

namespace page_guard {

class PageGuard : public rope::test::TempDirTest {};

// Opens the page, waits until it is ready, has it run `late` 100 ms later, and closes it at once:
// the test's last step comes before the page's fault.
void fault_after_the_last_step(const std::string& profile, const std::string& late) {
    rope::test::Chromium c(1280, 720, profile);
    c.open(rope::test::web_page_url());
    if (c.wait_for("window.ropeExplorer && ropeExplorer.ready()", rope::test::web_deadline()) < 0) return;
    c.evaluate("setTimeout(() => { " + late + " }, 100), true");
}

std::string profile;  // (EXPECT_NONFATAL_FAILURE's statement sees no local variable)

}  // namespace page_guard

using page_guard::PageGuard;

TEST_F(PageGuard, AnExceptionThrownAfterTheLastStepFailsTheTest) {
    page_guard::profile = path("profile");
    EXPECT_NONFATAL_FAILURE(page_guard::fault_after_the_last_step(page_guard::profile, "throw new Error('a late fault')"),
                            "a late fault");
}

TEST_F(PageGuard, AnAbortReportedAfterTheLastStepFailsTheTest) {
    page_guard::profile = path("profile");
    EXPECT_NONFATAL_FAILURE(page_guard::fault_after_the_last_step(page_guard::profile, "console.error('Aborted(a late report)')"),
                            "Aborted(a late report)");
}

TEST_F(PageGuard, AQuietPageAddsNoFailure) {
    page_guard::profile = path("profile");
    page_guard::fault_after_the_last_step(page_guard::profile, "console.log('nothing wrong')");
}
