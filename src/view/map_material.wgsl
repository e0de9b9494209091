// The battlefield in one pass: the terrain image (drawn once from the
// tilemap), its relief (V9.1: higher ground lighter, a shadow at the foot of
// every rise, a dark lip on every ledge), and the overlay's tint (one
// texel per tile) mixed over it.
#import bevy_sprite::mesh2d_vertex_output::VertexOutput

@group(#{MATERIAL_BIND_GROUP}) @binding(0) var terrain: texture_2d<f32>;
@group(#{MATERIAL_BIND_GROUP}) @binding(1) var terrain_sampler: sampler;
@group(#{MATERIAL_BIND_GROUP}) @binding(2) var overlay: texture_2d<f32>;
@group(#{MATERIAL_BIND_GROUP}) @binding(3) var overlay_sampler: sampler;
@group(#{MATERIAL_BIND_GROUP}) @binding(4) var far: texture_2d<f32>;
@group(#{MATERIAL_BIND_GROUP}) @binding(5) var far_sampler: sampler;
@group(#{MATERIAL_BIND_GROUP}) @binding(6) var relief: texture_2d<f32>;
@group(#{MATERIAL_BIND_GROUP}) @binding(7) var relief_sampler: sampler;

// A relief texel's red channel per metre, green per step of darkness (see
// `map.rs`).
const PER_METRE: f32 = 28.0;
const PER_SHADE: f32 = 100.0;

// The height in metres of tile `t`, clamped to the map.
fn height_at(t: vec2<i32>, dims: vec2<i32>) -> f32 {
    let c = clamp(t, vec2<i32>(0), dims - vec2<i32>(1));
    return round(textureLoad(relief, c, 0).r * 255.0 / PER_METRE);
}

// The ground's colour shaded by its relief: lighter the higher it stands,
// shadowed near a higher neighbour (deeper and wider the higher it rises),
// with a light rim along a 1 m step down and a dark lip along a ledge
// (2 m or more: V9.1's jump-or-fall edge).
fn shade_relief(rgb_in: vec3<f32>, uv: vec2<f32>) -> vec3<f32> {
    let dims = vec2<i32>(textureDimensions(relief));
    let cell = uv * vec2<f32>(dims);
    let t = vec2<i32>(floor(cell));
    let f = fract(cell);
    let h = height_at(t, dims);
    // A metre is a clear step lighter: 1 m and 2 m must read apart.
    var rgb = mix(rgb_in, vec3<f32>(1.0), min(h * 0.11, 0.5));
    // A line at least a pixel and a half wide, in tiles.
    let px = max(fwidth(cell.x), fwidth(cell.y));
    let line = max(0.07, 1.5 * px);
    let sides = array<vec2<i32>, 4>(vec2(-1, 0), vec2(1, 0), vec2(0, -1), vec2(0, 1));
    let gaps = array<f32, 4>(f.x, 1.0 - f.x, f.y, 1.0 - f.y);
    for (var i = 0; i < 4; i++) {
        let diff = height_at(t + sides[i], dims) - h;
        let d = gaps[i];
        if diff > 0.5 {
            let rise = min(diff, 4.0);
            let band = 0.12 + 0.08 * rise;
            let s = 1.0 - smoothstep(0.0, band, d);
            rgb *= 1.0 - s * (0.25 + 0.08 * rise);
        } else if diff < -1.5 {
            if d < line {
                rgb = mix(rgb, vec3<f32>(0.08, 0.06, 0.05), 0.85);
            }
        } else if diff < -0.5 {
            if d < line {
                rgb = mix(rgb, vec3<f32>(1.0, 0.98, 0.9), 0.45);
            }
        }
    }
    return rgb;
}

// Night and fog (V8.3, V8.1): a dim tile darker and bluer, a dark one more;
// a tile the side at the window does not see (blue channel set) greyed
// and darkened, its terrain still readable.
fn shade_night_and_fog(rgb_in: vec3<f32>, uv: vec2<f32>) -> vec3<f32> {
    let dims = vec2<i32>(textureDimensions(relief));
    let t = clamp(vec2<i32>(floor(uv * vec2<f32>(dims))), vec2<i32>(0), dims - vec2<i32>(1));
    let texel = textureLoad(relief, t, 0);
    let dark = min(round(texel.g * 255.0 / PER_SHADE), 2.0);
    var rgb = rgb_in;
    if dark > 1.5 {
        rgb = rgb * vec3<f32>(0.14, 0.17, 0.42);
    } else if dark > 0.5 {
        rgb = rgb * vec3<f32>(0.36, 0.42, 0.72);
    }
    if texel.b > 0.5 {
        // Unseen: grey, darker, and hatched, so it never reads as a dark
        // tile's shade.
        let grey = dot(rgb, vec3<f32>(0.3, 0.59, 0.11));
        let cell = uv * vec2<f32>(dims);
        let hatch = select(1.0, 0.75, fract((cell.x + cell.y) * 3.0) < 0.35);
        rgb = mix(rgb, vec3<f32>(grey), 0.75) * 0.3 * hatch;
    }
    return rgb;
}

// Terrain texels to a screen pixel from which the shrunk terrain is shown.
const FAR_FROM: f32 = 2.0;

@fragment
fn fragment(mesh: VertexOutput) -> @location(0) vec4<f32> {
    // Zoomed out, the terrain shrunk by averaging (`shrink.wgsl`): one
    // texel picked of the several under a pixel would show a tile's edge
    // in some columns and skip it in the next.
    let texels = fwidth(mesh.uv) * vec2<f32>(textureDimensions(terrain));
    var ground: vec4<f32>;
    if max(texels.x, texels.y) > FAR_FROM {
        ground = textureSampleLevel(far, far_sampler, mesh.uv, 0.0);
    } else {
        ground = textureSampleLevel(terrain, terrain_sampler, mesh.uv, 0.0);
    }
    let shaded = shade_night_and_fog(shade_relief(ground.rgb, mesh.uv), mesh.uv);
    let tint = textureSample(overlay, overlay_sampler, mesh.uv);
    // As alpha blending the tint over the ground would, in linear colour.
    return vec4(mix(shaded, tint.rgb, tint.a), 1.0);
}
