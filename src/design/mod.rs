//! The designers' tools: warnings about a level (`lint`), a picture of it
//! without a window (`render`), and a starter level (`new`).

pub mod lint;
pub mod render;
pub mod starter;
