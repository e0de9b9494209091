//! Colour vision: how a colour looks to a player with protanopia,
//! deuteranopia or tritanopia (Machado, Oliveira and Fernandes 2009, the
//! full-severity matrices, applied in linear RGB), and how far apart two
//! colours look (CIE 1976 ΔE in CIELAB, D65). The colour-blind palette's
//! side colours are chosen with it ([`choose_apart`]) from the Okabe–Ito
//! set, and the tests hold every palette pair apart under each kind.

/// A kind of colour vision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Vision {
    /// Typical trichromatic vision.
    Typical,
    /// No L cones (red-blind).
    Protanopia,
    /// No M cones (green-blind), the most common.
    Deuteranopia,
    /// No S cones (blue-blind).
    Tritanopia,
}

impl Vision {
    /// Every kind, typical first.
    pub const ALL: [Vision; 4] = [
        Vision::Typical,
        Vision::Protanopia,
        Vision::Deuteranopia,
        Vision::Tritanopia,
    ];

    /// Machado et al. (2009), severity 1.0.
    fn matrix(self) -> [[f32; 3]; 3] {
        match self {
            Vision::Typical => [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
            Vision::Protanopia => [
                [0.152286, 1.052583, -0.204868],
                [0.114503, 0.786281, 0.099216],
                [-0.003882, -0.048116, 1.051998],
            ],
            Vision::Deuteranopia => [
                [0.367322, 0.860646, -0.227968],
                [0.280085, 0.672501, 0.047413],
                [-0.011820, 0.042940, 0.968881],
            ],
            Vision::Tritanopia => [
                [1.255528, -0.076749, -0.178779],
                [-0.078411, 0.930809, 0.147602],
                [0.004733, 0.691367, 0.303900],
            ],
        }
    }

    /// How `srgb` (0–1 per channel) looks with this vision, in sRGB.
    pub fn see(self, srgb: [f32; 3]) -> [f32; 3] {
        let lin = srgb.map(to_linear);
        let m = self.matrix();
        let out = [0, 1, 2]
            .map(|r| (m[r][0] * lin[0] + m[r][1] * lin[1] + m[r][2] * lin[2]).clamp(0.0, 1.0));
        out.map(to_srgb)
    }
}

fn to_linear(c: f32) -> f32 {
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

fn to_srgb(c: f32) -> f32 {
    if c <= 0.003_130_8 {
        c * 12.92
    } else {
        1.055 * c.powf(1.0 / 2.4) - 0.055
    }
}

/// CIELAB (D65) of an sRGB colour.
pub fn lab(srgb: [f32; 3]) -> [f32; 3] {
    let [r, g, b] = srgb.map(to_linear);
    let x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.950_47;
    let y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    let z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.088_83;
    let f = |t: f32| {
        if t > 0.008_856 {
            t.cbrt()
        } else {
            7.787 * t + 16.0 / 116.0
        }
    };
    let (fx, fy, fz) = (f(x), f(y), f(z));
    [116.0 * fy - 16.0, 500.0 * (fx - fy), 200.0 * (fy - fz)]
}

/// How far apart `a` and `b` look with `vision` (ΔE*ab: about 2 is just
/// noticeable, over 20 is a different colour at a glance).
pub fn distance(vision: Vision, a: [f32; 3], b: [f32; 3]) -> f32 {
    let (a, b) = (lab(vision.see(a)), lab(vision.see(b)));
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()
}

/// The smallest distance between any two of `colours` under any vision.
pub fn closest_pair(colours: &[[f32; 3]]) -> f32 {
    let mut least = f32::INFINITY;
    for (i, a) in colours.iter().enumerate() {
        for b in &colours[i + 1..] {
            for v in Vision::ALL {
                least = least.min(distance(v, *a, *b));
            }
        }
    }
    least
}

/// The `n` of `candidates` whose closest pair, under every vision, is
/// farthest apart (every subset tried: the candidates are few), in the
/// candidates' order.
pub fn choose_apart(candidates: &[[f32; 3]], n: usize) -> Vec<usize> {
    let mut best = (f32::NEG_INFINITY, vec![]);
    let k = candidates.len();
    for mask in 0u32..(1 << k) {
        if mask.count_ones() as usize != n {
            continue;
        }
        let chosen: Vec<usize> = (0..k).filter(|i| mask & (1 << i) != 0).collect();
        let colours: Vec<[f32; 3]> = chosen.iter().map(|&i| candidates[i]).collect();
        let d = closest_pair(&colours);
        if d > best.0 {
            best = (d, chosen);
        }
    }
    best.1
}

/// The Okabe–Ito colours (Okabe and Ito 2008, "Color Universal Design"),
/// without black: the candidates for the colour-blind sides.
pub const OKABE_ITO: [[f32; 3]; 7] = [
    [0.902, 0.624, 0.0],   // orange
    [0.337, 0.706, 0.914], // sky blue
    [0.0, 0.620, 0.451],   // bluish green
    [0.941, 0.894, 0.259], // yellow
    [0.0, 0.447, 0.698],   // blue
    [0.835, 0.369, 0.0],   // vermillion
    [0.800, 0.475, 0.655], // reddish purple
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn red_and_green_collapse_for_the_green_blind() {
        let (red, green) = ([0.8, 0.2, 0.2], [0.3, 0.6, 0.2]);
        assert!(distance(Vision::Typical, red, green) > 50.0);
        assert!(distance(Vision::Deuteranopia, red, green) < 20.0);
    }

    #[test]
    fn grey_looks_the_same_to_everyone() {
        for v in Vision::ALL {
            assert!(distance(v, [0.5; 3], [0.5; 3]) < 0.01);
            let seen = v.see([0.5; 3]);
            assert!(distance(Vision::Typical, seen, [0.5; 3]) < 1.5, "{v:?}");
        }
    }
}
