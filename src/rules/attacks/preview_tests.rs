//! The preview's own arithmetic, tested apart from any battle.
use super::*;
use crate::rules::attacks::dice_odds::mean_damage;

#[test]
fn kept_probabilities_sum_to_one() {
    for adv in -3..=3 {
        let s: f64 = (1..=20).map(|k| kept_probability(k, adv)).sum();
        assert!((s - 1.0).abs() < 1e-12, "{adv}: {s}");
    }
    assert!((kept_probability(20, 1) - 39.0 / 400.0).abs() < 1e-12);
    assert!((kept_probability(1, -1) - 39.0 / 400.0).abs() < 1e-12);
}

fn sample(advantage: i32, bonus: i32, down: bool) -> AttackPreview {
    let damage = DamageDice {
        count: 2,
        sides: 4,
        bonus: -3,
    };
    let degrees = degree_chances(advantage, bonus, 14, 19, false);
    AttackPreview {
        hit: 1.0 - degrees[0],
        expected_damage: expected_damage(&degrees, damage, down),
        degrees,
        modifiers: vec![],
        advantage,
        bonus,
        dv: 14,
        threshold: 14,
        maneuver: None,
        damage,
        crit: 19,
        auto_hit: false,
        down,
        injure_only: false,
        fumble: fumble_chance(advantage, bonus, 14, 19, false),
        melee: true,
        armor: vec![(1.0, 0)],
        answer: None,
        avoided: 0.0,
        fell: vec![],
        wound_value: vec![],
        aim: BodyPart::Torso,
        shift: 0,
        contest: None,
        miss_chance: None,
        pierce: vec![],
        ward: None,
    }
}

#[test]
fn a_size_shift_moves_the_damage_dice_but_never_below_one() {
    // V10.2: +1 degree rolls one more die on every hit; −1 one fewer,
    // a 1-degree hit keeping its dice.
    let plain = sample(0, 8, false);
    for shift in [-2, -1, 1, 2] {
        let mut shifted = plain.clone();
        shifted.shift = shift;
        let shifted = shifted.answered(None);
        let chances = shifted.damage_chances();
        let mean: f64 = chances.iter().enumerate().map(|(n, q)| n as f64 * q).sum();
        assert!((mean - shifted.expected_damage).abs() < 1e-9);
        assert!((chances.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        let by_hand: f64 = plain
            .degrees
            .iter()
            .enumerate()
            .skip(1)
            .map(|(d, p)| {
                let dice = (d as i32 + shift).max(1) as u32 - 1 + 2;
                p * mean_damage(dice, 4, -3)
            })
            .sum();
        assert!((shifted.expected_damage - by_hand).abs() < 1e-9, "{shift}");
    }
}

#[test]
fn a_fumble_is_a_natural_1_that_misses() {
    // +3 vs DV 14: a natural 1 totals 4, a miss; with one disadvantage
    // the kept die is a 1 in 39 of 400 rolls (R0.4, R7.3).
    assert!((sample(-1, 3, false).fumble - 39.0 / 400.0).abs() < 1e-12);
    // +20 vs DV 14: a natural 1 totals 21, 2 degrees less one: still a
    // hit, so no fumble.
    assert_eq!(sample(0, 20, false).fumble, 0.0);
    assert_eq!(fumble_chance(0, 0, 14, 20, true), 0.0);
}

#[test]
fn expected_harm_takes_armor_off_each_outcome() {
    let p = sample(0, 6, false);
    assert!((p.expected_harm(0) - p.expected_damage).abs() < 1e-9);
    let by_hand: f64 = p
        .damage_chances()
        .iter()
        .enumerate()
        .map(|(n, q)| q * n.saturating_sub(2) as f64)
        .sum();
    assert!((p.expected_harm(2) - by_hand).abs() < 1e-12);
    assert!(p.expected_harm(2) < p.expected_damage);
    assert_eq!(p.expected_harm(100), 0.0);
}

#[test]
fn damage_chances_sum_to_one_and_average_to_the_expected_damage() {
    for (adv, bonus, down) in [(0, 3, false), (2, 9, false), (-2, 0, false), (1, 5, true)] {
        let p = sample(adv, bonus, down);
        let chances = p.damage_chances();
        let total: f64 = chances.iter().sum();
        let mean: f64 = chances.iter().enumerate().map(|(n, q)| n as f64 * q).sum();
        assert!((total - 1.0).abs() < 1e-9, "{total}");
        assert!(
            (mean - p.expected_damage).abs() < 1e-9,
            "{mean} vs {}",
            p.expected_damage
        );
        assert!((chances[0] - if down { 1.0 } else { p.degrees[0] }).abs() < 1e-12);
    }
}

#[test]
fn adjusted_is_the_preview_of_the_adjusted_roll() {
    let adjusted = sample(1, 4, false).adjusted(-2, 6);
    assert_eq!(adjusted, sample(-1, 10, false));
}

#[test]
fn mean_damage_respects_minimum() {
    assert!((mean_damage(1, 6, 0) - 3.5).abs() < 1e-12);
    // 1d4-3: faces 1..4 give -2,-1,0,1 → all at least 1.
    assert!((mean_damage(1, 4, -3) - 1.0).abs() < 1e-12);
}
