//! `cover play`: starts the sudoku game's server ([`cover_play`]) and
//! opens it in a browser. Everything about the game is `cover-play`'s;
//! this module is the flags, the printed address and the browser.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::process::{Command, Stdio};

use anyhow::Context;
use clap::Args;

use crate::common::Session;
use crate::output;

const AFTER_LONG_HELP: &str = "\
The server keeps no games: the page sends the grids with every request and
keeps the game in progress in the browser, so a reload or a restart of the
server loses nothing. The page and its JSON API (new, check, hint, solve,
import; see the README) are served from the binary itself.

It answers only requests addressed to it (localhost or its address, and its
port) with JSON bodies, so other sites' pages cannot use it, and it bounds
slow clients, connections and queued work (see the README).

Stop the server with Ctrl-C (it stops within about half a second).

Examples:
  cover play                    serve on 127.0.0.1:8080 and open the browser
  cover play --port 0 --no-open any free port; only print the address
  cover play --bind 0.0.0.0     reachable from other machines (a warning)";

/// Play sudoku in the browser: a local web server for the game.
#[derive(Args, Debug, Clone)]
#[command(after_long_help = AFTER_LONG_HELP)]
pub struct PlayArgs {
    /// The port to listen on (0: any free port).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,

    /// Do not open a browser; only print the address.
    #[arg(long)]
    pub no_open: bool,

    /// The address to listen on. The default, 127.0.0.1, is reachable from
    /// this machine only; anything else lets other machines play (and use
    /// this machine's cores), so it is warned about. They reach it by its
    /// address (http://IP:PORT/), not a name: other names are refused.
    #[arg(long, value_name = "IP", default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    pub bind: IpAddr,
}

pub fn run(args: &PlayArgs, _session: &mut Session) -> anyhow::Result<()> {
    if !args.bind.is_loopback() {
        output::error(format_args!(
            "warning: listening on {}: other machines can reach the game (and this machine's cores)",
            args.bind
        ));
    }
    let addr = SocketAddr::new(args.bind, args.port);
    cover_play::run(addr, |bound| {
        let host = if bound.ip().is_unspecified() {
            IpAddr::V4(Ipv4Addr::LOCALHOST)
        } else {
            bound.ip()
        };
        let url = format!("http://{}/", SocketAddr::new(host, bound.port()));
        println!("cover play: serving the game at {url} (Ctrl-C stops)");
        if !args.no_open {
            if let Err(error) = open_browser(&url) {
                output::error(format_args!(
                    "warning: could not open a browser ({error}); open {url}"
                ));
            }
        }
    })
    .with_context(|| format!("cannot serve on {addr}"))
}

/// Starts the desktop's browser on `url`, without waiting for it.
fn open_browser(url: &str) -> std::io::Result<()> {
    let mut command = if cfg!(target_os = "macos") {
        Command::new("open")
    } else if cfg!(windows) {
        let mut start = Command::new("cmd");
        start.args(["/C", "start", ""]);
        start
    } else {
        Command::new("xdg-open")
    };
    command
        .arg(url)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map(|mut child| {
            // Reap it when it exits (xdg-open returns at once).
            std::thread::spawn(move || child.wait());
        })
}
