//! A second thread for the look-ahead's tries ([`super::search`]): each
//! thread that decides keeps one helper thread of its own, started on its
//! first use and ended with it, so a try can be played beside another.
//! The helper keeps its state (its copy of the battle) in its own
//! thread-locals between jobs, as the deciding thread does.
//!
//! A job that fails (its thread gone, or a panic in it) answers nothing;
//! the caller then plays the try itself, so the helper can make a decision
//! faster but never different.

use std::cell::RefCell;
use std::sync::mpsc::{Receiver, Sender, channel};

type Job = Box<dyn FnOnce() + Send>;

thread_local! {
    /// This thread's helper: where its jobs are sent.
    static HELPER: RefCell<Option<Sender<Job>>> = const { RefCell::new(None) };
}

/// A job under way on the helper thread.
pub(super) struct Pending<R>(Receiver<R>);

impl<R> Pending<R> {
    /// The job's answer once it is done; `None` if it failed.
    pub(super) fn wait(self) -> Option<R> {
        self.0.recv().ok()
    }
}

/// Starts `job` on this thread's helper thread (started now if it has
/// none); `None` if no thread could be started.
pub(super) fn start<R: Send + 'static>(
    job: impl FnOnce() -> R + Send + 'static,
) -> Option<Pending<R>> {
    let (answer, pending) = channel();
    let job: Job = Box::new(move || {
        let _ = answer.send(job());
    });
    HELPER.with(|h| {
        let mut helper = h.borrow_mut();
        if helper.is_none() {
            *helper = spawn();
        }
        let sent = helper.as_ref()?.send(job);
        if sent.is_err() {
            // Its thread is gone: the next job starts a new one.
            *helper = None;
            return None;
        }
        Some(Pending(pending))
    })
}

/// A new helper thread, running the jobs it is sent in order until its
/// sender (the deciding thread's [`HELPER`]) is dropped. On Linux it
/// inherits the deciding thread's priority: the window's AI thinks at a
/// lower one than its frames (`view::turns`), and so does its helper.
fn spawn() -> Option<Sender<Job>> {
    let (jobs, inbox) = channel::<Job>();
    std::thread::Builder::new()
        .name("ai-helper".into())
        .spawn(move || {
            for job in inbox {
                // A job that panics drops its answer's sender (its caller
                // plays the try itself); the thread serves the next.
                let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job));
            }
        })
        .ok()?;
    Some(jobs)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Jobs run on another thread, in order, and keep that thread's
    /// state between them.
    #[test]
    fn jobs_run_on_a_thread_of_their_own_and_keep_its_state() {
        thread_local! {
            static COUNT: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
        }
        let here = std::thread::current().id();
        let answers: Vec<(u32, bool)> = (0..3)
            .map(|_| {
                start(move || {
                    COUNT.with(|c| c.set(c.get() + 1));
                    (
                        COUNT.with(std::cell::Cell::get),
                        std::thread::current().id() != here,
                    )
                })
                .and_then(Pending::wait)
                .expect("an answer")
            })
            .collect();
        assert_eq!(answers, vec![(1, true), (2, true), (3, true)]);
    }

    /// A job that panics answers nothing, and the next job is served.
    #[test]
    fn a_failed_job_answers_nothing_and_the_next_is_served() {
        let failed = start(|| -> u32 { panic!("a job that fails") }).expect("started");
        assert_eq!(failed.wait(), None);
        let next = start(|| 7).expect("started").wait();
        assert_eq!(next, Some(7));
    }
}
