// Installing RoPE Explorer as a desktop application: `cmake --install` into a temporary prefix has
// every file (assets/CMakeLists.txt), the desktop entry and the metainfo pass their validators, and
// the .deb that `cpack -G DEB` builds has its Depends from the binaries, no lintian error, installs
// into a scratch root, runs from PATH in another folder with the build's output, and removes cleanly.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <regex>
#include <string>
#include <vector>

#include "support/process.hpp"
#include "support/temp_dir.hpp"

namespace {

using rope::test::read_file;
using rope::test::run_process;
using rope::test::ProcessResult;

const std::string kId = "io.github.ropeexplorer.RopeExplorer";

bool is_file(const std::string& path) {
    struct stat st {};
    return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

ProcessResult sh(const std::string& command) { return run_process({"/bin/sh", "-c", command}); }

class Install : public rope::test::TempDirTest {};

TEST_F(Install, CmakeInstallPutsEveryFileInPlaceAndTheyValidate) {
    const std::string prefix = path("prefix");
    const ProcessResult r = run_process({ROPE_CMAKE, "--install", ROPE_BUILD_DIR, "--prefix", prefix});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    for (const std::string& file : std::vector<std::string>{"bin/rope-explorer", "libexec/rope-explorer/rope-explorer-app", "libexec/rope-explorer/rope-explorer-video.so",
                                   "share/applications/" + kId + ".desktop", "share/icons/hicolor/scalable/apps/" + kId + ".svg",
                                   "share/icons/hicolor/256x256/apps/" + kId + ".png", "share/metainfo/" + kId + ".metainfo.xml",
                                   "share/mime/packages/" + kId + ".xml", "share/man/man1/rope-explorer.1.gz",
                                   "share/doc/rope-explorer/copyright", "share/doc/rope-explorer/changelog.gz"})
        EXPECT_TRUE(is_file(prefix + "/" + file)) << file;

    const std::string desktop = prefix + "/share/applications/" + kId + ".desktop";
    const ProcessResult valid = run_process({"/usr/bin/desktop-file-validate", desktop});
    EXPECT_EQ(valid.exit_code, 0) << valid.out << valid.err;
    EXPECT_EQ(valid.out + valid.err, "");  // not even a hint
    const std::string entry = read_file(desktop);
    EXPECT_NE(entry.find("\nExec=rope-explorer %f\n"), std::string::npos);
    EXPECT_NE(entry.find("\nIcon=" + kId + "\n"), std::string::npos);  // the installed icon's name
    EXPECT_NE(entry.find("\nMimeType=application/x-rope-explorer-session;\n"), std::string::npos);
    EXPECT_NE(read_file(prefix + "/share/mime/packages/" + kId + ".xml").find("type=\"application/x-rope-explorer-session\""), std::string::npos);

    const std::string metainfo = prefix + "/share/metainfo/" + kId + ".metainfo.xml";
    const ProcessResult stream = run_process({"/usr/bin/appstreamcli", "validate", "--no-net", metainfo});
    EXPECT_EQ(stream.exit_code, 0) << stream.out << stream.err;
    const std::string meta = read_file(metainfo);
    EXPECT_NE(meta.find("<id>" + kId + "</id>"), std::string::npos);
    EXPECT_NE(meta.find("<launchable type=\"desktop-id\">" + kId + ".desktop</launchable>"), std::string::npos);
    EXPECT_NE(meta.find("<name>RoPE Explorer</name>"), std::string::npos);
    EXPECT_NE(entry.find("\nName=RoPE Explorer\n"), std::string::npos);
    EXPECT_NE(meta.find("<screenshot type=\"default\">"), std::string::npos);
    const ProcessResult version = run_process({prefix + "/bin/rope-explorer", "--version"});
    std::smatch m;
    ASSERT_TRUE(std::regex_search(version.out, m, std::regex(R"((\d+\.\d+\.\d+))"))) << version.out;
    EXPECT_NE(meta.find("<release version=\"" + m.str(1) + "\""), std::string::npos) << "the release is --version's";

    const ProcessResult png = run_process({"/usr/bin/identify", "-format", "%w %h", prefix + "/share/icons/hicolor/256x256/apps/" + kId + ".png"});
    EXPECT_EQ(png.out, "256 256");

    // the manual page: generated from the tables, so it names every figure, table and parameter
    const ProcessResult man = sh("zcat '" + prefix + "/share/man/man1/rope-explorer.1.gz' | groff -man -Tutf8 -ww -z 2>&1; echo rc=$?");
    EXPECT_EQ(man.out, "rc=0\n") << "groff warns";
    const ProcessResult page = sh("MANWIDTH=100 man -l '" + prefix + "/share/man/man1/rope-explorer.1.gz' 2>/dev/null");
    for (const char* word : {"--lesson-walk", "heatmap_from", "partial_vs_proportional", "compute TABLE", "--animate", ".html",
                             "mrope_section", "EXIT STATUS"})
        EXPECT_NE(page.out.find(word), std::string::npos) << word;
}

TEST_F(Install, TheDebHasItsLibrariesAsDependsNoLintianErrorAndInstallsRunsAndRemoves) {
    const ProcessResult pack = run_process({ROPE_CPACK, "-G", "DEB", "--config", std::string(ROPE_BUILD_DIR) + "/CPackConfig.cmake", "-B", dir_});
    ASSERT_EQ(pack.exit_code, 0) << pack.out << pack.err;
    const std::string deb = sh("ls " + dir_ + "/rope-explorer_*_amd64.deb").out.substr(0, sh("ls " + dir_ + "/rope-explorer_*_amd64.deb").out.find('\n'));
    ASSERT_TRUE(is_file(deb)) << pack.out;

    // Depends: the package of every library the binaries need (dpkg -S of each NEEDED), no other
    const std::string depends = run_process({"/usr/bin/dpkg-deb", "-f", deb, "Depends"}).out;
    const ProcessResult needed = sh("dpkg-deb -x '" + deb + "' " + dir_ + "/x && for f in " + dir_ + "/x/usr/bin/* " + dir_ +
                                    "/x/usr/libexec/rope-explorer/*; do objdump -p $f | awk '/NEEDED/{print $2}'; done | sort -u");
    for (const std::string& lib : rope::test::split_lines(needed.out)) {
        if (lib.empty()) continue;
        // the library's path as ldconfig has it, in /usr or not (Debian 12 merged /lib into /usr/lib)
        const ProcessResult owner = sh("p=$(ldconfig -p | awk '$1==\"" + lib + "\"{print $NF; exit}'); "
                                       "{ dpkg -S \"$p\" || dpkg -S \"/usr$p\" || dpkg -S \"${p#/usr}\"; } 2>/dev/null | head -1 | cut -d: -f1");
        const std::string package = owner.out.substr(0, owner.out.find('\n'));
        ASSERT_FALSE(package.empty()) << lib;
        EXPECT_NE(depends.find(package), std::string::npos) << lib << " is in " << package << ", not in Depends: " << depends;
    }
    EXPECT_NE(depends.find("fonts-dejavu-core"), std::string::npos);
    // stripped, and no path of the source or build tree inside
    const ProcessResult file = sh("file " + dir_ + "/x/usr/bin/rope-explorer " + dir_ + "/x/usr/libexec/rope-explorer/*");
    EXPECT_EQ(file.out.find("not stripped"), std::string::npos) << file.out;
#if !defined(__SANITIZE_ADDRESS__)  // a sanitizer build keeps its source paths for its reports; packages come from the release build
    const ProcessResult baked = sh("grep -rlF -e '" + std::string(ROPE_SOURCE_DIR) + "' -e '" + std::string(ROPE_BUILD_DIR) + "' " + dir_ + "/x || true");
    EXPECT_EQ(baked.out, "");
#endif

    // no error and no warning (the informational tags are printed: hardening flags, .comment sections)
    const ProcessResult lint = sh("lintian -I --no-tag-display-limit '" + deb + "' 2>/dev/null");
    std::printf("lintian:\n%s", lint.out.c_str());
    for (const std::string& line : rope::test::split_lines(lint.out))
        EXPECT_TRUE(line.rfind("E: ", 0) != 0 && line.rfind("W: ", 0) != 0) << line;

    // a scratch root with its own dpkg database: install, run from PATH in another folder, remove
    const std::string root = dir_ + "/root";
    ASSERT_EQ(sh("mkdir -p " + root + "/var/lib/dpkg/info " + root + "/var/lib/dpkg/updates && touch " + root + "/var/lib/dpkg/status").exit_code, 0);
    const std::string dpkg = "dpkg --root=" + root + " --force-not-root --force-depends --force-script-chrootless --log=/dev/null ";
    const ProcessResult installed = sh(dpkg + "-i " + deb);
    ASSERT_EQ(installed.exit_code, 0) << installed.out << installed.err;
    const std::string elsewhere = "cd / && env PATH=" + root + "/usr/bin:/usr/bin:/bin ";
    const ProcessResult version = sh(elsewhere + "rope-explorer --version");
    EXPECT_EQ(version.exit_code, 0) << version.err;
    EXPECT_EQ(version.out, run_process({std::string(ROPE_BUILD_DIR) + "/rope-explorer", "--version"}).out);
    const ProcessResult summary = sh(elsewhere + "rope-explorer compute summary --set preset=llama-3-8b");
    EXPECT_EQ(summary.exit_code, 0) << summary.err;
    EXPECT_EQ(summary.out, run_process({std::string(ROPE_BUILD_DIR) + "/rope-explorer", "compute", "summary", "--set", "preset=llama-3-8b"}).out);
    // export goes through rope-explorer-app in libexec; the same picture as the build's
    const ProcessResult exported = sh(elsewhere + "rope-explorer export heatmap --out " + dir_ + "/installed.png && " + ROPE_BUILD_DIR +
                                      "/rope-explorer export heatmap --out " + dir_ + "/built.png && cmp " + dir_ + "/installed.png " + dir_ + "/built.png");
    EXPECT_EQ(exported.exit_code, 0) << exported.out << exported.err;
    const ProcessResult removed = sh(dpkg + "-r rope-explorer");
    EXPECT_EQ(removed.exit_code, 0) << removed.err;
    EXPECT_EQ(sh("find " + root + "/usr -type f | wc -l").out, "0\n") << sh("find " + root + "/usr -type f").out;
}

}  // namespace
