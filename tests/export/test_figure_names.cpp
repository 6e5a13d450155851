// Every figure names what it shows: its title names the model (preset, config.json's folder or model
// folder) and, with model B, both, in every file format: the title every picture draws (PNG and PDF
// draw the display list), the SVG's and the HTML page's text, and the CSV's column model_name.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "export/export.hpp"
#include "figures/figures.hpp"
#include "figures/registry.hpp"
#include "support/synthetic_model.hpp"
#include "support/temp_dir.hpp"

using namespace rope;

namespace {

std::string read_all(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// Whether some text of the picture holds `name`.
bool draws(const figures::FigureResult& r, const std::string& name) {
    for (const plot::Command& c : r.list.commands)
        if (const auto* t = std::get_if<plot::TextCmd>(&c); t && t->text.find(name) != std::string::npos) return true;
    return false;
}

struct Named {
    ParamSet params;
    std::vector<std::string> names;  // what every file of it must name
};

// The figure's model: a preset (qwen2.5-vl-7b has video and layers, so every figure has a picture),
// the trained one a model folder; with B, qwen3-vl-8b beside it.
Named model_of(const figures::FigureDescriptor& f, bool with_b) {
    Named n;
    if (std::string(f.name) == "model_anatomy") {  // a model with layers
        n.params.set("preset", "gemma-3-12b");
        n.names = {"gemma-3-12b"};
    } else if (std::string(f.name) == "trained") {
        n.params = test::with_synthetic_model();
        n.names = {std::filesystem::path(test::synthetic_model_folder()).filename().string()};
    } else {
        n.params.set("preset", "qwen2.5-vl-7b");
        n.names = {"qwen2.5-vl-7b"};
    }
    if (with_b) {
        const std::string b = std::string(f.name) == "model_anatomy" ? "gemma-4-31b" : "qwen3-vl-8b";
        n.params.set("compare_to", b);
        if (f.shows_b) n.names.push_back(b);  // (the trained weights are A's alone: B is not named)
    }
    n.params.validate();
    return n;
}

class FigureNames : public test::TempDirTest {};

}  // namespace

TEST(FigureTitles, NameTheModelThenBothWithB) {
    const figures::FigureDescriptor& heatmap = figures::figure("heatmap");
    ParamSet p;
    EXPECT_EQ(figures::figure_title(heatmap, p), "Angle heatmap");  // parameters set by hand: nothing to name
    p.set("preset", "llama-2-7b");
    EXPECT_EQ(figures::figure_title(heatmap, p), "Angle heatmap · llama-2-7b");
    p.set("compare_to", "llama-3.1-8b");
    EXPECT_EQ(figures::figure_title(heatmap, p), "Angle heatmap · llama-2-7b vs llama-3.1-8b");
    p.set("model_name", "My-Model");  // a config's folder names the model only where no preset does
    EXPECT_EQ(figures::figure_title(heatmap, p), "Angle heatmap · llama-2-7b vs llama-3.1-8b");
    ParamSet q;
    q.set("model_name", "My-Model");
    EXPECT_EQ(figures::figure_title(heatmap, q), "Angle heatmap · My-Model");
    EXPECT_THROW(q.set("model_name", std::string(81, 'x')), ParamError);
    EXPECT_THROW(q.set("model_name", "a\nb"), ParamError);
}

TEST_F(FigureNames, EveryFigureInEveryFileFormatNamesItsModels) {
    int files = 0;
    for (const figures::FigureDescriptor* f : figures::all_figures())
        for (const bool with_b : {false, true}) {
            const Named m = model_of(*f, with_b);
            {  // PNG and PDF (pixels, a compressed page) draw the display list: its texts name the models
                exporting::ExportOptions o;
                std::tie(o.width, o.height) = figures::default_export_size(*f, m.params);  // as export's default
                figures::FigureCache cache(weights::folder_reader());
                plot::ApproximateTextMeasure measure;
                const auto built = exporting::build_for_file(*f, m.params, o, measure, false, cache);
                for (const std::string& name : m.names)
                    EXPECT_TRUE(draws(built, name)) << f->name << (with_b ? " with B" : "") << ": no text names " << name;
            }
            for (const char* ext : {"png", "svg", "pdf", "csv", "html"}) {
                const std::string what = std::string(f->name) + (with_b ? " with B" : "") + " as ." + ext;
                exporting::ExportOptions o;
                o.path = path(std::string(f->name) + (with_b ? "-ab." : ".") + ext);
                std::tie(o.width, o.height) = figures::default_export_size(*f, m.params);  // as export's default
                o.read_trained = weights::folder_reader();
                try {
                    exporting::export_figure(*f, m.params, o);
                } catch (const std::invalid_argument& e) {
                    ADD_FAILURE() << what << ": " << e.what();
                    continue;
                }
                ++files;
                const std::string text = read_all(o.path);
                if (std::string(ext) != "png" && std::string(ext) != "pdf") {
                    for (const std::string& name : m.names) EXPECT_NE(text.find(name), std::string::npos) << what << " does not name " << name;
                }
                if (std::string(ext) == "csv" && f->name != std::string("model_card")) {
                    const std::string header = text.substr(0, text.find('\n'));
                    const bool b_apart = header.size() > 13 && header.substr(header.size() - 13) == ",model_b_name";
                    const std::string last = header.substr(0, header.size() - (b_apart ? 13 : 0));
                    EXPECT_EQ(last.substr(last.size() - 11), ",model_name") << what << ": " << header;
                }
            }
        }
    EXPECT_EQ(files, static_cast<int>(figures::all_figures().size()) * 2 * 5);
}
