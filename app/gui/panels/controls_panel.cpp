// The controls panel, generated from the parameter table: each parameter with a control
// (ParamSpec::control) gets the widget its type calls for (a slider over its usual span, log where
// the table says, a combo of its choices, a checkbox), in its section and place, labelled as the
// table says, with the table's help as its tooltip, shown when the table says it applies. Dragging
// stays inside the slider's span; Ctrl+click types a value, which goes through --set's parser and
// checks and is refused with a message if the table does not allow it.
#include "gui/panels/controls_panel.hpp"

#include "gui/app/screen_layout.hpp"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cctype>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "gui/platform/renderer.hpp"
#include "gui/presentation/teaching.hpp"
#include "gui/app/ui_helpers.hpp"
#include "gui/app/ui_theme.hpp"
#include "plot/ticks.hpp"
#include "rope/frequencies.hpp"
#include "rope/presets.hpp"
#include "gui/dialogs/session_dialog.hpp"
#include "session/recent_configs.hpp"

namespace rope::gui {

namespace {

// A section of the controls in a child window of its own: software GL pays for every pixel, and a
// window drawing what it drew last frame is left alone (gl_renderer.cpp), so a moving slider redraws
// its section only. A child's height is the one its content took last frame.
class Section {
public:
    // `resized` is set when the section's content took another height than it was laid out with.
    Section(const char* title, bool& resized) : id_(ImGui::GetID(title)), resized_(resized) {
        const float height = ImGui::GetStateStorage()->GetFloat(id_, ImGui::GetFrameHeightWithSpacing());
        height_ = height;
        // Scrolled out of view, a section is laid out in a group, where nothing is drawn but every
        // item is measured: in a child window of its own ImGui would skip its items (a clipped child
        // is hidden), its height would shrink to its title, and the controls' scrollbar would say
        // less than there is, by what was last in view.
        const ImGuiWindow* scroll = ImGui::GetCurrentWindow();
        const float top = scroll->DC.CursorPos.y;
        in_view_ = top < scroll->ClipRect.Max.y && top + height > scroll->ClipRect.Min.y;
        if (!in_view_) {
            start_y_ = ImGui::GetCursorPosY();
            ImGui::BeginGroup();
        } else {
            // opaque, so that it alone is drawn again when it changes (kOpaqueWindow)
            ImVec4 background = ImGui::GetStyleColorVec4(ImGuiCol_WindowBg);
            background.w = 1.0f;
            ImGui::PushStyleColor(ImGuiCol_ChildBg, background);
            ImGui::BeginChild((std::string(title) + kOpaqueWindow).c_str(), ImVec2(0, height), false,
                              ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
            ImGui::PopStyleColor();
        }
        ImGui::Spacing();
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        ImGui::TextUnformatted(title);
        ImGui::PopStyleColor();
        ImGui::Separator();
    }
    ~Section() {
        const float content = ImGui::GetCursorPosY() - start_y_ - ImGui::GetStyle().ItemSpacing.y;
        // a child that became clipped this frame skips its items: its measure is not the section's
        const bool measured = !ImGui::GetCurrentWindow()->SkipItems;
        if (in_view_) ImGui::EndChild();
        else ImGui::EndGroup();
        if (!measured) return;
        ImGui::GetStateStorage()->SetFloat(id_, std::max(1.0f, content));
        // one frame more lays it out at its height (its child window has no scrollbar for the app's
        // check of contents that changed size to see)
        if (std::abs(std::max(1.0f, content) - height_) > 0.5f) resized_ = true;
    }
    Section(const Section&) = delete;
    Section& operator=(const Section&) = delete;

private:
    ImGuiID id_;
    bool& resized_;
    float height_ = 0;   // as laid out: the height its content took the frame before
    bool in_view_ = true;
    float start_y_ = 0;  // the group's top (a child's is 0)
};

const char* section_title(ControlSection s) {
    switch (s) {
        case ControlSection::position: return "Position";
        case ControlSection::rope: return "RoPE";
        case ControlSection::ranges: return "Ranges";
        case ControlSection::context: return "Context extension";
        case ControlSection::images: return "Images and video";
        case ControlSection::relatives: return "Beside RoPE: ALiBi and T5";
        case ControlSection::none: break;
    }
    return "";
}

// The parameters a section shows, in their places.
std::vector<const ParamSpec*> section_params(ControlSection section) {
    std::vector<const ParamSpec*> specs;
    for (const ParamSpec& s : parameter_table())
        if (s.control.section == section) specs.push_back(&s);
    std::stable_sort(specs.begin(), specs.end(), [](const ParamSpec* a, const ParamSpec* b) { return a->control.place < b->control.place; });
    return specs;
}

std::string widget_id(const ParamSpec& spec, const char* suffix = "") { return "##" + std::string(spec.name) + suffix; }

}  // namespace

// A number typed into a slider (Ctrl+click, or its Type button on a touch screen): a text field in the slider's place until Enter or a
// click elsewhere (both apply what was typed) or Esc (which leaves the value as it was).
void ControlsPanel::typed_value(const ParamSpec& spec, Actions& out) {
    ImGui::SetNextItemWidth(-1);
    if (typing_focus_) ImGui::SetKeyboardFocusHere();
    typing_focus_ = false;
    const bool enter = ImGui::InputText(widget_id(spec, "_typed").c_str(), typed_, sizeof typed_,
                                        ImGuiInputTextFlags_EnterReturnsTrue | ImGuiInputTextFlags_AutoSelectAll);
    item_tooltip(spec.help.data());
    if (ImGui::IsItemActive()) typing_active_ = true;
    if (!enter && !(typing_active_ && !ImGui::IsItemActive())) return;
    typing_ = std::nullopt;
    typing_active_ = false;
    if (typed_ == typed_before_) return;  // Esc (the field puts back what it held), or nothing typed
    out.ask(act::SetParam{spec.id, typed_, "item:" + std::string(spec.name), true});
}

void ControlsPanel::start_typing(const AppState& state, const ParamSpec& spec) {
    typing_ = spec.id;
    typing_focus_ = true;
    typing_active_ = false;
    typed_before_ = state.params().value_text(spec.id);
    std::snprintf(typed_, sizeof typed_, "%s", typed_before_.c_str());
}

void ControlsPanel::slider(const AppState& state, const ParamSpec& spec, Actions& out) {
    ImGui::TextUnformatted(spec.control.label.data(), spec.control.label.data() + spec.control.label.size());
    if (typing_ == spec.id) return typed_value(spec, out);
    const ParamSet& params = state.params();
    const ImGuiSliderFlags flags = ImGuiSliderFlags_NoInput | (spec.logarithmic ? ImGuiSliderFlags_Logarithmic : ImGuiSliderFlags_None);
    const std::string id = widget_id(spec);
    // a finger has no Ctrl+click: on a touch screen a Type button beside the slider types its value
    const char* type = "Type";
    const float type_w = state.touch ? ImGui::CalcTextSize(type).x + ImGui::GetStyle().FramePadding.x * 2 + ImGui::GetStyle().ItemSpacing.x : 0.0f;
    ImGui::SetNextItemWidth(state.touch ? -type_w : -1.0f);
    bool changed = false;
    double value = 0;
    if (spec.type == ParamType::integer) {
        const std::int64_t current = std::get<std::int64_t>(params.value(spec.id));
        std::int64_t v = current;
        const auto lo = static_cast<std::int64_t>(spec.slider_min), hi = static_cast<std::int64_t>(slider_top(spec, params));
        changed = ImGui::SliderScalar(id.c_str(), ImGuiDataType_S64, &v, &lo, &hi, "%lld", flags) && v != current;
        if (spec.even) v = std::max<std::int64_t>(2, v / 2 * 2);  // dragging moves in even steps
        value = static_cast<double>(v);
    } else {
        const double current = std::get<double>(params.value(spec.id));
        double v = current;
        const double lo = spec.slider_min, hi = slider_top(spec, params);
        changed = ImGui::SliderScalar(id.c_str(), ImGuiDataType_Double, &v, &lo, &hi, spec.control.format.data(), flags) && v != current;
        value = v;
    }
    note_target("control:" + std::string(spec.name));
    if (ImGui::IsItemActivated()) {
        out.ask(act::SelectKey{spec.id});  // what Record sweeps
        if (ImGui::GetIO().KeyCtrl) return start_typing(state, spec);
    }
    item_tooltip(spec.help.data());
    if (changed) out.ask(act::SetNumber{spec.id, value, "item:" + std::string(spec.name)});
    if (!state.touch) return;
    ImGui::SameLine();
    if (ImGui::Button((std::string(type) + widget_id(spec, "_type")).c_str())) {
        out.ask(act::SelectKey{spec.id});
        start_typing(state, spec);
    }
    note_target("type:" + std::string(spec.name));
}

void ControlsPanel::combo(const AppState& state, const ParamSpec& spec, Actions& out) {
    ImGui::TextUnformatted(spec.control.label.data(), spec.control.label.data() + spec.control.label.size());
    const std::string current = state.params().value_text(spec.id);
    ImGui::SetNextItemWidth(-1);
    const bool open = ImGui::BeginCombo(widget_id(spec).c_str(), current.c_str());
    note_target("control:" + std::string(spec.name));
    if (open) {
        for (std::string_view c : spec.choices) {
            const std::string s(c);
            if (ImGui::Selectable(s.c_str(), s == current)) out.ask(act::SetParam{spec.id, s, ""});
            note_target("choice:" + std::string(spec.name) + "=" + s);
        }
        ImGui::EndCombo();
    }
    item_tooltip(spec.help.data());
}

void ControlsPanel::checkbox(const AppState& state, const ParamSpec& spec, Actions& out) {
    bool on = std::get<bool>(state.params().value(spec.id));
    const std::string label = std::string(spec.control.label) + widget_id(spec);
    const bool changed = ImGui::Checkbox(label.c_str(), &on);
    item_tooltip(spec.help.data());
    if (changed) out.ask(act::SetParam{spec.id, on ? "true" : "false", ""});
}

// A list typed as --set takes it (an M-RoPE section: "16,24,24"), applied on Enter; empty unsets it,
// and the field then shows what is used instead, greyed. A list that does not fit is refused with the
// parameter table's one line, in the status line.
void ControlsPanel::list_field(const AppState& state, const ParamSpec& spec, Actions& out) {
    ImGui::TextUnformatted(spec.control.label.data(), spec.control.label.data() + spec.control.label.size());
    const ParamSet& params = state.params();
    char buf[128];
    std::snprintf(buf, sizeof buf, "%s", params.has(spec.id) ? params.value_text(spec.id).c_str() : "");
    std::string hint = "none";
    if (spec.id == ParamId::mrope_section || spec.id == ParamId::mrope_section_interleaved) {
        const MropeSection s = params.mrope_section(spec.id == ParamId::mrope_section_interleaved);
        hint = std::to_string(s[0]) + "," + std::to_string(s[1]) + "," + std::to_string(s[2]) + " (Qwen's shares)";
    }
    ImGui::SetNextItemWidth(-1);
    const bool enter = ImGui::InputTextWithHint(widget_id(spec).c_str(), hint.c_str(), buf, sizeof buf, ImGuiInputTextFlags_EnterReturnsTrue);
    item_tooltip(spec.help.data());
    if (!enter) return;
    const std::string typed = buf;
    if (typed == (params.has(spec.id) ? params.value_text(spec.id) : "")) return;
    out.ask(act::SetParam{spec.id, typed.empty() ? "none" : typed, "item:" + std::string(spec.name)});
}

void ControlsPanel::control(const AppState& state, const ParamSpec& spec, Actions& out) {
    if (spec.relevant && !spec.relevant(state.params())) return;
    switch (spec.type) {
        case ParamType::integer:
        case ParamType::real: slider(state, spec, out); break;
        case ParamType::choice: combo(state, spec, out); break;
        case ParamType::boolean: checkbox(state, spec, out); break;
        case ParamType::real_list: list_field(state, spec, out); break;
        default: break;  // texts are typed on the command line or in files
    }
}

void ControlsPanel::table_section(const AppState& state, ControlSection section, Actions& out) {
    Section s(section_title(section), sections_resized_);
    for (const ParamSpec* spec : section_params(section)) control(state, *spec, out);
}

namespace {

// A combo of every real model, each with its name and, on hover, where its numbers come from; `none`
// the label shown for no preset, offered as the first item when `offer_none`. Returns the name
// picked this frame ("none" for that item), or "".
// Whether `text` holds every word of `query`, ignoring case ("llama 3" finds llama-3-8b and Meta Llama 3).
bool matches_words(const std::string& text, const char* query) {
    auto lower = [](std::string s) {
        std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        return s;
    };
    const std::string haystack = lower(text);
    std::istringstream words(lower(query));
    for (std::string w; words >> w;)
        if (haystack.find(w) == std::string::npos) return false;
    return true;
}

// A preset's key facts as its row in the picker shows them, in the --set words:
// "d 128, base 500000, scaling llama3, axes 1d" ("d 128, no RoPE: alibi, 112 heads" for BLOOM).
// Presets never change: each is worked out once, kept by its name.
const std::string& preset_facts(const Preset& preset) {
    static std::map<std::string_view, std::string> known;
    if (const auto it = known.find(preset.name); it != known.end()) return it->second;
    std::string facts;
    try {
        ParamSet p;
        p.set(P::preset, std::string(preset.name));
        const double base = p[P::base];
        const std::string base_text = base == std::round(base) && base < 1e15 ? std::to_string(std::llround(base)) : plot::readout_number(base, 6);
        facts = "d " + std::to_string(p[P::dim]) + ", base " + base_text + ", scaling " + p.value_text(P::scaling) + ", axes " + p.value_text(P::rope_axes);
        // a model without RoPE: its bias, not a base it does not use (typing "alibi" finds it)
        if (p[P::position_encoding] != PositionEncoding::rope)
            facts = "d " + std::to_string(p[P::dim]) + ", no RoPE: " + p.value_text(P::position_encoding) + ", " + std::to_string(p[P::heads]) + " heads";
    } catch (const ParamError&) {
    }
    return known.emplace(preset.name, facts).first->second;
}

// The families in the order they first appear in the preset table.
std::vector<std::string_view> preset_families() {
    std::vector<std::string_view> families;
    for (const Preset& preset : presets())
        if (std::find(families.begin(), families.end(), preset_family(preset)) == families.end()) families.push_back(preset_family(preset));
    return families;
}

// One preset's row: its name, its key facts in a column beside it, and where its numbers come from on hover.
bool preset_row(const Preset& preset, bool selected) {
    const bool picked = ImGui::Selectable(std::string(preset.name).c_str(), selected);
    note_target("preset:" + std::string(preset.name));
    if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30);
        ImGui::Text("%s", std::string(preset.model).c_str());
        ImGui::TextDisabled("%s", std::string(preset.source).c_str());
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
    ImGui::SameLine(ImGui::GetFontSize() * 12);
    ImGui::TextDisabled("%s", preset_facts(preset).c_str());
    return picked;
}

// The config.json files opened lately, on top of the presets: a row is its folder's name (the model's,
// as downloaded) with the file's whole path beside it. A click, or Enter on the first match, puts its path in
// `picked`.
void recent_config_rows(const char* query, bool enter, std::string& picked) {
    bool header = false;
    for (const std::string& path : session::recent_configs()) {
        const std::size_t slash = path.find_last_of('/');
        const std::string folder = slash == std::string::npos ? "." : path.substr(0, slash);
        const std::string name = folder.substr(folder.find_last_of('/') + 1);  // the model's folder, as downloaded
        if (!matches_words(path, query) || !session::still_there(path)) continue;
        if (!header) ImGui::TextDisabled("Recent configs"), header = true;
        ImGui::PushID(path.c_str());
        if (ImGui::Selectable(name.c_str(), false) || (enter && picked.empty())) {
            picked = path;
            if (enter) ImGui::CloseCurrentPopup();
        }
        item_tooltip(("Open " + path + " (a config.json opened before)").c_str());
        ImGui::SameLine(std::max(ImGui::GetFontSize() * 12, ImGui::CalcTextSize(name.c_str()).x + ImGui::GetFontSize()));
        ImGui::TextDisabled("%s", path.c_str());
        ImGui::PopID();
    }
}

// The presets as a combo with a search field at its top: grouped by family, each row with its key
// facts (head dim, base, scaling, axes); typing narrows the list by name, model, family or facts
// ("qwen", "yarn", "mrope"); Enter picks the first match. On an opaque background, wide enough for
// the facts. The config.json files opened lately come first (a pick puts its path in `config`). Both
// pickers, model A's and model B's, are this one.
std::string preset_combo(const char* id, const std::string& current, const char* none, bool offer_none, std::string* config) {
    std::string picked;
    ImGui::SetNextItemWidth(-1);
    const std::string preview = current == "none" || current == "unscaled" ? std::string(none) : current;
    static char query[64] = "";  // one combo is open at a time
    ImVec4 opaque = ImGui::GetStyleColorVec4(ImGuiCol_PopupBg);
    opaque.w = 1;
    ImGui::PushStyleColor(ImGuiCol_PopupBg, opaque);
    // wide enough for the facts; as tall as ImGuiComboFlags_HeightLarge's 20 rows (a constraint of
    // our own replaces that limit)
    const ImGuiStyle& style = ImGui::GetStyle();
    const float rows20 = (ImGui::GetFontSize() + style.ItemSpacing.y) * 20 - style.ItemSpacing.y + style.WindowPadding.y * 2;
    // (no wider than the screen: a phone's is narrower than the facts)
    ImGui::SetNextWindowSizeConstraints(ImVec2(std::min(ImGui::GetFontSize() * 36, ImGui::GetIO().DisplaySize.x), 0), ImVec2(FLT_MAX, rows20));
    const bool open = ImGui::BeginCombo(id, preview.c_str(), ImGuiComboFlags_HeightLarge);
    note_target(std::string("control:") + id);
    ImGui::PopStyleColor();
    if (!open) return picked;
    if (ImGui::IsWindowAppearing()) {
        query[0] = '\0';
        ImGui::SetKeyboardFocusHere();
    }
    ImGui::SetNextItemWidth(-1);
    bool enter = ImGui::InputTextWithHint("##search", "type to filter: name, model, family, scaling, axes", query, sizeof query,
                                                ImGuiInputTextFlags_EnterReturnsTrue);
    if (offer_none && query[0] == '\0' && ImGui::Selectable(none, current == "none" || current == "unscaled")) picked = "none";
    recent_config_rows(query, enter, *config);
    if (!config->empty()) enter = false;
    for (const std::string_view family : preset_families()) {
        bool header = false;
        for (const Preset& preset : presets()) {
            if (preset_family(preset) != family) continue;
            const std::string words = std::string(preset.name) + " " + std::string(preset.model) + " " + std::string(family) + " " + preset_facts(preset);
            if (!matches_words(words, query)) continue;
            if (!header) ImGui::TextDisabled("%s", std::string(family).c_str()), header = true;
            if (enter && picked.empty()) {
                picked = preset.name;
                ImGui::CloseCurrentPopup();
            }
            if (preset_row(preset, current == preset.name)) picked = preset.name;
        }
    }
    ImGui::EndCombo();
    return picked;
}

// `change` applied to a copy of the parameters and kept as one undo step if it holds; else the status
// line says why.
void ask_change(const AppState& state, Actions& out, const std::string& label, const std::string& status,
                const std::function<void(ParamSet&)>& change) {
    ParamSet next = state.params();
    try {
        change(next);
        next.validate();
        out.ask(act::ReplaceParams{label, next, status});
    } catch (const ParamError& e) {
        out.ask(act::SetStatus{std::string("Refused: ") + e.what(), true});
    }
}

}  // namespace

// The preset picker (model A) and, under it, model B: "compare with", a swap and a clear button.
void ControlsPanel::model_section(const AppState& state, Actions& out) {
    Section section("Model", sections_resized_);
    const std::string current(state.params()[P::preset]);
    std::string config;
    const std::string picked = preset_combo("##preset", current, "(no preset)", false, &config);
    if (!config.empty()) open_file(state, config, true, out);  // a recent config.json, as the Config button opens it
    if (!picked.empty()) {
        // the preset's own message only if it is taken (a refusal puts its reason there instead)
        const Preset* preset = find_preset(picked);
        ask_change(state, out, "preset " + picked, "Preset " + picked + ": " + std::string(preset->model),
                   [&](ParamSet& next) { next.set(P::preset, picked); });
    }
    item_tooltip(param_spec(P::preset).help.data());
    if (const Preset* chosen = find_preset(current)) {
        ImGui::PushTextWrapPos(0);
        ImGui::TextDisabled("%s", std::string(chosen->source).c_str());
        ImGui::PopTextWrapPos();
    }
    compare_with(state, out);
}

// Model B (compare_to): a preset, or none (the context panel then compares with the unscaled config).
void ControlsPanel::compare_with(const AppState& state, Actions& out) {
    const std::string a(state.params()[P::preset]), b(state.params()[P::compare_to]);
    const bool b_is_preset = find_preset(b) != nullptr;
    ImGui::TextUnformatted("compare with (model B)");
    // a config.json as B shows its folder's name in the combo; the combo's list holds the presets
    const std::string shown = b == "unscaled" || b_is_preset ? b : state.params().compared_model_name() + " (config)";
    std::string config;
    const std::string picked = preset_combo("##compare_to", shown, "(none)", true, &config);
    if (!config.empty()) open_config_as_b(state, config, out);
    if (picked == "none" && b != "unscaled")
        ask_change(state, out, "compare with none", "Model B cleared", [](ParamSet& next) { next.set(P::compare_to, "unscaled"); });
    else if (!picked.empty() && picked != "none" && picked != b)
        ask_change(state, out, "compare with " + picked, "Model B: " + picked, [&](ParamSet& next) { next.set(P::compare_to, picked); });
    item_tooltip(param_spec(P::compare_to).help.data());
    if (ImGui::Button("config.json as B..."))
        out.ask(act::OpenFileDialog{act::OpenFileDialog::open_config_b});
    item_tooltip("Compare with the model of a Hugging Face config.json (or drop the file on the window with Shift held).");
    ImGui::SameLine();
    // swap: B becomes the preset and A's preset becomes B (only between presets: a changed or
    // imported A has no name to compare with)
    const bool can_swap = b_is_preset && a != "none";
    ImGui::BeginDisabled(!can_swap);
    if (ImGui::Button("swap A <-> B"))
        ask_change(state, out, "swap A and B", "Model A: " + b + ", model B: " + a, [&](ParamSet& next) {
            next.set(P::preset, b);
            next.set(P::compare_to, a);
        });
    ImGui::EndDisabled();
    item_tooltip(can_swap ? "Make model B the preset and the current preset model B (one undo step)."
                          : "Needs a preset as model A and a preset as model B (a config.json has no preset to swap to).");
}

// The current pair's numbers, and the theme.
void ControlsPanel::now_and_view_sections(const AppState& state, const FrequencyTable& f, Actions& out) {
    {
        Section section("Now", sections_resized_);
        const int pair = static_cast<int>(std::min<std::int64_t>(state.params()[P::pair], f.pairs() - 1));
        ImGui::Text("d = %d (%d rotated, %d pairs)", f.dim, f.rotated_dims, f.pairs());
        ImGui::Text("θ_%d = %.6g rad/token", pair, f.theta[pair]);
        ImGui::Text("wavelength = %.6g tokens", f.wavelength(pair));
        ImGui::Text("attention factor = %.6g", f.attention_factor);
    }
    Section section("View", sections_resized_);
    ImGui::TextUnformatted("colour theme");
    for (const plot::ThemeName& theme : plot::kThemeNames) {
        if (theme.id != plot::kThemeNames[0].id) ImGui::SameLine();
        if (ImGui::RadioButton(theme.name, state.theme == theme.id) && state.theme != theme.id) out.ask(act::SetTheme{theme.id});
        item_tooltip(theme.id == plot::ThemeId::high_contrast
                         ? "White on black with the brightest colours: for projectors in bright rooms (presenting always uses it)."
                         : "The colour theme of the pictures and the controls.");
    }
    bool reduced_motion = state.reduced_motion;
    if (ImGui::Checkbox("reduced motion", &reduced_motion)) out.ask(act::SetReducedMotion{reduced_motion});
    item_tooltip("Less motion: Play starts only when you press it, the laser pointer leaves no fading trail and the text cursor does not blink. Exported animations are unchanged.");
}

void ControlsPanel::status_line(const AppState& state, ImVec2 pos, ImVec2 size, bool opaque) {
    ImGui::SetNextWindowPos(pos);
    ImGui::SetNextWindowSize(size);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0);
    ImGui::Begin("##status", nullptr, kFixedWindow | ImGuiWindowFlags_NoScrollbar | (opaque ? 0 : ImGuiWindowFlags_NoBackground));
    ImGui::PopStyleVar();
    ImGui::Separator();
    ImGui::PushTextWrapPos(0);
    if (state.status_error) ImGui::PushStyleColor(ImGuiCol_Text, ui_error_text(effective_theme(state)));
    ImGui::TextUnformatted(state.status.c_str());
    if (state.status_error) ImGui::PopStyleColor();
    ImGui::PopTextWrapPos();
    ImGui::End();
}

void ControlsPanel::draw(const AppState& state, figures::FigureCache& cache, ImVec2 pos, ImVec2 size, Actions& out, bool opaque) {
    sections_resized_ = false;
    // the controls scroll; the status line below them stays in view, in a window of its own
    const float status_h = std::round(ImGui::GetTextLineHeightWithSpacing() * 3.2f);
    ImGui::SetNextWindowPos(pos);
    ImGui::SetNextWindowSize(ImVec2(size.x, size.y - status_h));
    ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0);  // no frame around the sections' windows
    ImGui::Begin("Controls", nullptr,
                 ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings |
                     ImGuiWindowFlags_NoBringToFrontOnFocus |
                     (opaque ? 0 : ImGuiWindowFlags_NoBackground));  // the cleared window shows through: no fill to pay for
    ImGui::PopStyleVar();
    ImGui::BeginChild("controls_scroll", ImVec2(0, 0), false);
    const auto freqs = cache.frequencies(state.params());
    {
        Section section("Teach", sections_resized_);
        draw_toolbar(state, out);
    }
    table_section(state, ControlSection::position, out);
    model_section(state, out);
    for (ControlSection s : {ControlSection::rope, ControlSection::ranges, ControlSection::context, ControlSection::images,
                             ControlSection::relatives})
        table_section(state, s, out);
    now_and_view_sections(state, *freqs, out);
    ImGui::EndChild();
    ImGui::End();
    status_line(state, ImVec2(pos.x, pos.y + size.y - status_h), ImVec2(size.x, status_h), opaque);
}

}  // namespace rope::gui
