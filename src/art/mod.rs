//! The game's look, shared by the window (`view/`) and the pictures the
//! designers' tools draw without one (`design/render.rs`): the tileset and
//! icon sheet built into the binary, and the palette.

pub mod figures;
pub mod palette;
pub mod tiles;
pub mod vision;
