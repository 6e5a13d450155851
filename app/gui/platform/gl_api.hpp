// The OpenGL functions the app calls itself: OpenGL 3.3 core on the desktop (prototypes from
// glcorearb.h, GL_GLEXT_PROTOTYPES), OpenGL ES 3 in the browser (WebGL 2). The calls used are in both.
#pragma once

#ifdef __EMSCRIPTEN__
#include <GLES3/gl3.h>
#else
#include <GL/glcorearb.h>
#endif

#include <cstring>
#include <string>

namespace rope::gui {

// The GLSL version ImGui's renderer and our shaders are compiled at in this build.
#ifdef __EMSCRIPTEN__
inline constexpr const char* kGlslVersion = "#version 300 es";
#else
inline constexpr const char* kGlslVersion = "#version 330 core";
#endif

// A shader of shaders/ (written for "#version 330 core", its first line) as this build compiles it:
// in the browser GLSL ES 3.00, whose floats and ints need a precision.
inline std::string glsl_for_this_build(const char* source) {
#ifdef __EMSCRIPTEN__
    const char* body = std::strchr(source, '\n');
    return std::string(kGlslVersion) + "\nprecision highp float;\nprecision highp int;\n" + (body ? body + 1 : "");
#else
    return source;
#endif
}

}  // namespace rope::gui
