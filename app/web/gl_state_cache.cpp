// The GL state that Dear ImGui's OpenGL 3 renderer saves and restores around each draw, and our
// heatmap callback asks for, answered from a record kept here instead of by WebGL. In a browser every
// glGetIntegerv and glIsEnabled is a synchronous round trip to the GPU process that waits for every
// command queued before it: twenty of them per draw took 88% of the page's frame time (sampled in
// Chromium). The functions that change those states are defined here too (the page's one GL context
// is changed only through them), each recording the new state and passing the call on to WebGL
// (emscripten's emscripten_gl* entry points); anything else is asked of WebGL as before.
#include <GLES3/gl3.h>
#include <webgl/webgl1.h>
#include <webgl/webgl2.h>

#include <algorithm>
#include <array>

namespace {

struct GlState {
    GLenum active_texture = GL_TEXTURE0;
    GLuint program = 0;
    std::array<GLuint, 32> texture_2d{};  // by texture unit
    std::array<GLuint, 32> sampler{};
    GLuint array_buffer = 0, vertex_array = 0;
    GLint viewport[4] = {0, 0, 0, 0}, scissor_box[4] = {0, 0, 0, 0};
    GLenum blend_src_rgb = GL_ONE, blend_dst_rgb = GL_ZERO, blend_src_alpha = GL_ONE, blend_dst_alpha = GL_ZERO;
    GLenum blend_equation_rgb = GL_FUNC_ADD, blend_equation_alpha = GL_FUNC_ADD;
    bool blend = false, cull_face = false, depth_test = false, stencil_test = false, scissor_test = false;
    bool boxes_read = false;  // the viewport and scissor box WebGL started with, read once
};

GlState& state() {
    static GlState s;
    return s;
}

std::size_t unit() { return std::min<std::size_t>(state().active_texture - GL_TEXTURE0, 31); }

bool* flag(GLenum cap) {
    GlState& s = state();
    switch (cap) {
        case GL_BLEND: return &s.blend;
        case GL_CULL_FACE: return &s.cull_face;
        case GL_DEPTH_TEST: return &s.depth_test;
        case GL_STENCIL_TEST: return &s.stencil_test;
        case GL_SCISSOR_TEST: return &s.scissor_test;
        default: return nullptr;
    }
}

void read_boxes() {
    GlState& s = state();
    if (s.boxes_read) return;
    emscripten_glGetIntegerv(GL_VIEWPORT, s.viewport);
    emscripten_glGetIntegerv(GL_SCISSOR_BOX, s.scissor_box);
    s.boxes_read = true;
}

}  // namespace

extern "C" {

void glActiveTexture(GLenum texture) {
    state().active_texture = texture;
    emscripten_glActiveTexture(texture);
}
void glUseProgram(GLuint program) {
    state().program = program;
    emscripten_glUseProgram(program);
}
void glBindTexture(GLenum target, GLuint texture) {
    if (target == GL_TEXTURE_2D) state().texture_2d[unit()] = texture;
    emscripten_glBindTexture(target, texture);
}
void glBindSampler(GLuint unit_index, GLuint sampler) {
    state().sampler[std::min<GLuint>(unit_index, 31)] = sampler;
    emscripten_glBindSampler(unit_index, sampler);
}
void glBindBuffer(GLenum target, GLuint buffer) {
    if (target == GL_ARRAY_BUFFER) state().array_buffer = buffer;
    emscripten_glBindBuffer(target, buffer);
}
void glBindVertexArray(GLuint array) {
    state().vertex_array = array;
    emscripten_glBindVertexArray(array);
}
void glViewport(GLint x, GLint y, GLsizei width, GLsizei height) {
    GlState& s = state();
    s.boxes_read = true;
    s.viewport[0] = x, s.viewport[1] = y, s.viewport[2] = width, s.viewport[3] = height;
    emscripten_glViewport(x, y, width, height);
}
void glScissor(GLint x, GLint y, GLsizei width, GLsizei height) {
    read_boxes();
    GlState& s = state();
    s.scissor_box[0] = x, s.scissor_box[1] = y, s.scissor_box[2] = width, s.scissor_box[3] = height;
    emscripten_glScissor(x, y, width, height);
}
void glBlendFunc(GLenum src, GLenum dst) {
    GlState& s = state();
    s.blend_src_rgb = s.blend_src_alpha = src;
    s.blend_dst_rgb = s.blend_dst_alpha = dst;
    emscripten_glBlendFunc(src, dst);
}
void glBlendFuncSeparate(GLenum src_rgb, GLenum dst_rgb, GLenum src_alpha, GLenum dst_alpha) {
    GlState& s = state();
    s.blend_src_rgb = src_rgb, s.blend_dst_rgb = dst_rgb, s.blend_src_alpha = src_alpha, s.blend_dst_alpha = dst_alpha;
    emscripten_glBlendFuncSeparate(src_rgb, dst_rgb, src_alpha, dst_alpha);
}
void glBlendEquation(GLenum mode) {
    state().blend_equation_rgb = state().blend_equation_alpha = mode;
    emscripten_glBlendEquation(mode);
}
void glBlendEquationSeparate(GLenum rgb, GLenum alpha) {
    state().blend_equation_rgb = rgb;
    state().blend_equation_alpha = alpha;
    emscripten_glBlendEquationSeparate(rgb, alpha);
}
void glEnable(GLenum cap) {
    if (bool* f = flag(cap)) *f = true;
    emscripten_glEnable(cap);
}
void glDisable(GLenum cap) {
    if (bool* f = flag(cap)) *f = false;
    emscripten_glDisable(cap);
}
// A deleted object that was bound is unbound by GL: so in the record.
void glDeleteTextures(GLsizei n, const GLuint* textures) {
    for (GLsizei i = 0; i < n; ++i)
        for (GLuint& bound : state().texture_2d)
            if (bound == textures[i]) bound = 0;
    emscripten_glDeleteTextures(n, textures);
}
void glDeleteBuffers(GLsizei n, const GLuint* buffers) {
    for (GLsizei i = 0; i < n; ++i)
        if (state().array_buffer == buffers[i]) state().array_buffer = 0;
    emscripten_glDeleteBuffers(n, buffers);
}
void glDeleteVertexArrays(GLsizei n, const GLuint* arrays) {
    for (GLsizei i = 0; i < n; ++i)
        if (state().vertex_array == arrays[i]) state().vertex_array = 0;
    emscripten_glDeleteVertexArrays(n, arrays);
}
void glDeleteProgram(GLuint program) {
    if (state().program == program) state().program = 0;  // (GL keeps it until unused; nobody draws with it after)
    emscripten_glDeleteProgram(program);
}

GLboolean glIsEnabled(GLenum cap) {
    if (const bool* f = flag(cap)) return *f ? GL_TRUE : GL_FALSE;
    return emscripten_glIsEnabled(cap);
}

void glGetIntegerv(GLenum pname, GLint* data) {
    GlState& s = state();
    switch (pname) {
        case GL_ACTIVE_TEXTURE: *data = static_cast<GLint>(s.active_texture); return;
        case GL_CURRENT_PROGRAM: *data = static_cast<GLint>(s.program); return;
        case GL_TEXTURE_BINDING_2D: *data = static_cast<GLint>(s.texture_2d[unit()]); return;
        case GL_SAMPLER_BINDING: *data = static_cast<GLint>(s.sampler[unit()]); return;
        case GL_ARRAY_BUFFER_BINDING: *data = static_cast<GLint>(s.array_buffer); return;
        case GL_VERTEX_ARRAY_BINDING: *data = static_cast<GLint>(s.vertex_array); return;
        case GL_VIEWPORT: read_boxes(); std::copy_n(s.viewport, 4, data); return;
        case GL_SCISSOR_BOX: read_boxes(); std::copy_n(s.scissor_box, 4, data); return;
        case GL_BLEND_SRC_RGB: *data = static_cast<GLint>(s.blend_src_rgb); return;
        case GL_BLEND_DST_RGB: *data = static_cast<GLint>(s.blend_dst_rgb); return;
        case GL_BLEND_SRC_ALPHA: *data = static_cast<GLint>(s.blend_src_alpha); return;
        case GL_BLEND_DST_ALPHA: *data = static_cast<GLint>(s.blend_dst_alpha); return;
        case GL_BLEND_EQUATION_RGB: *data = static_cast<GLint>(s.blend_equation_rgb); return;
        case GL_BLEND_EQUATION_ALPHA: *data = static_cast<GLint>(s.blend_equation_alpha); return;
        default: emscripten_glGetIntegerv(pname, data);
    }
}

}  // extern "C"
