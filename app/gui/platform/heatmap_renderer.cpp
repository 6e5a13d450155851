#include "gui/platform/heatmap_renderer.hpp"

#include "gui/platform/gl_api.hpp"
#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "plot/colormap.hpp"
#include "shader_sources.hpp"

namespace rope::gui {

namespace {

GLuint compile(GLenum type, const char* shader) {
    const std::string text = glsl_for_this_build(shader);
    const char* source = text.c_str();
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

// The strip's values and fade weights are what `owner`'s texture holds: image after image, and
// weights (1 for an image without) only where some image has them. Compared piece by piece, so that
// an unchanged picture (a large heatmap) costs no copy.
bool holds(const HeatmapTexture& owner, const std::vector<const plot::ImageCmd*>& strip) {
    bool weighted = false;
    for (const plot::ImageCmd* image : strip) weighted = weighted || !image->weights.empty();
    if (weighted == owner.uploaded_weights.empty()) return false;
    std::size_t at = 0;
    for (const plot::ImageCmd* image : strip) {
        const std::size_t n = image->values.size();
        if (owner.uploaded.size() < at + n) return false;
        const auto from = owner.uploaded.begin() + static_cast<std::ptrdiff_t>(at);
        if (!std::equal(image->values.begin(), image->values.end(), from)) return false;
        if (weighted) {
            const auto w = owner.uploaded_weights.begin() + static_cast<std::ptrdiff_t>(at);
            if (image->weights.empty() ? !std::all_of(w, w + static_cast<std::ptrdiff_t>(n), [](float x) { return x == 1.0f; })
                                       : !std::equal(image->weights.begin(), image->weights.end(), w))
                return false;
        }
        at += n;
    }
    return at == owner.uploaded.size();
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

void HeatmapRenderer::upload(const std::vector<const plot::ImageCmd*>& strip, HeatmapTexture* slots) {
    const plot::ImageCmd& first = *strip.front();
    const int count = static_cast<int>(strip.size()), cols = first.cols, rows = first.rows;
    const int width = count * (cols + 1) - 1;  // a column apart (each quad's u range is its own cells)
    HeatmapTexture& owner = slots[0];
    if (!owner.owner) owner = HeatmapTexture();  // it was part of another slot's strip: that slot's texture is not its own
    for (int i = 1; i < count; ++i)
        if (slots[i].owner) release(slots[i]);  // a texture of its own from an earlier frame
    const bool same_size = owner.texture && owner.texture_cols == width && owner.rows == rows;
    for (int i = 0; i < count; ++i) {
        HeatmapTexture& slot = slots[i];
        slot.renderer = this;
        slot.owner = i == 0;
        slot.cols = cols;
        slot.rows = rows;
        slot.u0 = static_cast<float>(i * (cols + 1)) / static_cast<float>(width);
        slot.u1 = static_cast<float>(i * (cols + 1) + cols) / static_cast<float>(width);
        slot.colormap = strip[static_cast<std::size_t>(i)]->colormap;
        slot.vmin = strip[static_cast<std::size_t>(i)]->vmin;
        slot.vmax = strip[static_cast<std::size_t>(i)]->vmax;
    }
    // Software GL copies (and re-tiles) every upload: a strip that did not change is not sent again
    // (the base sweep's grid while the base moves), and one of the same size reuses its storage.
    if (same_size && holds(owner, strip)) {
        for (int i = 1; i < count; ++i) slots[i].texture = owner.texture;
        return;
    }
    // what the texture will hold: the strip's values image after image
    bool weighted = false;
    std::size_t cells = 0;
    for (const plot::ImageCmd* image : strip) weighted = weighted || !image->weights.empty(), cells += image->values.size();
    std::vector<float> values, weights;
    values.reserve(cells);
    if (weighted) weights.reserve(cells);
    for (const plot::ImageCmd* image : strip) {
        values.insert(values.end(), image->values.begin(), image->values.end());
        if (!weighted) continue;
        if (image->weights.empty()) weights.insert(weights.end(), image->values.size(), 1.0f);
        else weights.insert(weights.end(), image->weights.begin(), image->weights.end());
    }
    // two channels per cell: the value and its fade weight (1 where the command has none)
    std::vector<float> texels(2 * static_cast<std::size_t>(width) * static_cast<std::size_t>(rows));
    for (int i = 0; i < count; ++i) {
        const plot::ImageCmd& image = *strip[static_cast<std::size_t>(i)];
        for (int r = 0; r < rows; ++r)
            for (int c = 0; c < cols; ++c) {
                const std::size_t from = static_cast<std::size_t>(r) * static_cast<std::size_t>(cols) + static_cast<std::size_t>(c);
                const std::size_t to = 2 * (static_cast<std::size_t>(r) * static_cast<std::size_t>(width) + static_cast<std::size_t>(i * (cols + 1) + c));
                texels[to] = image.values[from];
                texels[to + 1] = image.weights.empty() ? 1.0f : image.weights[from];
                if (c == cols - 1 && i + 1 < count) {  // the gap repeats the last column, as clamping to the edge would
                    texels[to + 2] = texels[to];
                    texels[to + 3] = texels[to + 1];
                }
            }
    }
    if (!owner.texture) glGenTextures(1, &owner.texture);
    glBindTexture(GL_TEXTURE_2D, owner.texture);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    if (same_size)
        glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, width, rows, GL_RG, GL_FLOAT, texels.data());
    else
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RG32F, width, rows, 0, GL_RG, GL_FLOAT, texels.data());
    owner.uploaded = std::move(values);
    owner.uploaded_weights = std::move(weights);
    owner.texture_cols = width;
    // cells stay crisp: no interpolation between values (and none across the angle seam)
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    for (int i = 1; i < count; ++i) slots[i].texture = owner.texture;
}

void HeatmapRenderer::release(HeatmapTexture& slot) {
    if (slot.owner && slot.texture) glDeleteTextures(1, &slot.texture);  // a strip's later slots only borrow it
    slot = HeatmapTexture();
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

void HeatmapRenderer::draw(ImDrawList* list, const std::vector<Renderer::PlacedImage>& run) {
    bool bound = false;
    for (const Renderer::PlacedImage& image : run) {
        if (!image.texture->texture) continue;
        // the first image's colouring is the run's (replay() makes runs of images coloured alike)
        if (!bound) list->AddCallback(&HeatmapRenderer::bind_callback, const_cast<HeatmapTexture*>(image.texture));
        bound = true;
        const plot::Rect& r = image.rect;
        // a strip's images share one texture: consecutive quads of one texture are one draw call
        list->AddImage(reinterpret_cast<ImTextureID>(static_cast<std::uintptr_t>(image.texture->texture)), ImVec2(r.x0, r.y0),
                       ImVec2(r.x1, r.y1), ImVec2(image.texture->u0, 0), ImVec2(image.texture->u1, 1));
    }
    if (bound) list->AddCallback(ImDrawCallback_ResetRenderState, nullptr);
}

}  // namespace rope::gui
