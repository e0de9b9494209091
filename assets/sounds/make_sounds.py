#!/usr/bin/env python3
"""Synthesizes the game's sounds into small WAV files (mono, 16-bit,
22050 Hz) next to this script: `python3 make_sounds.py`.

Python's standard library only, and a fixed seed: the same files every
run. Each sound is noise or tones shaped by an envelope and a filter,
chosen to read at a glance (a low thud for a step, a bright ring for a
parry, a falling tone for a death), not to be realistic."""

import math
import os
import random
import struct
import wave

RATE = 22050
HERE = os.path.dirname(os.path.abspath(__file__))
rng = random.Random(22)


def seconds(s):
    return int(s * RATE)


def noise(n):
    return [rng.uniform(-1.0, 1.0) for _ in range(n)]


def lowpass(xs, cutoff):
    """One-pole low-pass at `cutoff` Hz (a function of time allowed)."""
    out, y = [], 0.0
    for i, x in enumerate(xs):
        c = cutoff(i / RATE) if callable(cutoff) else cutoff
        a = 1.0 - math.exp(-2.0 * math.pi * c / RATE)
        y += a * (x - y)
        out.append(y)
    return out


def highpass(xs, cutoff):
    lo = lowpass(xs, cutoff)
    return [x - l for x, l in zip(xs, lo)]


def env(n, attack, decay, curve=1.0):
    """Rises over `attack` seconds, then decays exponentially (`decay`:
    seconds to fall to about 1/e^4)."""
    a = max(1, seconds(attack))
    out = []
    for i in range(n):
        if i < a:
            out.append(i / a)
        else:
            t = (i - a) / RATE
            out.append(math.exp(-4.0 * (t / decay) ** curve))
    return out


def tone(n, freq, phase=0.0):
    """A sine whose frequency may change over time."""
    out, p = [], phase
    for i in range(n):
        f = freq(i / RATE) if callable(freq) else freq
        p += 2.0 * math.pi * f / RATE
        out.append(math.sin(p))
    return out


def mul(*tracks):
    return [math.prod(v) for v in zip(*tracks)]


def mix(*tracks):
    n = max(len(t) for t in tracks)
    return [sum(t[i] for t in tracks if i < len(t)) for i in range(n)]


def gain(xs, g):
    return [x * g for x in xs]


def pad(xs, before):
    return [0.0] * seconds(before) + xs


def write(name, xs, peak=0.8):
    top = max(abs(x) for x in xs) or 1.0
    frames = b"".join(
        struct.pack("<h", int(max(-1.0, min(1.0, x / top * peak)) * 32767)) for x in xs
    )
    with wave.open(os.path.join(HERE, name + ".wav"), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(frames)


def footstep():
    n = seconds(0.12)
    thud = mul(lowpass(noise(n), 400), env(n, 0.003, 0.07))
    scuff = mul(highpass(lowpass(noise(n), 3000), 800), env(n, 0.001, 0.03))
    return mix(thud, gain(scuff, 0.3))


def swing():
    n = seconds(0.25)
    # A whoosh: band of noise sweeping up then down.
    sweep = lambda t: 500 + 2500 * math.sin(math.pi * min(t / 0.22, 1.0))
    body = highpass(lowpass(noise(n), sweep), 300)
    shape = [math.sin(math.pi * min(i / n, 1.0)) ** 2 for i in range(n)]
    return mul(body, shape)


def bow():
    n = seconds(0.3)
    twang = mul(tone(n, lambda t: 180 - 60 * t), env(n, 0.002, 0.2))
    buzz = mul(tone(n, lambda t: 360 - 120 * t), env(n, 0.002, 0.12))
    hiss = mul(highpass(noise(n), 2000), env(n, 0.02, 0.15))
    return mix(twang, gain(buzz, 0.4), gain(hiss, 0.15))


def sling():
    n = seconds(0.3)
    # Two quick whirls and the release.
    whirl = lambda t: 700 + 900 * abs(math.sin(2 * math.pi * t / 0.12))
    body = highpass(lowpass(noise(n), whirl), 400)
    return mul(body, env(n, 0.05, 0.2, 2.0))


def hit_flesh():
    n = seconds(0.22)
    thump = mul(tone(n, lambda t: 110 - 200 * t), env(n, 0.001, 0.12))
    slap = mul(lowpass(noise(n), 1800), env(n, 0.001, 0.05))
    return mix(thump, gain(slap, 0.7))


def hit_shield():
    n = seconds(0.35)
    knock = mul(lowpass(noise(n), 900), env(n, 0.001, 0.06))
    wood = mix(
        mul(tone(n, 240), env(n, 0.001, 0.18)),
        gain(mul(tone(n, 410), env(n, 0.001, 0.1)), 0.5),
    )
    return mix(knock, gain(wood, 0.6))


def parry():
    n = seconds(0.7)
    # Steel on steel: inharmonic partials ringing out.
    partials = [(1230, 1.0, 0.6), (1897, 0.7, 0.45), (2731, 0.5, 0.3), (3510, 0.35, 0.2)]
    ring = mix(*[gain(mul(tone(n, f), env(n, 0.001, d)), a) for f, a, d in partials])
    click = mul(highpass(noise(n), 3000), env(n, 0.0005, 0.02))
    return mix(ring, gain(click, 0.8))


def fall():
    n = seconds(0.4)
    rustle = mul(lowpass(noise(n), 2500), env(n, 0.05, 0.15))
    thud = pad(mul(lowpass(noise(n), 250), env(n, 0.002, 0.15)), 0.12)[:n]
    return mix(gain(rustle, 0.3), thud)


def death():
    n = seconds(0.9)
    groan = mul(tone(n, lambda t: 220 * math.exp(-1.2 * t)), env(n, 0.03, 0.8))
    under = mul(tone(n, lambda t: 110 * math.exp(-1.2 * t)), env(n, 0.03, 0.8))
    thud = pad(mul(lowpass(noise(n), 200), env(n, 0.002, 0.2)), 0.5)[:n]
    return mix(gain(groan, 0.5), gain(under, 0.4), thud)


def click():
    n = seconds(0.05)
    return mul(tone(n, 1600), env(n, 0.0005, 0.02))


def chime():
    n = seconds(0.6)
    notes = [(659.3, 0.0), (987.8, 0.09)]
    return mix(*[pad(mul(tone(n, f), env(n, 0.003, 0.45)), at)[:n] for f, at in notes])


def sting():
    n = seconds(1.6)
    # A rising major arpeggio, held.
    notes = [(392.0, 0.0), (493.9, 0.16), (587.3, 0.32), (784.0, 0.48)]
    voices = []
    for f, at in notes:
        v = mix(tone(n, f), gain(tone(n, 2 * f), 0.3), gain(tone(n, 3 * f), 0.1))
        voices.append(pad(mul(v, env(n, 0.01, 1.1)), at)[:n])
    return mix(*voices)


def spell():
    # A cast (V11): a rising shimmer of three detuned tones over airy,
    # brightening noise, unlike any weapon's sound.
    n = seconds(0.7)
    shimmer = [
        mul(tone(n, lambda t, f=f: f * (1.0 + 0.6 * t)), env(n, 0.05, 0.5))
        for f in (523.3, 659.3, 784.0)
    ]
    air = gain(mul(highpass(noise(n), lambda t: 1500 + 4000 * t), env(n, 0.15, 0.45)), 0.35)
    return mix(*shimmer, air)


SOUNDS = {
    "footstep": footstep,
    "swing": swing,
    "bow": bow,
    "sling": sling,
    "hit_flesh": hit_flesh,
    "hit_shield": hit_shield,
    "parry": parry,
    "fall": fall,
    "death": death,
    "click": click,
    "chime": chime,
    "sting": sting,
    "spell": spell,
}

if __name__ == "__main__":
    for name, make in SOUNDS.items():
        write(name, make())
    print("wrote", len(SOUNDS), "sounds to", HERE)
