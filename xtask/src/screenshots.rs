//! `cargo xtask screenshots`: pictures of `cover play`'s page for the
//! docs. Serves the page from this process on loopback, opens it in
//! Debian's Chromium through ChromeDriver (the tests' WebDriver client,
//! `crates/cover-play/tests/common/webdriver.rs`, shared rather than
//! copied), imports a fixed puzzle, plays a few moves by keys (entries,
//! pencil marks, a selection), and writes `docs/play/desktop-light.png`,
//! `desktop-dark.png`, `phone-light.png` and `phone-dark.png` (dark by
//! an emulated `prefers-color-scheme`; the same game in both).
//!
//! Needs `chromium` and `chromedriver` (apt-get install -y chromium
//! chromium-driver); fails without them.

use std::net::SocketAddr;
use std::path::PathBuf;

use anyhow::{bail, ensure, Context, Result};
use cover_play::{Background, Config};
use serde_json::{json, Value};

use crate::flags::Flags;
use crate::paths;

#[allow(dead_code)] // the tests use more of it than the pictures do
#[path = "../../crates/cover-play/tests/common/webdriver.rs"]
mod webdriver;

use webdriver::{key, Browser};

pub const USAGE: &str = "[--out DIR]";

/// Wikipedia's sudoku: the same picture whatever the server's generator
/// does.
const PUZZLE: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

/// Pictures above this size are reported (the docs keep them small).
const LARGE: usize = 150 * 1024;

pub fn run(args: &[String]) -> Result<()> {
    let flags = Flags::parse(args, &["--out"], &[])?;
    let out = flags
        .value("--out")
        .map(PathBuf::from)
        .unwrap_or_else(|| paths::workspace_root().join("docs/play"));
    std::fs::create_dir_all(&out).with_context(|| format!("creating {}", out.display()))?;
    let server = Background::start(SocketAddr::from(([127, 0, 0, 1], 0)), Config::default())?;
    let url = format!("http://{}/", server.addr());

    let mut written = Vec::new();
    for form in ["desktop", "phone"] {
        let browser = match form {
            "desktop" => Browser::start(1280, 900),
            _ => Browser::start_phone(390, 844),
        };
        let Some(browser) = browser else {
            bail!("screenshots need chromium and chromedriver (apt-get install -y chromium chromium-driver)");
        };
        browser.goto(&url);
        if form == "desktop" {
            // The window's frame takes some of its height: the viewport
            // is set to the whole 1280×900.
            browser.devtools(
                "Emulation.setDeviceMetricsOverride",
                json!({"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": false}),
            );
        }
        browser.color_scheme("light");
        wait_ready(&browser);
        play(&browser)?;
        let mut light = Vec::new();
        for scheme in ["light", "dark"] {
            browser.color_scheme(scheme);
            settle(&browser);
            // As the screen shows it: a phone's at 2×, 780×1688 pixels.
            let png = browser.screenshot_scaled(1.0);
            ensure!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "a PNG from Chromium");
            if scheme == "light" {
                light = png.clone();
            } else if png == light {
                println!("screenshots: {form}: dark is the same picture as light (the page has no dark colours)");
            }
            let path = out.join(format!("{form}-{scheme}.png"));
            std::fs::write(&path, &png).with_context(|| format!("writing {}", path.display()))?;
            written.push((path, png.len()));
        }
    }
    drop(server);
    for (path, bytes) in &written {
        let note = if *bytes > LARGE {
            " (over 150 KiB: too large for the docs)"
        } else {
            ""
        };
        println!(
            "screenshots: {} ({} KiB){note}",
            path.display(),
            bytes.div_ceil(1024)
        );
    }
    Ok(())
}

fn wait_ready(browser: &Browser) {
    browser.wait_for(
        "a game on the page",
        "return document.body.dataset.ready === '1' && document.querySelectorAll('.cell').length > 0",
    );
}

/// Waits two animation frames, so that the last change is drawn.
fn settle(browser: &Browser) {
    browser.run_async(
        "const done = arguments[arguments.length - 1]; \
         requestAnimationFrame(() => requestAnimationFrame(() => done(true)));",
        json!([]),
    );
}

fn state(browser: &Browser) -> Value {
    browser.run("return window.coverPlay.state()", json!([]))
}

/// Imports [`PUZZLE`] through the page's import box, then by keys: three
/// entries, pencil marks in three cells, and the selection on an empty
/// cell of the middle band; checks each through `coverPlay.state()`.
fn play(browser: &Browser) -> Result<()> {
    browser.run(
        "document.querySelectorAll('details').forEach(d => { d.open = true; })",
        json!([]),
    );
    let text = browser.find("#import-text");
    browser.run(
        "document.getElementById('import-text').value = ''",
        json!([]),
    );
    browser.keys(&text, PUZZLE);
    browser.click(&browser.find("#import"));
    let expected: Vec<u64> = PUZZLE
        .bytes()
        .map(|b| if b == b'.' { 0 } else { u64::from(b - b'0') })
        .collect();
    browser.wait_for(
        "the imported puzzle",
        &format!(
            "return JSON.stringify(window.coverPlay.state().puzzle) === {:?}",
            json!(expected).to_string()
        ),
    );
    browser.run(
        "document.querySelectorAll('details').forEach(d => { d.open = false; }); \
         window.scrollTo(0, 0)",
        json!([]),
    );
    let (up, down, left, right) = (key::UP, key::DOWN, key::LEFT, key::RIGHT);
    let board = browser.find("#board");
    ensure!(state(browser)["selected"] == 0, "a new game selects cell 0");
    // Entries: 4 in r1c3, 6 in r1c4, 3 in r3c4 (the solution's digits).
    browser.keys(&board, &format!("{right}{right}4{right}6{down}{down}3"));
    // Pencil marks: 2 8 in r1c6, 1 8 9 in r1c7, 1 2 9 in r1c8.
    browser.keys(
        &board,
        &format!("{up}{up}{right}{right} 28{right}189{right}129 "),
    );
    // The selection: r4c4, empty.
    browser.keys(
        &board,
        &format!("{down}{down}{down}{left}{left}{left}{left}"),
    );
    let game = state(browser);
    let cells = &game["cells"];
    ensure!(
        (cells[2].clone(), cells[3].clone(), cells[21].clone()) == (json!(4), json!(6), json!(3)),
        "the entries took: {cells}"
    );
    let marks = &game["marks"];
    ensure!(
        (marks[5].clone(), marks[6].clone(), marks[7].clone())
            == (json!([2, 8]), json!([1, 8, 9]), json!([1, 2, 9])),
        "the pencil marks took: {marks}"
    );
    ensure!(
        game["selected"] == 30 && game["pencil"] == false,
        "the selection is on r4c4 and pencil marks are off: {} {}",
        game["selected"],
        game["pencil"]
    );
    Ok(())
}
