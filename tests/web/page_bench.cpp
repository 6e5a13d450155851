// The page's frame benchmark at a laptop's and a phone's size, for a "before" and "after" of a change
// (a benchmark, not a test: it asserts nothing and is left out of the suites):
//   ROPE_BENCH_PAGE=/path/to/rope-explorer.html build/tests/web_tests \
//       --gtest_also_run_disabled_tests --gtest_filter='PageBench.*'
// prints `#bench-frames=300&sweep=base`'s report at 1280x720 (DPR 1) and 390x844 (DPR 3, touch).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "support/chromium.hpp"
#include "support/temp_dir.hpp"

namespace page_bench {

class PageBench : public rope::test::TempDirTest {};

}  // namespace page_bench

using page_bench::PageBench;

TEST_F(PageBench, DISABLED_FramesSweepingBaseAtALaptopsAndAPhonesSize) {
    const char* given = std::getenv("ROPE_BENCH_PAGE");
    const std::string page = given ? given : ROPE_WEB_PAGE;
    struct Size {
        int width, height;
        double dpr;
        bool mobile;
    };
    for (const Size s : {Size{1280, 720, 1, false}, Size{390, 844, 3, true}}) {
        rope::test::Chromium c(s.width, s.height, path("profile-" + std::to_string(s.width)));
        c.emulate(s.width, s.height, s.dpr, s.mobile);
        c.open("file://" + page + "#bench-frames=300&sweep=base");
        ASSERT_GE(c.wait_for("window.ropeExplorer && ropeExplorer.bench() !== ''", 600), 0);
        std::printf("== %s at %dx%d, DPR %.0f\n%s\n", page.c_str(), s.width, s.height, s.dpr,
                    c.evaluate("ropeExplorer.bench()").get<std::string>().c_str());
    }
}
