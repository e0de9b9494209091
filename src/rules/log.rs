//! The combat log: every roll, modifier (with its source and R-id), total,
//! degree and damage, in order. Scenarios search it; the view shows it.

use bevy::prelude::*;

/// Lines of the combat log, oldest first.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct CombatLog {
    lines: Vec<String>,
}

impl CombatLog {
    /// Appends a line.
    pub fn push(&mut self, line: impl Into<String>) {
        self.lines.push(line.into());
    }

    /// All lines.
    pub fn lines(&self) -> &[String] {
        &self.lines
    }

    /// The whole log as text, a line each.
    pub fn text(&self) -> String {
        let mut out = self.lines.join("\n");
        out.push('\n');
        out
    }

    /// True when some line contains `needle`, ignoring case.
    pub fn contains(&self, needle: &str) -> bool {
        let needle = needle.to_lowercase();
        self.lines
            .iter()
            .any(|l| l.to_lowercase().contains(&needle))
    }
}

/// Appends a line to the world's combat log.
pub fn log(world: &mut World, line: impl Into<String>) {
    world.resource_mut::<CombatLog>().push(line);
}
