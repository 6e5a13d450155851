// What `rope-explorer` loads and where it finds its parts: `compute` loads only the C++ runtime
// (no drawing, window or codec library), the window and `export` live in rope-explorer-app, and
// libav only in the video module, loaded on the first video.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "figures/figure_cache.hpp"
#include "rope/bounds.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

using rope::test::ProcessResult;
using rope::test::run_process;
using rope::test::split_lines;
using rope::test::summary_value;

namespace {

// The build directory: where rope-explorer, rope-explorer-app and the video module sit.
std::string build_dir() {
    const std::string exe = ROPE_EXPLORER_BINARY;
    return exe.substr(0, exe.find_last_of('/') + 1);
}

// The shared libraries a program or module loads at start (glibc's loader lists them, as ldd does,
// without running it).
std::string loaded_libraries(const std::string& program) {
    const ProcessResult r = run_process({"/lib64/ld-linux-x86-64.so.2", "--list", program});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return r.out;
}

}  // namespace

TEST(Startup, ComputeLoadsNoDrawingWindowOrCodecLibrary) {
    const std::string libs = loaded_libraries(ROPE_EXPLORER_BINARY);
    ASSERT_NE(libs.find("libc.so"), std::string::npos) << libs;  // the listing worked
    for (const char* heavy : {"libavcodec", "libavformat", "libswscale", "libcairo", "libGL", "libOpenGL", "libglfw", "libX11",
                              "libgif", "libfontconfig"})
        EXPECT_EQ(libs.find(heavy), std::string::npos) << heavy << " is loaded by every compute:\n" << libs;
    EXPECT_LE(std::count(libs.begin(), libs.end(), '\n'), 10) << libs;  // today 6: vdso, loader, libc, libm, libstdc++, libgcc_s
}

TEST(Startup, TheAppLoadsNoCodecUntilAVideoIsWritten) {
    const std::string libs = loaded_libraries(build_dir() + "rope-explorer-app");
    EXPECT_NE(libs.find("libcairo"), std::string::npos) << libs;
    EXPECT_NE(libs.find("libglfw"), std::string::npos) << libs;
    for (const char* codec : {"libavcodec", "libavformat", "libswscale", "libx264", "libvpx"})
        EXPECT_EQ(libs.find(codec), std::string::npos) << codec << " is loaded at every start of the window:\n" << libs;
    // ... and the module has them
    const std::string module = loaded_libraries(build_dir() + "rope-explorer-video.so");
    EXPECT_NE(module.find("libavcodec"), std::string::npos) << module;
}

class StartupFiles : public rope::test::TempDirTest {};

TEST_F(StartupFiles, WithoutTheAppBesideItTheWindowAndExportSayWhatIsMissing) {
    const std::string alone = path("rope-explorer");
    ASSERT_EQ(run_process({"/bin/cp", ROPE_EXPLORER_BINARY, alone}).exit_code, 0);
    const ProcessResult exported = run_process({alone, "export", "vectors", "--out", path("v.png")});
    EXPECT_EQ(exported.exit_code, 1);
    EXPECT_EQ(split_lines(exported.err).size(), 1u) << exported.err;
    EXPECT_NE(exported.err.find("rope-explorer-app is not installed beside " + dir_), std::string::npos) << exported.err;
    EXPECT_NE(run_process({"/bin/test", "-e", path("v.png")}).exit_code, 0) << "nothing written";
    // compute needs nothing else
    const ProcessResult summary = run_process({alone, "compute", "summary"});
    EXPECT_EQ(summary.exit_code, 0) << summary.err;
    // and a bad command is still the user's error, before anything is started
    EXPECT_EQ(run_process({alone, "exprt"}).exit_code, 2);
}

TEST(Startup, SummarysBaseBoundIsTheShippedTablesRowAndAgreesWithAFreshSearch) {
    const ProcessResult r = run_process({ROPE_EXPLORER_BINARY, "compute", "summary", "--set", "dim=128", "--set", "max_position=4096"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::optional<double> table = rope::figures::tabulated_base_lower_bound(128, 4096);
    ASSERT_TRUE(table.has_value());
    EXPECT_EQ(std::stod(summary_value(r.out, "base_lower_bound")), *table);
    EXPECT_NEAR(*table / rope::base_lower_bound(128, 4096), 1.0, 1e-12);
    // a context the table does not hold: the search itself
    const ProcessResult other = run_process({ROPE_EXPLORER_BINARY, "compute", "summary", "--set", "dim=64", "--set", "max_position=3000"});
    ASSERT_EQ(other.exit_code, 0) << other.err;
    EXPECT_FALSE(rope::figures::tabulated_base_lower_bound(64, 3000).has_value());
    EXPECT_EQ(std::stod(summary_value(other.out, "base_lower_bound")), rope::base_lower_bound(64, 3000));
    // rows that say no base works read as inf
    EXPECT_TRUE(std::isinf(rope::figures::tabulated_base_lower_bound(2, 4096).value_or(0)));
}

TEST(Help, FigureTitlesStartInOneColumnClearOfTheNames) {
    const ProcessResult r = run_process({ROPE_EXPLORER_BINARY, "--help"});
    ASSERT_EQ(r.exit_code, 0);
    const std::vector<std::string> lines = split_lines(r.out);
    const auto heading = std::find_if(lines.begin(), lines.end(), [](const std::string& l) { return l.rfind("Figures", 0) == 0; });
    ASSERT_NE(heading, lines.end());
    std::size_t column = 0;
    int figures = 0;
    for (auto line = heading + 1; line != lines.end() && !line->empty(); ++line, ++figures) {
        // "  NN  name  Title (page: ...)": the title starts after the name and at least two spaces
        const std::size_t name_at = line->find_first_not_of(' ', line->find_first_not_of(' ') + 2);
        const std::size_t name_end = line->find(' ', name_at);
        const std::size_t title_at = line->find_first_not_of(' ', name_end);
        EXPECT_GE(title_at - name_end, 2u) << *line;
        if (column == 0) column = title_at;
        EXPECT_EQ(title_at, column) << *line;
    }
    EXPECT_GE(figures, 13);
}
