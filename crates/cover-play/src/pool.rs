//! New 16×16 games made ahead, off the request path. This module owns
//! the one thread that makes them, the few games kept ready per difficulty,
//! and the requests waiting for one.
//!
//! A 16×16 game takes the generator from milliseconds (easy) to seconds
//! (hard: it often tries all its attempts, each up to a second), and an
//! attempt cannot be stopped midway. So a request for a 16×16 game
//! without a seed (what the page sends) takes a game made before, and
//! the maker makes the next one. A difficulty is made for only once someone
//! asked for it: nothing is made for a server nobody plays 16×16 on.
//! Its first request waits for the maker, at most `Config::game_wait`
//! (a wait holds no thread, and at most [`WAITERS`] wait). Every
//! game is made from a seed of its own, which it reports, so a request
//! with that seed makes the same game again.

use std::collections::VecDeque;
use std::io;
use std::panic::catch_unwind;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use cover_models::sudoku::human::Difficulty;
use tokio::sync::oneshot;

use crate::game::{self, Game, NewRequest};
use crate::lanes::Refusal;

/// The side of the games made ahead.
pub const SIDE: usize = 16;

/// Games kept ready per difficulty once it was asked for.
const READY: usize = 2;

/// Requests that may wait for a game at once.
const WAITERS: usize = 16;

/// The games made ahead, and the thread that makes them.
#[derive(Debug)]
pub struct Pool {
    shared: Arc<Shared>,
    /// How long a request waits for a game.
    deadline: Duration,
}

#[derive(Debug)]
struct Shared {
    state: Mutex<State>,
    /// Wakes the maker: a game was taken, a request waits, or stop.
    wake: Condvar,
}

#[derive(Debug, Default)]
struct State {
    /// Games ready, by difficulty (`Difficulty::ALL`'s order).
    ready: [VecDeque<Game>; Difficulty::ALL.len()],
    /// Difficulties asked for at least once: the maker keeps those ready.
    wanted: [bool; Difficulty::ALL.len()],
    /// Requests waiting for a game of a difficulty, oldest first.
    waiters: VecDeque<(Difficulty, oneshot::Sender<Game>)>,
    /// The server is gone: the maker ends.
    stop: bool,
}

impl Pool {
    /// A pool and its maker thread (idle until a game is asked for);
    /// requests wait for a game at most `deadline`.
    pub fn new(deadline: Duration) -> io::Result<Pool> {
        let shared = Arc::new(Shared {
            state: Mutex::new(State::default()),
            wake: Condvar::new(),
        });
        let maker = Arc::clone(&shared);
        std::thread::Builder::new()
            .name("cover-play-maker".into())
            .spawn(move || maker.make_until_stopped())?;
        Ok(Pool { shared, deadline })
    }

    /// A game of `difficulty`: a ready one at once, else the next one made,
    /// if it comes within the deadline.
    pub async fn take(&self, difficulty: Difficulty) -> Result<Game, Refusal> {
        let made = {
            let mut state = self.shared.lock();
            state.wanted[index(difficulty)] = true;
            if let Some(game) = state.ready[index(difficulty)].pop_front() {
                self.shared.wake.notify_one();
                return Ok(game);
            }
            // Requests gone (their receivers dropped) leave no place.
            state.waiters.retain(|(_, waiter)| !waiter.is_closed());
            if state.waiters.len() >= WAITERS {
                return Err(Refusal::Full);
            }
            let (waiter, made) = oneshot::channel();
            state.waiters.push_back((difficulty, waiter));
            self.shared.wake.notify_one();
            made
        };
        match tokio::time::timeout(self.deadline, made).await {
            Ok(Ok(game)) => Ok(game),
            Ok(Err(_)) => Err(Refusal::Failed),
            Err(_) => Err(Refusal::Late),
        }
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        self.shared.lock().stop = true;
        self.shared.wake.notify_one();
    }
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The maker: makes the difficulty the oldest waiting request wants, else
    /// a wanted difficulty short of games, else sleeps.
    fn make_until_stopped(&self) {
        let seeds = AtomicU64::new(0);
        loop {
            let difficulty = {
                let mut state = self.lock();
                loop {
                    if state.stop {
                        return;
                    }
                    state.waiters.retain(|(_, waiter)| !waiter.is_closed());
                    if let Some(difficulty) = state.next_difficulty() {
                        break difficulty;
                    }
                    state = self
                        .wake
                        .wait(state)
                        .unwrap_or_else(PoisonError::into_inner);
                }
            };
            let seed = fresh_seed(&seeds);
            let request = NewRequest {
                size: SIDE,
                difficulty: difficulty.to_string(),
                seed: Some(seed),
            };
            // 16×16 and a known difficulty leave new_game nothing to refuse;
            // should it fail all the same, the difficulty's requests hear it
            // and it is no longer made ahead.
            let made = catch_unwind(|| game::new_game(&request, seed));
            let mut state = self.lock();
            match made {
                Ok(Ok(game)) => state.deliver(difficulty, game),
                _ => state.give_up(difficulty),
            }
        }
    }
}

impl State {
    fn next_difficulty(&self) -> Option<Difficulty> {
        if let Some((difficulty, _)) = self.waiters.front() {
            return Some(*difficulty);
        }
        Difficulty::ALL.into_iter().find(|&difficulty| {
            self.wanted[index(difficulty)] && self.ready[index(difficulty)].len() < READY
        })
    }

    /// Drops the requests waiting for `difficulty` (they fail) and stops
    /// making it ahead.
    fn give_up(&mut self, difficulty: Difficulty) {
        self.waiters.retain(|(g, _)| *g != difficulty);
        self.wanted[index(difficulty)] = false;
    }

    /// Gives `game` to the oldest request waiting for its difficulty, else
    /// keeps it ready.
    fn deliver(&mut self, difficulty: Difficulty, mut game: Game) {
        while let Some(at) = self.waiters.iter().position(|(g, _)| *g == difficulty) {
            let (_, waiter) = self.waiters.remove(at).expect("a position found");
            match waiter.send(game) {
                Ok(()) => return,
                Err(unsent) => game = unsent,
            }
        }
        self.ready[index(difficulty)].push_back(game);
    }
}

fn index(difficulty: Difficulty) -> usize {
    Difficulty::ALL
        .iter()
        .position(|&g| g == difficulty)
        .expect("every difficulty is in ALL")
}

/// A seed for a game nobody chose a seed for: the clock, and a count so
/// that seeds differ within one tick.
pub fn fresh_seed(count: &AtomicU64) -> u64 {
    let clock = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let count = count.fetch_add(1, Ordering::Relaxed);
    clock ^ count.wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_come_made_ahead_and_replay_from_their_seed() {
        let pool = Pool::new(Duration::from_secs(120)).unwrap();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let first = runtime.block_on(pool.take(Difficulty::Easy)).unwrap();
        assert_eq!((first.size, first.puzzle.len()), (16, 256));
        let seed = first.seed.expect("a game made ahead says its seed");
        let replay = game::new_game(
            &NewRequest {
                size: 16,
                difficulty: "easy".into(),
                seed: Some(seed),
            },
            0,
        )
        .unwrap();
        assert_eq!(replay, first);
        // The maker keeps easy games ready now: the next is another.
        let second = runtime.block_on(pool.take(Difficulty::Easy)).unwrap();
        assert_ne!(second.seed, first.seed);
    }
}
