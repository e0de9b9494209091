//! R7 attacks and damage: the attack bonus and DV every attack gathers
//! (R7.1, R1.1), the Attack command, the roll shared by every kind of
//! attack ([`resolution`]), the hit on its way ([`hit`]), damage and armor
//! (R7.7, R1.2), the stamina techniques (R7.8), and the exact preview.

pub mod attack;
pub mod damage;
pub mod dice_odds;
pub mod hit;
pub mod preview;
mod preview_rolls;
pub mod resolution;
pub mod techniques;

use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_plugins((attack::plugin, techniques::plugin));
}
