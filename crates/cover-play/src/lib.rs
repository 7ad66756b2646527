//! `cover play`: the sudoku game of the seeds, served to a browser.
//!
//! This crate owns the game's web server: the page (HTML, CSS and
//! JavaScript compiled into the binary from `assets/`), the JSON API the
//! page talks to, and the bounds that keep a request from holding the
//! server (body size, grid size, search nodes, threads). The puzzle work
//! itself is [`game`]'s, which knows nothing of HTTP; the generator, the
//! engines and the logic that explains a step are `cover-models`'. The
//! command line (flags, printing the address, opening a browser) is
//! `cover-cli`'s.
//!
//! The server keeps no game state: every request carries the grids it is
//! about, so a game survives a server restart (the page keeps it in the
//! browser).
//!
//! ## API
//! Every endpoint is `POST /api/<name>` with a JSON body; answers are
//! JSON. Errors are `{"error": "..."}` with 400 (bad JSON or a bad grid),
//! 413 (a body over [`MAX_BODY`] bytes), 422 (a puzzle that cannot be
//! played: unreadable, no solution, several), 503 (a search over
//! [`game::SEARCH_NODES`] nodes) or 404 (an unknown path).
//!
//! | path          | request                        | answer                        |
//! |---------------|--------------------------------|-------------------------------|
//! | `/api/new`    | `{size, difficulty, seed?}`    | [`game::Game`]                |
//! | `/api/check`  | `{puzzle, cells}`              | [`game::Check`]               |
//! | `/api/hint`   | `{puzzle, cells, symbols?}`    | [`game::Hint`]                |
//! | `/api/solve`  | `{puzzle}`                     | [`game::Solution`]            |
//! | `/api/import` | `{text}`                       | [`game::Game`]                |
#![forbid(unsafe_code)]

pub mod client;
pub mod game;

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, MethodRouter};
use axum::{Json, Router};
use serde::de::DeserializeOwned;
use serde::Serialize;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

use crate::game::GameError;

/// The largest request body, in bytes: a 25×25 grid in JSON takes under
/// 4 KiB, a pasted 25×25 puzzle under 2 KiB.
pub const MAX_BODY: usize = 64 * 1024;

const INDEX_HTML: &str = include_str!("../assets/index.html");
const APP_JS: &str = include_str!("../assets/app.js");
const STYLE_CSS: &str = include_str!("../assets/style.css");

/// The page's files: path, content type, text.
const ASSETS: [(&str, &str, &str); 4] = [
    ("/", "text/html; charset=utf-8", INDEX_HTML),
    ("/index.html", "text/html; charset=utf-8", INDEX_HTML),
    ("/app.js", "text/javascript; charset=utf-8", APP_JS),
    ("/style.css", "text/css; charset=utf-8", STYLE_CSS),
];

/// How a server bounds its work.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Config {
    /// The search nodes one request may spend (see [`game::SEARCH_NODES`]).
    pub search_nodes: u64,
    /// How many requests do puzzle work at once (default: one per core).
    pub workers: usize,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            search_nodes: game::SEARCH_NODES,
            workers: std::thread::available_parallelism().map_or(2, |n| n.get()),
        }
    }
}

/// What the handlers share.
#[derive(Debug)]
struct Shared {
    config: Config,
    /// One permit per core: puzzle work waits for a permit, so a burst of
    /// requests queues instead of starting more searches than cores.
    workers: Semaphore,
    /// Makes the seeds of new games differ within one clock tick.
    games: AtomicU64,
}

/// The game's routes: the page at `/`, its script and style, and the API.
pub fn router(config: Config) -> Router {
    let shared = Arc::new(Shared {
        config,
        workers: Semaphore::new(config.workers.max(1)),
        games: AtomicU64::new(0),
    });
    let mut routes = Router::new();
    for (path, content_type, body) in ASSETS {
        routes = routes.route(path, get(move || async move { asset(content_type, body) }));
    }
    routes
        .route("/api/new", post(new_game))
        .route("/api/check", searching_route(game::check))
        .route("/api/hint", searching_route(game::hint))
        .route("/api/solve", searching_route(game::solve))
        .route("/api/import", searching_route(game::import))
        .fallback(|| async { error(StatusCode::NOT_FOUND, "no such page or endpoint".into()) })
        .method_not_allowed_fallback(|| async {
            error(
                StatusCode::METHOD_NOT_ALLOWED,
                "the API takes POST with a JSON body; pages take GET".into(),
            )
        })
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(shared)
}

/// Serves [`router`] on `listener` until `shutdown` completes; requests
/// under way are finished first.
pub async fn serve<S>(listener: TcpListener, config: Config, shutdown: S) -> io::Result<()>
where
    S: Future<Output = ()> + Send + 'static,
{
    axum::serve(listener, router(config))
        .with_graceful_shutdown(shutdown)
        .await
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

fn asset(content_type: &'static str, body: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type),
            // The files change with the binary: always revalidate.
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

fn error(status: StatusCode, message: String) -> Response {
    (status, Json(serde_json::json!({ "error": message }))).into_response()
}

impl IntoResponse for GameError {
    fn into_response(self) -> Response {
        let status = match self {
            GameError::BadRequest(_) => StatusCode::BAD_REQUEST,
            GameError::Unplayable(_) => StatusCode::UNPROCESSABLE_ENTITY,
            GameError::TooHard(_) => StatusCode::SERVICE_UNAVAILABLE,
        };
        error(status, self.to_string())
    }
}

/// Reads a JSON body, answering in JSON when it is too large or not the
/// request's shape (axum's own rejections answer in plain text).
fn parse<T: DeserializeOwned>(body: Result<Bytes, BytesRejection>) -> Result<T, Box<Response>> {
    let body = body.map_err(|rejection| {
        let status = rejection.status();
        let message = if status == StatusCode::PAYLOAD_TOO_LARGE {
            format!("the request body is larger than {MAX_BODY} bytes")
        } else {
            rejection.body_text()
        };
        Box::new(error(status, message))
    })?;
    serde_json::from_slice(&body).map_err(|e| {
        Box::new(error(
            StatusCode::BAD_REQUEST,
            format!("bad request JSON: {e}"),
        ))
    })
}

/// Runs `work` on a blocking thread once a worker permit is free.
async fn work<T, F>(shared: &Shared, work: F) -> Response
where
    T: Serialize + Send + 'static,
    F: FnOnce() -> Result<T, GameError> + Send + 'static,
{
    let Ok(_permit) = shared.workers.acquire().await else {
        return error(
            StatusCode::SERVICE_UNAVAILABLE,
            "the server is stopping".into(),
        );
    };
    match tokio::task::spawn_blocking(work).await {
        Ok(Ok(answer)) => Json(answer).into_response(),
        Ok(Err(game_error)) => game_error.into_response(),
        Err(_) => error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the request failed inside the server".into(),
        ),
    }
}

async fn new_game(
    State(shared): State<Arc<Shared>>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let request: game::NewRequest = match parse(body) {
        Ok(request) => request,
        Err(response) => return *response,
    };
    let clock = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let count = shared.games.fetch_add(1, Ordering::Relaxed);
    let seed = clock ^ count.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    work(&shared, move || game::new_game(&request, seed)).await
}

/// The route of an endpoint that searches (see [`searching`]).
fn searching_route<R, T>(answer: fn(&R, u64) -> Result<T, GameError>) -> MethodRouter<Arc<Shared>>
where
    R: DeserializeOwned + Send + 'static,
    T: Serialize + Send + 'static,
{
    post(move |State(shared): State<Arc<Shared>>, body| searching(shared, body, answer))
}

/// An endpoint that searches: parses a `R`, then answers with `answer`
/// on a worker, within the server's node budget.
async fn searching<R, T>(
    shared: Arc<Shared>,
    body: Result<Bytes, BytesRejection>,
    answer: fn(&R, u64) -> Result<T, GameError>,
) -> Response
where
    R: DeserializeOwned + Send + 'static,
    T: Serialize + Send + 'static,
{
    match parse::<R>(body) {
        Ok(request) => {
            let nodes = shared.config.search_nodes;
            work(&shared, move || answer(&request, nodes)).await
        }
        Err(response) => *response,
    }
}
