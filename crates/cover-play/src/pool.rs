//! New games made ahead, off the request path. This module owns, per
//! size made ahead ([`SIDES`]: 9×9 and 16×16), the one thread that makes
//! them and the few games kept ready per level.
//!
//! A request for a new game without a seed (what the page sends) takes a
//! game made before, at once, and the maker makes the next one. When
//! none is ready (the first request of a level, or requests faster than
//! the maker) the request makes its own in its lane, within
//! `Config::game_wait` (see `routes`), so no request waits for the maker.
//! A level is made ahead only once someone asked for it, and only up to
//! [`READY`] games: the makers sleep on a server nobody plays on, and
//! stop once the levels played are stocked. Every game is made from a
//! seed of its own, exactly as a request with that seed makes it
//! ([`game::new_game`]), and says it, so that seed makes it again.

use std::collections::VecDeque;
use std::io;
use std::panic::catch_unwind;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{SystemTime, UNIX_EPOCH};

use cover_models::sudoku::human::Difficulty;

use crate::game::{self, Game, NewRequest};

/// The sides whose games are made ahead: 4×4 games take well under a
/// millisecond, and are made on request.
pub const SIDES: [usize; 2] = [9, 16];

/// Games kept ready per level once it was asked for.
pub const READY: usize = 2;

/// The games of one size made ahead, and the thread that makes them.
#[derive(Debug)]
pub struct Pool {
    shared: Arc<Shared>,
}

#[derive(Debug)]
struct Shared {
    /// The side of the games.
    side: usize,
    state: Mutex<State>,
    /// Wakes the maker: a game was taken or asked for, or stop.
    wake: Condvar,
}

#[derive(Debug, Default)]
struct State {
    /// Games ready, by level (`Difficulty::ALL`'s order).
    ready: [VecDeque<Game>; Difficulty::ALL.len()],
    /// Levels asked for at least once: the maker keeps those ready.
    wanted: [bool; Difficulty::ALL.len()],
    /// The server is gone: the maker ends.
    stop: bool,
}

impl Pool {
    /// A pool of `side`×`side` games and its maker thread (asleep until
    /// a game is asked for).
    pub fn new(side: usize) -> io::Result<Pool> {
        let shared = Arc::new(Shared {
            side,
            state: Mutex::new(State::default()),
            wake: Condvar::new(),
        });
        let maker = Arc::clone(&shared);
        std::thread::Builder::new()
            .name(format!("cover-play-maker-{side}"))
            .spawn(move || maker.make_until_stopped())?;
        Ok(Pool { shared })
    }

    /// A game of `level` made ahead, if one is ready; either way the
    /// maker keeps `level` ready from now on.
    pub fn take(&self, level: Difficulty) -> Option<Game> {
        let mut state = self.shared.lock();
        state.wanted[index(level)] = true;
        let game = state.ready[index(level)].pop_front();
        self.shared.wake.notify_one();
        game
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

    /// The maker: makes a game of the wanted level with the fewest ready
    /// (the easiest of those), else sleeps.
    fn make_until_stopped(&self) {
        let seeds = AtomicU64::new(0);
        loop {
            let level = {
                let mut state = self.lock();
                loop {
                    if state.stop {
                        return;
                    }
                    if let Some(level) = state.next_level() {
                        break level;
                    }
                    state = self
                        .wake
                        .wait(state)
                        .unwrap_or_else(PoisonError::into_inner);
                }
            };
            let seed = fresh_seed(&seeds);
            let request = NewRequest {
                size: self.side,
                difficulty: level.to_string(),
                seed: Some(seed),
                variant: None,
            };
            // A made size and a known level leave new_game nothing to
            // refuse; should it fail all the same, the level is no longer
            // made ahead (its requests make their own).
            let made = catch_unwind(|| game::new_game(&request, seed));
            let mut state = self.lock();
            match made {
                Ok(Ok(game)) => state.ready[index(level)].push_back(game),
                _ => state.wanted[index(level)] = false,
            }
        }
    }
}

impl State {
    fn next_level(&self) -> Option<Difficulty> {
        Difficulty::ALL
            .into_iter()
            .filter(|&level| self.wanted[index(level)] && self.ready[index(level)].len() < READY)
            .min_by_key(|&level| self.ready[index(level)].len())
    }
}

fn index(level: Difficulty) -> usize {
    Difficulty::ALL
        .iter()
        .position(|&l| l == level)
        .expect("every level is in ALL")
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
    use std::time::{Duration, Instant};

    use super::*;

    /// Takes a game of `level` from `pool`, waiting for the maker.
    fn wait_for(pool: &Pool, level: Difficulty) -> Game {
        let start = Instant::now();
        loop {
            if let Some(game) = pool.take(level) {
                return game;
            }
            assert!(start.elapsed() < Duration::from_secs(120), "no game made");
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    #[test]
    fn games_come_made_ahead_once_asked_for_and_replay_from_their_seed() {
        for side in SIDES {
            let pool = Pool::new(side).unwrap();
            // Nothing is made before a level is asked for.
            std::thread::sleep(Duration::from_millis(50));
            assert!(pool.shared.lock().ready.iter().all(VecDeque::is_empty));
            assert!(pool.take(Difficulty::Easy).is_none(), "asked for now");
            let first = wait_for(&pool, Difficulty::Easy);
            assert_eq!(first.puzzle.len(), side * side);
            let seed = first.seed.expect("a game made ahead says its seed");
            let replay = game::new_game(
                &NewRequest {
                    size: side,
                    difficulty: "easy".into(),
                    seed: Some(seed),
                    variant: None,
                },
                0,
            )
            .unwrap();
            assert_eq!(replay, first);
            // The maker keeps easy games ready now, and no other level.
            let second = wait_for(&pool, Difficulty::Easy);
            assert_ne!(second.seed, first.seed);
            let start = Instant::now();
            while pool.shared.lock().ready[0].len() < READY {
                assert!(start.elapsed() < Duration::from_secs(120), "not refilled");
                std::thread::sleep(Duration::from_millis(10));
            }
            std::thread::sleep(Duration::from_millis(50));
            let state = pool.shared.lock();
            assert_eq!(state.ready[0].len(), READY, "at most READY");
            assert!(state.ready[1..].iter().all(VecDeque::is_empty));
        }
    }
}
