//! Sound: each event the player is shown ([`Played`]) sounds its cue — a
//! footstep for a step (R5.1), a swing, a bow's or a sling's shot for an
//! attack (R7), a thud on flesh or a knock on a shield for a hit (R7.7,
//! V2's block), a clang for a parry (R8.6), a fall, a death (R10) — and
//! the window adds a click for a button, a chime when a human's turn
//! starts (R2.2) and a sting at the end (R11).
//!
//! [`cue_plugin`] only tells which [`Cue`] sounds and runs headless (the
//! tests read it); with the `sound` feature, the audio part plays the
//! committed WAVs of `assets/sounds/` (made by `make_sounds.py`) at the
//! settings' volume; M mutes. A machine without an audio device plays
//! nothing and says so in one line.

use super::playback::Played;
use crate::ai::Players;
use crate::battle::{Battlefield, Side, UnitId};
use crate::format::{Catalog, Guard};
use crate::rules::events::BattleEvent;
use crate::rules::modifiers::AttackMode;
use bevy::prelude::*;

/// The game's sounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sound {
    /// A step (R5.1).
    Footstep,
    /// A melee attack or a throw (R7, R9).
    Swing,
    /// A bow's or crossbow's shot (R7.4).
    Bow,
    /// Any other shot: a sling's stone.
    Sling,
    /// A hit that wounds (HP lost, R7.7).
    HitFlesh,
    /// A hit armor or a shield takes whole (R1.2, V2's block).
    HitShield,
    /// A parry (R8.6, V2).
    Parry,
    /// A unit falls (R10.1, V3's legs).
    Fall,
    /// A unit dies (R10).
    Death,
    /// A button pressed.
    Click,
    /// A human's unit's turn starts (R2.2).
    Chime,
    /// The battle is over (R11).
    Sting,
    /// A spell cast, or a ward raised (V11).
    Spell,
}

impl Sound {
    /// Every sound, in the order of their files.
    pub const ALL: [Sound; 13] = [
        Sound::Footstep,
        Sound::Swing,
        Sound::Bow,
        Sound::Sling,
        Sound::HitFlesh,
        Sound::HitShield,
        Sound::Parry,
        Sound::Fall,
        Sound::Death,
        Sound::Click,
        Sound::Chime,
        Sound::Sting,
        Sound::Spell,
    ];

    /// Its file in `assets/sounds/`.
    pub fn file(self) -> &'static str {
        match self {
            Sound::Footstep => "footstep.wav",
            Sound::Swing => "swing.wav",
            Sound::Bow => "bow.wav",
            Sound::Sling => "sling.wav",
            Sound::HitFlesh => "hit_flesh.wav",
            Sound::HitShield => "hit_shield.wav",
            Sound::Parry => "parry.wav",
            Sound::Fall => "fall.wav",
            Sound::Death => "death.wav",
            Sound::Click => "click.wav",
            Sound::Chime => "chime.wav",
            Sound::Sting => "sting.wav",
            Sound::Spell => "spell.wav",
        }
    }

    /// How loud it is against the others (steps are many and soft).
    pub fn level(self) -> f32 {
        match self {
            Sound::Footstep => 0.35,
            Sound::Click => 0.4,
            Sound::Chime => 0.5,
            _ => 0.8,
        }
    }
}

/// A sound to play now.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cue(pub Sound);

/// The sound of an event shown, if it has one. `catalog` tells a bow from
/// a sling; `human` whether a unit's side is played at this window (its
/// turn chimes).
pub fn sound_of(
    event: &BattleEvent,
    catalog: Option<&Catalog>,
    human: impl Fn(UnitId) -> bool,
) -> Option<Sound> {
    use crate::format::WeaponTrait;
    use BattleEvent::*;
    Some(match event {
        Stepped { .. } => Sound::Footstep,
        AttackRolled(a) => match a.mode {
            AttackMode::Melee => Sound::Swing,
            // The throw's whoosh comes with its flight.
            AttackMode::Thrown => return None,
            AttackMode::Ranged => {
                let w = catalog.and_then(|c| c.weapon(&a.weapon));
                let bow = w.is_some_and(|w| {
                    w.traits.contains(&WeaponTrait::Bow)
                        || w.traits.contains(&WeaponTrait::Crossbow)
                });
                if bow { Sound::Bow } else { Sound::Sling }
            }
        },
        ThrowFlight { .. } => Sound::Swing,
        Damaged {
            hp_before,
            hp_after,
            ..
        } => {
            if hp_after < hp_before {
                Sound::HitFlesh
            } else {
                Sound::HitShield
            }
        }
        Parried { .. } => Sound::Parry,
        Guarded {
            guard,
            success: true,
            ..
        } => match guard {
            Guard::Block => Sound::HitShield,
            Guard::Parry => Sound::Parry,
            _ => return None,
        },
        FellDying { .. }
        | FellStable(_)
        | Lamed { .. }
        | KnockedOut { .. }
        | KnockedDown { .. } => Sound::Fall,
        // Maneuvers (V7): a flung weapon clangs, a push thuds, a grab
        // swishes.
        Disarmed { .. } => Sound::Parry,
        Shoved { .. } | Dragged { .. } => Sound::HitShield,
        Grappled { .. } => Sound::Swing,
        Died { .. } => Sound::Death,
        // Spells (V11): a shimmer for a cast and for a ward raised.
        Spell(crate::rules::events::SpellEvent::Cast { .. })
        | Spell(crate::rules::events::SpellEvent::Warded { .. }) => Sound::Spell,
        TurnStarted { unit, .. } if human(*unit) => Sound::Chime,
        BattleEnded { .. } => Sound::Sting,
        _ => return None,
    })
}

/// Tells the cue of each event shown and of each button pressed; no
/// audio (headless, and the tests).
pub fn cue_plugin(app: &mut App) {
    app.add_message::<Cue>().add_systems(
        Update,
        (cue_events, cue_clicks)
            .in_set(super::frame::ViewSystems::Animate)
            .after(super::playback::play_events),
    );
}

/// Each played event's cue.
fn cue_events(
    mut played: MessageReader<Played>,
    field: Option<Res<Battlefield>>,
    players: Option<Res<Players>>,
    sides: Query<(&UnitId, &Side)>,
    mut cues: MessageWriter<Cue>,
) {
    let catalog = field.as_ref().map(|f| &f.0.catalog);
    let human = |unit: UnitId| {
        let side = sides.iter().find(|(id, _)| **id == unit).map(|(_, s)| s.0);
        players
            .as_ref()
            .zip(side)
            .is_some_and(|(p, side)| p.of(side).is_none())
    };
    for p in played.read() {
        if let Some(sound) = sound_of(&p.event, catalog, human) {
            cues.write(Cue(sound));
        }
    }
}

/// A click for each button pressed.
fn cue_clicks(buttons: Query<&Interaction, Changed<Interaction>>, mut cues: MessageWriter<Cue>) {
    if buttons.iter().any(|i| *i == Interaction::Pressed) {
        cues.write(Cue(Sound::Click));
    }
}

/// The cues, and with the `sound` feature their sound.
pub(super) fn plugin(app: &mut App) {
    cue_plugin(app);
    #[cfg(feature = "sound")]
    audio::plugin(app);
}

/// Whether this machine seems to have somewhere to play sound: on Linux,
/// an ALSA device or a sound server's socket. Without one, Bevy's audio is
/// left out (ALSA would print a screenful trying): one line says so.
pub fn audio_device_present() -> bool {
    if !cfg!(target_os = "linux") {
        return true;
    }
    let runtime = std::env::var_os("XDG_RUNTIME_DIR").map(std::path::PathBuf::from);
    std::path::Path::new("/dev/snd").exists()
        || std::env::var_os("PULSE_SERVER").is_some()
        || runtime.is_some_and(|r| r.join("pulse/native").exists() || r.join("pipewire-0").exists())
}

#[cfg(feature = "sound")]
mod audio {
    use crate::settings::Settings;
    use crate::view::sound::{Cue, Sound, audio_device_present};
    use bevy::audio::{AudioPlayer, AudioSource, PlaybackSettings, Volume};
    use bevy::prelude::*;

    pub(super) fn plugin(app: &mut App) {
        use crate::view::frame::ViewSystems;
        app.add_systems(Startup, load_sounds).add_systems(
            Update,
            (
                toggle_mute.in_set(ViewSystems::Input),
                play_cues.in_set(ViewSystems::Draw),
            ),
        );
    }

    /// The sounds, loaded; none where there is no audio.
    #[derive(Resource)]
    struct Sounds(Vec<(Sound, Handle<AudioSource>)>);

    fn load_sounds(assets: Option<Res<AssetServer>>, mut commands: Commands) {
        let Some(assets) = assets else { return };
        if !audio_device_present() {
            return;
        }
        let handles = Sound::ALL
            .iter()
            .map(|&s| (s, assets.load(format!("sounds/{}", s.file()))))
            .collect();
        commands.insert_resource(Sounds(handles));
    }

    /// M mutes and unmutes (saved with the settings); at the end of the
    /// battle M goes to the level menu instead.
    fn toggle_mute(
        keys: Res<ButtonInput<KeyCode>>,
        turn: Option<Res<crate::rules::TurnState>>,
        mut settings: ResMut<Settings>,
    ) {
        let over = turn.is_some_and(|t| t.outcome.is_some());
        if keys.just_pressed(KeyCode::KeyM) && !over {
            settings.muted = !settings.muted;
            if let Some(path) = Settings::path() {
                let _ = settings.save(&path);
            }
        }
    }

    /// Each cue played once (the same sound at most once a frame: eight
    /// steps skipped at once are one step).
    fn play_cues(
        mut cues: MessageReader<Cue>,
        sounds: Option<Res<Sounds>>,
        settings: Res<Settings>,
        mut commands: Commands,
    ) {
        let mut heard = vec![];
        for Cue(sound) in cues.read() {
            if heard.contains(sound) {
                continue;
            }
            heard.push(*sound);
            let Some(sounds) = &sounds else { continue };
            if settings.muted || settings.volume <= 0.0 {
                continue;
            }
            let Some((_, handle)) = sounds.0.iter().find(|(s, _)| s == sound) else {
                continue;
            };
            commands.spawn((
                AudioPlayer::new(handle.clone()),
                PlaybackSettings::DESPAWN
                    .with_volume(Volume::Linear(settings.volume * sound.level())),
            ));
        }
    }
}

/// Bevy's default plugins, without its audio where there is no device to
/// play on (one line says so) or no `sound` feature.
pub fn default_plugins(plugins: bevy::app::PluginGroupBuilder) -> bevy::app::PluginGroupBuilder {
    #[cfg(feature = "sound")]
    if !audio_device_present() {
        // Before the log is set up: printed, once.
        eprintln!("skirmish: no audio device: the game plays silently");
        return plugins.disable::<bevy::audio::AudioPlugin>();
    }
    plugins
}
