// The page's frame benchmark at a laptop's and a phone's size, for a "before" and "after" of a change
// (a benchmark, not a test: it is left out of the suites, and it holds only that the page answers a
// key after its report; like every page test, it fails on any uncaught exception, support/chromium.hpp):
//   ROPE_WEB_PAGE_OVERRIDE=/path/to/rope-explorer.html build/tests/web_tests
//       --gtest_also_run_disabled_tests --gtest_filter='PageBench.*'
// prints `#bench-frames=300&sweep=base`'s report at 1280x720 (DPR 1) and 390x844 (DPR 3, touch).
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "support/chromium.hpp"
#include "support/temp_dir.hpp"
#include "support/web_page.hpp"

namespace page_bench {

class PageBench : public rope::test::TempDirTest {};

}  // namespace page_bench

using page_bench::PageBench;

TEST_F(PageBench, DISABLED_FramesSweepingBaseAtALaptopsAndAPhonesSize) {
    const std::string page = rope::test::web_page_path();
    struct Size {
        int width, height;
        double dpr;
        bool mobile;
    };
    for (const Size s : {Size{1280, 720, 1, false}, Size{390, 844, 3, true}}) {
        rope::test::Chromium c(s.width, s.height, path("profile-" + std::to_string(s.width)));
        c.emulate(s.width, s.height, s.dpr, s.mobile);
        c.open(rope::test::web_page_url() + "#bench-frames=300&sweep=base");
        ASSERT_GE(c.wait_for("window.ropeExplorer && ropeExplorer.bench() !== ''", rope::test::web_deadline(600)), 0);
        std::printf("== %s at %dx%d, DPR %.0f\n%s\n", page.c_str(), s.width, s.height, s.dpr,
                    c.evaluate("ropeExplorer.bench()").get<std::string>().c_str());
        // the page answers a key after its report (the benchmark's measurements were once written to
        // after they were freed: "memory access out of bounds" a few frames later)
        const long long position = c.evaluate("ropeExplorer.session().parameters.position || 0").get<long long>();
        c.key("ArrowRight");
        EXPECT_GE(c.wait_for("ropeExplorer.session().parameters.position === " + std::to_string(position + 1) + " && ropeExplorer.ready()",
                             rope::test::web_deadline()),
                  0)
            << c.evaluate("ropeExplorer.session()").dump();
        c.let_run(1);
    }
}
