//! The page in a real browser: Debian's Chromium, driven through
//! ChromeDriver (WebDriver), against the server on loopback. Games are
//! played to the win screen by key presses alone; the moves come from the
//! independent solver of `common`, never from the server.
//!
//! Skipped with a message when Chromium or ChromeDriver is missing, unless
//! `COVER_REQUIRE_BROWSER` is set (as `.ci/run` does after installing
//! them).

mod common;

use std::net::SocketAddr;
use std::sync::{Mutex, MutexGuard};

use common::webdriver::{key, Browser, Element};
use common::*;
use cover_play::{Background, Config};
use serde_json::{json, Value};

/// One browser at a time: two cores run each Chromium faster alone.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

const STATE: &str = "return window.coverPlay && window.coverPlay.state()";

/// Takes the one-browser lock, then starts the browser (None when it is
/// missing, so the test skips) and a server, and opens the page on it.
fn begin(
    browser: impl FnOnce() -> Option<Browser>,
) -> Option<(MutexGuard<'static, ()>, Browser, Background, Element)> {
    let one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let browser = browser()?;
    let server = start();
    let board = open(&browser, &server);
    Some((one, browser, server, board))
}

/// The page's game: `window.coverPlay.state()`.
fn state(browser: &Browser) -> Value {
    browser.run(STATE, json!([]))
}

/// Opens the page and waits until it shows a game.
fn open(browser: &Browser, server: &Background) -> Element {
    browser.goto(&format!("http://{}/", server.addr()));
    wait_ready(browser);
    browser.find("#board")
}

fn wait_ready(browser: &Browser) {
    browser.wait_for(
        "a game on the page",
        "return document.body.dataset.ready === '1' && document.querySelectorAll('.cell').length > 0",
    );
}

/// Starts a new game of `size` by the keyboard alone: the size is typed
/// into its select (its options start "4×4", "9×9", "16×16"), the
/// difficulty likewise, and Enter presses "New game".
fn new_game_by_keys(browser: &Browser, size: usize, difficulty: &str) -> Value {
    // The puzzle as the page's JSON.stringify writes it, quoted for JS.
    let before = state(browser)["puzzle"].to_string();
    // Typing a whole option's name selects it (a single letter would
    // step from "easy" to the next option with that letter).
    browser.keys(&browser.find("#size"), &size.to_string());
    browser.keys(&browser.find("#difficulty"), difficulty);
    let chosen = browser.run(
        "return [document.getElementById('size').value, document.getElementById('difficulty').value]",
        json!([]),
    );
    assert_eq!(
        chosen,
        json!([size.to_string(), difficulty]),
        "the selects took the keys"
    );
    browser.keys(&browser.find("#new"), &key::ENTER.to_string());
    browser.wait_for(
        "the new game",
        &format!(
            "const s = window.coverPlay.state(); \
             return s.size === {size} && JSON.stringify(s.puzzle) !== {before:?}"
        ),
    );
    let game = state(browser);
    assert_eq!(game["size"], size, "{game}");
    game
}

/// The arrow presses that move the selection from `from` to `to`.
fn arrows(size: usize, from: usize, to: usize) -> String {
    let (fr, fc, tr, tc) = (from / size, from % size, to / size, to % size);
    let vertical = if tr > fr { key::DOWN } else { key::UP };
    let horizontal = if tc > fc { key::RIGHT } else { key::LEFT };
    std::iter::repeat_n(vertical, tr.abs_diff(fr))
        .chain(std::iter::repeat_n(horizontal, tc.abs_diff(fc)))
        .collect()
}

/// Moves to `cell` by arrows and types `text` there.
fn type_at(browser: &Browser, board: &Element, cell: usize, text: &str) {
    let game = state(browser);
    let size = game["size"].as_u64().unwrap() as usize;
    let from = game["selected"].as_u64().unwrap() as usize;
    browser.keys(board, &(arrows(size, from, cell) + text));
    assert_eq!(
        state(browser)["selected"],
        cell,
        "the arrows reach cell {cell}"
    );
}

fn symbol(game: &Value, digit: u8) -> String {
    let symbols: Vec<char> = game["symbols"].as_str().unwrap().chars().collect();
    symbols[digit as usize - 1].to_string()
}

fn cell_value(browser: &Browser, cell: usize) -> u8 {
    grid(&state(browser)["cells"])[cell]
}

/// Pencil marks shown in `cell`, read off the page.
fn marks_shown(browser: &Browser, cell: usize) -> Value {
    browser.run(
        "return [...document.querySelectorAll(`.cell[data-cell='${arguments[0]}'] .mark`)]\
         .map(m => Number(m.dataset.mark))",
        json!([cell]),
    )
}

/// Types the solution into every empty cell and waits for the win screen.
fn play_to_the_win(browser: &Browser, board: &Element, solution: &[u8]) {
    let game = state(browser);
    let cells = grid(&game["cells"]);
    for (cell, &digit) in solution.iter().enumerate() {
        if cells[cell] != digit {
            type_at(browser, board, cell, &symbol(&game, digit));
        }
    }
    let win = browser.wait_for(
        "the win screen",
        "const w = document.getElementById('win'); return !w.hidden && w.textContent",
    );
    assert!(
        win.as_str().unwrap().starts_with("Solved in"),
        "win screen says {win}"
    );
    assert_eq!(grid(&state(browser)["cells"]), solution);
}

fn first_empty(game: &Value) -> usize {
    grid(&game["cells"])
        .iter()
        .position(|&d| d == 0)
        .expect("an empty cell")
}

#[test]
fn a_4x4_game_by_keys_with_undo_redo_and_pencil_marks() {
    let Some((_one, browser, _server, board)) = begin(|| Browser::start(900, 1000)) else {
        return;
    };
    let game = new_game_by_keys(&browser, 4, "easy");
    let puzzle = grid(&game["puzzle"]);
    assert_eq!(
        count_solutions(&puzzle, 2),
        1,
        "the new game has one solution"
    );
    let solution = first_solution(&puzzle).unwrap();

    // A wrong digit, undone, redone and undone again.
    let cell = first_empty(&game);
    let wrong = (solution[cell] % 4) + 1;
    type_at(&browser, &board, cell, &symbol(&game, wrong));
    assert_eq!(cell_value(&browser, cell), wrong);
    let undo = format!("{}z{}", key::CONTROL, key::NULL);
    let redo = format!("{}y{}", key::CONTROL, key::NULL);
    browser.keys(&board, &undo);
    assert_eq!(cell_value(&browser, cell), 0, "Ctrl+Z undoes");
    browser.keys(&board, &redo);
    assert_eq!(cell_value(&browser, cell), wrong, "Ctrl+Y redoes");
    browser.keys(&board, &undo);
    assert_eq!(cell_value(&browser, cell), 0);
    browser.keys(
        &board,
        &format!("{}{}z{}", key::CONTROL, key::SHIFT, key::NULL),
    );
    assert_eq!(cell_value(&browser, cell), wrong, "Ctrl+Shift+Z redoes too");
    browser.keys(&board, &undo);
    assert_eq!(cell_value(&browser, cell), 0);

    // Pencil marks: two digits in, one toggled out, and entering the
    // digit clears them.
    let other = (solution[cell] % 4) + 1;
    browser.keys(&board, " ");
    assert_eq!(state(&browser)["pencil"], true);
    let (right, other_symbol) = (symbol(&game, solution[cell]), symbol(&game, other));
    browser.keys(&board, &format!("{right}{other_symbol}"));
    let mut both = vec![solution[cell], other];
    both.sort();
    assert_eq!(marks_shown(&browser, cell), json!(both));
    browser.keys(&board, &other_symbol);
    assert_eq!(marks_shown(&browser, cell), json!([solution[cell]]));
    assert_eq!(
        cell_value(&browser, cell),
        0,
        "pencil marks are not entries"
    );
    browser.keys(&board, " ");
    browser.keys(&board, &right);
    assert_eq!(cell_value(&browser, cell), solution[cell]);
    assert_eq!(marks_shown(&browser, cell), json!([]));
    // Backspace clears the cell, undo brings the digit back.
    browser.keys(&board, &key::BACKSPACE.to_string());
    assert_eq!(cell_value(&browser, cell), 0);
    browser.keys(&board, &undo);
    assert_eq!(cell_value(&browser, cell), solution[cell]);

    play_to_the_win(&browser, &board, &solution);
}

#[test]
fn a_9x9_game_survives_a_reload_and_a_server_restart_with_a_hint_on_the_way() {
    let Some((_one, browser, mut server, mut board)) = begin(|| Browser::start(900, 1100)) else {
        return;
    };
    let addr: SocketAddr = server.addr();
    let game = new_game_by_keys(&browser, 9, "medium");
    let puzzle = grid(&game["puzzle"]);
    assert_eq!(count_solutions(&puzzle, 2), 1);
    let solution = first_solution(&puzzle).unwrap();

    // A hint by key, in three presses: where to look, the technique and
    // its pattern, then the whole step, which selects the cell whose digit
    // (typed by the player) is the solution's.
    browser.keys(&board, "h");
    let nudge = browser.wait_for(
        "the hint's nudge",
        "const t = document.getElementById('message').textContent; return t.startsWith('Look at') && t",
    );
    assert_eq!(
        state(&browser)["hinted"],
        -1,
        "a nudge selects nothing: {nudge}"
    );
    browser.keys(&board, "h");
    browser.wait_for(
        "the hint's technique",
        "const t = document.getElementById('message').textContent; return t.includes('rated') && t",
    );
    assert!(
        browser
            .run(
                "return document.querySelectorAll('.cell.hint-pattern').length",
                json!([])
            )
            .as_u64()
            .unwrap()
            > 0,
        "the pattern is highlighted"
    );
    browser.keys(&board, "h");
    let text = browser.wait_for(
        "the hint",
        "return window.coverPlay.state().hinted >= 0 && document.getElementById('message').textContent",
    );
    let hinted = state(&browser)["hinted"].as_u64().unwrap() as usize;
    assert_eq!(puzzle[hinted], 0, "the hint is about an empty cell");
    let words = text.as_str().unwrap();
    assert!(
        words.contains(&format!("= {}", solution[hinted])),
        "the hint gives the step: {words}"
    );
    assert_eq!(
        state(&browser)["selected"],
        hinted,
        "the hint selects its cell"
    );
    let hinted_shown = browser.run(
        "return document.querySelector('.cell.hinted').dataset.cell",
        json!([]),
    );
    assert_eq!(hinted_shown, hinted.to_string());
    browser.keys(&board, &symbol(&game, solution[hinted]));

    // Half the empty cells, then pencil marks in the next empty one.
    let empty: Vec<usize> = (0..81).filter(|&c| puzzle[c] == 0 && c != hinted).collect();
    for &cell in &empty[..empty.len() / 2] {
        type_at(&browser, &board, cell, &symbol(&game, solution[cell]));
    }
    let marked = empty[empty.len() / 2];
    let other = solution[marked] % 9 + 1;
    type_at(
        &browser,
        &board,
        marked,
        &format!(
            " {}{} ",
            symbol(&game, solution[marked]),
            symbol(&game, other)
        ),
    );
    let marks = marks_shown(&browser, marked);
    assert_eq!(marks.as_array().unwrap().len(), 2, "{marks}");

    // A second hint, two presses (its technique and pattern highlighted),
    // to be in the picture with its words.
    browser.keys(&board, "?");
    browser.wait_for(
        "the second hint's nudge",
        "const t = document.getElementById('message').textContent; return t.startsWith('Look at') && t",
    );
    browser.keys(&board, "?");
    browser.wait_for(
        "the second hint",
        "const t = document.getElementById('message').textContent; return t.includes('rated') && t",
    );

    // The board and the page as drawn, for people reading CI logs (the
    // README's picture is the page's).
    for (name, element) in [("board", Some(&board)), ("page", None)] {
        let png = browser.screenshot(element);
        assert!(
            png.starts_with(b"\x89PNG\r\n\x1a\n") && png.len() > 2000,
            "a PNG of the {name}"
        );
        let shot = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("cover-play-{name}.png"));
        std::fs::write(&shot, &png).unwrap();
        eprintln!("screenshot: {}", shot.display());
    }

    // A reload keeps everything the player did.
    let before = state(&browser);
    browser.refresh();
    wait_ready(&browser);
    board = browser.find("#board");
    let after = state(&browser);
    for field in ["puzzle", "cells", "marks", "size", "symbols"] {
        assert_eq!(after[field], before[field], "{field} survives a reload");
    }
    assert_eq!(
        marks_shown(&browser, marked),
        marks,
        "marks are drawn after a reload"
    );
    // The undo history came back too, and the new page takes keys.
    browser.keys(&board, &format!("{}z{}", key::CONTROL, key::NULL));
    assert_eq!(marks_shown(&browser, marked), json!([solution[marked]]));
    browser.keys(&board, &format!("{}y{}", key::CONTROL, key::NULL));
    assert_eq!(marks_shown(&browser, marked), marks);

    // So does a server restart on the same port (the game lives in the
    // browser), and the new server answers the page.
    drop(server);
    server = Background::start(addr, Config::default()).expect("the server restarts");
    browser.refresh();
    wait_ready(&browser);
    board = browser.find("#board");
    assert_eq!(
        state(&browser)["cells"],
        before["cells"],
        "the game survives a restart"
    );
    browser.keys(&board, "?");
    browser.wait_for(
        "a hint from the new server",
        "return document.getElementById('message').textContent.startsWith('Look at')",
    );

    play_to_the_win(&browser, &board, &solution);
    drop(server);
}

#[test]
fn the_timer_runs_while_visible_and_pauses_while_hidden() {
    let Some((_one, browser, _server, _board)) = begin(|| Browser::start(900, 1000)) else {
        return;
    };
    let elapsed = || state(&browser)["elapsed"].as_f64().unwrap();
    browser.wait_for(
        "the clock to run",
        "return window.coverPlay.state().elapsed >= 1.5",
    );
    assert!(browser
        .run(
            "return document.getElementById('timer').textContent",
            json!([])
        )
        .as_str()
        .unwrap()
        .starts_with("0:0"));
    // Headless Chromium has no window to hide, so the tab is made hidden
    // the way the page sees it: `document.hidden` and the event.
    browser.run(
        "Object.defineProperty(document, 'hidden', {value: true, configurable: true}); \
         document.dispatchEvent(new Event('visibilitychange'));",
        json!([]),
    );
    let hidden_at = elapsed();
    std::thread::sleep(std::time::Duration::from_millis(2500));
    let still = elapsed();
    assert!(
        still - hidden_at < 0.01,
        "paused while hidden: {hidden_at} → {still}"
    );
    browser.run(
        "Object.defineProperty(document, 'hidden', {value: false, configurable: true}); \
         document.dispatchEvent(new Event('visibilitychange'));",
        json!([]),
    );
    browser.wait_for(
        "the clock to run again",
        &format!("return window.coverPlay.state().elapsed >= {}", still + 1.0),
    );
}

#[test]
fn import_takes_any_layout_and_shows_the_servers_refusals() {
    let Some((_one, browser, server, _board)) = begin(|| Browser::start(900, 1100)) else {
        return;
    };
    browser.click(&browser.find("summary"));
    let text = browser.find("#import-text");
    let import = browser.find("#import");
    let message = "document.getElementById('message').textContent";

    // A 9-line grid with spaces, typed line by line.
    let classic =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    let lines: Vec<String> = classic
        .as_bytes()
        .chunks(9)
        .map(|row| {
            row.iter()
                .map(|&b| (b as char).to_string())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    browser.keys(&text, &lines.join("\n"));
    browser.click(&import);
    browser.wait_for("the import", &format!("return {message} === 'imported'"));
    let game = state(&browser);
    let expected: Vec<u8> = classic
        .bytes()
        .map(|b| if b == b'.' { 0 } else { b - b'0' })
        .collect();
    assert_eq!(grid(&game["puzzle"]), expected);
    assert_eq!(grid(&game["cells"]), expected);

    // A digit its row already has: both cells turn red as it is typed;
    // Check calls it wrong; Solve fills in the one solution.
    let board = browser.find("#board");
    type_at(&browser, &board, 2, "5");
    let red = browser.run(
        "return [...document.querySelectorAll('.cell.conflict')].map(c => Number(c.dataset.cell))",
        json!([]),
    );
    assert_eq!(red, json!([0, 2]), "the clash is shown as it is typed");
    browser.click(&browser.find("#check"));
    browser.wait_for("the check", &format!("return {message} === '1 wrong'"));
    let underlined = browser.run(
        "return [...document.querySelectorAll('.cell.wrong')].map(c => Number(c.dataset.cell))",
        json!([]),
    );
    assert_eq!(underlined, json!([2]));
    browser.click(&browser.find("#solve"));
    browser.wait_for(
        "the solution",
        &format!("return {message} === 'solved by the computer'"),
    );
    let solved = grid(&state(&browser)["cells"]);
    assert!(is_solution_of(&expected, &solved), "{solved:?}");
    assert_eq!(count_solutions(&expected, 2), 1);
    assert_eq!(Some(solved), first_solution(&expected));

    // Refusals: the page shows the server's own message.
    let several = format!("{}{}", &classic[..20], ".".repeat(61));
    let no_solution = format!("55{}", &classic[2..]);
    for bad in ["12x4", several.as_str(), no_solution.as_str()] {
        let (status, answer) = post(&server, "/api/import", &json!({ "text": bad }));
        assert!((400..500).contains(&status), "{bad}: {status} {answer}");
        let error = answer["error"].as_str().unwrap().to_owned();
        browser.run(
            "document.getElementById('import-text').value = ''",
            json!([]),
        );
        browser.keys(&text, bad);
        browser.click(&import);
        let shown = browser.wait_for(
            "the refusal",
            &format!("const m = {message}; return m === {error:?} && m"),
        );
        assert_eq!(shown, error);
        assert_eq!(
            grid(&state(&browser)["puzzle"]),
            expected,
            "a refused import leaves the game alone"
        );
    }
}

#[test]
fn on_a_phone_the_board_fits_and_16x16_takes_letters() {
    let Some((_one, browser, server, board)) = begin(|| Browser::start_phone(390, 844)) else {
        return;
    };
    let game = new_game_by_keys(&browser, 16, "easy");

    let fits = browser.run(
        "const b = document.getElementById('board').getBoundingClientRect(); \
         return [b.left, b.right, window.innerWidth, document.documentElement.scrollWidth, \
                 window.devicePixelRatio]",
        json!([]),
    );
    let [left, right, width, scroll] = [0, 1, 2, 3].map(|i| fits[i].as_f64().unwrap());
    assert_eq!(
        (width, fits[4].as_f64().unwrap()),
        (390.0, 2.0),
        "a phone's screen"
    );
    assert!(
        left >= 0.0 && right <= width && scroll <= width,
        "the board fits: {fits}"
    );
    // Letters are the 16×16 digits, typed in either case.
    // The plain backtracking counter is too slow for 16×16, so the
    // server's solution is taken, and checked before it is used.
    let puzzle = grid(&game["puzzle"]);
    let (status, answer) = post(&server, "/api/solve", &json!({ "puzzle": puzzle }));
    assert_eq!(status, 200, "{answer}");
    let solution = grid(&answer["solution"]);
    assert!(is_solution_of(&puzzle, &solution));
    let cell = first_empty(&game);
    let letter = symbol(&game, solution[cell]).to_lowercase();
    type_at(&browser, &board, cell, &letter);
    assert_eq!(cell_value(&browser, cell), solution[cell]);
    let shown = browser.run(
        "return document.querySelector(`.cell[data-cell='${arguments[0]}']`).textContent",
        json!([cell]),
    );
    assert_eq!(shown, symbol(&game, solution[cell]));

    // By touch alone: tap another empty cell, then its digit on the pad.
    let other = grid(&state(&browser)["cells"])
        .iter()
        .rposition(|&d| d == 0)
        .expect("another empty cell");
    browser.click(&browser.find(&format!(".cell[data-cell='{other}']")));
    assert_eq!(state(&browser)["selected"], other);
    browser.click(&browser.find(&format!(".pad[data-digit='{}']", solution[other])));
    assert_eq!(cell_value(&browser, other), solution[other]);
    let png = browser.screenshot(None);
    let shot = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("cover-play-phone.png");
    std::fs::write(&shot, png).unwrap();
    eprintln!("screenshot: {}", shot.display());
}
