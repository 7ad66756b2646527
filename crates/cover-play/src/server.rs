//! The connections: accepting them, bounding them and ending them. This
//! module owns the accept loop, the cap on open connections, the HTTP/1
//! settings that bound a connection's time and memory (the header
//! timeout, which is also the idle timeout between requests, and the
//! header buffer), and the shutdown with a deadline. What a request may
//! ask is [`crate::routes`]'.
//!
//! At the cap, a new connection closes the oldest one that has no
//! request in progress (one idle, or still sending its headers), so
//! connections that hold still cannot lock clients out; only when every
//! open connection has a request in progress is the new one answered
//! 503 and closed. Requests in progress are bounded by the lanes' queues
//! and the body timeout.

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use axum::body::Body;
use axum::http::Request;
use axum::response::Response;
use axum::Router;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::Service as _;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{watch, Notify};
use tokio::task::JoinSet;

use crate::Config;

/// The most bytes of a request's head (request line and headers) a
/// connection holds; a longer head is answered 431. Browsers send under
/// 2 KiB, plus the cookies of every server on this host's names.
pub const MAX_HEAD: usize = 32 * 1024;

/// How long the accept loop pauses when accepting fails (no file
/// descriptor left): connections closing give some back.
const ACCEPT_PAUSE: Duration = Duration::from_millis(50);

/// Serves `app` on `listener` until `shutdown` completes; then stops
/// accepting, lets requests in progress end for `config.shutdown_grace`
/// and drops the connections left (their work is cancelled).
pub(crate) async fn serve<S>(
    listener: TcpListener,
    app: Router,
    config: &Config,
    shutdown: S,
) -> io::Result<()>
where
    S: Future<Output = ()> + Send + 'static,
{
    let open = Arc::new(Open::new(config.max_connections));
    let (stop, stopping) = watch::channel(false);
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(config.header_timeout)
        // The head's bound is exact; the buffer's (its memory) is
        // approximate, in steps of a read.
        .max_header_size(MAX_HEAD)
        .max_buf_size(MAX_HEAD);
    let mut tasks = JoinSet::new();
    tokio::pin!(shutdown);
    loop {
        tokio::select! {
            () = &mut shutdown => break,
            Some(_) = tasks.join_next(), if !tasks.is_empty() => {}
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => {
                    let Some(conn) = open.admit() else {
                        refuse(&stream);
                        continue;
                    };
                    let (http, app, open) = (http.clone(), app.clone(), Arc::clone(&open));
                    let stopping = stopping.clone();
                    tasks.spawn(async move {
                        let _ = stream.set_nodelay(true);
                        connection(stream, &http, app, &conn, stopping).await;
                        open.leave(&conn);
                    });
                }
                Err(_) => tokio::time::sleep(ACCEPT_PAUSE).await,
            },
        }
    }
    drop(listener);
    let _ = stop.send(true);
    let drained = async { while tasks.join_next().await.is_some() {} };
    if tokio::time::timeout(config.shutdown_grace, drained)
        .await
        .is_err()
    {
        tasks.shutdown().await;
    }
    Ok(())
}

/// Serves one connection until it ends, is evicted, or the server stops
/// (then the request in progress may finish; the caller's deadline cuts
/// it short).
async fn connection(
    stream: TcpStream,
    http: &http1::Builder,
    app: Router,
    conn: &Conn,
    mut stopping: watch::Receiver<bool>,
) {
    let app = TowerToHyperService::new(app);
    let busy = &conn.busy;
    let service = hyper::service::service_fn(|request: Request<Incoming>| {
        let during = Busy::enter(busy);
        let answer = app.call(request.map(Body::new));
        async move {
            let answer: Result<Response, Infallible> = answer.await;
            drop(during);
            answer
        }
    });
    let served = http.serve_connection(TokioIo::new(stream), service);
    tokio::pin!(served);
    let stop = async move {
        // Only the change matters (the value's guard is not kept).
        let _ = stopping.wait_for(|stop| *stop).await.is_ok();
    };
    tokio::select! {
        _ = served.as_mut() => {}
        // Dropping the connection closes it.
        () = conn.evict.notified() => {}
        () = stop => {
            served.as_mut().graceful_shutdown();
            let _ = served.await;
        }
    }
}

/// Answers a connection over the cap 503 and closes it, without waiting
/// (a new socket's send buffer takes the few bytes at once).
fn refuse(stream: &TcpStream) {
    const BODY: &str = r#"{"error": "the server has too many connections; try again in 1 s"}"#;
    let answer = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n\
         retry-after: 1\r\nconnection: close\r\ncontent-length: {}\r\n\r\n{BODY}",
        BODY.len()
    );
    let _ = stream.try_write(answer.as_bytes());
}

/// The open connections, oldest first.
#[derive(Debug)]
struct Open {
    cap: usize,
    state: Mutex<OpenState>,
}

#[derive(Debug, Default)]
struct OpenState {
    next: u64,
    /// By number, so oldest first.
    conns: BTreeMap<u64, Arc<Conn>>,
    /// Those not told to close.
    live: usize,
}

/// One open connection.
#[derive(Debug)]
struct Conn {
    number: u64,
    /// Requests in progress on it (0 or 1 in HTTP/1).
    busy: AtomicUsize,
    /// Told to close, to make room.
    evicted: AtomicBool,
    evict: Notify,
}

impl Open {
    fn new(cap: usize) -> Open {
        Open {
            cap: cap.max(1),
            state: Mutex::new(OpenState::default()),
        }
    }

    /// Room for a new connection: at the cap, the oldest connection
    /// without a request in progress is told to close. None when every
    /// connection has one.
    fn admit(&self) -> Option<Arc<Conn>> {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        if state.live >= self.cap {
            let idle = state.conns.values().find(|conn| {
                !conn.evicted.load(Ordering::Acquire) && conn.busy.load(Ordering::Acquire) == 0
            })?;
            idle.evicted.store(true, Ordering::Release);
            idle.evict.notify_one();
            state.live -= 1;
        }
        let number = state.next;
        state.next += 1;
        let conn = Arc::new(Conn {
            number,
            busy: AtomicUsize::new(0),
            evicted: AtomicBool::new(false),
            evict: Notify::new(),
        });
        state.conns.insert(number, Arc::clone(&conn));
        state.live += 1;
        Some(conn)
    }

    fn leave(&self, conn: &Conn) {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        if state.conns.remove(&conn.number).is_some() && !conn.evicted.load(Ordering::Acquire) {
            state.live -= 1;
        }
    }
}

/// A request in progress on a connection, for as long as it lives.
struct Busy<'a>(&'a AtomicUsize);

impl<'a> Busy<'a> {
    fn enter(count: &'a AtomicUsize) -> Busy<'a> {
        count.fetch_add(1, Ordering::AcqRel);
        Busy(count)
    }
}

impl Drop for Busy<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn at_the_cap_the_oldest_idle_connection_makes_room() {
        let open = Open::new(2);
        let first = open.admit().unwrap();
        let second = open.admit().unwrap();
        let _busy = Busy::enter(&first.busy);
        // The first is busy: the second, idle, is told to close.
        let third = open.admit().unwrap();
        assert!(second.evicted.load(Ordering::Acquire));
        assert!(!first.evicted.load(Ordering::Acquire));
        // Now both live ones are busy: no room.
        let _also = Busy::enter(&third.busy);
        assert!(open.admit().is_none());
        // A connection that ends makes room without evicting.
        open.leave(&second);
        open.leave(&first);
        let fourth = open.admit().unwrap();
        assert!(!third.evicted.load(Ordering::Acquire) && !fourth.evicted.load(Ordering::Acquire));
    }
}
