//! A decision's tries, played on one thread or two ([`super::search`]).
//!
//! The search counts its tries in one order, round by round and candidate
//! by candidate, and asks for them in that order ([`Tries::get`]). On one
//! thread each is played when asked for. With a helper thread
//! ([`super::helper`]) the helper is kept [`HELPER_DEPTH`] tries ahead of
//! the one asked for; while it is on that one, the deciding thread plays a
//! later one, taking back a try sent to the helper that it has not begun,
//! and gives the helper more. Answers wait until they are asked for. So
//! the search counts the same tries in the same order as on one thread,
//! whichever thread played them and whenever they ended.
//!
//! Before, a round's tries were played in pairs and the quicker of a pair
//! waited for the slower: tries to a battle's end vary in length, and the
//! slowest decisions on two threads were those whose pairs matched worst
//! (src/ai/SPEED.md, "Tries played as threads come free").
//!
//! A try begun ahead is a guess that the search will ask for it. Past a
//! round's end only the utility's own choice is begun (the round's end may
//! rule any other out), and only while the budget, at the mean work of a
//! try so far, would still hold it ([`Tries::get`]'s `room`): a guess the
//! search never asks for (the budget ran out first) is not counted.

use super::helper::{self, Pending};
use super::sandbox::{Sandbox, Tried, try_on_helper};
use crate::rules::command::Command;
use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// How many tries the helper is sent ahead: one under way and one
/// waiting, so it does not idle while the deciding thread is in a try.
const HELPER_DEPTH: usize = 2;

/// How far past the try asked for a try may be begun.
const LOOKAHEAD: usize = 6;

/// A try in the search's order: its round, then its candidate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Slot {
    /// The round: its dice are the same for every candidate.
    pub round: u64,
    /// The candidate's index.
    pub candidate: usize,
}

impl Slot {
    /// The try after this one in the search's order, were every candidate
    /// in `alive` still in doubt at the round's end.
    fn next(self, alive: &[bool]) -> Option<Slot> {
        let first = |from: usize| (from..alive.len()).find(|&j| alive[j]);
        match first(self.candidate + 1) {
            Some(j) => Some(Slot {
                candidate: j,
                ..self
            }),
            None => first(0).map(|j| Slot {
                round: self.round + 1,
                candidate: j,
            }),
        }
    }
}

/// The dice of round `round` of a decision whose seed is `seed`.
fn dice(seed: u64, round: u64) -> u64 {
    seed ^ round.wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// A try sent to the helper. Whichever thread claims it first plays it:
/// the helper when it comes to it, or the deciding thread, which takes a
/// try back rather than wait for it.
struct Sent {
    slot: Slot,
    answer: Pending<Option<Tried>>,
    claimed: Arc<AtomicBool>,
}

/// A decision's tries: played, or under way, or done ahead of their turn.
pub(super) struct Tries {
    /// Each candidate's first command.
    firsts: Vec<Command>,
    seed: u64,
    replies: usize,
    /// Whether a helper thread plays tries too.
    helper: bool,
    /// Tries done before they were asked for, and whether the helper
    /// played them.
    ready: Vec<(Slot, Tried, bool)>,
    /// Tries sent to the helper, in the order it comes to them.
    sent: VecDeque<Sent>,
}

impl Tries {
    /// The tries of a decision among `firsts`, with dice from `seed`, each
    /// through `replies` enemy replies, on a helper thread too if
    /// `helper`.
    pub(super) fn new(firsts: Vec<Command>, seed: u64, replies: usize, helper: bool) -> Tries {
        Tries {
            firsts,
            seed,
            replies,
            helper,
            ready: vec![],
            sent: VecDeque::new(),
        }
    }

    /// The try `slot`, the next the search counts, and whether the helper
    /// played it. `alive`: the candidates still in doubt; `room`: how many
    /// tries, this one among them, the budget would still hold at the mean
    /// work so far.
    pub(super) fn get(
        &mut self,
        slot: Slot,
        alive: &[bool],
        room: usize,
        sandbox: &mut Sandbox,
    ) -> (Tried, bool) {
        loop {
            self.collect(slot, alive);
            if let Some(k) = self.ready.iter().position(|(s, ..)| *s == slot) {
                let (_, tried, helped) = self.ready.swap_remove(k);
                self.feed(slot, alive, room, None, sandbox);
                return (tried, helped);
            }
            // This try if the helper is not on it, else a later one to
            // play meanwhile; the helper is then given more, to stay
            // ahead.
            let mine = Some(slot).filter(|s| self.take_back(*s)).or_else(|| {
                let upcoming = self.upcoming(slot, alive, room);
                upcoming.into_iter().find(|s| self.take_back(*s))
            });
            self.feed(slot, alive, room, mine, sandbox);
            match mine {
                Some(s) if s == slot => return (self.play(slot, sandbox), false),
                Some(s) => {
                    let tried = self.play(s, sandbox);
                    self.ready.push((s, tried, false));
                }
                None => self.wait_for_helper(),
            }
        }
    }

    /// Whether the deciding thread may play `slot`: it was never sent to
    /// the helper, or it is taken back before the helper comes to it.
    fn take_back(&mut self, slot: Slot) -> bool {
        let Some(k) = self.sent.iter().position(|t| t.slot == slot) else {
            return true;
        };
        let taken = !self.sent[k].claimed.swap(true, Ordering::AcqRel);
        if taken {
            // Its answer (none: the helper skips it) is not waited for.
            self.sent.remove(k);
        }
        taken
    }

    /// The tries after `slot` not yet played and the budget would still
    /// hold, in the search's order.
    fn upcoming(&self, slot: Slot, alive: &[bool], room: usize) -> Vec<Slot> {
        std::iter::successors(Some(slot), |s| s.next(alive))
            .skip(1)
            .take(LOOKAHEAD.min(room.saturating_sub(1)))
            // A round's end may rule a candidate out: of the next round,
            // only the utility's own choice, never ruled out, is begun.
            .filter(|s| s.round == slot.round || (s.round == slot.round + 1 && s.candidate == 0))
            .filter(|s| !self.ready.iter().any(|(r, ..)| r == s))
            .collect()
    }

    /// Keeps the helper [`HELPER_DEPTH`] tries ahead of `slot`, `playing`
    /// aside (the deciding thread's).
    fn feed(
        &mut self,
        slot: Slot,
        alive: &[bool],
        room: usize,
        playing: Option<Slot>,
        sandbox: &Sandbox,
    ) {
        let wanted = HELPER_DEPTH.saturating_sub(self.sent.len());
        if !self.helper || wanted == 0 {
            return;
        }
        let mut next = self.upcoming(slot, alive, room);
        next.retain(|s| Some(*s) != playing && !self.sent.iter().any(|t| t.slot == *s));
        next.truncate(wanted);
        for s in next {
            let (setup, first) = (sandbox.setup(), self.firsts[s.candidate].clone());
            let (dice, replies, record) = (dice(self.seed, s.round), self.replies, s.round == 0);
            let claimed = Arc::new(AtomicBool::new(false));
            let mine = claimed.clone();
            let job = move || {
                // Taken back, or the decision is over: skipped.
                (!mine.swap(true, Ordering::AcqRel))
                    .then(|| try_on_helper(setup, &first, dice, replies, record))
                    .flatten()
            };
            match helper::start(job) {
                Some(answer) => self.sent.push_back(Sent {
                    slot: s,
                    answer,
                    claimed,
                }),
                // No thread: the deciding thread plays every try.
                None => self.helper = false,
            }
        }
    }

    /// Takes the helper's finished tries; those the search has passed, or
    /// whose candidate it ruled out, are dropped.
    fn collect(&mut self, slot: Slot, alive: &[bool]) {
        while let Some(answer) = self.sent.front().and_then(|t| t.answer.done()) {
            let s = self.sent.pop_front().expect("a try on the helper").slot;
            self.keep(s, answer.flatten());
        }
        self.ready
            .retain(|(s, ..)| *s >= slot && alive[s.candidate]);
    }

    /// Waits for the helper's first try.
    fn wait_for_helper(&mut self) {
        if let Some(t) = self.sent.pop_front() {
            // Kept as it is: `collect` drops it if it is no longer needed.
            self.keep(t.slot, t.answer.wait().flatten());
        }
    }

    /// Keeps the helper's answer for `s`. A try the helper failed to play
    /// (a panic) answers nothing: the deciding thread plays it when it is
    /// asked for.
    fn keep(&mut self, s: Slot, answer: Option<Tried>) {
        if let Some(tried) = answer {
            self.ready.push((s, tried, true));
        }
    }

    /// Plays `slot` on the deciding thread.
    fn play(&self, slot: Slot, sandbox: &mut Sandbox) -> Tried {
        let first = Some(&self.firsts[slot.candidate]);
        let dice = dice(self.seed, slot.round);
        sandbox.try_out(first, dice, self.replies, slot.round == 0)
    }
}

impl Drop for Tries {
    /// The decision is over: the helper skips the tries it has not come
    /// to, so the next decision's do not wait behind them.
    fn drop(&mut self) {
        for t in &self.sent {
            t.claimed.store(true, Ordering::Release);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Slot;

    /// The search's order: the candidates still in doubt, round by round.
    #[test]
    fn the_next_try_is_the_next_candidate_in_doubt_then_the_next_round() {
        let s = |round, candidate| Slot { round, candidate };
        let alive = [true, false, true, true];
        assert_eq!(s(0, 0).next(&alive), Some(s(0, 2)));
        assert_eq!(s(0, 2).next(&alive), Some(s(0, 3)));
        assert_eq!(s(0, 3).next(&alive), Some(s(1, 0)));
        assert_eq!(s(4, 1).next(&[false, false, true]), Some(s(4, 2)));
        assert_eq!(s(0, 0).next(&[false, false]), None);
    }
}
