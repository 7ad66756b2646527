//! `cover play`: the sudoku game of the seeds, served to a browser.
//!
//! This crate owns the game's web server: the page (HTML, CSS and
//! JavaScript compiled into the binary from `assets/`), the JSON API the
//! page talks to, and the bounds that keep clients from holding the
//! server (body size and time, header size and time, connections, grid
//! size, search nodes, threads, queues). The puzzle work itself is
//! [`game`]'s, which knows nothing of HTTP; the generator, the engines
//! and the logic that explains a step are `cover-models'`. The command
//! line (flags, printing the address, opening a browser) is
//! `cover-cli`'s.
//!
//! The server keeps no game state: every request carries the grids it is
//! about, so a game survives a server restart (the page keeps it in the
//! browser).
//!
//! Inside: `server` accepts and bounds connections, `routes` checks and
//! answers requests, `lanes` runs puzzle work on threads of its own (a
//! light lane for 4×4 and 9×9, a heavy one for 16×16 and 25×25, each with
//! a bounded queue), `pool` makes new 9×9 and 16×16 games ahead,
//! `variant` holds a variant game's rules as the page gets them.
//!
//! ## API
//! Every endpoint is `POST /api/<name>` with a JSON body
//! (`Content-Type: application/json`); answers are JSON.
//!
//! | path          | request                        | answer                        |
//! |---------------|--------------------------------|-------------------------------|
//! | `/api/new`    | `{size, difficulty, seed?, variant?}` | [`game::Game`]         |
//! | `/api/check`  | `{puzzle, cells, variant?}`    | [`game::Check`]               |
//! | `/api/hint`   | `{puzzle, cells, symbols?, variant?}` | [`game::Hint`]         |
//! | `/api/solve`  | `{puzzle, variant?}`           | [`game::Solution`]            |
//! | `/api/import` | `{text}`                       | [`game::Game`]                |
//!
//! and `GET /api/levels` answers the levels a new game of each size can
//! meet, and the variants a new game can be ([`game::Levels`]), so the
//! page offers only those. A variant game's JSON carries its rules
//! ([`variant::Variant`]), which the page sends back with each request
//! about it (`docs/play.md`, "API: variants").
//!
//! Errors are `{"error": "..."}` with
//! - 400: bad JSON or a bad grid, or no `Host` header;
//! - 403: an `Origin` header that is not this server's (a page of
//!   another site);
//! - 404: an unknown path; 405: another method;
//! - 408: the body did not arrive within [`Config::body_timeout`];
//! - 413: a body over [`MAX_BODY`] bytes (431, without JSON: a request
//!   head over [`MAX_HEAD`] bytes);
//! - 415: an API request whose `Content-Type` is not `application/json`
//!   (so a page of another site cannot send one without a CORS preflight,
//!   and the server answers no preflight);
//! - 421: a `Host` that does not name this server: `localhost:PORT`, a
//!   loopback address or the address bound, with its port (so a site
//!   whose name is made to resolve to 127.0.0.1 is refused: DNS
//!   rebinding). 421 Misdirected Request, not 403, because the request
//!   reached a server that does not serve that name;
//! - 422: a puzzle that cannot be played (unreadable, no solution,
//!   several);
//! - 503 with `Retry-After` (seconds): the server is busy, so retrying
//!   helps: the request's queue was full, it waited past
//!   [`Config::deadline`] for a worker, or the server had no room for
//!   another connection;
//! - 503 without `Retry-After`: a search past [`Config::search_nodes`]
//!   nodes (retrying gives the same answer).
//!
//! A new game with a seed is made from that seed alone, within
//! [`game::NEW_GAME_TIME`]; without one, a 9×9 or 16×16 game comes from
//! the games made ahead (see `pool`) when one is ready, else it is made
//! within [`Config::game_wait`] (then the closest made, `target_met`
//! false); either way it says the seed that makes it again.
#![forbid(unsafe_code)]

pub mod client;
pub mod game;
mod lanes;
mod pool;
mod routes;
mod server;
pub mod variant;

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::net::TcpListener;

pub use server::MAX_HEAD;

/// The largest request body, in bytes: a 25×25 grid in JSON takes under
/// 4 KiB, a pasted 25×25 puzzle under 2 KiB.
pub const MAX_BODY: usize = 64 * 1024;

/// How a server bounds its work and its clients.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Config {
    /// The search nodes one request may spend (see [`game::SEARCH_NODES`]).
    pub search_nodes: u64,
    /// The threads of each lane, so how many requests of each do puzzle
    /// work at once (default: one per core).
    pub workers: usize,
    /// How many requests may wait for a thread of the light lane (4×4 and
    /// 9×9 grids, and new games of those sizes).
    pub light_queue: usize,
    /// How many may wait for the heavy lane (16×16 and 25×25).
    pub heavy_queue: usize,
    /// How long a request may wait for a thread before it is answered
    /// 503.
    pub deadline: Duration,
    /// How long a new game without a seed (what the page asks for) may
    /// take to make when none of its size and level was made ahead:
    /// then the puzzle closest to its level made by then is answered,
    /// `target_met` false. (Up to [`game::NEW_GAME_TIME`], which a seed
    /// has, so that its seed makes the same game again.)
    pub game_wait: Duration,
    /// The most connections open at once (see `server`: at the cap a new
    /// one closes the oldest idle one).
    pub max_connections: usize,
    /// How long a client may take to send a request's head, and how long
    /// a connection may stay idle between requests.
    pub header_timeout: Duration,
    /// How long a client may take to send a request's body.
    pub body_timeout: Duration,
    /// On shutdown, how long requests in progress may take to finish
    /// before their connections are dropped.
    pub shutdown_grace: Duration,
}

impl Default for Config {
    fn default() -> Config {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        Config {
            search_nodes: game::SEARCH_NODES,
            workers: cores,
            // Light work takes a millisecond: a long queue drains fast.
            light_queue: 128,
            // Heavy work takes up to seconds: a few each.
            heavy_queue: 4 * cores,
            deadline: Duration::from_secs(5),
            // Any level of 9×9 and 16×16 is met in well under a second
            // (docs/measurements.md, "play").
            game_wait: Duration::from_secs(1),
            // Well under the usual 1,024 file descriptors; a browser
            // opens six per server.
            max_connections: 256,
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            shutdown_grace: Duration::from_millis(500),
        }
    }
}

/// Serves the game on `listener` until `shutdown` completes; then
/// requests in progress have [`Config::shutdown_grace`] to finish, and
/// the rest are dropped (their searches cancelled).
pub async fn serve<S>(listener: TcpListener, config: Config, shutdown: S) -> io::Result<()>
where
    S: Future<Output = ()> + Send + 'static,
{
    let shared = Arc::new(routes::Shared::start(config, listener.local_addr()?)?);
    server::serve(listener, routes::app(shared), &config, shutdown).await
}

/// Binds `addr` (port 0: any free port), then calls `ready` with the
/// address bound and serves until Ctrl-C, on a runtime of its own.
pub fn run(addr: SocketAddr, ready: impl FnOnce(SocketAddr)) -> io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let listener = TcpListener::bind(addr).await?;
        ready(listener.local_addr()?);
        serve(listener, Config::default(), async {
            // An error here means no signal handler could be installed:
            // then only killing the process stops the server.
            if tokio::signal::ctrl_c().await.is_err() {
                std::future::pending::<()>().await;
            }
        })
        .await
    })
}

/// A server running on a thread of its own (for tests and benchmarks):
/// stopped, and its thread joined, when dropped.
#[derive(Debug)]
pub struct Background {
    addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<io::Result<()>>>,
}

impl Background {
    /// Binds `addr` (port 0: any free port) and serves on a new thread.
    pub fn start(addr: SocketAddr, config: Config) -> io::Result<Background> {
        let std_listener = std::net::TcpListener::bind(addr)?;
        std_listener.set_nonblocking(true)?;
        let addr = std_listener.local_addr()?;
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()?;
        let thread = std::thread::spawn(move || {
            runtime.block_on(async move {
                let listener = TcpListener::from_std(std_listener)?;
                serve(listener, config, async move {
                    let _ = stopped.await;
                })
                .await
            })
        });
        Ok(Background {
            addr,
            stop: Some(stop),
            thread: Some(thread),
        })
    }

    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }
}

impl Drop for Background {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
