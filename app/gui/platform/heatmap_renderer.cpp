#include "gui/platform/heatmap_renderer.hpp"

#include <GL/glcorearb.h>
#include <imgui.h>

#include <cstdio>

#include "plot/colormap.hpp"
#include "shader_sources.hpp"

namespace rope::gui {

namespace {

GLuint compile(GLenum type, const char* source) {
    const GLuint s = glCreateShader(type);
    glShaderSource(s, 1, &source, nullptr);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[1024];
        glGetShaderInfoLog(s, sizeof log, nullptr, log);
        std::fprintf(stderr, "rope-explorer: heatmap shader does not compile: %s\n", log);
        glDeleteShader(s);
        return 0;
    }
    return s;
}

}  // namespace

HeatmapRenderer::~HeatmapRenderer() = default;  // GL objects go with the context

void HeatmapRenderer::ensure_colormaps() {
    if (colormap_textures_[0]) return;
    glGenTextures(3, colormap_textures_);
    const plot::ColormapId ids[3] = {plot::ColormapId::cyclic, plot::ColormapId::sequential, plot::ColormapId::diverging};
    for (int i = 0; i < 3; ++i) {
        const plot::ColormapTable& t = plot::colormap_table(ids[i]);
        glBindTexture(GL_TEXTURE_2D, colormap_textures_[i]);
        glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 256, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, t.data());
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
        // cyclic maps wrap so interpolation crosses the seam; the others clamp
        const GLint wrap = ids[i] == plot::ColormapId::cyclic ? GL_REPEAT : GL_CLAMP_TO_EDGE;
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, wrap);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    }
}

void HeatmapRenderer::ensure_program() {
    if (program_ || program_failed_) return;
    // Bind our attributes where Dear ImGui's program has them: its vertex array is what we draw with.
    GLint backend = 0;
    glGetIntegerv(GL_CURRENT_PROGRAM, &backend);
    const GLint pos = backend ? glGetAttribLocation(static_cast<GLuint>(backend), "Position") : 0;
    const GLint uv = backend ? glGetAttribLocation(static_cast<GLuint>(backend), "UV") : 1;
    const GLint col = backend ? glGetAttribLocation(static_cast<GLuint>(backend), "Color") : 2;
    const GLuint vs = compile(GL_VERTEX_SHADER, kShader_heatmap_vert);
    const GLuint fs = compile(GL_FRAGMENT_SHADER, kShader_heatmap_frag);
    if (!vs || !fs) {
        program_failed_ = true;
        return;
    }
    const GLuint p = glCreateProgram();
    glAttachShader(p, vs);
    glAttachShader(p, fs);
    if (pos >= 0) glBindAttribLocation(p, static_cast<GLuint>(pos), "Position");
    if (uv >= 0) glBindAttribLocation(p, static_cast<GLuint>(uv), "UV");
    if (col >= 0) glBindAttribLocation(p, static_cast<GLuint>(col), "Color");
    glLinkProgram(p);
    glDeleteShader(vs);
    glDeleteShader(fs);
    GLint ok = 0;
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[1024];
        glGetProgramInfoLog(p, sizeof log, nullptr, log);
        std::fprintf(stderr, "rope-explorer: heatmap program does not link: %s\n", log);
        glDeleteProgram(p);
        program_failed_ = true;
        return;
    }
    program_ = p;
    loc_proj_ = glGetUniformLocation(p, "ProjMtx");
    loc_values_ = glGetUniformLocation(p, "Values");
    loc_colormap_ = glGetUniformLocation(p, "Colormap");
    loc_vmin_ = glGetUniformLocation(p, "VMin");
    loc_vmax_ = glGetUniformLocation(p, "VMax");
    loc_cyclic_ = glGetUniformLocation(p, "Cyclic");
    loc_fade_ = glGetUniformLocation(p, "Fade");
}

void HeatmapRenderer::upload(const plot::ImageCmd& image, HeatmapTexture& slot) {
    slot.renderer = this;
    // Software GL copies (and re-tiles) every upload: a grid that did not change is not sent again
    // (the base sweep's grid while the base moves), and one of the same size reuses its storage.
    const bool same_size = slot.texture && slot.cols == image.cols && slot.rows == image.rows;
    if (same_size && slot.uploaded == image.values && slot.uploaded_weights == image.weights) {
        slot.colormap = image.colormap;
        slot.vmin = image.vmin;
        slot.vmax = image.vmax;
        return;
    }
    // two channels per cell: the value and its fade weight (1 where the command has none)
    const std::size_t cells = image.values.size();
    std::vector<float> texels(2 * cells);
    for (std::size_t i = 0; i < cells; ++i) {
        texels[2 * i] = image.values[i];
        texels[2 * i + 1] = image.weights.empty() ? 1.0f : image.weights[i];
    }
    if (!slot.texture) glGenTextures(1, &slot.texture);
    glBindTexture(GL_TEXTURE_2D, slot.texture);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    if (same_size)
        glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, image.cols, image.rows, GL_RG, GL_FLOAT, texels.data());
    else
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RG32F, image.cols, image.rows, 0, GL_RG, GL_FLOAT, texels.data());
    slot.uploaded = image.values;
    slot.uploaded_weights = image.weights;
    // cells stay crisp: no interpolation between values (and none across the angle seam)
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    slot.cols = image.cols;
    slot.rows = image.rows;
    slot.colormap = image.colormap;
    slot.vmin = image.vmin;
    slot.vmax = image.vmax;
}

void HeatmapRenderer::release(HeatmapTexture& slot) {
    if (slot.texture) glDeleteTextures(1, &slot.texture);
    slot.texture = 0;
    slot.uploaded.clear();
    slot.uploaded_weights.clear();
}

void HeatmapRenderer::bind_callback(const ImDrawList*, const ImDrawCmd* cmd) {
    const auto* tex = static_cast<const HeatmapTexture*>(cmd->UserCallbackData);
    HeatmapRenderer& self = *tex->renderer;
    self.ensure_program();
    self.ensure_colormaps();
    if (!self.program_) return;  // fall back: ImGui draws the raw texture (red channel)
    const ImDrawData* dd = ImGui::GetDrawData();
    const float L = dd->DisplayPos.x, R = dd->DisplayPos.x + dd->DisplaySize.x;
    const float T = dd->DisplayPos.y, B = dd->DisplayPos.y + dd->DisplaySize.y;
    const float ortho[4][4] = {{2.0f / (R - L), 0, 0, 0},
                               {0, 2.0f / (T - B), 0, 0},
                               {0, 0, -1, 0},
                               {(R + L) / (L - R), (T + B) / (B - T), 0, 1}};
    glUseProgram(self.program_);
    glUniformMatrix4fv(self.loc_proj_, 1, GL_FALSE, &ortho[0][0]);
    glUniform1i(self.loc_values_, 0);
    glUniform1i(self.loc_colormap_, 1);
    glUniform1f(self.loc_vmin_, tex->vmin);
    glUniform1f(self.loc_vmax_, tex->vmax);
    glUniform1i(self.loc_cyclic_, tex->colormap == plot::ColormapId::cyclic ? 1 : 0);
    const plot::Color fade = plot::fade_color();
    glUniform3f(self.loc_fade_, fade.r, fade.g, fade.b);
    glActiveTexture(GL_TEXTURE1);
    const int which = tex->colormap == plot::ColormapId::cyclic ? 0 : tex->colormap == plot::ColormapId::sequential ? 1 : 2;
    glBindTexture(GL_TEXTURE_2D, self.colormap_textures_[which]);
    glActiveTexture(GL_TEXTURE0);
}

void HeatmapRenderer::draw(ImDrawList* list, const HeatmapTexture& tex, plot::Rect r) {
    if (!tex.texture) return;
    list->AddCallback(&HeatmapRenderer::bind_callback, const_cast<HeatmapTexture*>(&tex));
    list->AddImage(reinterpret_cast<ImTextureID>(static_cast<std::uintptr_t>(tex.texture)), ImVec2(r.x0, r.y0),
                   ImVec2(r.x1, r.y1));
    list->AddCallback(ImDrawCallback_ResetRenderState, nullptr);
}

}  // namespace rope::gui
