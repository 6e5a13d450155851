#include "gui/app/app_state.hpp"

#include <cctype>
#include <iterator>

#include "lessons/lessons.hpp"
#include "plot/ticks.hpp"

namespace rope::gui {

namespace {

// A value as people read it on the status line: numbers to 6 digits, long texts cut short.
std::string readable(const ParamSet& p, ParamId key) {
    const ParamValue& v = p.value(key);
    if (const double* d = std::get_if<double>(&v)) return plot::readout_number(*d, 6);
    return shorten_for_message(p.value_text(key));
}

// "base 10000 → 31622.8" for up to two changed keys, else how many changed.
std::string describe_change(const ParamSet& from, const ParamSet& to) {
    std::vector<std::string> changed;
    for (const ParamSpec& spec : parameter_table())
        if (from.value(spec.id) != to.value(spec.id))
            changed.push_back(std::string(spec.name) + " " + readable(from, spec.id) + " → " + readable(to, spec.id));
    if (changed.empty()) return "";
    if (changed.size() > 2) return std::to_string(changed.size()) + " parameters";
    return changed.size() == 2 ? changed[0] + ", " + changed[1] : changed[0];
}

// "Undone: base 12589.3 → 10000" when the step is named after the one key it changed, else
// "Undone: lesson step 4 (12 parameters)".
std::string step_text(const std::string& label, const std::string& change) {
    if (change.empty()) return label;
    if (change.rfind(label + " ", 0) == 0 && change.find(", ") == std::string::npos) return change;
    return label + " (" + change + ")";
}

}  // namespace

void AppState::set_status(std::string text, bool error) {
    status = std::move(text);
    status_error = error;
}

void AppState::start_from(const ParamSet& params, int lesson_step) {
    params_ = params;
    lesson_step_ = lesson_step;
    play_position = static_cast<double>(params_[P::position]);
}

bool AppState::change(const std::string& label, const std::function<void(ParamSet&)>& edit, const std::string& gesture) {
    ParamSet next = params_;
    try {
        edit(next);
        next.validate();
    } catch (const ParamError& e) {
        set_status(std::string("Refused: ") + e.what(), true);
        return false;
    }
    if (status_error) set_status("");
    if (next == params_) return true;
    const Snapshot before = snapshot();
    params_ = std::move(next);
    history_.record(label, before, snapshot(), gesture);
    return true;
}

bool AppState::apply(ParamId key, const std::string& text, const std::string& gesture) {
    return change(std::string(param_spec(key).name), [&](ParamSet& p) { p.set(key, text); }, gesture);
}

bool AppState::apply_number(ParamId key, double value, const std::string& gesture) {
    if (gesture != "bench") selected_key = key;
    return change(std::string(param_spec(key).name), [&](ParamSet& p) { p.set_number(key, value); }, gesture);
}

void AppState::replace(const std::string& label, const ParamSet& params, int lesson_step) {
    if (params == params_ && lesson_step == lesson_step_ && !asking_) return;
    const Snapshot before = snapshot();
    params_ = params;
    lesson_step_ = lesson_step;
    asking_ = false;
    play_position = static_cast<double>(params_[P::position]);
    history_.record(label, before, snapshot());
}

void AppState::use_lesson(std::shared_ptr<const lessons::Lesson> lesson, std::string path) {
    lesson_ = std::move(lesson);
    lesson_file_ = std::move(path);
    lesson_step_ = -1;
    asking_ = false;
}

void AppState::show_step(int step, bool ask) {
    const lessons::Step& shown = lesson_->steps[static_cast<std::size_t>(step)];
    lesson_step_ = step;
    asking_ = ask && shown.question.has_value();
    params_ = asking_ ? lessons::question_parameters(shown) : lessons::step_parameters(shown);
    page = shown.panel->page;
    if (maximized >= 0 && figures::figure_at(maximized).page != page) maximized = -1;
    playing = false;
    play_position = static_cast<double>(params_[P::position]);
    guess_choice = -1;
    guessed_number = false;
    set_status("Lesson step " + std::to_string(step + 1) + " of " + std::to_string(lesson_->steps.size()) + ": " + shown.title +
               (asking_ ? " (a question: Page Down reveals the answer)" : ""));
}

void AppState::go_to_lesson_step(int step, bool ask) {
    if (step < 0 || step >= static_cast<int>(lesson_->steps.size())) {
        close_lesson();
        return;
    }
    const Snapshot before = snapshot();
    show_step(step, ask);
    history_.record("lesson step " + std::to_string(step + 1), before, snapshot());
}

void AppState::lesson_saved(std::string path) {
    // a copy of the built-in lesson, saved, is the file's own lesson (its next edit is not a copy's)
    const lessons::Lesson* was = lesson_.get();
    if (lesson_is_builtin()) lesson_ = std::make_shared<const lessons::Lesson>(*lesson_);
    lesson_file_ = std::move(path);
    // the states of this lesson in the undo history are that file's too (undo does not unsave it)
    if (!lesson_is_builtin() && was == lesson_.get()) history_.name_lesson_file(was, lesson_file_);
}

void AppState::open_lesson(std::shared_ptr<const lessons::Lesson> lesson, std::string path) {
    const Snapshot before = snapshot();
    use_lesson(std::move(lesson), std::move(path));
    show_step(0, true);
    history_.record("open lesson \"" + lesson_->title + "\"", before, snapshot());
}

void AppState::reveal() {
    if (!asking_ || lesson_step_ < 0) return;
    const lessons::Step& shown = lesson_->steps[static_cast<std::size_t>(lesson_step_)];
    const Snapshot before = snapshot();
    asking_ = false;
    params_ = lessons::step_parameters(shown);
    playing = false;
    play_position = static_cast<double>(params_[P::position]);
    history_.record("reveal step " + std::to_string(lesson_step_ + 1), before, snapshot());
    // as arriving at the step says it (the answer is in the lesson window): the step looks as --lesson N shows it
    set_status("Lesson step " + std::to_string(lesson_step_ + 1) + " of " + std::to_string(lesson_->steps.size()) + ": " + shown.title);
}

bool AppState::edit_lesson(const std::string& label, const std::function<void(lessons::Lesson&)>& edit, int step, const std::string& gesture,
                           bool shows_step, bool new_file) {
    lessons::Lesson copy = *lesson_;
    try {
        edit(copy);
        if (copy.steps.empty()) throw session::SessionError("a lesson has at least one step");
        lessons::parse_lesson(lessons::lesson_json(copy), "the edited lesson");  // every step still reads back
    } catch (const std::exception& e) {
        set_status("Refused (" + label + "): " + e.what(), true);
        return false;
    }
    const Snapshot before = snapshot();
    lesson_ = std::make_shared<const lessons::Lesson>(std::move(copy));
    if (new_file) lesson_file_.clear();  // a new lesson is no file's until saved
    const int steps = static_cast<int>(lesson_->steps.size());
    const int at = step < 0 ? -1 : std::min(step, steps - 1);
    const lessons::Step* open = at >= 0 ? &lesson_->steps[static_cast<std::size_t>(at)] : nullptr;
    if (shows_step && open) {
        show_step(at, false);  // the step's own picture (a step deleted or made: what the lesson now shows there)
    } else {
        // the view stays; a question still asked stays asked only where the step still asks it
        asking_ = asking_ && at == lesson_step_ && open && open->question.has_value();
        if (!asking_ && before.asking && open) params_ = lessons::step_parameters(*open);
        lesson_step_ = at;
    }
    history_.record(label, before, snapshot(), gesture);
    set_status(label.empty() ? "" : std::string(1, static_cast<char>(std::toupper(static_cast<unsigned char>(label[0])))) + label.substr(1) +
                                        (lesson_file_.empty() ? " (an unsaved lesson: Save lesson keeps it)" : " (unsaved: Save lesson writes " + lesson_file_ + ")"));
    return true;
}

void AppState::close_lesson() {
    lesson_step_ = -1;
    asking_ = false;
}

void AppState::end_gesture() { history_.end_gesture(); }

void AppState::restore(const Snapshot& s) {
    const bool lesson_moved = s.lesson_step != lesson_step_ || s.lesson != lesson_;
    params_ = s.params;
    if (s.lesson) lesson_ = s.lesson, lesson_file_ = s.lesson_file;
    // (a step of a lesson opened before this one: a number this lesson may not have)
    lesson_step_ = s.lesson_step < static_cast<int>(lesson_->steps.size()) ? s.lesson_step : -1;
    asking_ = s.asking && lesson_step_ >= 0 && lesson_->steps[static_cast<std::size_t>(lesson_step_)].question.has_value();
    playing = false;
    play_position = static_cast<double>(params_[P::position]);
    if (lesson_moved && lesson_step_ >= 0) {
        // the restored step's panel in view, as stepping there shows it
        page = lesson_->steps[static_cast<std::size_t>(lesson_step_)].panel->page;
        if (maximized >= 0 && figures::figure_at(maximized).page != page) maximized = -1;
    }
}

bool AppState::undo() { return step_history(false); }
bool AppState::redo() { return step_history(true); }

// One undo or redo: the entry's other side restored, and said on the status line.
bool AppState::step_history(bool forward) {
    const auto e = forward ? history_.redo() : history_.undo();
    if (!e) {
        set_status(forward ? "Nothing to redo." : "Nothing to undo.");
        return false;
    }
    const ParamSet& from = forward ? e->before.params : e->after.params;
    const Snapshot& to = forward ? e->after : e->before;
    const std::string what = describe_change(from, to.params);
    restore(to);
    set_status((forward ? "Redone: " : "Undone: ") + step_text(e->label, what) + (forward || touch ? "." : ". Ctrl+Shift+Z redoes it."));  // (a finger: the bar's Redo)
    return true;
}

void toggle_maximized(AppState& state, int panel) {
    state.page = figures::figure_at(panel).page;
    state.maximized = state.maximized == panel ? -1 : panel;
}

const figures::FigureDescriptor* lesson_panel(const AppState& state) {
    const auto& steps = state.lesson().steps;
    const int step = state.lesson_step();
    if (step < 0 || step >= static_cast<int>(steps.size())) return nullptr;
    return steps[static_cast<std::size_t>(step)].panel;
}

float next_ui_zoom(float zoom, int step) {
    static constexpr float kSteps[] = {0.5f, 0.67f, 0.75f, 0.8f, 0.9f, 1.0f, 1.1f, 1.25f, 1.5f, 1.75f, 2.0f, 2.5f, 3.0f};
    if (step == 0) return 1.0f;
    if (step > 0) {
        for (float s : kSteps)
            if (s > zoom + 1e-3f) return s;
        return kSteps[std::size(kSteps) - 1];
    }
    for (auto s = std::rbegin(kSteps); s != std::rend(kSteps); ++s)
        if (*s < zoom - 1e-3f) return *s;
    return kSteps[0];
}

bool panel_shown(const AppState& state, int panel) {
    return state.maximized >= 0 ? state.maximized == panel : figures::figure_at(panel).page == state.page;
}

plot::ThemeId effective_theme(const AppState& state) {
    return state.presentation ? plot::ThemeId::high_contrast : state.theme;
}

std::string lesson_focus(const AppState& state, const figures::FigureDescriptor& figure) {
    const int step = state.lesson_step();
    if (step < 0 || lesson_panel(state) != &figure) return "";
    return state.lesson().steps[static_cast<std::size_t>(step)].focus;
}

plot::Style screen_style(const AppState& state, const figures::FigureDescriptor* figure) {
    plot::Style s = plot::screen_style(effective_theme(state), state.ui_scale, state.presentation);
    if (figure) s.focus = lesson_focus(state, *figure);
    return s;
}

session::Session current_session(const AppState& state) {
    session::Session s;
    s.params = state.params();
    s.view.maximized = state.maximized;
    s.view.page = state.page;
    s.view.theme = plot::theme_name(state.theme);
    s.view.presentation = state.presentation;
    s.view.lesson_step = state.lesson_step();
    s.view.playing = state.playing;
    s.view.reduced_motion = state.reduced_motion;
    s.view.speed = state.speed;
    s.view.lesson_file = state.lesson_file();
    return s;
}

int session_lesson_step(const session::Session& s, const lessons::Lesson& lesson) {
    const int steps = static_cast<int>(lesson.steps.size());
    return s.view.lesson_step < steps ? s.view.lesson_step : -1;
}

void apply_session(AppState& state, const session::Session& s, const std::string& label) {
    state.replace(label, s.params, session_lesson_step(s, state.lesson()));
    apply_view(state, s.view);
}

void apply_view(AppState& state, const session::ViewState& view) {
    state.maximized = view.maximized;
    state.page = state.maximized >= 0 ? figures::figure_at(state.maximized).page : view.page;
    state.theme = plot::theme_from_name(view.theme).value_or(plot::ThemeId::dark);
    state.presentation = view.presentation;
    // less motion is the reader's: a file can ask for it, never take it away
    state.reduced_motion = state.reduced_motion || view.reduced_motion;
    state.playing = view.playing && !state.reduced_motion;  // with less motion Play starts only when asked
    state.speed = view.speed;
    state.play_position = static_cast<double>(state.params()[P::position]);
}

}  // namespace rope::gui
