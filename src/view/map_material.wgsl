// The battlefield in one pass: the terrain image (drawn once from the
// tilemap) with the overlay's tint (one texel per tile) mixed over it.
#import bevy_sprite::mesh2d_vertex_output::VertexOutput

@group(#{MATERIAL_BIND_GROUP}) @binding(0) var terrain: texture_2d<f32>;
@group(#{MATERIAL_BIND_GROUP}) @binding(1) var terrain_sampler: sampler;
@group(#{MATERIAL_BIND_GROUP}) @binding(2) var overlay: texture_2d<f32>;
@group(#{MATERIAL_BIND_GROUP}) @binding(3) var overlay_sampler: sampler;

@fragment
fn fragment(mesh: VertexOutput) -> @location(0) vec4<f32> {
    let ground = textureSample(terrain, terrain_sampler, mesh.uv);
    let tint = textureSample(overlay, overlay_sampler, mesh.uv);
    // As alpha blending the tint over the ground would, in linear colour.
    return vec4(mix(ground.rgb, tint.rgb, tint.a), 1.0);
}
