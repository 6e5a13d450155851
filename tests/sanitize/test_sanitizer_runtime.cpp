// The sanitized build's runtime options (label sanitize; only in build-sanitize): the option that keeps
// LeakSanitizer's tracer from crashing is on in the app, and leak detection still works with it.
#include <gtest/gtest.h>

#include "support/process.hpp"

namespace {

using rope::test::run_process;

TEST(SanitizerRuntime, TheAppDoesNotInterceptTlsGetAddr) {
    // help=1 prints every flag with its value at start-up; the app then prints its version.
    const auto result = run_process({ROPE_EXPLORER_BINARY, "--version"}, "", {"ASAN_OPTIONS=help=1"});
    const std::string flag_line = "\tintercept_tls_get_addr\n";
    const auto flag = result.err.find(flag_line);
    ASSERT_NE(flag, std::string::npos) << result.err.substr(0, 2000);
    const auto description_begin = flag + flag_line.size();  // the next line describes it
    const auto description_end = result.err.find('\n', description_begin);
    const std::string description = result.err.substr(description_begin, description_end - description_begin);
    EXPECT_NE(description.find("(Current Value: false)"), std::string::npos) << description;
}

TEST(SanitizerRuntime, StillFindsALeak) {
    const auto result = run_process({LEAK_CANARY_BINARY, "leak"});
    EXPECT_NE(result.exit_code, 0);
    EXPECT_NE(result.err.find("ERROR: LeakSanitizer: detected memory leaks"), std::string::npos) << result.err;
    EXPECT_NE(result.err.find("drop_blocks"), std::string::npos) << result.err;
}

TEST(SanitizerRuntime, BlocksHeldInThreadStorageAreNotLeaks) {
    const auto result = run_process({LEAK_CANARY_BINARY, "held"});
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(result.err.find("LeakSanitizer"), std::string::npos) << result.err;
}

}  // namespace
