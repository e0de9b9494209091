//! The playback, headless: what the player is shown as the battle's
//! events play out. Each hit, parry and death sounds its cue (sound is
//! tested by its cues, not by listening), and the floating words never
//! overlap, however fast the battle is shown.

use crate::common::{level, play_on, root};
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use skirmish::dice::Dice;
use skirmish::rules::submit;
use skirmish::setup::headless_app_with;
use skirmish::view::floats::Floating;
use skirmish::view::playback::Playback;
use skirmish::view::sound::{Cue, Sound};
use std::time::Duration;

/// The cues heard so far, in order.
#[derive(Resource, Default)]
struct Heard(Vec<Sound>);

fn hear(mut cues: MessageReader<Cue>, mut heard: ResMut<Heard>) {
    heard.0.extend(cues.read().map(|c| c.0));
}

/// A headless app showing the battle as the window does, a frame every
/// 16 ms: the playback, its cues and its floating words.
fn shown(mut app: App, speed: f32) -> App {
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
        16,
    )))
    .init_resource::<ButtonInput<KeyCode>>()
    .init_resource::<Heard>()
    .insert_resource(skirmish::view::coords::Grid {
        width: 40,
        height: 40,
    });
    skirmish::view::playback::plugin(&mut app);
    skirmish::view::sound::cue_plugin(&mut app);
    skirmish::view::floats::plugin(&mut app);
    app.add_systems(Last, hear);
    app.update();
    app.world_mut().resource_mut::<Playback>().speed = speed;
    app
}

/// Plays frames until everything is shown.
fn show_all(app: &mut App) {
    for _ in 0..10_000 {
        app.update();
        if app.world().resource::<Playback>().idle() {
            return;
        }
    }
    panic!("the playback never ended");
}

/// The cues a scenario's commands sound once shown.
fn cues_of(scenario: &str) -> Vec<Sound> {
    let path = root().join("tests/scenarios").join(scenario);
    let (s, level) = skirmish::scenario::load_file(&path).unwrap();
    let mut app = headless_app_with(
        &level,
        Dice::scripted(s.dice.iter().copied()),
        s.initiative.as_deref(),
    );
    s.rig(app.world_mut());
    let mut app = shown(app, 1.0);
    for command in &s.commands {
        let _ = submit(app.world_mut(), command.clone());
    }
    show_all(&mut app);
    std::mem::take(&mut app.world_mut().resource_mut::<Heard>().0)
}

#[test]
fn a_parry_clangs_and_a_wound_thuds() {
    // R8.6: the first attack's hit is parried down a degree and wounds;
    // the second is parried away.
    let heard = cues_of("r8_6_parry.ron");
    let swings = heard.iter().filter(|s| **s == Sound::Swing).count();
    let parries = heard.iter().filter(|s| **s == Sound::Parry).count();
    assert_eq!((swings, parries), (2, 2), "{heard:?}");
    let wound = heard.iter().position(|s| *s == Sound::HitFlesh);
    let first_parry = heard.iter().position(|s| *s == Sound::Parry);
    assert!(wound.is_some() && first_parry < wound, "{heard:?}");
    assert!(!heard.contains(&Sound::Death));
}

#[test]
fn a_death_sounds_once_and_the_fall_before_it() {
    // R10.2: a dying unit that fails its roll dies.
    let heard = cues_of("r10_2_dying_unit_dies.ron");
    assert_eq!(
        heard.iter().filter(|s| **s == Sound::Death).count(),
        1,
        "{heard:?}"
    );
    let fall = heard.iter().position(|s| *s == Sound::Fall);
    let death = heard.iter().position(|s| *s == Sound::Death);
    assert!(fall.is_some() && fall < death, "{heard:?}");
}

#[test]
fn a_blocked_blow_knocks_on_the_shield() {
    // V2: a successful block.
    let heard = cues_of("v2_block.ron");
    assert!(heard.contains(&Sound::HitShield), "{heard:?}");
}

#[test]
fn a_cast_and_a_ward_shimmer() {
    // V11.3 SD: Ila's ward, raised twice (held, then failed), shimmers as
    // a cast does; the blows still swing and wound.
    let heard = cues_of("v11_3_ward.ron");
    let spells = heard.iter().filter(|s| **s == Sound::Spell).count();
    assert_eq!(spells, 2, "{heard:?}");
    // V11.6: a cast shimmers, its field's burns wound.
    let heard = cues_of("v11_6_fields.ron");
    assert_eq!(heard.first(), Some(&Sound::Spell), "{heard:?}");
    assert!(heard.contains(&Sound::HitFlesh), "{heard:?}");
}

#[test]
fn floating_words_never_overlap_even_at_speed_64() {
    // A whole battle of the AI against itself, shown at the fastest speed:
    // every frame, no two words on screen share a pixel, and every word
    // the events call for is shown in the end.
    let level = level("ford.ron");
    let mut app = shown(skirmish::setup::headless_app(&level, 7), 64.0);
    let mut wanted = 0;
    let mut seen = std::collections::HashSet::new();
    let mut frames = 0;
    let mut told = app
        .world()
        .resource::<skirmish::rules::events::BattleEvents>()
        .cursor_at_end();
    loop {
        let more = play_on(app.world_mut());
        for _ in 0..3 {
            app.update();
            frames += 1;
            let mut q = app.world_mut().query::<(Entity, &Floating)>();
            let words: Vec<(Entity, Rect)> =
                q.iter(app.world()).map(|(e, w)| (e, w.rect)).collect();
            for (i, (_, a)) in words.iter().enumerate() {
                for (_, b) in &words[i + 1..] {
                    assert!(
                        a.intersect(*b).is_empty(),
                        "frame {frames}: {a:?} and {b:?} overlap"
                    );
                }
            }
            seen.extend(words.iter().map(|(e, _)| *e));
        }
        let events = app
            .world()
            .resource::<skirmish::rules::events::BattleEvents>();
        wanted += events
            .read(&mut told)
            .iter()
            .filter(|e| skirmish::view::floats::word_of(e).is_some())
            .count();
        if !more {
            break;
        }
    }
    show_all(&mut app);
    for _ in 0..600 {
        app.update();
        let mut q = app.world_mut().query::<(Entity, &Floating)>();
        seen.extend(q.iter(app.world()).map(|(e, _)| e));
        if app
            .world()
            .resource::<skirmish::view::floats::Waiting>()
            .0
            .is_empty()
            && q.iter(app.world()).next().is_none()
        {
            break;
        }
    }
    assert!(wanted > 20, "a battle with words: {wanted}");
    assert_eq!(seen.len(), wanted, "every word is shown, none dropped");
}
