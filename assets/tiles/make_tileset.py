#!/usr/bin/env python3
"""Draws assets/tiles/tileset.png: one 32x32 tile per terrain of RULES.md R6
(and the overlay tiles the view tints), in a single row; and
assets/tiles/icons.png: one 12x12 icon per unit condition and for objects
on the ground, in a single row.

Standard library only: run `python3 assets/tiles/make_tileset.py` from the
project root and commit the PNGs. The order of the tiles is `TileKind` in
src/view/tiles.rs, the order of the icons `Icon` there.
"""
import random
import struct
import zlib

T = 32
rng = random.Random(7)

def clamp(v):
    return max(0, min(255, int(v)))

def noise(base, amount):
    return tuple(clamp(c + rng.randint(-amount, amount)) for c in base)

def floor(x, y):
    # Packed earth: warm tan, a faint grid edge so tiles can be counted.
    if x == 0 or y == 0:
        return (150, 128, 94)
    return noise((176, 152, 112), 6)

def wall(x, y):
    # Bricks: dark grey, mortar lines.
    row = y // 8
    offset = 8 if row % 2 else 0
    if y % 8 == 0 or (x + offset) % 16 == 0:
        return (48, 46, 52)
    return noise((96, 94, 104), 6)

def low_wall(x, y):
    # A low stone wall across the middle of a floor tile (partial cover).
    if 11 <= y <= 21:
        if y in (11, 21) or x % 10 == 0:
            return (70, 68, 72)
        return noise((140, 138, 142), 8)
    return floor(x, y)

def brush(x, y):
    # Floor with tufts of green (difficult, partial cover).
    base = floor(x, y)
    if (x * 7 + y * 13) % 11 < 3 or (x // 4 + y // 4) % 3 == 0 and (x + y) % 3 == 0:
        return noise((86, 128, 52), 10)
    return base

def tree(x, y):
    # A canopy seen from above on grass, a dark rim.
    cx, cy = 15.5, 15.5
    d = ((x - cx) ** 2 + (y - cy) ** 2) ** 0.5
    if d < 11:
        return noise((40, 96, 40), 10)
    if d < 13:
        return (24, 60, 24)
    return noise((98, 140, 70), 6)

def water(x, y):
    # Shallow water: blue with light wave strokes.
    if (y % 8 == 3) and (x + y // 8 * 5) % 12 < 6:
        return (150, 200, 230)
    return noise((64, 120, 178), 5)

def chasm(x, y):
    # A drop: near black, a lit edge on top.
    if y < 3:
        return (120, 104, 80)
    return noise((16, 14, 20), 4)

def custom_difficult(x, y):
    # A level's own difficult terrain: floor with diagonal hatching.
    if (x + y) % 6 < 2:
        return (120, 98, 70)
    return floor(x, y)

def custom_blocking(x, y):
    # A level's own impassable terrain: cross-hatched grey block.
    if (x + y) % 6 < 2 or (x - y) % 6 < 2:
        return (60, 58, 64)
    return noise((110, 108, 116), 5)

def custom_cover(x, y):
    # A level's own cover: floor with a crate-like square.
    if 6 <= x <= 25 and 6 <= y <= 25:
        if x in (6, 25) or y in (6, 25) or x == y or x + y == 31:
            return (90, 60, 30)
        return noise((150, 104, 56), 8)
    return floor(x, y)

def white(x, y):
    # Tinted by the view: reach shading and other overlays.
    return (255, 255, 255)

def ring(x, y):
    # An outline, tinted by the view: the hovered tile, the path.
    if x < 3 or y < 3 or x > 28 or y > 28:
        return (255, 255, 255)
    return None

TILES = [floor, wall, low_wall, brush, tree, water, chasm,
         custom_difficult, custom_blocking, custom_cover, white, ring]


# --- Icons: 12x12, transparent, drawn on a 1-px dark outline so they read
# on any terrain.
I = 12

def in_circle(x, y, cx, cy, r):
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r

def prone(x, y):
    # Down on the ground (R4.8): an arrow onto a ground line.
    if 5 <= x <= 6 and 0 <= y <= 4:
        return (240, 225, 190)
    if 5 <= y <= 7 and abs(x - 5.5) <= (8 - y) * 1.2:
        return (240, 225, 190)
    if y == 10 and 0 <= x <= 11:
        return (240, 225, 190)
    return None

def dying(x, y):
    # A drop of blood: dying (R10.1).
    if in_circle(x, y, 5.5, 7.5, 3.2):
        return (225, 40, 40)
    if 2 <= y <= 6 and abs(x - 5.5) <= (y - 1) * 0.55:
        return (225, 40, 40)
    return None

def stable(x, y):
    # A green cross (R10.4: stabilized).
    if (4 <= x <= 7 and 1 <= y <= 10) or (1 <= x <= 10 and 4 <= y <= 7):
        return (70, 210, 90)
    return None

def defending(x, y):
    # A silver kite shield (R4.6: defending).
    top = 1 <= y <= 5 and 1 <= x <= 10
    point = 6 <= y <= 10 and abs(x - 5.5) <= (10.5 - y) * 1.1
    if top or point:
        if x == 5 or x == 6:
            return (250, 250, 255)
        return (160, 175, 200)
    return None

def shield_ready(x, y):
    # A round wooden buckler with a gold boss (R4.6: shield ready).
    if in_circle(x, y, 5.5, 5.5, 1.6):
        return (250, 210, 60)
    if in_circle(x, y, 5.5, 5.5, 4.9):
        return (160, 100, 45)
    return None

def off_guard(x, y):
    # "Z": asleep on its feet, no reactions until its turn (R2.3).
    if y in (1, 2) and 2 <= x <= 9:
        return (200, 180, 255)
    if y in (9, 10) and 2 <= x <= 9:
        return (200, 180, 255)
    if 3 <= y <= 8 and abs((x - 2) - (9 - y) * 7 / 6) <= 1.0:
        return (200, 180, 255)
    return None

def exposed(x, y):
    # A target: melee against it gains advantage (R4.7, R7.8).
    if in_circle(x, y, 5.5, 5.5, 1.2):
        return (255, 140, 40)
    r2 = (x - 5.5) ** 2 + (y - 5.5) ** 2
    if 3.2 ** 2 <= r2 <= 4.9 ** 2:
        return (255, 140, 40)
    return None

def dead(x, y):
    # A skull: dead (R10.1).
    if in_circle(x, y, 3.5, 4.5, 1.2) or in_circle(x, y, 7.5, 4.5, 1.2):
        return (20, 20, 24)
    if in_circle(x, y, 5.5, 4.5, 4.2) and y <= 7:
        return (235, 235, 225)
    if 3 <= x <= 8 and 8 <= y <= 10 and x % 2 == 1:
        return (235, 235, 225)
    return None

def ground_object(x, y):
    # A sack: something lying on the ground that can be picked up (R9.5).
    if 4 <= x <= 7 and 1 <= y <= 2:
        return (120, 80, 40)
    if in_circle(x, y, 5.5, 7.0, 4.0) and y >= 3:
        return (230, 185, 90)
    return None

ICONS = [prone, dying, stable, defending, shield_ready, off_guard, exposed,
         dead, ground_object]

def outlined(icon, x, y):
    c = icon(x, y)
    if c is not None:
        return c
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            if 0 <= x + dx < I and 0 <= y + dy < I and icon(x + dx, y + dy) is not None:
                return (12, 12, 16)
    return None

def write_png(path, width, height, pixel):
    rows = []
    for y in range(height):
        row = bytearray([0])  # filter: none
        for x in range(width):
            c = pixel(x, y)
            row += bytes(c) + b"\xff" if c is not None else b"\x00\x00\x00\x00"
        rows.append(bytes(row))
    raw = b"".join(rows)

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    png = b"\x89PNG\r\n\x1a\n"
    png += chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(raw, 9))
    png += chunk(b"IEND", b"")
    with open(path, "wb") as f:
        f.write(png)

def main():
    write_png("assets/tiles/tileset.png", T * len(TILES), T,
              lambda x, y: TILES[x // T](x % T, y))
    write_png("assets/tiles/icons.png", I * len(ICONS), I,
              lambda x, y: outlined(ICONS[x // I], x % I, y))

if __name__ == "__main__":
    main()
