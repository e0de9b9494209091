// Draws the unit figures: assets/units/units.png (64-pixel cells, for a
// tile seen at 24 px or more) and assets/units/units_far.png (the same
// cells drawn at 16 pixels, for a map zoomed out to fit), from the SVG
// below, with resvg.
//
//   cd assets/units && npm ci && node make_units.mjs [--preview FILE.png]
//
// Commit both PNGs. The cells' order is `Sheet` in src/view/figures.rs:
//
//   row 0  the figure of each kind (no arms, weapon or shield)
//   row 1  the same kind's side-coloured parts, in white and greys: the
//          window tints them with the side's colour
//   row 2  the arms holding each kind of weapon (or none)
//   row 3  shields, shield faces (tinted), the base (tinted), the acting
//          unit's ring, the corpse marker, then the facing wedge in the
//          eight directions N NE E SE S SW W NW
//   row 4  tokens for a map zoomed far out: each kind's sign, then the
//          disc under it (tinted); then an arrow, a bolt, a sling stone
//          and a javelin in flight
//   row 5  a knife, a bomb, an oil flask, a potion and a sack in flight,
//          a miss's swoosh, a hit's burst, a parry's clang
//
// Every figure faces east, its feet on the base at the cell's bottom; the
// window mirrors it for a unit facing west. All figures share one
// skeleton (shoulders, hands), so any arms fit any body, and any shield.
//
// All art here is original to this project (see ../CREDITS.md).

import { Resvg } from '@resvg/resvg-js';
import fs from 'fs';

const CELL = 64;
const COLUMNS = 18;

// ---------------------------------------------------------------- palette
const INK = '#1c1916';
const SKIN = '#e9b48c';
const OGRE = '#8f9a6a';
const SKIN_DARK = '#c58a63';
const STEEL = '#c9d2db';
const STEEL_DARK = '#7f8a96';
const MAIL = '#98a1ab';
const LEATHER = '#8c5a34';
const LEATHER_DARK = '#5f3a1f';
const GAMBESON = '#d6c59c';
const GAMBESON_DARK = '#a8966c';
const WOOD = '#9a6532';
const WOOD_DARK = '#60391a';
const PANTS = '#4b4f5c';
const BOOTS = '#3a2a1f';
const SLEEVE = '#6b5644';
const HORSE = '#8a5a36';
const HORSE_DARK = '#5e3b22';
const MANE = '#2b1d14';
// Tinted parts: white takes the side's colour, the grey its shade.
const TINT = '#ffffff';
const TINT_DARK = '#a6a6a6';

const W = 1.6; // outline width

// ---------------------------------------------------------------- helpers
const p = (pts) => pts.map(([x, y]) => `${x},${y}`).join(' ');
const poly = (pts, fill, w = W) =>
  `<polygon points="${p(pts)}" fill="${fill}" stroke="${INK}" stroke-width="${w}" stroke-linejoin="round"/>`;
const path = (d, fill, w = W) =>
  `<path d="${d}" fill="${fill}" stroke="${INK}" stroke-width="${w}" stroke-linejoin="round" stroke-linecap="round"/>`;
const circle = (x, y, r, fill, w = W) =>
  `<circle cx="${x}" cy="${y}" r="${r}" fill="${fill}" stroke="${INK}" stroke-width="${w}"/>`;
const ellipse = (x, y, rx, ry, fill, w = W) =>
  `<ellipse cx="${x}" cy="${y}" rx="${rx}" ry="${ry}" fill="${fill}" stroke="${INK}" stroke-width="${w}"/>`;
const rect = (x, y, w, h, fill, r = 1.5, sw = W) =>
  `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="${r}" fill="${fill}" stroke="${INK}" stroke-width="${sw}"/>`;
const line = (x1, y1, x2, y2, color, w) =>
  `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="${color}" stroke-width="${w}" stroke-linecap="round"/>`;
// A stick with an outline: a shaft, a limb.
const stick = (x1, y1, x2, y2, color, w) =>
  line(x1, y1, x2, y2, INK, w + 2 * W) + line(x1, y1, x2, y2, color, w);
const polyline = (pts, color, w) =>
  `<polyline points="${p(pts)}" fill="none" stroke="${color}" stroke-width="${w}" stroke-linecap="round" stroke-linejoin="round"/>`;
const limb = (pts, color, w) => polyline(pts, INK, w + 2 * W) + polyline(pts, color, w);
const hand = (x, y) => circle(x, y, 2.6, SKIN, 1.3);

// ---------------------------------------------------------------- skeleton
// Shoulders (near and far), the torso's box, the head.
const NEAR_SHOULDER = [35, 31];
const FAR_SHOULDER = [29, 31];
const HEAD = [32, 18.5];
const HEAD_R = 8.5;

// ---------------------------------------------------------------- bodies
function legs(pants = PANTS, boots = BOOTS, wide = 0) {
  return (
    rect(26 - wide, 44, 6 + wide, 11, pants, 1.5) +
    rect(33, 44, 6 + wide, 11, pants, 1.5) +
    path(`M${25 - wide},53 h${8 + wide} v4 h-${8 + wide} z`, boots) +
    path(`M32,53 h${9 + wide} v4 h-${9 + wide} z`, boots)
  );
}

function torso(fill, { wide = 0, pattern = '' } = {}) {
  return rect(24 - wide, 27, 16 + 2 * wide, 20, fill, 4) + pattern;
}

const mailPattern = (wide = 0) => {
  let s = '';
  for (let y = 31; y < 46; y += 3.5) s += line(26 - wide, y, 38 + wide, y, '#7d8791', 0.9);
  return s;
};
const quilt = (wide = 0) => {
  let s = '';
  for (let x = 27 - wide; x < 39 + wide; x += 4) s += line(x, 29, x, 45, GAMBESON_DARK, 0.9);
  return s;
};
const belt = (wide = 0) => rect(24 - wide, 42, 16 + 2 * wide, 3, LEATHER_DARK, 0.5, 1);

function head({ beard = null, face = SKIN } = {}) {
  const [x, y] = HEAD;
  let s = circle(x, y, HEAD_R, face);
  // The face looks east: an eye and a nose on the right.
  s += circle(x + 4.6, y - 0.5, 1.1, INK, 0);
  s += path(`M${x + 8},${y + 0.5} l2,2.5 l-2.2,0.4`, SKIN_DARK, 1.1);
  if (beard) s += path(`M${x - 2},${y + 3} Q${x + 3},${y + 12} ${x + 8},${y + 3} Q${x + 4},${y + 6} ${x},${y + 4} z`, beard, 1.2);
  return s;
}

// Headgear, over the head.
const GEAR = {
  greatHelm: () => {
    const [x, y] = HEAD;
    return (
      path(`M${x - 9},${y + 7} V${y - 4} Q${x - 9},${y - 11} ${x},${y - 11} Q${x + 9},${y - 11} ${x + 9.5},${y - 4} V${y + 7} z`, STEEL) +
      line(x + 1, y - 1, x + 9, y - 1, INK, 2) +
      line(x - 9, y + 3, x + 9.5, y + 3, STEEL_DARK, 1) +
      // A crest on top.
      path(`M${x - 4},${y - 11} Q${x - 1},${y - 17} ${x + 5},${y - 16} Q${x + 1},${y - 13} ${x + 2},${y - 11} z`, '#d9d2c0', 1.2)
    );
  },
  hood: () => {
    const [x, y] = HEAD;
    return path(
      `M${x - 10},${y + 9} Q${x - 11},${y - 10} ${x},${y - 10.5} Q${x + 8},${y - 10} ${x + 9},${y - 3} Q${x + 4},${y - 5} ${x + 1},${y - 1} Q${x - 1},${y + 5} ${x + 1},${y + 9} z`,
      TINT,
    );
  },
  hornedHelm: () => {
    const [x, y] = HEAD;
    return (
      path(`M${x - 8.5},${y - 1} Q${x - 8},${y - 10} ${x},${y - 10} Q${x + 8},${y - 10} ${x + 8.5},${y - 1} z`, STEEL) +
      line(x + 5, y - 1, x + 6, y + 5, STEEL_DARK, 2.2) +
      path(`M${x - 7},${y - 5} Q${x - 14},${y - 8} ${x - 12},${y - 16} Q${x - 10},${y - 10} ${x - 5},${y - 8} z`, '#efe6cf', 1.2) +
      path(`M${x + 5},${y - 8} Q${x + 10},${y - 11} ${x + 9},${y - 17} Q${x + 13},${y - 10} ${x + 7},${y - 5} z`, '#efe6cf', 1.2)
    );
  },
  kettleHat: () => {
    const [x, y] = HEAD;
    return (
      path(`M${x - 7},${y - 3} Q${x - 7},${y - 11} ${x},${y - 11} Q${x + 7},${y - 11} ${x + 7},${y - 3} z`, STEEL) +
      path(`M${x - 13},${y - 2} Q${x},${y - 6} ${x + 13},${y - 2} Q${x},${y} ${x - 13},${y - 2} z`, STEEL_DARK)
    );
  },
  headband: () => {
    const [x, y] = HEAD;
    return (
      path(`M${x - 8},${y - 4} Q${x - 5},${y - 11} ${x + 2},${y - 9.5} Q${x + 8},${y - 8} ${x + 8},${y - 4} Q${x},${y - 6} ${x - 8},${y - 4} z`, '#3b2a1c', 1.2)
    );
  },
  cap: () => {
    const [x, y] = HEAD;
    return (
      path(`M${x - 8.5},${y - 2} Q${x - 8},${y - 11} ${x},${y - 10.5} Q${x + 8},${y - 10} ${x + 8.5},${y - 2} z`, '#5b4a3a') +
      path(`M${x + 2},${y - 3} h11 l-1,2 h-10 z`, '#3e3227', 1.2) +
      // Goggles on the brow.
      circle(x + 4, y - 6, 2.4, '#e0a040', 1.2)
    );
  },
  medicHat: () => {
    const [x, y] = HEAD;
    return (
      path(`M${x - 9},${y - 1} Q${x - 9},${y - 12} ${x},${y - 11} Q${x + 9},${y - 12} ${x + 9},${y - 1} Q${x},${y - 4} ${x - 9},${y - 1} z`, '#f2efe6') +
      rect(x - 2.2, y - 10, 4.4, 7.5, '#2f8f4e', 0.3, 0) +
      rect(x - 4.2, y - 8, 8.4, 3.5, '#2f8f4e', 0.3, 0)
    );
  },
  bald: () => {
    const [x, y] = HEAD;
    // A topknot.
    return circle(x - 3, y - 10, 2.6, '#2b1d14', 1.1) + path(`M${x - 1},${y - 9} q2,-4 5,-2`, 'none', 1.1);
  },
  sallet: () => {
    const [x, y] = HEAD;
    return (
      path(`M${x - 14},${y + 1} Q${x - 9},${y - 1} ${x - 8},${y - 5} Q${x - 6},${y - 11} ${x + 1},${y - 11} Q${x + 9},${y - 10} ${x + 9},${y - 2} L${x + 9},${y} Q${x},${y - 2} ${x - 8},${y + 1} z`, STEEL) +
      line(x + 2, y - 3.5, x + 9, y - 3.5, INK, 1.6)
    );
  },
  morion: () => {
    const [x, y] = HEAD;
    return (
      path(`M${x - 13},${y - 5} Q${x - 10},${y - 1} ${x},${y - 3} Q${x + 10},${y - 1} ${x + 13},${y - 5} Q${x + 11},${y - 4} ${x + 8},${y - 6} Q${x + 7},${y - 12} ${x},${y - 12} Q${x - 7},${y - 12} ${x - 8},${y - 6} Q${x - 11},${y - 4} ${x - 13},${y - 5} z`, STEEL) +
      path(`M${x - 5},${y - 12} Q${x},${y - 19} ${x + 5},${y - 12} z`, STEEL_DARK, 1.2)
    );
  },
  bascinet: () => {
    const [x, y] = HEAD;
    return (
      path(`M${x - 9},${y + 6} V${y - 3} Q${x - 8},${y - 12} ${x},${y - 12} Q${x + 7},${y - 11} ${x + 9},${y - 3} L${x + 14},${y + 1} L${x + 8},${y + 6} z`, STEEL) +
      line(x + 2, y - 2, x + 10, y - 0.5, INK, 1.4) + line(x + 3, y + 2, x + 9, y + 3, INK, 1) +
      line(x - 9, y + 5, x + 8, y + 5, STEEL_DARK, 1.2)
    );
  },
  hair: () => {
    const [x, y] = HEAD;
    return path(`M${x - 8.5},${y + 1} Q${x - 10},${y - 10} ${x},${y - 10} Q${x + 8},${y - 10} ${x + 8.5},${y - 4} Q${x + 2},${y - 7} ${x - 3},${y - 4} Q${x - 4},${y} ${x - 8.5},${y + 1} z`, '#4a3222', 1.2);
  },
};

// Each kind: its figure (row 0) and its tinted parts (row 1). `back` is
// drawn behind the body (a quiver, a cloak).
const KINDS = {
  warden: {
    figure: () => legs() + torso(MAIL, { pattern: mailPattern() }) + head() + GEAR.greatHelm(),
    tint: () =>
      path(`M26,29 H38 V50 L32,53 L26,50 z`, TINT) + line(32, 30, 32, 50, TINT_DARK, 1.2) +
      rect(24, 42, 16, 3, TINT_DARK, 0.5, 1),
  },
  archer: {
    back: () =>
      // A quiver on the back, arrows' fletching showing.
      path(`M21,26 L27,24 L31,42 L25,44 z`, LEATHER) +
      path(`M21,25 l-2,-5 l3,1 z M24,24 l-1,-6 l3,2 z`, '#e8e2d0', 1),
    figure: () => legs(LEATHER_DARK) + torso(LEATHER) + belt() + head(),
    tint: () =>
      GEAR.hood() +
      // A short cape over the shoulders.
      path(`M23,28 Q32,24 41,28 L40,33 Q32,30 24,33 z`, TINT_DARK),
  },
  raider: {
    figure: () => legs(PANTS, BOOTS) + torso(LEATHER, { pattern: '' }) + belt() + head({ beard: '#b8642a' }) + GEAR.hornedHelm(),
    tint: () => path(`M25,29 L29,28 L39,44 L35,45 z`, TINT),
  },
  spearman: {
    figure: () => legs() + torso(GAMBESON, { pattern: quilt() }) + belt() + head() + GEAR.kettleHat(),
    tint: () => path(`M27,29 H37 V47 H27 z`, TINT) + line(27, 36, 37, 36, TINT_DARK, 1.2),
  },
  skirmisher: {
    back: () =>
      // Spare javelins on the back.
      stick(22, 48, 27, 12, WOOD, 1.3) + stick(25, 48, 30, 13, WOOD, 1.3) +
      poly([[27, 12], [26.5, 7], [29, 11]], STEEL, 1) + poly([[30, 13], [30, 8], [32, 12.5]], STEEL, 1),
    figure: () => legs(GAMBESON_DARK) + torso(GAMBESON, { pattern: '' }) + belt() + head() + GEAR.headband(),
    tint: () =>
      // A scarf streaming back, a sash.
      path(`M24,27 Q32,30 40,27 L40,31 Q32,33 24,31 z`, TINT) +
      path(`M25,28 Q18,30 14,36 Q19,33 25,32 z`, TINT_DARK),
  },
  grenadier: {
    figure: () =>
      legs() + torso(LEATHER) + belt() +
      // A bandolier of bombs.
      line(26, 29, 38, 44, LEATHER_DARK, 2.4) +
      circle(29, 33, 2.3, '#2a2a2e', 1) + circle(32.5, 37.5, 2.3, '#2a2a2e', 1) + circle(36, 42, 2.3, '#2a2a2e', 1) +
      head() + GEAR.cap(),
    tint: () => path(`M26,45 H38 V51 H26 z`, TINT) + path(`M24,28 H29 L27,33 H24 z`, TINT_DARK),
  },
  medic: {
    back: () => rect(18, 33, 9, 10, LEATHER, 2) + rect(20.5, 36.5, 4, 1.6, '#f2efe6', 0.2, 0) + rect(21.7, 35.3, 1.6, 4, '#f2efe6', 0.2, 0),
    figure: () => legs() + torso('#efeadb') + belt() + head() + GEAR.medicHat(),
    tint: () => path(`M26,29 H38 V52 H26 z`, TINT) + rect(30.2, 33, 3.6, 11, '#ffffff', 0.2, 0) + rect(27.5, 36.7, 9, 3.6, '#ffffff', 0.2, 0) + line(26, 45, 38, 45, TINT_DARK, 1.2),
  },
  brute: {
    figure: () =>
      legs('#5a4636', BOOTS, 1) +
      // A broad, bare chest.
      rect(21, 26, 22, 21, SKIN, 6) + path(`M27,31 q5,3 10,0`, 'none', 1) + path(`M31,37 v6`, 'none', 0.9) +
      head({ face: SKIN }) + GEAR.bald() +
      // A heavy jaw.
      path(`M29,24 Q34,29 40,22`, 'none', 1.2),
    tint: () => path(`M22,42 H42 L40,52 H24 z`, TINT) + path(`M23,27 L28,27 L41,43 L36,43 z`, TINT_DARK),
  },
  crossbowman: {
    figure: () => legs() + torso(MAIL, { pattern: mailPattern() }) + belt() + head() + GEAR.sallet(),
    tint: () => path(`M26,29 H38 V48 L32,50 L26,48 z`, TINT) + path(`M26,29 H38 V33 H26 z`, TINT_DARK),
  },
  halberdier: {
    figure: () => legs() + torso(MAIL, { pattern: mailPattern() }) + belt() + head() + GEAR.morion(),
    tint: () =>
      path(`M26,29 H38 V50 H26 z`, TINT) + rect(26, 29, 4, 21, TINT_DARK, 0, 0) + rect(34, 29, 4, 21, TINT_DARK, 0, 0) +
      path(`M26,29 H38 V50 H26 z`, 'none'),
  },
  wrestler: {
    figure: () =>
      legs(PANTS, BOOTS) + torso(GAMBESON, { pattern: quilt() }) + belt() +
      head({ beard: '#6b4a2a' }) + GEAR.bald(),
    // A wide sash across the chest, the wrestler's colours.
    tint: () => path(`M25,29 L30,28 L40,45 L35,47 z`, TINT) + rect(25, 44, 14, 3, TINT_DARK, 0.5, 1),
  },
  duelist: {
    figure: () =>
      legs(LEATHER_DARK) + torso(LEATHER) + belt() + head() + GEAR.cap() +
      // A feather in the cap.
      path(`M30,6 Q22,-2 16,4 Q24,2 29,9 z`, '#f2efe6', 1),
    // A short cape over one shoulder.
    tint: () => path(`M24,27 Q30,26 33,29 L30,46 L22,44 z`, TINT) + path(`M24,27 L33,29 L32,32 L24,31 z`, TINT_DARK),
  },
  // Large (V10.6): drawn at a tile's scale, the window stretches the cell
  // over its 2×2 footprint. Grey-green hide, tusks, a loincloth.
  ogre: {
    figure: () =>
      legs('#6f7a55', '#4a3a2a', 2) +
      rect(19, 25, 26, 22, OGRE, 8) + path(`M26,31 q6,4 12,0`, 'none', 1.1) + path(`M32,36 v7`, 'none', 1) +
      head({ face: OGRE }) +
      // Tusks and a heavy brow.
      path(`M${HEAD[0] + 3},${HEAD[1] + 4} l1,-4 l1.6,3.4 z`, '#f2ecd8', 0.9) +
      path(`M${HEAD[0] - 6},${HEAD[1] - 4} Q${HEAD[0]},${HEAD[1] - 8} ${HEAD[0] + 8},${HEAD[1] - 3}`, 'none', 2.2),
    tint: () => path(`M20,41 H44 L41,53 H23 z`, TINT) + rect(20, 41, 24, 3, TINT_DARK, 0.5, 1),
  },
  // Huge (V10.6): a bearded hill giant in furs, stretched over 3×3 tiles.
  giant: {
    back: () => path(`M16,26 Q32,18 48,26 L50,50 L14,50 z`, '#6b4e33', 1.3),
    figure: () =>
      legs('#5c4a36', '#3d2f22', 2) +
      rect(19, 25, 26, 23, SKIN, 7) +
      // A fur over one shoulder.
      path(`M19,27 Q27,22 35,27 L27,47 L19,45 z`, '#a07a52', 1.3) +
      head({ beard: '#c9c2b0', face: SKIN }) + GEAR.hair(),
    tint: () => path(`M20,42 H44 L42,52 H22 z`, TINT) + path(`M30,27 L35,27 L27,47 L23,46 z`, TINT_DARK),
  },
  // A mount (V12): a bay horse seen from the side, looking east; Large with
  // size on, the window stretches it over 2×2 tiles and seats the rider on
  // its back. The tinted part is the saddle cloth.
  horse: {
    back: () =>
      // The far legs, in shadow.
      rect(21, 40, 4.5, 15, HORSE_DARK, 1.5) + rect(43, 40, 4.5, 15, HORSE_DARK, 1.5) +
      path(`M20,53 h7 v4 h-7 z M42,53 h7 v4 h-7 z`, MANE, 1.2),
    figure: () =>
      // The tail, the barrel of the body, the near legs and hooves.
      path(`M12,31 Q3,38 7,51 Q10,42 15,36 z`, MANE, 1.2) +
      ellipse(30, 36, 19, 9.5, HORSE) +
      rect(15, 40, 5, 16, HORSE, 1.5) + rect(38, 40, 5, 16, HORSE, 1.5) +
      path(`M14,54 h7.5 v4 h-7.5 z M37,54 h7.5 v4 h-7.5 z`, MANE, 1.2) +
      // The neck and the head, a mane down the neck.
      path(`M40,31 L46,15 L54,17 L51,36 z`, HORSE) +
      path(`M45,13 Q50,7 57,12 L62,19 Q61,23 57,22 L50,20 z`, HORSE) +
      path(`M45,12 Q40,22 40,32 L43,31 Q44,22 48,14 z`, MANE, 1.1) +
      path(`M47,11 l1,-5 l3,5 z`, HORSE, 1.1) +
      circle(53, 14, 1.1, INK, 0) + circle(60.5, 19.5, 0.7, INK, 0),
    tint: () =>
      // The saddle cloth over the back, a girth under the belly.
      path(`M20,27 Q30,24 40,27 L41,41 Q30,44 19,41 z`, TINT) +
      path(`M19,37 Q30,40 41,37 L41,41 Q30,44 19,41 z`, TINT_DARK) +
      rect(27, 25, 8, 4, LEATHER_DARK, 1.5, 1),
  },
  // A knight (V12: trained to ride): mail, a visored bascinet with a plume,
  // a surcoat in the side's colours.
  knight: {
    figure: () =>
      legs(MAIL, BOOTS) + torso(MAIL, { pattern: mailPattern() }) + belt() + head() + GEAR.bascinet(),
    tint: () =>
      path(`M25,29 H39 V51 L32,54 L25,51 z`, TINT) +
      path(`M29,33 H35 V45 H29 z`, TINT_DARK, 1) +
      path(`M${HEAD[0] - 2},${HEAD[1] - 11} Q${HEAD[0] - 10},${HEAD[1] - 20} ${HEAD[0] - 14},${HEAD[1] - 10} Q${HEAD[0] - 8},${HEAD[1] - 14} ${HEAD[0] - 3},${HEAD[1] - 8} z`, TINT, 1.1),
  },
  // A kind without its own art: a plain figure; the window writes its
  // initials on the tunic.
  generic: {
    figure: () => legs() + torso('#8a8f99') + head() + GEAR.hair(),
    tint: () => path(`M25,29 H39 V50 H25 z`, TINT) + line(25, 44, 39, 44, TINT_DARK, 1.2),
  },
};

// ---------------------------------------------------------------- arms
// Arms holding each kind of weapon. The near arm from NEAR_SHOULDER, the
// far one from FAR_SHOULDER; one-handed weapons leave the far arm down.
const farArmDown = () => limb([FAR_SHOULDER, [29, 38], [30, 44]], SLEEVE, 4.5) + hand(30, 44.5);
const nearArm = (hx, hy, elbow = null) =>
  limb(elbow ? [NEAR_SHOULDER, elbow, [hx, hy]] : [NEAR_SHOULDER, [hx, hy]], SLEEVE, 4.5);

// A blade from (x1,y1) to (x2,y2), `w` wide, pointed at the far end.
function blade(x1, y1, x2, y2, w, fill = STEEL) {
  const dx = x2 - x1, dy = y2 - y1, len = Math.hypot(dx, dy);
  const nx = (-dy / len) * (w / 2), ny = (dx / len) * (w / 2);
  const tipBack = 0.86;
  const bx = x1 + dx * tipBack, by = y1 + dy * tipBack;
  return poly([[x1 + nx, y1 + ny], [bx + nx, by + ny], [x2, y2], [bx - nx, by - ny], [x1 - nx, y1 - ny]], fill, 1.3) +
    line(x1, y1, bx, by, STEEL_DARK, 0.8);
}
// A cross-piece across a shaft at (x,y), perpendicular to direction (dx,dy).
function guard(x, y, dx, dy, half) {
  const len = Math.hypot(dx, dy);
  const nx = (-dy / len) * half, ny = (dx / len) * half;
  return stick(x - nx, y - ny, x + nx, y + ny, '#b08a3c', 1.8);
}

const POSES = {
  longsword: () => {
    const [hx, hy] = [44, 34];
    return farArmDown() + nearArm(hx, hy, [39, 38]) +
      blade(hx + 1.2, hy - 3.5, 53, 4, 4.2) + guard(hx + 1.2, hy - 3.5, 9, -30, 4.5) +
      stick(hx, hy, hx - 0.8, hy + 3, WOOD_DARK, 1.6) + hand(hx, hy);
  },
  shortsword: () => {
    const [hx, hy] = [44, 35];
    return farArmDown() + nearArm(hx, hy, [39, 39]) +
      blade(hx + 1, hy - 3, 52, 16, 4) + guard(hx + 1, hy - 3, 8, -16, 3.8) + hand(hx, hy);
  },
  axe: () => {
    const [hx, hy] = [43, 37];
    return farArmDown() + nearArm(hx, hy, [39, 40]) +
      stick(hx - 1, hy + 5, 48, 12, WOOD, 2.2) +
      path(`M46,17 Q54,12 56,19 Q55,24 49,23 Q51,20 46,19 z`, STEEL, 1.3) +
      hand(hx, hy);
  },
  greataxe: () =>
    limb([FAR_SHOULDER, [30, 40], [37, 41]], SLEEVE, 4.5) + nearArm(41, 33, [40, 39]) +
    stick(34, 50, 47, 8, WOOD, 2.4) +
    path(`M44,12 Q53,6 57,14 Q56,21 48,21 Q50,17 45,16 z`, STEEL, 1.3) +
    path(`M45,10 Q38,4 35,11 Q37,16 43,16 z`, STEEL, 1.3) +
    hand(37.5, 41) + hand(41, 33),
  maul: () =>
    limb([FAR_SHOULDER, [30, 40], [37, 41]], SLEEVE, 4.5) + nearArm(41, 33, [40, 39]) +
    stick(34, 50, 46, 12, WOOD, 2.6) +
    `<g transform="rotate(17 46 11)">` + rect(38, 5, 16, 10, '#8d8f96', 1.5) + line(40, 8, 52, 8, '#b8bac0', 1.2) + `</g>` +
    hand(37.5, 41) + hand(41, 33),
  // A knotted tree limb in both hands (the ogre's and the giant's).
  greatclub: () =>
    limb([FAR_SHOULDER, [30, 40], [37, 41]], SLEEVE, 4.5) + nearArm(41, 33, [40, 39]) +
    path(`M35,49 L44,14 Q47,6 53,9 Q56,14 50,20 L39,50 z`, WOOD, 1.5) +
    circle(47, 16, 1.4, WOOD_DARK, 0) + circle(51, 11, 1.2, WOOD_DARK, 0) + line(43, 24, 46, 23, WOOD_DARK, 1) +
    hand(37.5, 41) + hand(41, 33),
  mace: () => {
    const [hx, hy] = [43, 37];
    return farArmDown() + nearArm(hx, hy, [39, 40]) +
      stick(hx - 0.5, hy + 4, 47, 18, WOOD_DARK, 2) +
      circle(47.5, 15.5, 4.3, STEEL_DARK, 1.3) +
      poly([[47.5, 9.5], [49, 12.5], [46, 12.5]], STEEL, 0.9) + poly([[53.5, 15.5], [50.5, 17], [50.5, 14]], STEEL, 0.9) +
      poly([[41.5, 15.5], [44.5, 14], [44.5, 17]], STEEL, 0.9) +
      hand(hx, hy);
  },
  spear: () =>
    limb([FAR_SHOULDER, [31, 39], [36, 40]], SLEEVE, 4.5) + nearArm(44, 33, [40, 38]) +
    stick(22, 52, 56, 11, WOOD, 2) +
    poly([[54, 13.5], [56.5, 6.5], [61, 4], [59.5, 9], [56.5, 14]], STEEL, 1.2) +
    hand(36, 40.5) + hand(44, 33),
  halberd: () =>
    limb([FAR_SHOULDER, [32, 38], [41, 40]], SLEEVE, 4.5) + nearArm(43, 30, [40, 36]) +
    stick(40, 60, 45, 4, WOOD, 2.2) +
    path(`M45,12 Q54,9 56,15 Q54,22 46,21 z`, STEEL, 1.3) +
    poly([[44.5, 11], [45.5, 0.5], [47, 11]], STEEL, 1.1) +
    poly([[44.2, 15], [38.5, 13.5], [44, 18]], STEEL, 1.1) +
    hand(41.2, 40) + hand(43, 30),
  javelin: () =>
    // Raised to throw.
    limb([FAR_SHOULDER, [31, 38], [36, 40]], SLEEVE, 4.5) + hand(36, 40) +
    limb([NEAR_SHOULDER, [31, 24], [30, 16]], SLEEVE, 4.5) +
    stick(14, 20, 52, 10, WOOD, 1.6) + poly([[51, 8.5], [58, 8.2], [52.5, 11.5]], STEEL, 1.1) + hand(30, 16),
  'throwing knife': () => {
    const [hx, hy] = [44, 36];
    return farArmDown() + nearArm(hx, hy, [40, 40]) + blade(hx + 0.5, hy - 2.5, 48, 26, 3) + hand(hx, hy);
  },
  shortbow: () =>
    limb([FAR_SHOULDER, [33, 36], [38, 34]], SLEEVE, 4.5) + nearArm(47, 32) +
    line(46, 14, 46, 50, '#efe6cf', 1) +
    path(`M46,13 Q56,18 55,32 Q56,46 46,51`, 'none', 4.2).replace(`stroke="${INK}"`, `stroke="${INK}"`) +
    `<path d="M46,13 Q56,18 55,32 Q56,46 46,51" fill="none" stroke="${WOOD}" stroke-width="2" stroke-linecap="round"/>` +
    hand(47, 32) + hand(38.5, 34),
  longbow: () =>
    limb([FAR_SHOULDER, [33, 36], [38, 34]], SLEEVE, 4.5) + nearArm(47, 32) +
    line(46, 3, 46, 61, '#efe6cf', 1) +
    path(`M46,2 Q57,12 55,32 Q57,52 46,62`, 'none', 4.2) +
    `<path d="M46,2 Q57,12 55,32 Q57,52 46,62" fill="none" stroke="${WOOD}" stroke-width="2" stroke-linecap="round"/>` +
    hand(47, 32) + hand(38.5, 34),
  crossbow: () =>
    limb([FAR_SHOULDER, [32, 39], [35, 38]], SLEEVE, 4.5) + nearArm(43, 36, [40, 41]) +
    rect(26, 33.5, 26, 4, WOOD, 1.2) +
    path(`M50,24 Q55,35 50,46`, 'none', 4) +
    `<path d="M50,24 Q55,35 50,46" fill="none" stroke="${STEEL_DARK}" stroke-width="2" stroke-linecap="round"/>` +
    line(50, 24, 45, 35, '#efe6cf', 0.9) + line(50, 46, 45, 35, '#efe6cf', 0.9) +
    hand(35, 38) + hand(43, 36.5),
  sling: () => {
    const [hx, hy] = [43, 31];
    return farArmDown() + nearArm(hx, hy, [40, 36]) +
      `<path d="M${hx},${hy} Q${hx + 6},${hy + 6} ${hx + 7},${hy + 14}" fill="none" stroke="#e8dcc0" stroke-width="1.1"/>` +
      circle(hx + 7, hy + 15.5, 2.3, LEATHER, 1.1) + hand(hx, hy);
  },
  unarmed: () => farArmDown() + nearArm(41, 41, [38, 37]) + hand(41, 41),
};

// ---------------------------------------------------------------- shields
const SHIELDS = {
  // A steel-rimmed heater held before the body; the side's colours on it
  // as a cross (the face cell).
  heater: {
    body: () =>
      path(`M31,28 H47 V37 Q47,47 39,51.5 Q31,47 31,37 z`, STEEL_DARK, 1.5) +
      path(`M33,30 H45 V37 Q45,45.6 39,49 Q33,45.6 33,37 z`, '#dfe4e8', 0),
    face: () => rect(37.2, 30, 3.6, 19, TINT, 0, 0) + rect(33, 34.5, 12, 3.6, TINT, 0, 0),
  },
  // A small round steel shield; the side's colour as a ring.
  buckler: {
    body: () => circle(29, 40, 7.2, STEEL_DARK, 1.5) + circle(29, 40, 2.2, '#dfe4e8', 1),
    face: () => `<circle cx="29" cy="40" r="4.6" fill="none" stroke="${TINT}" stroke-width="2.4"/>`,
  },
};

// ---------------------------------------------------------------- base
const BASE_Y = 55.2;
const base = () =>
  ellipse(32, BASE_Y, 23, 6.2, TINT_DARK, 1.4) + ellipse(32, BASE_Y - 0.7, 20.5, 4.5, TINT, 0);
const ring = () =>
  `<ellipse cx="32" cy="${BASE_Y}" rx="27" ry="9" fill="none" stroke="${INK}" stroke-width="4"/>` +
  `<ellipse cx="32" cy="${BASE_Y}" rx="27" ry="9" fill="none" stroke="#ffd84a" stroke-width="2.4"/>`;
// The corpse marker: a fallen helmet and a broken blade on a dark stain.
const corpse = () =>
  ellipse(32, 54, 16, 5, 'rgba(40,20,15,0.55)', 0) +
  stick(20, 56, 36, 50, STEEL, 1.6) +
  path(`M33,55 Q33,46 40,46 Q47,46 47,55 z`, STEEL_DARK, 1.3) + line(38, 52, 46, 52, INK, 1.2);
// The facing wedge on the base's rim, for a facing of `k` eighths of a
// turn clockwise from north. Its cells are drawn at half the scale of the
// others (one pixel a world unit: the window shows them two tiles wide,
// centred on the base) so that a wedge may reach past the tile: the base
// is a flattened circle, and a wedge pointing south or north within it
// would be a sliver.
const WEDGE_SCALE = 0.5;
function wedge(k) {
  const a = (k * Math.PI) / 4; // 0 = north, clockwise
  const rx = 23 * WEDGE_SCALE, ry = 6.2 * WEDGE_SCALE;
  const rim = [32 + Math.sin(a) * rx, 32 - Math.cos(a) * ry];
  let u = [Math.sin(a) * rx, -Math.cos(a) * ry];
  const n = Math.hypot(u[0], u[1]);
  u = [u[0] / n, u[1] / n];
  const v = [-u[1], u[0]];
  const at = (along, across) => [rim[0] + u[0] * along + v[0] * across, rim[1] + u[1] * along + v[1] * across];
  const tip = at(7, 0), left = at(-1.5, -4.2), right = at(-1.5, 4.2), notch = at(0.5, 0);
  return `<polygon points="${p([tip, left, notch, right])}" fill="#fff6d0" stroke="${INK}" stroke-width="1.1" stroke-linejoin="round"/>`;
}

// ---------------------------------------------------------------- tokens
// Zoomed far out a figure is a few pixels tall: there the window shows a
// token instead, a disc in the side's colour with a bold sign of the kind
// (row 4), drawn to read at 16 pixels.
const disc = () => circle(32, 32, 27, TINT_DARK, 3) + circle(32, 31, 22.5, TINT, 0);
const sign = (body) =>
  // Ink with a light rim, to stand on any side's colour.
  `<g stroke="#f4efe2" stroke-width="9" stroke-linejoin="round" stroke-linecap="round" fill="#f4efe2">${body}</g>` +
  `<g stroke="${INK}" stroke-width="5" stroke-linejoin="round" stroke-linecap="round" fill="${INK}">${body}</g>`;
const SIGNS = {
  warden: () => sign(`<path d="M20,16 H44 V30 Q44,44 32,50 Q20,44 20,30 z"/>`),
  archer: () => sign(`<path d="M24,12 Q48,32 24,52" fill="none"/><line x1="24" y1="12" x2="24" y2="52" stroke-width="2"/><line x1="16" y1="32" x2="46" y2="32"/><path d="M46,32 l-7,-5 v10 z"/>`),
  raider: () => sign(`<line x1="22" y1="52" x2="38" y2="14"/><path d="M34,16 Q50,10 50,26 Q46,34 36,28 z"/>`),
  spearman: () => sign(`<line x1="32" y1="54" x2="32" y2="22"/><path d="M32,8 L39,24 H25 z"/>`),
  skirmisher: () => sign(`<line x1="18" y1="50" x2="44" y2="16"/><line x1="46" y1="50" x2="20" y2="16"/><path d="M47,12 l-2,9 l-6,-5 z M17,12 l8,4 l-6,5 z"/>`),
  grenadier: () => sign(`<circle cx="30" cy="36" r="13"/><path d="M38,24 Q42,16 48,14" fill="none"/><circle cx="49" cy="13" r="2.5"/>`),
  medic: () => sign(`<path d="M27,14 H37 V27 H50 V37 H37 V50 H27 V37 H14 V27 H27 z"/>`),
  brute: () => sign(`<line x1="32" y1="54" x2="32" y2="26"/><rect x="16" y="12" width="32" height="16" rx="3"/>`),
  crossbowman: () => sign(`<path d="M14,30 Q32,14 50,30" fill="none"/><line x1="32" y1="20" x2="32" y2="52"/><line x1="14" y1="30" x2="50" y2="30" stroke-width="2"/>`),
  halberdier: () => sign(`<line x1="30" y1="56" x2="30" y2="8"/><path d="M30,16 Q46,12 46,24 Q44,32 30,30 z"/><path d="M30,20 L20,17 L30,26 z"/>`),
  // Two linked rings: a hold.
  wrestler: () => sign(`<circle cx="24" cy="32" r="10" fill="none"/><circle cx="40" cy="32" r="10" fill="none"/>`),
  // A rapier: a long thin blade, a cup guard.
  duelist: () => sign(`<line x1="16" y1="52" x2="48" y2="12" stroke-width="3"/><path d="M18,38 Q26,46 30,50" fill="none"/><circle cx="22" cy="45" r="3"/>`),
  // A club for the ogre; a mountain for the giant.
  ogre: () => sign(`<path d="M22,52 L36,16 Q40,8 46,12 Q48,18 42,22 L30,54 z"/>`),
  giant: () => sign(`<path d="M10,50 L26,18 L34,32 L40,24 L54,50 z"/>`),
  // A horseshoe for a mount; a lance and pennon for a knight.
  horse: () => sign(`<path d="M18,50 L16,30 Q16,12 32,12 Q48,12 48,30 L46,50 L39,50 L40,30 Q40,20 32,20 Q24,20 24,30 L25,50 z"/>`),
  knight: () => sign(`<line x1="16" y1="54" x2="46" y2="10" stroke-width="4"/><path d="M44,12 L56,16 L46,22 z"/>`),
  generic: () => sign(`<circle cx="32" cy="22" r="8"/><path d="M18,50 Q18,34 32,34 Q46,34 46,50 z"/>`),
};

// ---------------------------------------------------------------- in flight
// What flies and what flashes (the rest of row 4, and row 5), drawn
// pointing east about the cell's centre: the window turns them along
// their flight.
const MISSILES = {
  arrow: () =>
    stick(14, 32, 50, 32, WOOD, 1.6) + poly([[48, 28.5], [56, 32], [48, 35.5]], STEEL, 1.1) +
    poly([[14, 32], [9, 27.5], [18, 30]], '#e9e2cf', 1) + poly([[14, 32], [9, 36.5], [18, 34]], '#e9e2cf', 1),
  bolt: () =>
    stick(20, 32, 46, 32, WOOD_DARK, 2.2) + poly([[44, 28.5], [52, 32], [44, 35.5]], STEEL_DARK, 1.1) +
    poly([[20, 32], [16, 28], [23, 30.5]], '#b9b2a0', 1) + poly([[20, 32], [16, 36], [23, 33.5]], '#b9b2a0', 1),
  stone: () => circle(32, 32, 6.5, '#8f8a84', 1.8) + circle(30, 30, 2.2, '#c9c4bc', 0),
  javelin: () => stick(6, 32, 52, 32, WOOD, 1.8) + poly([[50, 28.5], [60, 32], [50, 35.5]], STEEL, 1.2),
  knife: () => blade(24, 32, 44, 32, 4.2) + stick(17, 32, 24, 32, WOOD_DARK, 2.2),
  bomb: () => circle(31, 34, 8, '#34343a', 1.5) + circle(28, 31, 2.2, '#6a6a74', 0) +
    `<path d="M36,27 Q40,21 44,20" fill="none" stroke="${WOOD}" stroke-width="1.8"/>` + circle(45, 19, 2.2, '#ffcf40', 1),
  flask: () => path(`M28,22 h8 v6 q8,4 8,12 q0,10 -12,10 q-12,0 -12,-10 q0,-8 8,-12 z`, '#c9a24a', 1.4) +
    rect(29, 18, 6, 5, WOOD, 1, 1.2) + path(`M22,40 q10,4 20,0 q0,8 -10,8 q-10,0 -10,-8 z`, '#7a4a1a', 0),
  potion: () => path(`M29,20 h6 v8 q8,4 8,12 q0,9 -11,9 q-11,0 -11,-9 q0,-8 8,-12 z`, '#e8e8f0', 1.4) +
    path(`M22,40 q10,3 20,0 q0,8 -10,8 q-10,0 -10,-8 z`, '#d0405a', 0) + rect(29.5, 16, 5, 5, WOOD, 1, 1.2),
  sack: () => path(`M24,30 Q22,48 32,49 Q42,48 40,30 Q36,27 32,28 Q28,27 24,30 z`, '#d9ae5a', 1.4) +
    line(26, 29, 38, 29, LEATHER_DARK, 2),
  // A miss: a swoosh past the target.
  whiff: () =>
    `<path d="M8,44 Q30,14 56,22" fill="none" stroke="${INK}" stroke-width="6" stroke-linecap="round" opacity="0.35"/>` +
    `<path d="M8,44 Q30,14 56,22" fill="none" stroke="#f4f4f4" stroke-width="3.2" stroke-linecap="round"/>` +
    `<path d="M14,48 Q32,24 52,28" fill="none" stroke="#f4f4f4" stroke-width="1.6" stroke-linecap="round" opacity="0.7"/>`,
  // A hit: a burst.
  spark: () => {
    let pts = [];
    for (let k = 0; k < 16; k++) {
      const a = (k * Math.PI) / 8, r = k % 2 ? 9 : 22;
      pts.push([32 + Math.cos(a) * r, 32 + Math.sin(a) * r]);
    }
    return `<polygon points="${p(pts)}" fill="#ffffff" stroke="${INK}" stroke-width="1.6" stroke-linejoin="round"/>` +
      circle(32, 32, 6, '#ffffff', 0);
  },
  // Steel on steel: a parry.
  clang: () => {
    let s = '';
    for (let k = 0; k < 8; k++) {
      const a = (k * Math.PI) / 4 + 0.3;
      s += line(32 + Math.cos(a) * 7, 32 + Math.sin(a) * 7, 32 + Math.cos(a) * 20, 32 + Math.sin(a) * 20, INK, 4.5);
      s += line(32 + Math.cos(a) * 7, 32 + Math.sin(a) * 7, 32 + Math.cos(a) * 20, 32 + Math.sin(a) * 20, '#ffe680', 2.4);
    }
    return s + circle(32, 32, 5, '#fff6d0', 1.2);
  },
};
const MISSILE_ORDER = ['arrow', 'bolt', 'stone', 'javelin', 'knife', 'bomb', 'flask', 'potion', 'sack', 'whiff', 'spark', 'clang'];

// ---------------------------------------------------------------- sheet
const KIND_ORDER = ['warden', 'archer', 'raider', 'spearman', 'skirmisher', 'grenadier', 'medic', 'brute', 'crossbowman', 'halberdier', 'wrestler', 'duelist', 'ogre', 'giant', 'horse', 'knight', 'generic'];
const POSE_ORDER = ['unarmed', 'longsword', 'shortsword', 'axe', 'greataxe', 'maul', 'mace', 'spear', 'halberd', 'javelin', 'throwing knife', 'shortbow', 'longbow', 'crossbow', 'sling', 'greatclub'];

function cells() {
  const rows = [[], [], [], []];
  for (const k of KIND_ORDER) {
    const kind = KINDS[k];
    rows[0].push((kind.back ? kind.back() : '') + kind.figure());
    rows[1].push(kind.tint());
  }
  for (const w of POSE_ORDER) rows[2].push(POSES[w]());
  rows[3].push(SHIELDS.heater.body(), SHIELDS.buckler.body(), SHIELDS.heater.face(), SHIELDS.buckler.face(), base(), ring(), corpse());
  for (let k = 0; k < 8; k++) rows[3].push(wedge(k));
  // Row 4: each kind's sign, then the disc; row 5: what flies and flashes.
  rows.push(KIND_ORDER.map((k) => SIGNS[k]()).concat([disc()]));
  rows.push(MISSILE_ORDER.map((m) => MISSILES[m]()));
  return rows;
}

function sheet(size) {
  const rows = cells();
  const scale = size / CELL;
  let body = '';
  rows.forEach((row, r) =>
    row.forEach((svg, c) => {
      body += `<g transform="translate(${c * size},${r * size}) scale(${scale})"><svg width="${CELL}" height="${CELL}" overflow="hidden">${svg}</svg></g>`;
    }),
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${COLUMNS * size}" height="${rows.length * size}">${body}</svg>`;
}

function render(svg) {
  return new Resvg(svg, { shapeRendering: 2, font: { loadSystemFonts: false } }).render().asPng();
}

// A picture of every kind with each weapon it carries, both sides, at 48
// and 16 pixels: to look at while drawing (not committed).
function preview(file) {
  const cellsByRow = cells();
  const kindPose = {
    warden: ['longsword', 'heater'], archer: ['shortbow'], raider: ['axe', 'buckler'], spearman: ['spear'],
    skirmisher: ['javelin'], grenadier: ['mace'], medic: ['sling'], brute: ['maul'], crossbowman: ['crossbow'],
    halberdier: ['halberd'], wrestler: ['mace'], duelist: ['shortsword', 'buckler'], ogre: ['greatclub'], giant: ['greatclub'], horse: ['none'], knight: ['spear', 'heater'], generic: ['unarmed'],
  };
  const sides = ['#3f7ff2', '#e5533f'];
  let body = '';
  const tint = (svg, color) => svg.replaceAll('#ffffff', color).replaceAll(TINT_DARK, shade(color));
  const unit = (k, side, mirror) => {
    const i = KIND_ORDER.indexOf(k);
    const [pose, shield] = kindPose[k];
    const pi = POSE_ORDER.indexOf(pose);
    let s = tint(base(), sides[side]) + `<g transform="translate(32,${BASE_Y}) scale(2) translate(-32,-32)">${wedge(mirror ? 6 : 2)}</g>` + cellsByRow[0][i] + tint(cellsByRow[1][i], sides[side]);
    if (shield) s += SHIELDS[shield].body() + tint(SHIELDS[shield].face(), sides[side]);
    if (pi >= 0) s += cellsByRow[2][pi];
    const flip = mirror ? `translate(64,0) scale(-1,1)` : '';
    const big = k === 'brute' ? `translate(32,60) scale(1.2) translate(-32,-60)` : '';
    return `<g transform="${big}"><g transform="${flip}">${s}</g></g>`;
  };
  // Rows: 96 px (to check the drawing), 48 px (a tile zoomed in), 16 px
  // (a 64x64 map zoomed out to fit).
  const rows = [[96, 0], [48, 100], [16, 152]];
  KIND_ORDER.forEach((k, i) => {
    rows.forEach(([size, y]) => {
      [0, 1].forEach((side) => {
        const x = 4 + i * 200 + side * (size + 4);
        body += `<g transform="translate(${x},${y}) scale(${size / 64})">${unit(k, side, side === 1)}</g>`;
      });
    });
  });
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="3400" height="172"><rect width="100%" height="100%" fill="#a89870"/>${body}</svg>`;
  fs.writeFileSync(file, render(svg));
}

function shade(hex) {
  const n = parseInt(hex.slice(1), 16);
  const c = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((v) => Math.round(v * 0.65));
  return '#' + c.map((v) => v.toString(16).padStart(2, '0')).join('');
}

const args = process.argv.slice(2);
if (args[0] === '--preview') {
  preview(args[1] ?? '/tmp/units_preview.png');
} else {
  fs.writeFileSync(new URL('units.png', import.meta.url), render(sheet(CELL)));
  fs.writeFileSync(new URL('units_far.png', import.meta.url), render(sheet(16)));
  console.log('wrote units.png and units_far.png');
}
