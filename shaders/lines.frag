#version 410 core
uniform vec4 uColor; // sRGB-encoded, written as is like the lit shader's output
out vec4 fragColor;
void main() {
    fragColor = uColor;
}
