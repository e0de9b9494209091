#!/usr/bin/env python3
"""Draws assets/tiles/tileset.png: the 32x32 tiles of the terrains of
RULES.md R6, with variants (so that a field of floor is not a checkerboard)
and edges (walls with a face where their south side shows, water with a
bank where it meets land, low walls joined to their neighbours), in a
single row; assets/tiles/objects.png: what stands on the ground and stays
in sight over the overlays (trees), 32x32; and assets/tiles/icons.png: one
12x12 icon per unit condition and for objects on the ground, in a single
row.

Standard library only: run `python3 assets/tiles/make_tileset.py` from the
project root and commit the PNGs. Which tile a map's tile takes is
`tile_at` in src/art/tiles.rs; the order of the icons is `Icon` there.
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

def shade(c, k):
    return tuple(clamp(v * k) for v in c)

def mix(a, b, t):
    return tuple(clamp(a[i] + (b[i] - a[i]) * t) for i in range(3))

# Smooth value noise, so that ground varies in patches rather than per
# pixel; `seed` gives each variant its own.
def _lattice(ix, iy, seed):
    h = (ix * 374761393 + iy * 668265263 + seed * 2147483647) & 0xFFFFFFFF
    h = ((h ^ (h >> 13)) * 1274126177) & 0xFFFFFFFF
    return (h & 0xFFFF) / 65535.0

def vnoise(x, y, scale, seed):
    fx, fy = x / scale, y / scale
    ix, iy = int(fx // 1), int(fy // 1)
    tx, ty = fx - ix, fy - iy
    tx, ty = tx * tx * (3 - 2 * tx), ty * ty * (3 - 2 * ty)
    a, b = _lattice(ix, iy, seed), _lattice(ix + 1, iy, seed)
    c, d = _lattice(ix, iy + 1, seed), _lattice(ix + 1, iy + 1, seed)
    return (a + (b - a) * tx) + ((c + (d - c) * tx) - (a + (b - a) * tx)) * ty

# Periodic over a tile, so that a tile's variants meet without a seam.
def tnoise(x, y, scale, seed):
    n = T // scale
    fx, fy = x / scale, y / scale
    ix, iy = int(fx // 1), int(fy // 1)
    tx, ty = fx - ix, fy - iy
    tx, ty = tx * tx * (3 - 2 * tx), ty * ty * (3 - 2 * ty)
    L = lambda i, j: _lattice(i % n, j % n, seed)
    a, b, c, d = L(ix, iy), L(ix + 1, iy), L(ix, iy + 1), L(ix + 1, iy + 1)
    return (a + (b - a) * tx) + ((c + (d - c) * tx) - (a + (b - a) * tx)) * ty

# ---------------------------------------------------------------- ground

EARTH = (172, 150, 108)

def earth(x, y, v):
    # Packed earth in soft patches, pebbles here and there, and a faint
    # darker line on the tile's top and left edges so tiles can be counted.
    n = tnoise(x, y, 8, v) * 0.6 + tnoise(x, y, 4, v + 10) * 0.4
    c = shade(EARTH, 0.9 + 0.18 * n)
    h = _lattice(x, y, v + 20)
    if h > 0.985:
        c = (120, 108, 90)
    elif h > 0.975:
        c = (206, 190, 160)
    if x == 0 or y == 0:
        c = shade(c, 0.88)
    return c

def grass_tuft(x, y, v, density):
    # Short blades of grass: a pixel column of green over the ground.
    for k in range(density):
        bx = int(_lattice(k, v, 31) * 30) + 1
        by = int(_lattice(k, v, 37) * 26) + 4
        hgt = 2 + int(_lattice(k, v, 41) * 3)
        for j in range(hgt):
            lean = (j * (1 if k % 2 else -1)) // 2
            if x == bx + lean and y == by - j:
                g = 0.85 + 0.3 * (j / hgt)
                return shade((84, 132, 58), g)
    return None

def floor(v):
    def draw(x, y):
        g = grass_tuft(x, y, v, 3 + v)
        return g if g else earth(x, y, v)
    return draw

def floor_shadowed(x, y):
    # Floor just south of a wall: the wall's shadow falls on its top.
    c = earth(x, y, 0)
    if y < 7:
        return shade(c, 0.62 + 0.05 * y)
    return c

STONE_TOP = (118, 118, 128)

def wall_top_px(x, y, v):
    # The top of a wall seen from above: large flagstones.
    bw = 16
    row = y // 10
    off = (8 if row % 2 else 0) + v * 4
    n = tnoise(x, y, 8, 50 + v)
    c = shade(STONE_TOP, 0.92 + 0.14 * n)
    if y % 10 == 0 or (x + off) % bw == 0:
        c = shade(STONE_TOP, 0.62)
    elif y % 10 == 1 or (x + off) % bw == 1:
        c = shade(STONE_TOP, 1.15)
    return c

def wall_top(v):
    return lambda x, y: wall_top_px(x, y, v)

FACE = (86, 80, 88)

def wall_face(v):
    # A wall whose south side shows: its top, then its face in bricks, in
    # shadow at the foot: the wall has depth.
    def draw(x, y):
        if y < 18:
            c = wall_top_px(x, y, v)
            if y == 17:
                c = shade(STONE_TOP, 1.25)
            return c
        row = (y - 18) // 5
        off = 6 if row % 2 else 0
        n = tnoise(x, y, 4, 60 + v)
        c = shade(FACE, 0.85 + 0.2 * n - 0.04 * row)
        if (y - 18) % 5 == 0 or (x + off + v * 3) % 12 == 0:
            c = shade(FACE, 0.55)
        if y >= 30:
            c = (34, 30, 36)
        return c
    return draw

LOW_TOP = (176, 172, 168)
LOW_FACE = (122, 116, 112)

def low_wall(mask):
    # A knee-high stone wall across the tile (R6 partial cover), joined to
    # any low wall beside it: `mask` has a bit per neighbour N, E, S, W.
    n_, e_, s_, w_ = (mask >> 3) & 1, (mask >> 2) & 1, (mask >> 1) & 1, mask & 1
    def on_top(x, y):
        if 11 <= y <= 16 and (10 <= x <= 21 or (e_ and x > 21) or (w_ and x < 10)):
            return True
        if 11 <= x <= 20 and ((n_ and y < 11) or (s_ and y > 16)):
            return True
        return False
    def on_face(x, y):
        # The south face shows below a top that does not run on south.
        return 17 <= y <= 22 and on_top(x, 16) and not (s_ and 11 <= x <= 20)
    def draw(x, y):
        if on_top(x, y):
            c = shade(LOW_TOP, 0.92 + 0.14 * tnoise(x, y, 4, 70))
            if not on_top(x, y - 1) or not on_top(x - 1, y) or not on_top(x + 1, y):
                c = shade(LOW_TOP, 1.12)
            if (x + (3 if y > 13 else 0)) % 7 == 0 and 11 <= y <= 16:
                c = shade(LOW_TOP, 0.7)
            return c
        if on_face(x, y):
            c = shade(LOW_FACE, 0.95 - 0.05 * (y - 17))
            if (x + (4 if y > 19 else 0)) % 8 == 0 or y == 20:
                c = shade(LOW_FACE, 0.65)
            return c
        c = earth(x, y, 1)
        # Its shadow on the ground north-west of the light.
        if 23 <= y <= 25 and on_face(x, 22):
            c = shade(c, 0.7)
        return c
    return draw

def brush(v):
    # Knee-high scrub (difficult, partial cover): clumps of dark and light
    # green over the ground, a few flowers.
    def draw(x, y):
        clump = tnoise(x, y, 8, 80 + v)
        fine = tnoise(x, y, 2, 90 + v)
        if clump > 0.34:
            g = (62, 104, 44) if fine < 0.5 else (92, 138, 56)
            if fine > 0.85:
                g = (128, 168, 72)
            if _lattice(x, y, 95 + v) > 0.985:
                g = (228, 214, 120)
            return g
        g = grass_tuft(x, y, v + 7, 6)
        return g if g else earth(x, y, v)
    return draw

def forest_floor(v):
    # The ground under a tree: moss and fallen leaves (the tree itself is
    # drawn over the overlays, from objects.png).
    def draw(x, y):
        n = tnoise(x, y, 8, 100 + v)
        c = mix((86, 108, 56), (112, 104, 64), n)
        h = _lattice(x, y, 110 + v)
        if h > 0.95:
            c = (150, 112, 52)
        elif h > 0.92:
            c = (70, 88, 44)
        if x == 0 or y == 0:
            c = shade(c, 0.88)
        return c
    return draw

WATER = (62, 118, 172)
SAND = (196, 178, 128)
FOAM = (214, 232, 240)

def water(mask):
    # Shallow water with ripples; a bank of wet sand and a line of foam on
    # each side that meets land (`mask`: a bit per side N, E, S, W).
    sides = [(mask >> 3) & 1, (mask >> 2) & 1, (mask >> 1) & 1, mask & 1]
    def draw(x, y):
        ripple = (y + 3 * tnoise(x, y, 8, 120)) % 8
        c = shade(WATER, 0.92 + 0.16 * tnoise(x, y, 8, 121))
        if 3.2 < ripple < 4.2 and tnoise(x, y, 4, 122) > 0.45:
            c = (132, 186, 222)
        # Distance to the nearest land side, wobbling a little.
        d = 99
        wob = int(1.6 * tnoise(x, y, 4, 123))
        for k, (on, dist) in enumerate(zip(sides, (y, T - 1 - x, T - 1 - y, x))):
            if on:
                d = min(d, dist - wob)
        if d <= 1:
            return shade(SAND, 0.95 + 0.1 * tnoise(x, y, 2, 124))
        if d <= 3:
            return FOAM if d == 2 else mix(FOAM, c, 0.5)
        if d <= 5:
            return shade(c, 1.12)
        return c
    return draw

def chasm(edge):
    # A drop: near black; where the ground ends to the north, the rock
    # face falls away into it.
    def draw(x, y):
        c = shade((22, 18, 26), 0.9 + 0.2 * tnoise(x, y, 4, 130))
        if edge:
            depth = 14 + int(3 * tnoise(x, 0, 4, 131))
            if y < depth:
                band = (y + int(4 * tnoise(x, y, 8, 132))) % 5
                rock = shade((108, 92, 74), 1.0 - y / depth * 0.75)
                c = shade(rock, 0.8) if band == 0 else rock
            if y == 0:
                c = (150, 134, 100)
        return c
    return draw

def rubble(v):
    # A level's own difficult terrain: stones and broken blocks.
    stones = [(int(_lattice(k, v, 140) * 28) + 2, int(_lattice(k, v, 141) * 28) + 2,
               2 + int(_lattice(k, v, 142) * 3)) for k in range(9)]
    def draw(x, y):
        for sx, sy, r in stones:
            dx, dy = x - sx, y - sy
            if dx * dx + dy * dy <= r * r:
                lit = (dx + dy) < -r * 0.4
                return (170, 166, 160) if lit else (124, 120, 118)
            if dx * dx + (dy - 1) ** 2 <= r * r and dy > 0:
                return shade(earth(x, y, v), 0.7)
        return earth(x, y, v)
    return draw

def boulder(x, y):
    # A level's own impassable terrain: a boulder.
    dx, dy = x - 15.5, y - 14.5
    d = (dx * dx / 1.1 + dy * dy) ** 0.5
    if d < 12:
        n = tnoise(x, y, 4, 150)
        lit = 1.15 - 0.35 * ((dx + dy) / 17 + 0.5) + 0.1 * n
        return shade((128, 124, 120), lit)
    if d < 13.5:
        return (52, 50, 52)
    c = earth(x, y, 2)
    if 0 < dy < 16 and d < 16:
        c = shade(c, 0.7)
    return c

def campfire(x, y):
    # An impassable tile that lights its ground (V8.3, a level's own): a
    # ring of stones round crossed logs and the flames.
    dx, dy = x - 15.5, y - 16.5
    d = (dx * dx + dy * dy) ** 0.5
    flame = abs(dx) <= (y - 5) * 0.42 and 6 <= y <= 21
    if flame:
        k = (y - 6) / 16
        core = abs(dx) <= (y - 9) * 0.2
        return mix((255, 200, 60), (255, 250, 190), 0.6) if core else mix((235, 90, 20), (255, 170, 40), k)
    if 9 <= d < 12:
        n = tnoise(x, y, 3, 160)
        ring = 0.8 + 0.3 * n if int((math_atan2(dy, dx) + 3.2) * 2.2) % 2 else 0.6
        return shade((130, 124, 118), ring)
    if d < 9 and (abs(dx - dy) <= 1.5 or abs(dx + dy) <= 1.5):
        return (92, 58, 30)
    if d < 9:
        return mix((40, 30, 24), (120, 70, 30), max(0.0, 1 - d / 9))
    c = earth(x, y, 2)
    return mix(c, (150, 110, 60), max(0.0, 0.35 - (d - 12) / 40))

def math_atan2(y, x):
    import math
    return math.atan2(y, x)

def crates(x, y):
    # A level's own cover: two stacked crates.
    def crate(x0, y0, w):
        if x0 <= x < x0 + w and y0 <= y < y0 + w:
            lx, ly = x - x0, y - y0
            if lx in (0, w - 1) or ly in (0, w - 1):
                return (78, 50, 26)
            if lx == ly or lx + ly == w - 1:
                return (118, 80, 40)
            return shade((168, 118, 62), 0.95 + 0.1 * tnoise(x, y, 2, 160))
        return None
    return crate(4, 12, 15) or crate(17, 6, 12) or crate(15, 17, 13) or earth(x, y, 3)

# The tileset's tiles, in the order `Tiles` in src/art/tiles.rs counts
# them: four of floor, the floor in a wall's shadow, two wall tops, two
# wall faces, sixteen low walls, three of brush, two forest floors,
# sixteen waters, two chasms, two rubbles, a boulder, crates.
TILES = ([floor(v) for v in range(4)] + [floor_shadowed]
         + [wall_top(v) for v in range(2)] + [wall_face(v) for v in range(2)]
         + [low_wall(m) for m in range(16)] + [brush(v) for v in range(3)]
         + [forest_floor(v) for v in range(2)] + [water(m) for m in range(16)]
         + [chasm(False), chasm(True)] + [rubble(v) for v in range(2)]
         + [boulder, crates, campfire])

# ---------------------------------------------------------------- objects
# What stands on the ground, drawn over the overlays (32x32, transparent):
# three trees.

def tree(v):
    rngt = random.Random(200 + v)
    blobs = [(16 + rngt.uniform(-5, 5), 12 + rngt.uniform(-4, 3), rngt.uniform(6, 8.5)) for _ in range(5)]
    blobs.append((16, 12, 9.5))
    def inside(x, y):
        return any((x - bx) ** 2 + (y - by) ** 2 <= r * r for bx, by, r in blobs)
    def draw(x, y):
        if inside(x, y):
            # Lit from the top left; darker underneath; leafy speckle.
            lit = 0
            for bx, by, r in blobs:
                d2 = (x - bx) ** 2 + (y - by) ** 2
                if d2 <= r * r:
                    lit = max(lit, 1 - ((x - bx + r * 0.45) ** 2 + (y - by + r * 0.45) ** 2) ** 0.5 / (r * 1.6))
            n = tnoise(x, y, 2, 210 + v)
            g = mix((28, 70, 34), (96, 150, 62), max(0.0, min(1.0, lit * 1.3 + 0.25 * (n - 0.5))))
            if not inside(x, y + 1) or not inside(x + 1, y) or not inside(x - 1, y) or not inside(x, y - 1):
                g = (18, 44, 22)
            return g + (255,)
        # The trunk under the canopy.
        if 14 <= x <= 17 and 18 <= y <= 27:
            return ((92, 62, 36) if x < 16 else (64, 42, 24)) + (255,)
        # Its shadow on the ground.
        dx, dy = (x - 18) / 11, (y - 26) / 4
        if dx * dx + dy * dy <= 1:
            return (10, 20, 10, 90)
        return None
    return draw

OBJECTS = [tree(v) for v in range(3)]

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

def hidden(x, y):
    # An eye struck through: hidden from the enemy (V8.2, V8.4).
    if abs(x - y) <= 0.5 and 1 <= x <= 10:
        return (235, 235, 250)
    r2 = ((x - 5.5) / 5.0) ** 2 + ((y - 5.5) / 2.8) ** 2
    if in_circle(x, y, 5.5, 5.5, 1.5):
        return (120, 200, 255)
    if 0.72 <= r2 <= 1.15:
        return (120, 200, 255)
    return None

def exposed_energy(x, y):
    # A yellow "!": Exposed under Energy, a safe target for maneuvers (V5.8).
    if 5 <= x <= 6 and 1 <= y <= 7:
        return (255, 215, 60)
    if 5 <= x <= 6 and 9 <= y <= 10:
        return (255, 215, 60)
    return None

def unguarded(x, y):
    # A kite shield split down the middle, its halves apart: Unguarded
    # under Energy, open to Swift Attacks (V5.8, V5.9).
    top = 1 <= y <= 5 and 0 <= x <= 11
    point = 6 <= y <= 10 and abs(x - 5.5) <= (10.5 - y) * 1.2
    if (top or point) and not (4.5 <= x - (y - 5) * 0.35 <= 6.5):
        return (240, 90, 60)
    return None

def concentrating(x, y):
    # A violet four-pointed star: holding a spell of concentration (V11.5).
    dx, dy = abs(x - 5.5), abs(y - 5.5)
    if dx * dy <= 1.6 and dx + dy <= 5.2:
        return (200, 150, 255)
    return None

def gripped(x, y):
    # A pale snowflake: held fast by a spell (V11.4, V7.6 grabbed).
    dx, dy = x - 5.5, y - 5.5
    if (abs(dx) <= 0.6 or abs(dy) <= 0.6) and abs(dx) + abs(dy) <= 5.5:
        return (190, 235, 255)
    if abs(abs(dx) - abs(dy)) <= 0.7 and abs(dx) <= 3.6:
        return (190, 235, 255)
    return None

ICONS = [prone, dying, stable, defending, shield_ready, off_guard, exposed,
         dead, ground_object, hidden, exposed_energy, unguarded, concentrating,
         gripped]

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
            if c is None:
                row += b"\x00\x00\x00\x00"
            else:
                row += bytes(c[:3]) + bytes([c[3] if len(c) == 4 else 255])
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
    write_png("assets/tiles/objects.png", T * len(OBJECTS), T,
              lambda x, y: OBJECTS[x // T](x % T, y))
    write_png("assets/tiles/icons.png", I * len(ICONS), I,
              lambda x, y: outlined(ICONS[x // I], x % I, y))

if __name__ == "__main__":
    main()
