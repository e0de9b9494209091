//! `skirmish new NAME --size WxH`: a starter level that `check` and `lint`
//! accept — a walled map, two sides, one unit each, facing each other
//! across open floor — for a designer to grow from.

use crate::load::MAX_MAP_SIDE;

/// The smallest starter map: the walls plus four floor columns, so the two
/// units start out of each other's reach (R4.4), and one floor row.
pub const MIN_SIZE: (usize, usize) = (6, 3);

/// The RON text of a starter level called `name`, `width`×`height` tiles
/// walls included, or why that size cannot be one.
pub fn starter_level(name: &str, width: usize, height: usize) -> Result<String, String> {
    let (min_w, min_h) = MIN_SIZE;
    if width < min_w || height < min_h || width > MAX_MAP_SIDE || height > MAX_MAP_SIDE {
        return Err(format!(
            "a starter level is at least {min_w}x{min_h} and at most \
             {MAX_MAP_SIDE}x{MAX_MAP_SIDE} tiles, walls included (asked: {width}x{height})"
        ));
    }
    let wall = "#".repeat(width);
    let floor = format!("#{}#", ".".repeat(width - 2));
    let rows: Vec<String> = (0..height)
        .map(|y| {
            let row = if y == 0 || y == height - 1 {
                &wall
            } else {
                &floor
            };
            format!("        \"{row}\",")
        })
        .collect();
    let y = height / 2;
    let name = name.replace('\\', "\\\\").replace('"', "\\\"");
    Ok(format!(
        r#"// A starter level from `skirmish new`. The schema: levels/README.md.
Level(
    name: "{name}",
    description: "A new level: two sides, one unit each.",
    map: [
{rows}
    ],
    sides: [
        (name: "Blue", control: Human),
        (name: "Red", control: Ai),
    ],
    units: [
        (name: "Ila", side: "Blue", template: "warden", at: (1, {y}), facing: E),
        (name: "Brakka", side: "Red", template: "raider", at: ({x}, {y}), facing: W),
    ],
    victory: [Eliminate],
    round_limit: 20,
)
"#,
        rows = rows.join("\n"),
        x = width - 2,
    ))
}
