#version 330 core
// Heatmap quad: the same vertex layout as Dear ImGui's (Position, UV, Color), so the quad is an
// ordinary ImDrawList image drawn with this program bound by a draw callback.
uniform mat4 ProjMtx;
in vec2 Position;
in vec2 UV;
in vec4 Color;
out vec2 Frag_UV;
void main() {
    Frag_UV = UV;
    gl_Position = ProjMtx * vec4(Position.xy, 0.0, 1.0);
}
