#include "gui/presentation/pointing.hpp"

#include <GLFW/glfw3.h>

#include <algorithm>
#include <utility>

namespace rope::gui {

bool PointingTools::take(const InputEvent& e, bool presenting) {
    if (e.kind == InputEvent::Kind::move) pointer_ = ImVec2(e.x, e.y);
    // L let go (with any modifier), or the window's focus lost: the laser is off, a stroke ends
    if ((e.kind == InputEvent::Kind::key && e.code == GLFW_KEY_L && e.action == GLFW_RELEASE) || e.kind == InputEvent::Kind::focus) {
        const bool was = laser_;
        laser_ = drawing_ = false;
        if (e.kind == InputEvent::Kind::key) return was;
    }
    if (!presenting) {
        laser_ = pen_ = drawing_ = lens_ = false;
        return false;
    }
    if (e.kind == InputEvent::Kind::key && e.mods == 0) {
        if (e.code == GLFW_KEY_L) return laser_ = e.action != GLFW_RELEASE, true;  // held
        if (e.action != GLFW_PRESS) return e.code == GLFW_KEY_D || e.code == GLFW_KEY_C || e.code == GLFW_KEY_Z;
        if (e.code == GLFW_KEY_D) return pen_ = !pen_, drawing_ = false, true;
        if (e.code == GLFW_KEY_Z) return lens_ = !lens_, true;
        if (e.code == GLFW_KEY_C) return strokes_.clear(), true;
        return false;
    }
    if (!holds_pointer()) return false;
    if (e.kind == InputEvent::Kind::button && e.code == 0 && pen_) {
        drawing_ = e.action == GLFW_PRESS;
        if (drawing_) strokes_.push_back({pointer_});
    }
    if (e.kind == InputEvent::Kind::move && drawing_ && !strokes_.empty()) strokes_.back().push_back(pointer_);
    return e.kind == InputEvent::Kind::move || e.kind == InputEvent::Kind::button;
}

void PointingTools::lens_rects(ImVec2 pointer, ImVec2 window, plot::Rect& source, plot::Rect& dest) {
    const float radius = std::max(60.0f, std::min(window.x, window.y) * 0.17f);  // 122 px at 720p
    dest = {pointer.x - radius, pointer.y - radius, pointer.x + radius, pointer.y + radius};
    const float half = std::min({radius / kMagnification, window.x / 2, window.y / 2});
    const float x = std::clamp(pointer.x, half, window.x - half), y = std::clamp(pointer.y, half, window.y - half);
    source = {x - half, y - half, x + half, y + half};
}

void PointingTools::draw(const AppState& state, double now, Renderer& renderer) {
    const ImVec2 mouse = pointer_;
    if (!state.presentation) {
        strokes_.clear();
        trail_.clear();
        return;
    }
    if (state.lesson_step() != strokes_step_) strokes_.clear(), strokes_step_ = state.lesson_step();
    ImDrawList* draw = ImGui::GetForegroundDrawList();
    const float unit = std::max(2.0f, ImGui::GetIO().DisplaySize.y / 200);  // 3.6 px at 720p
    // lime green on a black edge: apart from every colour map's and series' colours, on any background
    const ImU32 ink = IM_COL32(80, 255, 40, 255), edge = IM_COL32(0, 0, 0, 255);
    for (const auto& stroke : strokes_)
        for (const auto& [colour, width] : {std::pair{edge, unit * 2.6f}, std::pair{ink, unit * 1.4f}}) {
            if (stroke.size() == 1) draw->AddCircleFilled(stroke.front(), width / 2, colour);
            else draw->AddPolyline(stroke.data(), static_cast<int>(stroke.size()), colour, ImDrawFlags_None, width);
        }
    // the laser: the dot where the pointer is, the trail fading over kTrailSeconds (none with less
    // motion: the dot alone, where the pointer is now)
    if (state.reduced_motion) trail_.clear();
    else if (laser_ && (trail_.empty() || trail_.back().at.x != mouse.x || trail_.back().at.y != mouse.y)) trail_.push_back({mouse, now});
    while (!trail_.empty() && now - trail_.front().time > kTrailSeconds && !(laser_ && trail_.size() == 1)) trail_.pop_front();
    for (std::size_t i = 1; i < trail_.size(); ++i) {
        const float fade = static_cast<float>(1 - (now - trail_[i].time) / kTrailSeconds);
        if (fade > 0) draw->AddLine(trail_[i - 1].at, trail_[i].at, IM_COL32(255, 40, 40, static_cast<int>(230 * fade)), unit * 2.4f * fade + 1);
    }
    if (laser_) {
        draw->AddCircleFilled(mouse, unit * 3.2f, IM_COL32(255, 40, 40, 90));
        draw->AddCircle(mouse, unit * 1.8f + 1, IM_COL32(0, 0, 0, 255), 0, 1.5f);
        draw->AddCircleFilled(mouse, unit * 1.8f, IM_COL32(255, 30, 30, 255));
        draw->AddCircleFilled(mouse, unit * 0.7f, IM_COL32(255, 230, 230, 255));
    }
    if (!laser_ && !trail_.empty() && now - trail_.back().time > kTrailSeconds) trail_.clear();
    if (lens_ && mouse.x >= 0 && mouse.y >= 0) draw_lens(draw, mouse, unit, renderer);
}

// The lens over everything else, the pen's strokes and the laser included (they are enlarged too).
void PointingTools::draw_lens(ImDrawList* draw, ImVec2 mouse, float unit, Renderer& renderer) {
    plot::Rect source{}, dest{};
    lens_rects(mouse, ImGui::GetIO().DisplaySize, source, dest);
    const float radius = (dest.x1 - dest.x0) / 2;
    renderer.magnify(draw, source, dest, radius);
    draw->AddCircle(mouse, radius, IM_COL32(0, 0, 0, 255), 0, unit * 1.6f);
    draw->AddCircle(mouse, radius - unit * 0.8f, IM_COL32(255, 255, 255, 255), 0, unit * 0.6f);
}

}  // namespace rope::gui
