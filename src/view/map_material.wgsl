// The battlefield in one pass: the terrain image (drawn once from the
// tilemap) with the overlay's tint (one texel per tile) mixed over it.
#import bevy_sprite::mesh2d_vertex_output::VertexOutput

@group(#{MATERIAL_BIND_GROUP}) @binding(0) var terrain: texture_2d<f32>;
@group(#{MATERIAL_BIND_GROUP}) @binding(1) var terrain_sampler: sampler;
@group(#{MATERIAL_BIND_GROUP}) @binding(2) var overlay: texture_2d<f32>;
@group(#{MATERIAL_BIND_GROUP}) @binding(3) var overlay_sampler: sampler;
@group(#{MATERIAL_BIND_GROUP}) @binding(4) var far: texture_2d<f32>;
@group(#{MATERIAL_BIND_GROUP}) @binding(5) var far_sampler: sampler;

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
    let tint = textureSample(overlay, overlay_sampler, mesh.uv);
    // As alpha blending the tint over the ground would, in linear colour.
    return vec4(mix(ground.rgb, tint.rgb, tint.a), 1.0);
}
