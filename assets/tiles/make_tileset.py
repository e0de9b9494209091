#!/usr/bin/env python3
"""Draws assets/tiles/tileset.png: one 32x32 tile per terrain of RULES.md R6
(and the overlay tiles the view tints), in a single row.

Standard library only: run `python3 assets/tiles/make_tileset.py` from the
project root and commit the PNG. The order of the tiles is `TileKind` in
src/view/tiles.rs.
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

def main():
    width = T * len(TILES)
    rows = []
    for y in range(T):
        row = bytearray([0])  # filter: none
        for tile in TILES:
            for x in range(T):
                c = tile(x, y)
                row += bytes(c) + b"\xff" if c is not None else b"\x00\x00\x00\x00"
        rows.append(bytes(row))
    raw = b"".join(rows)

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    png = b"\x89PNG\r\n\x1a\n"
    png += chunk(b"IHDR", struct.pack(">IIBBBBB", width, T, 8, 6, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(raw, 9))
    png += chunk(b"IEND", b"")
    with open("assets/tiles/tileset.png", "wb") as f:
        f.write(png)

if __name__ == "__main__":
    main()
