// The ground shadow pass: with uShadowPass 1 every posed vertex slides
// along the key light (uShadow.xyz, the direction it travels) onto the
// plane y = uShadow.w, and the fragment shader draws it as shadow.
uniform vec4 uShadow;
uniform int uShadowPass;

vec3 toGround(vec3 world) {
    if (uShadowPass == 0) {
        return world;
    }
    // A light grazing the plane would throw the shadow to infinity.
    float dy = min(uShadow.y, -0.05);
    return world - uShadow.xyz * ((world.y - uShadow.w) / dy);
}
