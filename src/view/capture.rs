//! `--screenshot FILE.png`: saves the window once the level is drawn (with
//! `--watch`, once the battle is over and shown), then exits; and
//! `--frames N`: measures N frames after a warm-up, prints
//! `frames N median X ms p99 Y ms`, then exits.

use super::frame::PlayOptions;
use super::playback::Playback;
use crate::rules::turns::turn::TurnState;
use bevy::prelude::*;
use bevy::render::render_resource::PipelineCache;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use bevy::render::{Render, RenderApp, RenderSystems};
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Capture>()
        .add_systems(Last, (take_screenshot, measure_frames));
    pipelines_plugin(app);
}

/// Counts, in the render world, the frames in a row with no pipeline
/// left to compile (for [`shoot_when_ready`]).
pub(super) fn pipelines_plugin(app: &mut App) {
    let settled = PipelinesSettled::default();
    app.insert_resource(settled.clone());
    if let Some(render_app) = app.get_sub_app_mut(RenderApp) {
        render_app
            .insert_resource(settled)
            .add_systems(Render, count_settled_frames.in_set(RenderSystems::Cleanup));
    }
}

/// Frames in a row the render world has had no pipeline compiling, shared
/// by both worlds. Bevy compiles pipelines in the background and skips
/// what needs one still compiling: a picture taken then misses it.
#[derive(Resource, Clone, Default)]
struct PipelinesSettled(Arc<AtomicU32>);

/// After the frame is rendered (every pipeline queued so far has been
/// started by then): none still compiling adds a settled frame.
fn count_settled_frames(cache: Res<PipelineCache>, settled: Res<PipelinesSettled>) {
    if cache.waiting_pipelines().next().is_none() {
        settled.0.fetch_add(1, Ordering::AcqRel);
    } else {
        settled.0.store(0, Ordering::Release);
    }
}

/// Frames in a row with every pipeline compiled before a picture is taken.
const SETTLED_FRAMES: u32 = 3;

/// Whether every pipeline has been compiled for a few frames (true in an
/// app without the counter).
fn pipelines_settled(world: &World) -> bool {
    world
        .get_resource::<PipelinesSettled>()
        .is_none_or(|s| s.0.load(Ordering::Acquire) >= SETTLED_FRAMES)
}

/// Frames before anything is measured or shot: the window, the tileset and
/// the text must be up.
const WARM_UP: u32 = 30;

/// Progress of a capture.
#[derive(Resource, Debug, Default)]
struct Capture {
    frames: u32,
    /// Frames since the screenshot was asked for.
    asked: Option<u32>,
    /// Frames in a row the picture has been ready (the UI lays out a frame
    /// late).
    ready: u32,
    /// Frame times measured, in milliseconds.
    times: Vec<f64>,
}

/// The battle is over and every event has been shown (for `--watch`).
fn finished(turn: Option<&TurnState>, playback: Option<&Playback>) -> bool {
    turn.is_some_and(|t| t.outcome.is_some()) && playback.is_none_or(Playback::idle)
}

/// A human is to act (or answer, or take the seat behind the hot-seat
/// curtain) and everything so far has been shown.
fn human_waits(world: &World) -> bool {
    let curtain = world
        .get_resource::<super::seat::Curtain>()
        .is_some_and(|c| c.0.is_some());
    world.get_resource::<Playback>().is_some_and(Playback::idle)
        && (super::seat::human_to_act(world).is_some()
            || super::seat::human_asked(world).is_some()
            || curtain)
}

/// Shoots when the picture is worth taking: a human's turn (the reach, the
/// hovered preview), else the end of the battle; exits once it is on disk.
fn take_screenshot(world: &mut World) {
    let Some(path) = world.resource::<PlayOptions>().screenshot.clone() else {
        return;
    };
    let ready = {
        let turn = world.get_resource::<TurnState>();
        let playback = world.get_resource::<Playback>();
        let script_done = world
            .get_resource::<super::seat::Script>()
            .is_some_and(|s| s.0.is_empty())
            && playback.is_some_and(Playback::idle);
        let shot_after = world.resource::<PlayOptions>().shot_after;
        match shot_after {
            // Mid-animation: the n-th event is on screen.
            Some(n) => playback.is_some_and(|p| p.played() >= n),
            None => turn.is_none() || finished(turn, playback) || human_waits(world) || script_done,
        }
    };
    // A settled picture: the last floating words ("miss") faded, as a
    // player sees the position a moment on.
    let settled = world.resource::<PlayOptions>().shot_after.is_some()
        || world.get_resource::<super::floats::Waiting>().is_none()
        || super::floats::settled(world);
    let ready = ready && settled;
    // Asked for the enemies' intent: once it is drawn.
    let ready = ready && !super::intent::busy(world);
    shoot_when_ready(world, path, ready);
}

/// Saves the window to `path` once the warm-up is over and `ready` has held
/// for a few frames (the UI lays out a frame late) with the terrain drawn
/// and no pipeline compiling, then exits: the game's
/// `--screenshot` and the editor's.
pub(super) fn shoot_when_ready(world: &mut World, path: std::path::PathBuf, ready: bool) {
    // The map is in the picture only once its terrain image is drawn, and
    // everything else once its pipeline is compiled.
    let ready = ready && super::terrain_cache::terrain_drawn(world) && pipelines_settled(world);
    let mut capture = world.get_resource_or_init::<Capture>();
    capture.frames += 1;
    capture.ready = if ready { capture.ready + 1 } else { 0 };
    match capture.asked {
        None => {
            if capture.frames > WARM_UP && capture.ready > 5 {
                capture.asked = Some(0);
                let _ = std::fs::remove_file(&path);
                world
                    .spawn(Screenshot::primary_window())
                    .observe(save_to_disk(path));
            }
        }
        Some(n) => {
            // The picture is written a few frames later, off the main
            // thread: exit once it is on disk (or give up after 600 frames).
            capture.asked = Some(n + 1);
            let written = std::fs::metadata(&path).is_ok_and(|m| m.len() > 0);
            if written && n > 2 {
                world.write_message(AppExit::Success);
            } else if n > 600 {
                error!("the screenshot was not written to {}", path.display());
                world.write_message(AppExit::error());
            }
        }
    }
}

fn measure_frames(
    options: Res<PlayOptions>,
    time: Res<Time<Real>>,
    mut capture: ResMut<Capture>,
    mut exit: MessageWriter<AppExit>,
) {
    let Some(n) = options.frames else { return };
    if options.screenshot.is_some() {
        return;
    }
    capture.frames += 1;
    if capture.frames <= WARM_UP {
        return;
    }
    capture.times.push(time.delta_secs_f64() * 1000.0);
    if capture.times.len() >= n.max(1) {
        let mut t = capture.times.clone();
        t.sort_by(f64::total_cmp);
        let at = |q: f64| t[((t.len() - 1) as f64 * q).round() as usize];
        println!(
            "frames {} median {:.1} ms p99 {:.1} ms",
            t.len(),
            at(0.5),
            at(0.99)
        );
        exit.write(AppExit::Success);
    }
}
