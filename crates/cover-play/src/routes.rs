//! The requests: what the server answers and to whom. This module owns
//! the routes (the page and the API), the checks every request passes
//! before any work (its `Host` and `Origin` name this server; an API body
//! is JSON, at most [`MAX_BODY`] bytes, arriving within the body
//! timeout), the lane each request's work goes to (or the pool a new
//! game is taken from), and the status of every error. Connections are [`crate::server`]'s, the work
//! [`crate::game`]'s.

use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{header, uri, HeaderMap, HeaderValue, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, MethodRouter};
use axum::{Json, Router};
use cover_models::text::excerpt;
use http_body_util::{BodyExt, LengthLimitError, Limited};
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::game::{self, Budget, GameError, ImportRequest, NewRequest, PlayRequest, SolveRequest};
use crate::lanes::{Lane, Refusal};
use crate::pool::{self, Pool};
use crate::{Config, MAX_BODY};

const INDEX_HTML: &str = include_str!("../assets/index.html");
const APP_JS: &str = include_str!("../assets/app.js");
const STYLE_CSS: &str = include_str!("../assets/style.css");
const MODEL_JS: &str = include_str!("../assets/model.js");
const FAVICON_SVG: &str = include_str!("../assets/favicon.svg");

/// The page's files: path, content type, text.
const ASSETS: [(&str, &str, &str); 6] = [
    ("/", "text/html; charset=utf-8", INDEX_HTML),
    ("/index.html", "text/html; charset=utf-8", INDEX_HTML),
    ("/app.js", "text/javascript; charset=utf-8", APP_JS),
    ("/style.css", "text/css; charset=utf-8", STYLE_CSS),
    ("/model.js", "text/javascript; charset=utf-8", MODEL_JS),
    ("/favicon.svg", "image/svg+xml", FAVICON_SVG),
];

/// The largest grid of the light lane: 9×9.
const LIGHT_CELLS: usize = 81;

/// `Retry-After` of a refusal, in seconds: about the time a queue of the
/// lane takes to move on (light work takes a millisecond, heavy seconds).
const RETRY_LIGHT: u64 = 1;
const RETRY_HEAVY: u64 = 5;

/// What the handlers share.
#[derive(Debug)]
pub(crate) struct Shared {
    config: Config,
    authority: Authority,
    /// 4×4 and 9×9 work.
    light: Lane,
    /// 16×16 and 25×25 work.
    heavy: Lane,
    /// New games without a seed made ahead, one pool per size of
    /// [`pool::SIDES`], in that order.
    pools: Vec<Pool>,
    /// Makes the seeds of new games differ within one clock tick.
    seeds: AtomicU64,
}

impl Shared {
    /// Starts the lanes' threads and the pools' makers for a server
    /// listening on `addr`.
    pub(crate) fn start(config: Config, addr: SocketAddr) -> std::io::Result<Shared> {
        Ok(Shared {
            config,
            authority: Authority::new(addr),
            light: Lane::new(
                "cover-play-light",
                config.workers,
                config.light_queue,
                config.deadline,
            )?,
            heavy: Lane::new(
                "cover-play-heavy",
                config.workers,
                config.heavy_queue,
                config.deadline,
            )?,
            pools: pool::SIDES
                .into_iter()
                .map(Pool::new)
                .collect::<std::io::Result<_>>()?,
            seeds: AtomicU64::new(0),
        })
    }

    /// The lane of a grid of `cells` cells, and its `Retry-After`. A
    /// grid of no playable size fails at once in either.
    fn lane(&self, cells: usize) -> (&Lane, u64) {
        if cells <= LIGHT_CELLS {
            (&self.light, RETRY_LIGHT)
        } else {
            (&self.heavy, RETRY_HEAVY)
        }
    }

    /// The pool of new `side`×`side` games, if that size is made ahead.
    fn pool(&self, side: usize) -> Option<&Pool> {
        let at = pool::SIDES.iter().position(|&s| s == side)?;
        self.pools.get(at)
    }

    /// The budget of one request's work, for the lane to fill in with
    /// the work's cancel flag.
    fn budget(&self) -> impl Fn(Arc<AtomicBool>) -> Budget + Send + 'static {
        let nodes = self.config.search_nodes;
        move |cancel| Budget {
            nodes,
            cancel: Some(cancel),
        }
    }
}

/// The game's routes: the page at `/`, its script and style, and the API,
/// behind the check of `Host` and `Origin`.
pub(crate) fn app(shared: Arc<Shared>) -> Router {
    let mut routes = Router::new();
    for (path, content_type, body) in ASSETS {
        routes = routes.route(path, get(move || async move { asset(content_type, body) }));
    }
    routes
        .route("/api/new", post(new_game))
        .route("/api/levels", get(|| async { Json(game::levels()) }))
        .route(
            "/api/check",
            searching(|r: &PlayRequest| r.puzzle.len(), game::check),
        )
        .route(
            "/api/hint",
            searching(|r: &PlayRequest| r.puzzle.len(), game::hint),
        )
        .route(
            "/api/solve",
            searching(|r: &SolveRequest| r.puzzle.len(), game::solve),
        )
        .route("/api/import", post(import))
        .fallback(|| async { error(StatusCode::NOT_FOUND, "no such page or endpoint".into()) })
        .method_not_allowed_fallback(|| async {
            error(
                StatusCode::METHOD_NOT_ALLOWED,
                "the API takes POST with a JSON body; pages take GET".into(),
            )
        })
        .layer(middleware::from_fn_with_state(Arc::clone(&shared), guard))
        .with_state(shared)
}

/// The names this server answers to, so that a page of another site
/// cannot reach it: not through a name of its own that resolves to this
/// machine (DNS rebinding), nor by a request from its own origin.
#[derive(Debug)]
struct Authority {
    addr: SocketAddr,
}

impl Authority {
    fn new(addr: SocketAddr) -> Authority {
        Authority { addr }
    }

    /// Whether `authority` (a `Host` value, `host[:port]`) names this
    /// server: its port, and `localhost`, a loopback address or the
    /// address bound (any address when bound to all of them). Other
    /// names could be anyone's, and addresses are never rebound.
    fn names(&self, authority: &str) -> bool {
        let Ok(parsed) = authority.parse::<uri::Authority>() else {
            return false;
        };
        if authority.contains('@') || parsed.port_u16().unwrap_or(80) != self.addr.port() {
            return false;
        }
        let host = parsed.host();
        if host.eq_ignore_ascii_case("localhost") {
            return true;
        }
        let literal = host
            .strip_prefix('[')
            .and_then(|h| h.strip_suffix(']'))
            .unwrap_or(host);
        literal.parse::<IpAddr>().is_ok_and(|ip| {
            ip.is_loopback() || ip == self.addr.ip() || self.addr.ip().is_unspecified()
        })
    }

    /// The refusal of a request, if it is refused: 400 without `Host`,
    /// 421 when `Host` names another server, 403 when the request comes
    /// from a page of another origin.
    fn refusal(&self, headers: &HeaderMap) -> Option<Response> {
        let Some(host) = headers.get(header::HOST) else {
            return Some(error(
                StatusCode::BAD_REQUEST,
                "the request has no Host header".into(),
            ));
        };
        let host = String::from_utf8_lossy(host.as_bytes());
        if !self.names(&host) {
            return Some(error(
                StatusCode::MISDIRECTED_REQUEST,
                format!(
                    "this server answers to localhost:{0} and 127.0.0.1:{0}, not {1:?}",
                    self.addr.port(),
                    excerpt(&host)
                ),
            ));
        }
        if let Some(origin) = headers.get(header::ORIGIN) {
            let origin = String::from_utf8_lossy(origin.as_bytes());
            let own = origin
                .strip_prefix("http://")
                .is_some_and(|authority| self.names(authority));
            if !own {
                return Some(error(
                    StatusCode::FORBIDDEN,
                    format!(
                        "requests from other sites' pages are refused (Origin {:?})",
                        excerpt(&origin)
                    ),
                ));
            }
        }
        None
    }
}

/// The check of every request, before its route.
async fn guard(State(shared): State<Arc<Shared>>, request: Request, next: Next) -> Response {
    match shared.authority.refusal(request.headers()) {
        None => next.run(request).await,
        Some(refused) => refused,
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
            GameError::Unplayable(_) | GameError::NoLogicalStep => StatusCode::UNPROCESSABLE_ENTITY,
            GameError::TooHard(_) | GameError::TooSlow(_) | GameError::Cancelled => {
                StatusCode::SERVICE_UNAVAILABLE
            }
        };
        error(status, self.to_string())
    }
}

/// The answer to a request whose work went to a lane, which may have had
/// it wait up to `wait`: refusals are 503 with
/// `Retry-After` (seconds).
fn respond<T: Serialize>(
    outcome: Result<Result<T, GameError>, Refusal>,
    retry_after: u64,
    wait: Duration,
) -> Response {
    let busy = |message: String| {
        let mut response = error(StatusCode::SERVICE_UNAVAILABLE, message);
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from(retry_after));
        response
    };
    match outcome {
        Ok(Ok(answer)) => Json(answer).into_response(),
        Ok(Err(game_error)) => game_error.into_response(),
        Err(Refusal::Full) => busy(format!(
            "the server is busy (its queue for this size is full); try again in {retry_after} s"
        )),
        Err(Refusal::Late) => busy(format!(
            "the server was too busy to answer this request within {} s; try again in {retry_after} s",
            wait.as_secs_f64()
        )),
        Err(Refusal::Failed) => error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the request failed inside the server".into(),
        ),
    }
}

/// An API request's body as a `T`: JSON by its `Content-Type` (415
/// otherwise: a page of another site can send only a form or plain
/// text without asking first, and asking fails, for no CORS header is
/// ever sent), at most [`MAX_BODY`] bytes (413), all of it within the
/// body timeout (408), and of `T`'s shape (400).
async fn read_json<T: DeserializeOwned>(
    config: &Config,
    headers: &HeaderMap,
    body: Body,
) -> Result<T, Response> {
    let json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.split(';').next())
        .is_some_and(|kind| kind.trim().eq_ignore_ascii_case("application/json"));
    if !json {
        return Err(error(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "the API takes a JSON body, sent with Content-Type: application/json".into(),
        ));
    }
    let too_large = || {
        error(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the request body is larger than {MAX_BODY} bytes"),
        )
    };
    // A length announced too large is refused before any of it is read.
    let announced = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.parse::<u64>().ok());
    if announced.is_some_and(|length| length > MAX_BODY as u64) {
        return Err(too_large());
    }
    let read =
        tokio::time::timeout(config.body_timeout, Limited::new(body, MAX_BODY).collect()).await;
    let bytes: Bytes = match read {
        Ok(Ok(collected)) => collected.to_bytes(),
        Ok(Err(e)) if e.is::<LengthLimitError>() => return Err(too_large()),
        Ok(Err(e)) => {
            return Err(error(
                StatusCode::BAD_REQUEST,
                format!("the request body could not be read: {e}"),
            ))
        }
        Err(_) => {
            let mut response = error(
                StatusCode::REQUEST_TIMEOUT,
                format!(
                    "the request body did not arrive within {} s",
                    config.body_timeout.as_secs_f64()
                ),
            );
            response
                .headers_mut()
                .insert(header::CONNECTION, HeaderValue::from_static("close"));
            return Err(response);
        }
    };
    serde_json::from_slice(&bytes)
        .map_err(|e| error(StatusCode::BAD_REQUEST, format!("bad request JSON: {e}")))
}

async fn new_game(State(shared): State<Arc<Shared>>, headers: HeaderMap, body: Body) -> Response {
    let request: NewRequest = match read_json(&shared.config, &headers, body).await {
        Ok(request) => request,
        Err(response) => return response,
    };
    match request.variant_kind() {
        // Variant games are made on request, never ahead.
        Ok(Some(_)) => {
            let seed = pool::fresh_seed(&shared.seeds);
            let (lane, retry_after) = shared.lane(request.cells());
            let made = lane
                .run(move |_| game::new_game_within(&request, seed, game::NEW_GAME_TIME))
                .await;
            return respond(made, retry_after, shared.config.deadline);
        }
        Ok(None) => {}
        Err(game_error) => return game_error.into_response(),
    }
    let (size, difficulty) = match request.kind() {
        Ok(kind) => kind,
        Err(game_error) => return game_error.into_response(),
    };
    // A game made ahead, at once; else one made now, within the game
    // wait when the page sent no seed (then the closest made in time).
    let time = match request.seed {
        Some(_) => game::NEW_GAME_TIME,
        None => {
            let ready = shared
                .pool(size.side())
                .and_then(|pool| pool.take(difficulty));
            if let Some(game) = ready {
                return Json(game).into_response();
            }
            shared.config.game_wait
        }
    };
    let seed = pool::fresh_seed(&shared.seeds);
    let (lane, retry_after) = shared.lane(size.cells());
    let made = lane
        .run(move |_| game::new_game_within(&request, seed, time))
        .await;
    respond(made, retry_after, shared.config.deadline)
}

/// A POST route whose JSON request `R` is answered by `answer` on the
/// lane that its number of cells picks.
fn searching<R, T>(
    cells: fn(&R) -> usize,
    answer: fn(&R, Budget) -> Result<T, GameError>,
) -> MethodRouter<Arc<Shared>>
where
    R: DeserializeOwned + Send + 'static,
    T: Serialize + Send + 'static,
{
    post(
        move |State(shared): State<Arc<Shared>>, headers: HeaderMap, body: Body| {
            search(shared, headers, body, cells, answer)
        },
    )
}

/// An endpoint that searches: reads a `R`, then answers with `answer` in
/// the lane of its grid's `cells`, within the server's node budget.
async fn search<R, T>(
    shared: Arc<Shared>,
    headers: HeaderMap,
    body: Body,
    cells: fn(&R) -> usize,
    answer: fn(&R, Budget) -> Result<T, GameError>,
) -> Response
where
    R: DeserializeOwned + Send + 'static,
    T: Serialize + Send + 'static,
{
    let request: R = match read_json(&shared.config, &headers, body).await {
        Ok(request) => request,
        Err(response) => return response,
    };
    let (lane, retry_after) = shared.lane(cells(&request));
    let budget = shared.budget();
    let answered = lane
        .run(move |cancel| answer(&request, budget(cancel)))
        .await;
    respond(answered, retry_after, shared.config.deadline)
}

/// `/api/import`: the text is read here (cheap) to know the grid's size,
/// then searched in its lane.
async fn import(State(shared): State<Arc<Shared>>, headers: HeaderMap, body: Body) -> Response {
    let request: ImportRequest = match read_json(&shared.config, &headers, body).await {
        Ok(request) => request,
        Err(response) => return response,
    };
    let readings = match game::read_import(&request) {
        Ok(readings) => readings,
        Err(game_error) => return game_error.into_response(),
    };
    let (lane, retry_after) = shared.lane(readings.cells());
    let budget = shared.budget();
    let imported = lane
        .run(move |cancel| game::import_readings(readings, &budget(cancel)))
        .await;
    respond(imported, retry_after, shared.config.deadline)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_server_answers_to_its_own_names_only() {
        let loopback = Authority::new("127.0.0.1:8080".parse().unwrap());
        for own in [
            "127.0.0.1:8080",
            "localhost:8080",
            "LOCALHOST:8080",
            "[::1]:8080",
            "127.0.0.2:8080",
        ] {
            assert!(loopback.names(own), "{own}");
        }
        for foreign in [
            "evil.example:8080",
            "127.0.0.1:8081",
            "127.0.0.1",
            "localhost",
            "localhost.:8080",
            "127.0.0.1.evil.example:8080",
            "user@127.0.0.1:8080",
            "192.168.1.5:8080",
            "",
            "127.0.0.1:8080/path",
        ] {
            assert!(!loopback.names(foreign), "{foreign}");
        }
        // Port 80 may be left out, as browsers do.
        assert!(Authority::new("127.0.0.1:80".parse().unwrap()).names("localhost"));
        // Bound elsewhere: that address too; bound to all: any address.
        let lan = Authority::new("192.168.1.5:8080".parse().unwrap());
        assert!(lan.names("192.168.1.5:8080") && !lan.names("10.0.0.1:8080"));
        let all = Authority::new("0.0.0.0:8080".parse().unwrap());
        assert!(all.names("10.0.0.1:8080") && !all.names("evil.example:8080"));
    }
}
