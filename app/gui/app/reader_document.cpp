#include "gui/app/reader_document.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <tuple>
#include <nlohmann/json.hpp>

#include "export/export.hpp"
#include "export/still_writers.hpp"
#include "figures/alt_text.hpp"
#include "figures/registry.hpp"
#include "gui/app/app.hpp"
#include "lessons/lessons.hpp"
#include "plot/style.hpp"
#include "rope/presets.hpp"

namespace rope::gui {

using nlohmann::json;

namespace {

// The controls' sections in the order the Controls panel shows them (the model's pickers after
// the position's sliders).
struct SectionRow {
    ControlSection section;
    const char* title;
};
constexpr SectionRow kSections[] = {
    {ControlSection::position, "Position"},   {ControlSection::none, "Model"},
    {ControlSection::rope, "RoPE"},           {ControlSection::ranges, "Ranges"},
    {ControlSection::context, "Context extension"}, {ControlSection::images, "Images and video"},
    {ControlSection::relatives, "Beside RoPE: ALiBi and T5"},
};

std::string text_of(std::string_view s) { return std::string(s); }

// "position m (token)" -> "position m": the label without the note in brackets, for spoken lines.
std::string short_label(const ParamSpec& spec) {
    std::string label = spec.control.label.empty() ? text_of(spec.name) : text_of(spec.control.label);
    if (const std::size_t bracket = label.find(" ("); bracket != std::string::npos) label.erase(bracket);
    return label;
}

// A value as a screen reader says it: its --set text and its unit ("8 tokens").
std::string spoken_value(const ParamSet& params, const ParamSpec& spec) {
    std::string text = params.value_text(spec.id);
    if (!spec.unit.empty() && text != "none") text += " " + text_of(spec.unit);
    return text;
}

// A slider as an <input type="range">: its span (a logarithmic one in decades, stepped by a tenth
// of a decade as the base's ] and [ keys are), its value and the words for it.
json range_control(const ParamSet& params, const ParamSpec& spec) {
    const double lo = spec.slider_min, hi = slider_top(spec, params);
    const double value = spec.type == ParamType::integer ? static_cast<double>(std::get<std::int64_t>(params.value(spec.id)))
                                                          : std::get<double>(params.value(spec.id));
    json c = {{"kind", "range"}, {"valuetext", spoken_value(params, spec)}};
    if (spec.logarithmic && lo > 0) {
        c["scale"] = "log";
        c["min"] = std::log10(lo);
        c["max"] = std::log10(hi);
        c["step"] = 0.1;
        c["value"] = std::log10(std::max(value, lo));
    } else {
        c["min"] = lo;
        c["max"] = hi;
        c["step"] = spec.type == ParamType::integer ? (spec.even ? 2.0 : 1.0) : (hi - lo) / 100;
        c["value"] = value;
    }
    c["integer"] = spec.type == ParamType::integer;
    return c;
}

json choice_control(const ParamSet& params, const ParamSpec& spec) {
    json options = json::array();
    const std::string current = params.value_text(spec.id);
    bool listed = false;
    for (std::string_view choice : spec.choices) {
        std::string label = text_of(choice);
        if (spec.id == ParamId::preset && choice == "none") label = "(no preset)";
        if (spec.id == ParamId::compare_to && choice == "unscaled") label = "(none)";
        if (const Preset* p = find_preset(choice)) label += ": " + text_of(p->model);
        options.push_back({{"value", text_of(choice)}, {"label", label}});
        listed = listed || choice == current;
    }
    if (!listed) options.push_back({{"value", current}, {"label", params.compared_model_name() + " (config.json)"}});
    return {{"kind", "select"}, {"options", options}, {"value", current}};
}

// One control of the parameter table, as the Controls panel shows it (null: it shows none now).
json param_control(const ParamSet& params, const ParamSpec& spec) {
    if (spec.relevant && !spec.relevant(params)) return nullptr;
    json c;
    switch (spec.type) {
        case ParamType::integer:
        case ParamType::real: c = range_control(params, spec); break;
        case ParamType::choice: c = choice_control(params, spec); break;
        case ParamType::boolean: c = {{"kind", "checkbox"}, {"checked", std::get<bool>(params.value(spec.id))}}; break;
        case ParamType::real_list: c = {{"kind", "text"}, {"value", params.has(spec.id) ? params.value_text(spec.id) : ""}}; break;
        default: return nullptr;
    }
    c["key"] = text_of(spec.name);
    c["label"] = spec.control.label.empty() ? text_of(spec.name) : text_of(spec.control.label);
    c["help"] = text_of(spec.help);
    return c;
}

json model_controls(const ParamSet& params) {
    json preset = param_control(params, param_spec(P::preset));
    preset["label"] = "model A (preset)";
    json b = param_control(params, param_spec(P::compare_to));
    b["label"] = "compare with (model B)";
    return json::array({preset, b});
}

json controls(const ParamSet& params) {
    json sections = json::array();
    for (const SectionRow& row : kSections) {
        json items = json::array();
        if (row.section == ControlSection::none) {
            items = model_controls(params);
        } else {
            std::vector<const ParamSpec*> specs;
            for (const ParamSpec& s : parameter_table())
                if (s.control.section == row.section) specs.push_back(&s);
            std::stable_sort(specs.begin(), specs.end(), [](const ParamSpec* a, const ParamSpec* b) { return a->control.place < b->control.place; });
            for (const ParamSpec* s : specs)
                if (json c = param_control(params, *s); !c.is_null()) items.push_back(c);
        }
        if (!items.empty()) sections.push_back({{"title", row.title}, {"items", items}});
    }
    return sections;
}

json toolbar(const AppState& state) {
    const History& h = state.history();
    auto button = [](const char* act, std::string label, bool enabled) { return json{{"do", act}, {"label", label}, {"enabled", enabled}}; };
    return json::array({
        button("undo", h.undo_entries().empty() ? "Undo" : "Undo " + h.undo_entries().back().label, !h.undo_entries().empty()),
        button("redo", h.redo_entries().empty() ? "Redo" : "Redo " + h.redo_entries().back().label, !h.redo_entries().empty()),
        button("play", state.playing ? "Pause the position animation" : "Play the position animation", true),
        button("lesson", state.lesson_step() >= 0 ? "Close the lesson" : "Open the lesson", true),
        button("present", state.presentation ? "Stop presenting" : "Present (large type, high contrast)", true),
    });
}

json pages(const AppState& state) {
    json out = json::array();
    const auto& names = figures::pages();
    for (std::size_t i = 0; i < names.size(); ++i) out.push_back({{"name", text_of(names[i])}, {"selected", static_cast<int>(i) == state.page}});
    return out;
}

json table_json(const ReaderTable& t) {
    return {{"columns", t.columns}, {"rows", t.rows}, {"all_rows", t.all_rows}};
}

// The lesson step's text as words: the swatch before a colour word is a picture, not a word.
std::string without_swatches(std::string text) {
    const std::string mark(lessons::kSwatchMark);
    for (std::size_t at; (at = text.find(mark)) != std::string::npos;) {
        std::size_t end = at + mark.size();
        if (text.compare(end, 2, "\xC2\xA0") == 0) end += 2;  // the no-break space joining it to its word
        text.erase(at, end - at);
    }
    return text;
}

json lesson(const AppState& state) {
    const int k = state.lesson_step();
    if (k < 0 || k >= static_cast<int>(state.lesson().steps.size())) return nullptr;
    const lessons::Step& step = state.lesson().steps[static_cast<std::size_t>(k)];
    std::string text;
    try {
        text = without_swatches(lessons::displayed_text(step, plot::theme_by_id(effective_theme(state))).text);
    } catch (const std::exception&) {
        text = step.text;
    }
    json out = {{"step", k + 1}, {"steps", state.lesson().steps.size()}, {"title", step.title}, {"text", text}};
    if (step.question) {
        const lessons::Question& q = *step.question;
        json choices = json::array();
        for (std::size_t i = 0; i < q.choices.size(); ++i) choices.push_back(lessons::choice_letter(static_cast<int>(i)) + ") " + q.choices[i]);
        out["question"] = {{"ask", q.ask}, {"choices", choices}, {"asking", state.asking()}, {"guess", state.guess_choice}};
        if (!state.asking()) out["question"]["answer"] = lessons::answer_line(q);
    }
    return out;
}

std::string fixed(double v, int digits) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", digits, v);
    return buffer;
}

// CSV cells of one line (quoted cells may hold commas and doubled quotes; no line breaks in ours).
std::vector<std::string> csv_cells(const std::string& line) {
    std::vector<std::string> cells(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') cells.back() += '"', ++i;
        else if (c == '"') quoted = !quoted;
        else if (c == ',' && !quoted) cells.emplace_back();
        else cells.back() += c;
    }
    return cells;
}

}  // namespace

ReaderTable reader_table_of_csv(const std::string& csv) {
    std::vector<std::string> lines;
    for (std::size_t at = 0; at < csv.size();) {
        std::size_t end = csv.find('\n', at);
        if (end == std::string::npos) end = csv.size();
        if (end > at) lines.push_back(csv.substr(at, end - at));
        at = end + 1;
    }
    ReaderTable t;
    if (lines.empty()) return t;
    auto cut = [](std::vector<std::string> cells) {
        if (cells.size() > ReaderTable::kColumns) cells.resize(ReaderTable::kColumns);
        return cells;
    };
    t.columns = cut(csv_cells(lines[0]));
    t.all_rows = lines.size() - 1;
    const std::size_t shown = std::min(t.all_rows, ReaderTable::kRows);
    for (std::size_t i = 0; i < shown; ++i) {
        const std::size_t row = shown == 1 ? 0 : i * (t.all_rows - 1) / (shown - 1);
        t.rows.push_back(cut(csv_cells(lines[1 + row])));
    }
    return t;
}

std::string change_words(const ParamSet& before, const ParamSet& now, const std::vector<double>& theta) {
    const ParamSpec* changed = nullptr;
    int others = 0;
    for (ParamId first : {ParamId::preset, ParamId::compare_to})  // a model picked: its name, not its first key
        if (before.value(first) != now.value(first)) changed = &param_spec(first);
    for (const ParamSpec& s : parameter_table()) {
        if (before.value(s.id) == now.value(s.id) || &s == changed) continue;
        if (!changed) changed = &s;
        else ++others;
    }
    if (!changed) return "";
    std::string words = short_label(*changed) + " " + now.value_text(changed->id);
    if (changed->id == ParamId::preset || changed->id == ParamId::compare_to) {
        words = (changed->id == ParamId::preset ? "model " : "model B ") + now.value_text(changed->id);
        if (const Preset* p = find_preset(now.value_text(changed->id))) words += ", " + text_of(p->model);
    } else if (others > 0) {
        words += " (and " + std::to_string(others) + (others == 1 ? " other setting)" : " other settings)");
    }
    const bool turns = changed->id == ParamId::position || changed->id == ParamId::pair || changed->in(kConfigScope) ||
                       changed->id == ParamId::preset;
    if (turns && !theta.empty()) {
        const std::size_t pair = static_cast<std::size_t>(std::clamp<std::int64_t>(now[P::pair], 0, static_cast<std::int64_t>(theta.size()) - 1));
        const double angle = static_cast<double>(now[P::position]) * theta[pair];
        words += ": pair " + std::to_string(pair) + " turned " + fixed(angle, 2) + " rad, " + fixed(angle * 180 / M_PI, 0) + "°";
    }
    return words;
}

std::string ReaderDocument::json(App& app) {
    const AppState& state = app.state();
    const ParamSet& params = state.params();
    nlohmann::json doc;
    const auto& names = figures::pages();
    const std::string page = state.page >= 0 && state.page < static_cast<int>(names.size()) ? text_of(names[static_cast<std::size_t>(state.page)]) : "";
    doc["title"] = "RoPE Explorer: " + page;
    doc["theme"] = plot::theme_name(effective_theme(state));
    doc["presenting"] = state.presentation;
    doc["embedded"] = state.embedded >= 0;
    doc["pages"] = pages(state);
    doc["controls"] = controls(params);
    doc["toolbar"] = toolbar(state);
    nlohmann::json panels = nlohmann::json::array();
    for (int i = 0; i < static_cast<int>(app.panels().views.size()); ++i) {
        const PanelView& v = app.panels()[i];
        if (!v.shown || !v.figure) continue;
        nlohmann::json p = {{"index", i}, {"name", text_of(v.figure->name)}, {"title", text_of(v.figure->title)},
                            {"key", figures::panel_key(i)}, {"maximised", state.maximized == i}};
        p["alt"] = v.built && !v.result.error ? figures::alt_text(*v.figure, params, v.result) : text_of(v.figure->title) + ": computing.";
        if (const auto t = tables_.find(i); t != tables_.end() && t->second.params == params) p["table"] = table_json(t->second.table);
        panels.push_back(p);
    }
    doc["panels"] = panels;
    doc["lesson"] = lesson(state);
    doc["status"] = state.status;

    // the live region: what changed since it last spoke
    std::string said;
    if (spoken_asking_ && !state.asking() && spoken_step_ == state.lesson_step() && doc["lesson"].is_object() &&
        doc["lesson"].contains("question")) {
        said = doc["lesson"]["question"].value("answer", "");  // revealed (its parameters change with it)
    } else if (spoken_step_ != state.lesson_step() && state.lesson_step() >= 0) {
        said = "Lesson step " + std::to_string(state.lesson_step() + 1) + " of " + std::to_string(state.lesson().steps.size()) + ": " +
               state.lesson().steps[static_cast<std::size_t>(state.lesson_step())].title;
    } else if (spoken_step_ >= 0 && state.lesson_step() < 0) {
        said = "Lesson closed";
    } else if (spoken_params_ && *spoken_params_ != params) {
        const auto f = app.cache().frequencies(params);
        said = change_words(*spoken_params_, params, std::vector<double>(f->theta.data(), f->theta.data() + f->theta.size()));
    } else if (spoken_page_ != state.page && spoken_page_ >= 0) {
        said = "Page " + page;
    } else if (spoken_status_ && *spoken_status_ != state.status && !state.status.empty()) {
        said = state.status;  // "Saved rope-heatmap.png …", "Undid …"
    }
    if (state.status_error && state.status != live_) said = state.status;
    if (!said.empty()) live_ = said;
    spoken_params_ = params;
    spoken_page_ = state.page;
    spoken_step_ = state.lesson_step();
    spoken_asking_ = state.asking();
    spoken_status_ = state.status;
    doc["live"] = live_;
    return doc.dump();
}

bool ReaderDocument::build_one_table(App& app) {
    const ParamSet& params = app.state().params();
    for (int i = 0; i < static_cast<int>(app.panels().views.size()); ++i) {
        const PanelView& v = app.panels()[i];
        if (!v.shown || !v.figure) continue;
        if (const auto t = tables_.find(i); t != tables_.end() && t->second.params == params) continue;
        KeptTable kept{params, {}};
        try {
            if (!v.figure->file_problem || v.figure->file_problem(params).empty()) {
                exporting::ExportOptions o;
                std::tie(o.width, o.height) = figures::default_export_size(*v.figure, params);
                const std::unique_ptr<plot::TextMeasure> measure = exporting::file_text_measure();
                const figures::FigureResult fig = exporting::build_for_file(*v.figure, params, o, *measure, true, app.cache());
                kept.table = reader_table_of_csv(exporting::table_csv_sample(fig.table, ReaderTable::kRows));
                kept.table.all_rows = fig.table.rows();
            }
        } catch (const std::exception&) {
            // no table: the figure's alt text still says what it shows
        }
        tables_[i] = std::move(kept);
        return true;
    }
    return false;
}

Actions ReaderDocument::actions_of(const std::string& text, const App& app) {
    Actions out;
    const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    if (!j.is_object()) return out;
    const int panels = static_cast<int>(app.panels().views.size());
    auto panel = [&](const char* key) { const int i = j.value(key, -1); return i >= 0 && i < panels ? i : -1; };
    if (j.contains("set") && j["set"].is_string()) {
        if (const ParamSpec* spec = find_param(j["set"].get<std::string>())) {
            const std::string value = j["value"].is_string() ? j["value"].get<std::string>() : j["value"].dump();
            out.ask(act::SetParam{spec->id, value, "", spec->numeric()});
        }
    } else if (j.contains("page")) {
        const int page = j.value("page", -1);
        if (page >= 0 && page < static_cast<int>(figures::pages().size())) out.ask(act::ShowPage{page});
    } else if (j.contains("maximise") && panel("maximise") >= 0) {
        out.ask(act::ToggleMaximized{panel("maximise")});
    } else if (j.contains("export") && panel("export") >= 0) {
        out.ask(act::OpenExportDialog{panel("export"), false, act::OpenExportDialog::picture_now});
    } else if (j.contains("numbers") && panel("numbers") >= 0) {
        out.ask(act::OpenExportDialog{panel("numbers"), false, act::OpenExportDialog::numbers_now});
    } else if (j.contains("record") && panel("record") >= 0) {
        out.ask(act::OpenExportDialog{panel("record"), true, act::OpenExportDialog::picture_now});
    } else if (j.contains("lesson")) {
        const std::string what = j.value("lesson", "");
        if (what == "open") out.ask(act::OpenLesson{});
        else if (what == "close") out.ask(act::CloseLesson{});
        else if (what == "next") out.ask(act::StepLesson{1});
        else if (what == "back") out.ask(act::StepLesson{-1});
        else if (what == "reveal") out.ask(act::Reveal{});
    } else if (j.contains("guess")) {
        out.ask(act::Guess{j.value("guess", -1)});
    } else if (j.contains("do")) {
        const std::string what = j.value("do", "");
        const AppState& state = app.state();
        if (what == "undo") out.ask(act::Undo{});
        else if (what == "redo") out.ask(act::Redo{});
        else if (what == "play") out.ask(act::TogglePlay{});
        else if (what == "present") out.ask(act::TogglePresentation{});
        else if (what == "lesson") state.lesson_step() >= 0 ? out.ask(act::CloseLesson{}) : out.ask(act::OpenLesson{});
    } else if (j.contains("theme")) {
        if (const std::optional<plot::ThemeId> theme = plot::theme_from_name(j.value("theme", ""))) out.ask(act::SetTheme{*theme});
    }
    return out;
}

}  // namespace rope::gui
