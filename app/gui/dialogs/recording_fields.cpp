#include "gui/dialogs/recording_fields.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "gui/app/ui_helpers.hpp"
#include "gui/dialogs/dialog_layout.hpp"
#include "rope/number_format.hpp"

namespace rope::gui {

namespace {

bool is_integer(std::optional<ParamId> key) { return key && param_spec(*key).type == ParamType::integer; }

std::string number_text(std::optional<ParamId> key, double v) {
    return is_integer(key) ? std::to_string(std::llround(v)) : format_number(v);
}

std::string name_of(std::optional<ParamId> key) { return key ? std::string(param_spec(*key).name) : std::string(); }


// The slider's span for `key` now (the context for positions, the pairs for pair, the image for the
// query patch: the table's slider_top), else its whole range.
void slider_span(const ParamSet& p, ParamId key, double& lo, double& hi) {
    const ParamSpec& spec = param_spec(key);
    lo = spec.slider_min;
    hi = slider_top(spec, p);
    if (!(hi > lo)) lo = spec.min, hi = spec.max;
}

}  // namespace

std::vector<ParamId> animatable_keys(const figures::FigureDescriptor& figure) {
    std::vector<ParamId> keys;
    for (const ParamId key : figure.reads)
        if (param_spec(key).numeric()) keys.push_back(key);
    return keys;
}

void default_sweep(const AppState& state, ParamId key, RecordingFields& rec) {
    rec.key = key;
    slider_span(state.params(), key, rec.from, rec.to);
}

void play_run(const AppState& state, RecordingFields& rec) {
    double lo = 0, hi = 0;
    slider_span(state.params(), P::position, lo, hi);
    const double at = static_cast<double>(state.params()[P::position]);
    const double span = std::max(1.0, std::round(state.speed * (rec.frames - 1) / rec.fps));
    rec.key = P::position;
    rec.from = std::max(lo, std::min(at, hi - span));
    rec.to = std::min(hi, rec.from + span);
}

void default_recording(const AppState& state, const figures::FigureDescriptor& figure, RecordingFields& rec) {
    const std::vector<ParamId> keys = animatable_keys(figure);
    const bool reads_selected = std::find(keys.begin(), keys.end(), state.selected_key) != keys.end();
    const bool reads_position = std::find(keys.begin(), keys.end(), ParamId::position) != keys.end();
    rec.key = reads_position   ? ParamId::position
              : reads_selected ? state.selected_key
              : keys.empty()   ? std::optional<ParamId>()
                               : keys.front();
    if (!rec.key) return;
    if (state.playing && reads_position) return play_run(state, rec);  // the animation as it runs
    default_sweep(state, *rec.key, rec);
}

std::string recording_file_name(const figures::FigureDescriptor& figure, const RecordingFields& rec) {
    std::string stem = "rope-" + std::string(figure.name);
    if (rec.key) stem += "-" + name_of(rec.key) + "-" + number_text(rec.key, rec.from) + "-" + number_text(rec.key, rec.to);
    return exporting::with_extension(stem, exporting::file_format(rec.format));
}

exporting::Animation animation_of(const RecordingFields& rec) {
    exporting::Animation a;
    a.key = rec.key.value_or(ParamId::position);
    a.from_text = number_text(rec.key, rec.from);
    a.to_text = number_text(rec.key, rec.to);
    a.frames = rec.frames;
    a.fps = rec.fps;
    return a;
}


std::string recording_problem(const ParamSet& params, const figures::FigureDescriptor& figure, const RecordingFields& rec) {
    const std::vector<ParamId> keys = animatable_keys(figure);
    if (!rec.key || std::find(keys.begin(), keys.end(), *rec.key) == keys.end()) return "This figure has no number to move.";
    if (rec.frames < exporting::kMinFrames || rec.frames > exporting::kMaxFrames) return "Frames must be " + range_words(exporting::kMinFrames, exporting::kMaxFrames) + ".";
    if (rec.fps < exporting::kMinFps || rec.fps > exporting::kMaxFps) return "Frames per second must be " + range_words(exporting::kMinFps, exporting::kMaxFps) + ".";
    const exporting::Animation a = animation_of(rec);
    if (a.from_text == a.to_text) return "From and to are the same: nothing would move.";
    try {
        exporting::parse_animate(name_of(a.key) + "=" + a.from_text + ":" + a.to_text);
        exporting::animation_frames(params, a);
    } catch (const std::invalid_argument& e) {
        // the command line's words without its "--animate KEY=FROM:TO: " prefix
        std::string message = e.what();
        const std::size_t colon = message.find(": ");
        if (message.rfind("--animate ", 0) == 0 && colon != std::string::npos) message = message.substr(colon + 2);
        return message;
    }
    return "";
}

namespace {

// "from [    ]": the label first, as the sentence reads.
void number_field(const char* label, std::optional<ParamId> key, double& v, const char* tooltip) {
    ImGui::TextUnformatted(label);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * dialog_em::kValueField);
    const bool integer = is_integer(key);
    const std::string id = std::string("##") + label;
    ImGui::InputScalar(id.c_str(), ImGuiDataType_Double, &v, nullptr, nullptr, integer ? "%.0f" : "%.6g");
    if (integer) v = std::round(v);
    item_tooltip(tooltip);
}

}  // namespace

bool format_choice(const exporting::FileFormatInfo& format, bool selected) {
    const bool here = exporting::writable_here(format);
    ImGui::BeginDisabled(!here);
    const bool chosen = ImGui::RadioButton(std::string(format.label).c_str(), selected);
    ImGui::EndDisabled();
    const std::string what = std::string(format.name) + ": " + std::string(format.help) + ".";
    item_tooltip(here ? what.c_str() : (what + " The desktop app writes it; the browser cannot.").c_str());  // a greyed one says why
    return chosen && here;
}

const exporting::FileFormatInfo* format_choices(const std::vector<const exporting::FileFormatInfo*>& formats, exporting::FileFormat current) {
    // two columns: the second starts past the widest label of the first
    const ImGuiStyle& style = ImGui::GetStyle();
    float widest = 0;
    for (std::size_t i = 0; i < formats.size(); i += 2) widest = std::max(widest, ImGui::CalcTextSize(std::string(formats[i]->label).c_str()).x);
    const float second = std::max(ImGui::GetFontSize() * dialog_em::kSecondColumn,
                                  ImGui::GetCursorPosX() + ImGui::GetFrameHeight() + style.ItemInnerSpacing.x + widest + style.ItemSpacing.x * 2);
    const exporting::FileFormatInfo* chosen = nullptr;
    for (std::size_t i = 0; i < formats.size(); ++i) {
        if (format_choice(*formats[i], current == formats[i]->id)) chosen = formats[i];
        if (i % 2 == 0) ImGui::SameLine(second);
    }
    say_desktop_only(formats);
    return chosen;
}

void say_desktop_only(const std::vector<const exporting::FileFormatInfo*>& formats) {
    std::vector<std::string> names;
    for (const exporting::FileFormatInfo* f : formats)
        if (!exporting::writable_here(*f)) names.push_back(std::string(f->name));
    if (names.empty()) return;
    ImGui::NewLine();  // (below the last choice, which leaves the line open for a second column)
    std::string list;
    for (std::size_t i = 0; i < names.size(); ++i) list += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled("%s: in the desktop app (rope-explorer), not in the browser.", list.c_str());
    ImGui::PopTextWrapPos();
}

void draw_recording_fields(const AppState& state, const figures::FigureDescriptor& figure, RecordingFields& rec, char* file_name,
                           std::size_t file_name_size) {
    if (const exporting::FileFormatInfo* f = format_choices(exporting::formats_of(exporting::FormatKind::animation), rec.format)) {
        rec.format = f->id;
        std::snprintf(file_name, file_name_size, "%s", exporting::with_extension(file_name, *f).c_str());
    }
    const std::vector<ParamId> keys = animatable_keys(figure);
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * dialog_em::kSecondColumn);
    if (ImGui::BeginCombo("moves", name_of(rec.key).c_str())) {
        for (const ParamId key : keys)
            if (ImGui::Selectable(name_of(key).c_str(), key == rec.key)) default_sweep(state, key, rec);
        ImGui::EndCombo();
    }
    item_tooltip("The parameter that moves from frame to frame; every other one stays as it is now.");
    if (rec.key == ParamId::position) {
        ImGui::SameLine();
        if (ImGui::SmallButton("as it plays")) play_run(state, rec);
        item_tooltip("The animation as Play runs it: from the position now, at the play speed, for the recording's length.");
    }
    ImGui::SameLine();
    if (ImGui::SmallButton("whole slider") && rec.key) {
        double lo = 0, hi = 0;
        slider_span(state.params(), *rec.key, lo, hi);
        rec.from = lo, rec.to = hi;
    }
    item_tooltip("The whole range the parameter's slider covers.");
    number_field("from", rec.key, rec.from, "The value in the first frame.");
    ImGui::SameLine();
    number_field("to", rec.key, rec.to, "The value in the last frame. Whole numbers step evenly; a logarithmic slider's values step by equal ratios.");
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * dialog_em::kCountField);
    ImGui::InputInt("frames", &rec.frames, 0);
    item_tooltip(("How many pictures, " + range_words(exporting::kMinFrames, exporting::kMaxFrames) + ".").c_str());
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * dialog_em::kCountField);
    ImGui::InputInt("fps", &rec.fps, 0);
    item_tooltip(("Frames per second, " + range_words(exporting::kMinFps, exporting::kMaxFps) + " (a GIF plays at most 50).").c_str());
    if (rec.fps > 0) {
        ImGui::SameLine();
        ImGui::TextDisabled("= %.2f s", static_cast<double>(rec.frames) / rec.fps);
    }
}

}  // namespace rope::gui
