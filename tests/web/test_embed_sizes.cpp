// Every figure as an embed (#embed=FIGURE, what a blog post puts in an <iframe>) at the sizes people
// read it at: a phone's column (320x240 and 360x300 at DPR 2 and 3, touch only), a short frame
// (390x260) and a 1280x720 screen at 200 % zoom (640x360 CSS px at DPR 2). From the page's own report
// of its layout (ropeExplorer.layout(), CSS px): the figure's main plot's data covers at least 40 % of
// the frame (least_share: the figures not there yet, held where they are), no text is under 11 CSS px
// and no two texts overlap; from the screenshot: that data
// rectangle is drawn (not one flat colour). Label web.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "figures/registry.hpp"
#include "support/chromium.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"
#include "support/web_page.hpp"

using rope::test::Chromium;
using rope::test::run_process;

namespace embed_sizes {

const std::string kEmbedUrl = rope::test::web_page_url();
const double kEmbedPatience = rope::test::web_deadline();  // s: only a fault waits this long
constexpr double kLeastShare = 0.40;  // of the frame, for the main plot's data
// The figures that do not yet reach kLeastShare at every one of these sizes, each held at its worst
// share over the sizes as measured, less two points, so that none gets worse meanwhile: video_frames
// (39 % at 320x240: four rows of square maps, their aspect) and position_ids (36 % at 360x300: its
// table's bands and its note on what an image costs). Every other figure must reach kLeastShare at
// every size.
double least_share(const std::string& figure) {
    static const std::vector<std::pair<std::string, double>> not_yet = {{"video_frames", 0.37}, {"position_ids", 0.34}};
    for (const auto& [name, share] : not_yet)
        if (name == figure) return share;
    return kLeastShare;
}
constexpr double kSmallestText = 11;  // CSS px
constexpr double kOverlapTolerance = 0.5;  // CSS px

struct Screen {
    const char* name;
    int width, height;
    double dpr;
    bool mobile;
};
const Screen kScreens[] = {
    {"phone_320x240_dpr2", 320, 240, 2, true},  {"phone_360x300_dpr2", 360, 300, 2, true}, {"phone_360x300_dpr3", 360, 300, 3, true},
    {"short_390x260_dpr2", 390, 260, 2, true},  {"zoomed_640x360_dpr2", 640, 360, 2, false},
};

// The state each figure is embedded with: the model a post about it would show (the example:
// Llama 3 8B), a model of the kind the figure is about where it needs one.
std::string state_for(const std::string& figure) {
    if (figure == "model_anatomy") return "preset=gemma-3-12b";  // sliding and global layers
    if (figure == "mla") return "preset=deepseek-v3";
    if (figure.rfind("video", 0) == 0 || figure == "patch_grid" || figure == "position_ids") return "preset=qwen2.5-vl-7b";
    return "preset=llama-3-8b";
}

struct Box {
    double x, y, w, h;
};
Box box_of(const nlohmann::json& r) { return {r[0].get<double>(), r[1].get<double>(), r[2].get<double>(), r[3].get<double>()}; }
bool overlap(const Box& a, const Box& b) {
    return a.x + a.w - kOverlapTolerance > b.x && b.x + b.w - kOverlapTolerance > a.x && a.y + a.h - kOverlapTolerance > b.y &&
           b.y + b.h - kOverlapTolerance > a.y;
}

// The standard deviation of the screenshot's pixels in `b` (CSS px x the image's scale), 0..1.
double spread_in(const std::string& png, const Box& b, double scale) {
    char crop[96];
    std::snprintf(crop, sizeof crop, "%dx%d+%d+%d", static_cast<int>(b.w * scale), static_cast<int>(b.h * scale), static_cast<int>(b.x * scale),
                  static_cast<int>(b.y * scale));
    const auto r = run_process({"/usr/bin/convert", png, "-crop", crop, "+repage", "-colorspace", "Gray", "-format", "%[fx:standard_deviation]", "info:"});
    return r.exit_code == 0 ? std::stod(r.out) : -1;
}

class EmbedSizes : public rope::test::TempDirTest, public ::testing::WithParamInterface<Screen> {};

}  // namespace embed_sizes

using embed_sizes::EmbedSizes;
using embed_sizes::Screen;

TEST_P(EmbedSizes, EveryFiguresDataFillsTheFrameLegibly) {
    using namespace embed_sizes;
    const Screen s = GetParam();
    Chromium c(s.width, s.height, path("profile"));
    c.emulate(s.width, s.height, s.dpr, s.mobile);
    std::printf("%-22s %-12s %6s %s\n", "figure", "main plot", "share", "texts");
    for (int i = 0; i < rope::figures::figure_count(); ++i) {
        const std::string figure(rope::figures::figure_at(i).name);
        SCOPED_TRACE(figure + " at " + s.name);
        // a query of its own: a new document each time (a new fragment alone would not reload)
        if (figure == "trained") continue;  // its picture needs a model folder, which a page cannot read: a note
        c.open(kEmbedUrl + "?" + std::to_string(i) + "#embed=" + figure + "&" + state_for(figure));
        ASSERT_GE(c.wait_for("window.ropeExplorer && ropeExplorer.ready()", kEmbedPatience), 0);
        const nlohmann::json layout = c.evaluate("ropeExplorer.layout()");
        const Box frame = box_of(layout["frame"]);
        ASSERT_EQ(layout["panels"].size(), 1u);
        const nlohmann::json& panel = layout["panels"][0];
        EXPECT_EQ(panel["figure"], figure);
        // the main plot: the largest of the figure's main plots shown (else of any plot shown)
        const nlohmann::json* main = nullptr;
        double best = -1;
        for (const bool main_only : {true, false}) {
            for (const auto& p : panel["plots"]) {
                const Box a = box_of(p["area"]);
                if ((!main_only || p["role"] == "main") && a.w * a.h > best) best = a.w * a.h, main = &p;
            }
            if (main) break;
        }
        if (!main) {
            ADD_FAILURE() << "no plot shown";
            continue;
        }
        const Box data = box_of((*main)["area"]);
        const double share = data.w * data.h / (frame.w * frame.h);
        int small = 0, overlapping = 0;
        const auto& texts = panel["texts"];
        for (std::size_t a = 0; a < texts.size(); ++a) {
            if (texts[a]["size"].get<double>() < kSmallestText - 1e-3) {
                ++small;
                ADD_FAILURE() << "text " << texts[a]["text"] << " is " << texts[a]["size"] << " CSS px";
            }
            for (std::size_t b = a + 1; b < texts.size(); ++b)
                if (overlap(box_of(texts[a]["box"]), box_of(texts[b]["box"]))) {
                    ++overlapping;
                    ADD_FAILURE() << "texts " << texts[a]["text"] << " " << texts[a]["box"] << " and " << texts[b]["text"] << " "
                                  << texts[b]["box"] << " overlap";
                }
        }
        std::printf("%-22s %-12s %5.0f%% %zu (%d small, %d overlapping)\n", figure.c_str(), (*main)["name"].get<std::string>().c_str(),
                    share * 100, texts.size(), small, overlapping);
        EXPECT_GE(share, least_share(figure)) << (*main)["name"] << "'s data " << (*main)["area"] << " in a frame " << layout["frame"];
        const std::vector<unsigned char> shot = c.screenshot();
        const std::string png = path(figure + "-" + s.name + ".png");
        std::ofstream(png, std::ios::binary).write(reinterpret_cast<const char*>(shot.data()), static_cast<std::streamsize>(shot.size()));
        const double spread = spread_in(png, data, s.dpr);
        EXPECT_GT(spread, 0.01) << "the data rectangle " << (*main)["area"] << " is one flat colour in " << png;
        if (const char* keep = std::getenv("ROPE_KEEP_SCREENSHOTS"))
            run_process({"/bin/cp", png, std::string(keep) + "/" + figure + "-" + s.name + ".png"});
    }
    EXPECT_TRUE(c.exceptions().empty()) << c.exceptions().front();
}

INSTANTIATE_TEST_SUITE_P(Screens, EmbedSizes, ::testing::ValuesIn(embed_sizes::kScreens),
                         [](const ::testing::TestParamInfo<Screen>& screen) { return std::string(screen.param.name); });
