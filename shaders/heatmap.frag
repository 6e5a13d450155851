#version 330 core
// Colours a grid of scalar values (one float per cell, computed in double on the CPU and only then
// narrowed, so far positions keep their angle) through a 256-entry colormap.
// Cyclic maps wrap (the colormap texture uses GL_REPEAT, so interpolation crosses the seam);
// the others clamp. The same mapping as plot::colormap_color on the CPU for files.
uniform sampler2D Values;
uniform sampler2D Colormap;
uniform float VMin;
uniform float VMax;
uniform int Cyclic;
in vec2 Frag_UV;
out vec4 Out_Color;
void main() {
    float v = texture(Values, Frag_UV).r;
    float t = (v - VMin) / (VMax - VMin);
    t = (Cyclic == 1) ? fract(t) : clamp(t, 0.0, 1.0);
    Out_Color = vec4(texture(Colormap, vec2(t, 0.5)).rgb, 1.0);
}
