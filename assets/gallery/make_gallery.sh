#!/usr/bin/env bash
# The README's pictures, taken by the game's own --screenshot in a virtual
# display: `assets/gallery/make_gallery.sh` from the repository's root
# (needs xvfb-run and a Vulkan driver, as the window does; builds the game
# first). Each picture is 1280×720, the settings at their defaults.
set -euo pipefail
cd "$(dirname "$0")/../.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/skirmish-target}"
cargo build --release
game="$CARGO_TARGET_DIR/release/skirmish"
out=assets/gallery
# No settings file: the default palette and scale.
export SKIRMISH_CONFIG_DIR="$(mktemp -d)"
shoot() { xvfb-run -a -s "-screen 0 1280x720x24" "$@" 2>/dev/null >/dev/null; }

echo "the level menu"
SKIRMISH_SCREENSHOT="$PWD/$out/menu.png" shoot "$game"
echo "an attack hovered: the archer Bran aims at Orm across the ford"
shoot "$game" play levels/ford.ron --hover 7,8 --overlay line,range --screenshot "$out/attack.png"
echo "an AI turn as it happens: the shield wall's first clash"
shoot "$game" play levels/shieldwall.ron --watch --speed 0.5 --shot-after 40 --screenshot "$out/ai_turn.png"
echo "the rules tour: flanking"
shoot "$game" tour --demo 3 --step 2 --screenshot "$out/tour.png"
echo "the level editor"
shoot "$game" edit levels/ford.ron --screenshot "$out/editor.png"
echo "the end of a battle"
shoot "$game" play levels/ford.ron --watch --speed 64 --screenshot "$out/end.png"
ls -l "$out"/*.png
