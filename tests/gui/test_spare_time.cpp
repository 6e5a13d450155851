// The page's executor (tasks::SpareTimeExecutor): posted work runs in the frames' spare time,
// pictures first, and one piece at least each time, however little time a frame left.
#include <gtest/gtest.h>

#include <string>

#include "tasks/background.hpp"

namespace {

using rope::tasks::Priority;
using rope::tasks::SpareTimeExecutor;

// A clock that moves only when work runs: each piece takes `cost` seconds.
struct FakeClock {
    double now = 0;
};

TEST(SpareTime, AFrameThatTookItsWholeBudgetStillRunsOnePieceOfWork) {
    FakeClock clock;
    SpareTimeExecutor executor([&] { return clock.now; });
    std::string ran;
    executor.post([&] { ran += "export;"; }, Priority::long_work);
    executor.post([&] { ran += "more;"; }, Priority::long_work);
    clock.now = 10;  // past the deadline already: the frame took it all
    EXPECT_TRUE(executor.run_until(5)) << "work is left";
    EXPECT_EQ(ran, "export;") << "one piece, not none: frames that keep coming would starve it";
    EXPECT_FALSE(executor.run_until(5));
    EXPECT_EQ(ran, "export;more;");
    EXPECT_FALSE(executor.run_until(5)) << "nothing left, nothing run";
}

TEST(SpareTime, PicturesComeFirstAndWorkRunsUntilTheDeadline) {
    FakeClock clock;
    SpareTimeExecutor executor([&] { return clock.now; });
    std::string ran;
    for (const char* name : {"a", "b", "c"}) executor.post([&, name] { ran += std::string("long-") + name + ";"; clock.now += 1; }, Priority::long_work);
    executor.post([&] { ran += "picture;"; clock.now += 1; }, Priority::pictures);
    EXPECT_TRUE(executor.run_until(2));  // 0 -> 1 -> 2: two pieces, then the deadline
    EXPECT_EQ(ran, "picture;long-a;");
    EXPECT_FALSE(executor.run_until(100));
    EXPECT_EQ(ran, "picture;long-a;long-b;long-c;");
    EXPECT_FALSE(executor.concurrent());
}

}  // namespace
