#version 330 core
// Colours a grid of scalar values (one float per cell, computed in double on the CPU and only then
// narrowed, so far positions keep their angle) through a 256-entry colormap, then fades the colour
// towards the neutral Fade grey by the square of the cell's weight (the second channel, |mean|; 1 = full colour).
// Cyclic maps wrap (the colormap texture uses GL_REPEAT, so interpolation crosses the seam);
// the others clamp. The same mapping and fade as plot::colormap_color and plot::faded on the CPU for files.
uniform sampler2D Values;
uniform sampler2D Colormap;
uniform float VMin;
uniform float VMax;
uniform int Cyclic;
uniform vec3 Fade;
in vec2 Frag_UV;
out vec4 Out_Color;
void main() {
    vec2 cell = texture(Values, Frag_UV).rg;
    float t = (cell.r - VMin) / (VMax - VMin);
    t = (Cyclic == 1) ? fract(t) : clamp(t, 0.0, 1.0);
    vec3 colour = texture(Colormap, vec2(t, 0.5)).rgb;
    float w = clamp(cell.g, 0.0, 1.0);
    Out_Color = vec4(Fade + w * w * (colour - Fade), 1.0);
}
