#version 410 core
// World-space lines (the ground grid), depth-tested with the scene.
layout(location = 0) in vec3 aPosition;
uniform mat4 uViewProj;
void main() {
    gl_Position = uViewProj * vec4(aPosition, 1.0);
}
