//! The worker lanes: where puzzle work runs, how much at once, and who
//! waits. This module owns the worker threads, the permits that bound
//! them, the queue in front of each lane (its length and its deadline)
//! and the cancel flag of each piece of work; it knows no HTTP and no
//! puzzle.
//!
//! Two lanes, so that cheap work never waits behind dear work: the light
//! lane takes 4×4 and 9×9 grids (a millisecond or less), the heavy lane
//! 16×16 and 25×25 (up to seconds). Each has threads of its own, started
//! with the server and kept to its end (so the process's threads never
//! grow with the load, and each thread keeps its engines between
//! requests).
//!
//! A request takes a permit of its lane (one per thread), waiting in a
//! bounded FIFO queue at most the lane's deadline; a full queue or a
//! deadline passed is a [`Refusal`]. The permit then moves into the work
//! itself and is released only when the work ends on its thread, so the
//! work running never outnumbers the threads, whatever the clients do.
//! A request whose future is dropped (its client went away, or the server
//! is stopping) raises its work's cancel flag, which the searches check
//! on entering each level; work not yet started is skipped.

use std::io;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio::sync::{oneshot, OwnedSemaphorePermit, Semaphore, TryAcquireError};

/// Why a lane did not run a request's work.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// Its queue was full.
    Full,
    /// It waited longer than the lane's deadline.
    Late,
    /// The server is stopping, or the work panicked.
    Failed,
}

/// A piece of work, with its permit inside.
type Job = Box<dyn FnOnce() + Send>;

/// One lane: threads, their permits and the queue in front of them.
#[derive(Debug)]
pub struct Lane {
    permits: Arc<Semaphore>,
    /// Requests waiting for a permit now.
    waiting: AtomicUsize,
    /// The most that may wait.
    queue: usize,
    /// How long one may wait.
    deadline: Duration,
    jobs: mpsc::Sender<Job>,
}

impl Lane {
    /// A lane of `threads` threads (at least one) named `name-N`, with
    /// `queue` requests waiting at most, each for at most `deadline`.
    pub fn new(name: &str, threads: usize, queue: usize, deadline: Duration) -> io::Result<Lane> {
        let threads = threads.max(1);
        let (jobs, receiver) = mpsc::channel::<Job>();
        let receiver = Arc::new(Mutex::new(receiver));
        for n in 0..threads {
            let receiver = Arc::clone(&receiver);
            // On an error the threads started end with `jobs` dropped.
            std::thread::Builder::new()
                .name(format!("{name}-{n}"))
                .spawn(move || work_loop(&receiver))?;
        }
        Ok(Lane {
            permits: Arc::new(Semaphore::new(threads)),
            waiting: AtomicUsize::new(0),
            queue,
            deadline,
            jobs,
        })
    }

    /// Runs `work` on one of the lane's threads once a permit is free,
    /// and waits for its answer. `work` gets the cancel flag that is
    /// raised if this future is dropped before it ends.
    pub async fn run<T, F>(&self, work: F) -> Result<T, Refusal>
    where
        T: Send + 'static,
        F: FnOnce(Arc<AtomicBool>) -> T + Send + 'static,
    {
        let permit = self.permit().await?;
        let cancel = Arc::new(AtomicBool::new(false));
        let raise = RaiseOnDrop(Arc::clone(&cancel));
        let (answer, answered) = oneshot::channel();
        let job: Job = Box::new(move || {
            // The permit is the work's: released when it ends, here.
            let _permit = permit;
            if !cancel.load(Ordering::Relaxed) {
                let _ = answer.send(work(cancel));
            }
        });
        self.jobs.send(job).map_err(|_| Refusal::Failed)?;
        let answer = answered.await.map_err(|_| Refusal::Failed);
        drop(raise);
        answer
    }

    /// A permit: at once if one is free, else after a wait in the queue.
    async fn permit(&self) -> Result<OwnedSemaphorePermit, Refusal> {
        match Arc::clone(&self.permits).try_acquire_owned() {
            Ok(permit) => return Ok(permit),
            Err(TryAcquireError::Closed) => return Err(Refusal::Failed),
            Err(TryAcquireError::NoPermits) => {}
        }
        let _place = Waiting::enter(&self.waiting, self.queue).ok_or(Refusal::Full)?;
        match tokio::time::timeout(self.deadline, Arc::clone(&self.permits).acquire_owned()).await {
            Ok(Ok(permit)) => Ok(permit),
            Ok(Err(_)) => Err(Refusal::Failed),
            Err(_) => Err(Refusal::Late),
        }
    }
}

/// Takes jobs until the lane is dropped. A job that panics (in builds
/// that unwind) loses its answer, not the thread.
fn work_loop(receiver: &Mutex<mpsc::Receiver<Job>>) {
    loop {
        let job = receiver
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .recv();
        match job {
            Ok(job) => {
                let _ = catch_unwind(AssertUnwindSafe(job));
            }
            Err(mpsc::RecvError) => return,
        }
    }
}

/// Raises a cancel flag when dropped: the request's future is gone, so
/// its work is no longer wanted.
struct RaiseOnDrop(Arc<AtomicBool>);

impl Drop for RaiseOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// A place in a queue, given back when dropped.
struct Waiting<'a>(&'a AtomicUsize);

impl<'a> Waiting<'a> {
    /// A place, if fewer than `most` wait.
    fn enter(count: &'a AtomicUsize, most: usize) -> Option<Waiting<'a>> {
        count
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < most).then_some(n + 1)
            })
            .ok()
            .map(|_| Waiting(count))
    }
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::RecvTimeoutError;

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
    }

    /// Work that holds its thread until released or cancelled, and says
    /// which it was.
    fn held(release: Arc<AtomicBool>) -> impl FnOnce(Arc<AtomicBool>) -> &'static str {
        move |cancel| loop {
            if cancel.load(Ordering::Relaxed) {
                return "cancelled";
            }
            if release.load(Ordering::Relaxed) {
                return "released";
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    #[test]
    fn a_full_queue_refuses_and_a_late_request_gives_up() {
        let lane = Lane::new("test-lane", 1, 1, Duration::from_millis(200)).unwrap();
        let release = Arc::new(AtomicBool::new(false));
        runtime().block_on(async {
            let running = lane.run(held(Arc::clone(&release)));
            tokio::pin!(running);
            // Started: it holds the only permit.
            assert!(
                tokio::time::timeout(Duration::from_millis(50), running.as_mut())
                    .await
                    .is_err()
            );
            let queued = lane.run(|_| "queued");
            tokio::pin!(queued);
            // Polled once, it takes the queue's one place.
            assert!(
                tokio::time::timeout(Duration::from_millis(10), queued.as_mut())
                    .await
                    .is_err()
            );
            let third = lane.run(|_| "third").await;
            assert_eq!(third, Err(Refusal::Full));
            // The queued one waits past its deadline.
            assert_eq!(queued.await, Err(Refusal::Late));
            release.store(true, Ordering::Relaxed);
            assert_eq!(running.await, Ok("released"));
            // The queue is empty again, the permit back.
            assert_eq!(lane.run(|_| "after").await, Ok("after"));
        });
    }

    #[test]
    fn dropping_a_request_cancels_its_work_and_frees_its_permit() {
        let lane = Lane::new("test-lane", 1, 4, Duration::from_secs(30)).unwrap();
        let (said, hear) = mpsc::channel();
        let never = Arc::new(AtomicBool::new(false));
        runtime().block_on(async {
            let work = held(never);
            let running = lane.run(move |cancel| {
                let _ = said.send("started");
                let end = work(cancel);
                let _ = said.send(end);
            });
            tokio::pin!(running);
            assert!(
                tokio::time::timeout(Duration::from_millis(50), running.as_mut())
                    .await
                    .is_err()
            );
        });
        // The future is dropped: the work sees its flag and ends.
        assert_eq!(hear.recv_timeout(Duration::from_secs(30)), Ok("started"));
        assert_eq!(hear.recv_timeout(Duration::from_secs(30)), Ok("cancelled"));
        let answer = runtime().block_on(lane.run(|_| 7));
        assert_eq!(answer, Ok(7), "the permit came back");
        assert_eq!(
            hear.recv_timeout(Duration::from_millis(1)),
            Err(RecvTimeoutError::Disconnected)
        );
    }

    #[test]
    fn work_that_panics_fails_its_request_not_the_lane() {
        let lane = Lane::new("test-lane", 1, 4, Duration::from_secs(30)).unwrap();
        runtime().block_on(async {
            let failed = lane.run(|_| -> u8 { panic!("a bug") }).await;
            assert_eq!(failed, Err(Refusal::Failed));
            assert_eq!(lane.run(|_| 1u8).await, Ok(1));
        });
    }
}
