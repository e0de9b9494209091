//! What die ranks' events carry (V6).

use crate::battle::UnitId;
use crate::format::Guard;
use serde::{Deserialize, Serialize};

/// The AP a unit owes its next turn for its interrupts (V6.6).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Debt {
    /// Who owes.
    pub unit: UnitId,
    /// The debt: after the interrupt, or paid as its turn starts.
    pub owed: i32,
    /// The active defence that added to it (V6.5); `None` when paid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub guard: Option<Guard>,
}
