//! Progress bars on standard error, for long runs watched by a person.
//!
//! A [`Ticker`] waits a second before it draws anything, so quick runs
//! never flash a bar, and it draws only when standard error is a terminal,
//! never into pipes or files: a bar of a known total, or for work of
//! unknown size ([`Ticker::start_open`]) a line of the time it has run
//! and a count. It reads the work done from a closure over
//! counters the workers update, so the workers never touch the bar.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How long a run goes before a bar appears.
const DELAY: Duration = Duration::from_secs(1);
/// How often the bar is redrawn.
const TICK: Duration = Duration::from_millis(100);

/// What a bar shows: a share of a known total, or a running count (of
/// solutions found, say) with the time since the start.
#[derive(Clone, Copy)]
enum Shape {
    /// (done, total), with a total of 0 while unknown.
    Share,
    /// A count of what is named by the text ("solutions found").
    Open(&'static str),
}

/// A background thread that draws a progress bar until finished.
pub struct Ticker {
    finished: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Ticker {
    /// Starts a bar labelled `label`; `read` returns (done, total), with a
    /// total of 0 while unknown. Does nothing unless standard error is a
    /// terminal.
    pub fn start<F>(label: &'static str, read: F) -> Ticker
    where
        F: Fn() -> (u64, u64) + Send + 'static,
    {
        Ticker::spawn(label, Shape::Share, read)
    }

    /// Starts a line labelled `label` for work of unknown size: the time
    /// it has run, a spinner, and the count `read` returns followed by
    /// `unit` (none when `unit` is empty). Only on a terminal.
    pub fn start_open<F>(label: &'static str, unit: &'static str, read: F) -> Ticker
    where
        F: Fn() -> u64 + Send + 'static,
    {
        Ticker::spawn(label, Shape::Open(unit), move || (read(), 0))
    }

    fn spawn<F>(label: &'static str, shape: Shape, read: F) -> Ticker
    where
        F: Fn() -> (u64, u64) + Send + 'static,
    {
        let finished = Arc::new(AtomicBool::new(false));
        if !std::io::stderr().is_terminal() {
            return Ticker {
                finished,
                thread: None,
            };
        }
        let flag = Arc::clone(&finished);
        // A bar is not worth failing for: without a thread, no bar.
        let thread = std::thread::Builder::new()
            .name("progress".to_owned())
            .spawn(move || draw(label, shape, read, &flag))
            .ok();
        Ticker { finished, thread }
    }

    /// Stops and clears the bar.
    pub fn finish(mut self) {
        self.stop();
    }

    fn stop(&mut self) {
        self.finished.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for Ticker {
    fn drop(&mut self) {
        self.stop();
    }
}

fn draw<F: Fn() -> (u64, u64)>(label: &'static str, shape: Shape, read: F, finished: &AtomicBool) {
    let start = Instant::now();
    while start.elapsed() < DELAY {
        if finished.load(Ordering::Relaxed) {
            return;
        }
        std::thread::sleep(TICK);
    }
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    let template = match shape {
        Shape::Share => "{prefix} [{elapsed_precise}] {wide_bar} {pos}/{len} (eta {eta})",
        Shape::Open("") => "{prefix} [{elapsed_precise}] {spinner}",
        Shape::Open(_) => "{prefix} [{elapsed_precise}] {spinner} {human_pos} {msg}",
    };
    let style = ProgressStyle::with_template(template)
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> ");
    bar.set_style(style);
    if let Shape::Open(unit) = shape {
        bar.set_message(unit);
    }
    bar.set_prefix(label);
    while !finished.load(Ordering::Relaxed) {
        let (done, total) = read();
        if total > 0 {
            bar.set_length(total);
        }
        bar.set_position(done);
        std::thread::sleep(TICK);
    }
    bar.finish_and_clear();
}
