// The terrain shrunk to a quarter of its size, drawn once: each texel the
// mean of the 4x4 terrain texels under it. The map shows it when zoomed
// out, where one terrain texel picked per screen pixel would show a tile's
// edge in some columns and skip it in the next.
#import bevy_sprite::mesh2d_vertex_output::VertexOutput

@group(#{MATERIAL_BIND_GROUP}) @binding(0) var terrain: texture_2d<f32>;

@fragment
fn fragment(mesh: VertexOutput) -> @location(0) vec4<f32> {
    let size = vec2<i32>(textureDimensions(terrain));
    let corner = vec2<i32>(floor(mesh.uv * vec2<f32>(size / 4))) * 4;
    var sum = vec4(0.0);
    for (var y = 0; y < 4; y++) {
        for (var x = 0; x < 4; x++) {
            sum += textureLoad(terrain, min(corner + vec2(x, y), size - 1), 0);
        }
    }
    // Alpha too: the shrunk image is opaque only where all the terrain
    // under it was drawn (see `terrain_cache`).
    return sum / 16.0;
}
