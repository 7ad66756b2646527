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
use std::thread::sleep;
use std::time::Duration;

use common::webdriver::{key, more_keys, Browser, Element};
use common::*;
use cover_play::{Background, Config};
use serde_json::{json, Value};

/// One browser at a time: two cores run each Chromium faster alone.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

const STATE: &str = "return window.coverPlay && window.coverPlay.state()";
const MESSAGE: &str = "document.getElementById('message').textContent";

/// A 9×9 puzzle with one solution (the classic of Wikipedia's article).
const CLASSIC: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

/// The browser's lock, the browser, the server and the board.
type Session = (MutexGuard<'static, ()>, Browser, Background, Element);

/// Takes the one-browser lock, then starts the browser (None when it is
/// missing, so the test skips) and a server, and opens the page on it (a
/// new game).
fn begin(browser: impl FnOnce() -> Option<Browser>) -> Option<Session> {
    let one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let browser = browser()?;
    let server = start();
    let board = open(&browser, &server);
    Some((one, browser, server, board))
}

/// As [`begin`], but the page opens the puzzle `line` (9×9 digits, `.`
/// empty, or any notation the import reads) by its link, `/?p=line`.
fn begin_with(browser: impl FnOnce() -> Option<Browser>, line: &str) -> Option<Session> {
    let one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let browser = browser()?;
    let server = start();
    let board = open_link(&browser, &server, line);
    Some((one, browser, server, board))
}

fn desktop() -> Option<Browser> {
    Browser::start(900, 1000)
}

/// The page's game: `window.coverPlay.state()`.
fn state(browser: &Browser) -> Value {
    browser.run(STATE, json!([]))
}

fn message(browser: &Browser) -> String {
    let text = browser.run(&format!("return {MESSAGE}"), json!([]));
    text.as_str().unwrap().to_owned()
}

/// Opens the page and waits until it shows a game.
fn open(browser: &Browser, server: &Background) -> Element {
    browser.goto(&format!("http://{}/", server.addr()));
    wait_ready(browser);
    browser.find("#board")
}

/// Opens `/?p=line` and waits until the page plays that puzzle.
fn open_link(browser: &Browser, server: &Background, line: &str) -> Element {
    let url = format!("http://{}/?p={}", server.addr(), url_encoded(line));
    browser.goto(&url);
    wait_for_puzzle(browser, line);
    browser.find("#board")
}

/// Waits until the page plays the puzzle `line` (its symbols, `.` empty).
fn wait_for_puzzle(browser: &Browser, line: &str) {
    wait_ready(browser);
    browser.wait_for(
        "the puzzle of the link",
        &format!(
            "const s = window.coverPlay.state(); const symbols = [...s.symbols]; \
             return s.puzzle.map(d => d ? symbols[d - 1] : '.').join('') === {line:?}"
        ),
    );
}

fn url_encoded(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'.' | b'-' | b'_' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

fn wait_ready(browser: &Browser) {
    browser.wait_for(
        "a game on the page",
        "return document.body.dataset.ready === '1' && document.querySelectorAll('.cell').length > 0",
    );
}

/// Reloads the page and answers the board drawn after it.
fn reload(browser: &Browser) -> Element {
    browser.refresh();
    wait_ready(browser);
    browser.find("#board")
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

fn size_of(game: &Value) -> usize {
    game["size"].as_u64().unwrap() as usize
}

fn selected(browser: &Browser) -> usize {
    state(browser)["selected"].as_u64().unwrap() as usize
}

/// Moves to `cell` by arrows and types `text` there.
fn type_at(browser: &Browser, board: &Element, cell: usize, text: &str) {
    let game = state(browser);
    let from = game["selected"].as_u64().unwrap() as usize;
    browser.keys(board, &(arrows(size_of(&game), from, cell) + text));
    assert_eq!(selected(browser), cell, "the arrows reach cell {cell}");
}

fn symbol(game: &Value, digit: u8) -> String {
    let symbols: Vec<char> = game["symbols"].as_str().unwrap().chars().collect();
    symbols[digit as usize - 1].to_string()
}

fn cell_value(browser: &Browser, cell: usize) -> u8 {
    grid(&state(browser)["cells"])[cell]
}

/// Corner marks shown in `cell`, read off the page.
fn marks_shown(browser: &Browser, cell: usize) -> Value {
    browser.run(
        "return [...document.querySelectorAll(`.cell[data-cell='${arguments[0]}'] .mark`)]\
         .map(m => Number(m.dataset.mark))",
        json!([cell]),
    )
}

/// Centre marks shown in `cell`, read off the page.
fn centre_shown(browser: &Browser, cell: usize) -> Value {
    browser.run(
        "return [...document.querySelectorAll(`.cell[data-cell='${arguments[0]}'] [data-centre]`)]\
         .map(m => Number(m.dataset.centre))",
        json!([cell]),
    )
}

/// The keys that type `solution` into every cell of `game` that differs
/// from it, starting from the selected cell, in one string.
fn keys_for(game: &Value, solution: &[u8]) -> String {
    let size = size_of(game);
    let cells = grid(&game["cells"]);
    let mut at = game["selected"].as_u64().unwrap() as usize;
    let mut keys = String::new();
    for (cell, &digit) in solution.iter().enumerate() {
        if cells[cell] != digit {
            keys += &arrows(size, at, cell);
            // Lower case: Shift with a letter writes a corner mark.
            keys += &symbol(game, digit).to_lowercase();
            at = cell;
        }
    }
    keys
}

/// Types the solution into every cell that lacks it, then waits for the
/// win screen and answers its words.
fn play_to_the_win(browser: &Browser, board: &Element, solution: &[u8]) -> String {
    let game = state(browser);
    browser.keys(board, &keys_for(&game, solution));
    let text = wait_for_the_win(browser);
    assert_eq!(grid(&state(browser)["cells"]), solution);
    text
}

/// Waits for the win screen (the open `<dialog id="win">`) and answers
/// its words, which start "Solved in".
fn wait_for_the_win(browser: &Browser) -> String {
    let text = browser.wait_for(
        "the win screen",
        "return document.getElementById('win').open && document.getElementById('win-text').textContent",
    );
    let text = text.as_str().unwrap().to_owned();
    assert!(text.starts_with("Solved in"), "the win screen says {text}");
    assert_eq!(state(browser)["status"], "won");
    text
}

fn win_open(browser: &Browser) -> bool {
    browser.run("return document.getElementById('win').open", json!([])) == json!(true)
}

fn first_empty(game: &Value) -> usize {
    grid(&game["cells"])
        .iter()
        .position(|&d| d == 0)
        .expect("an empty cell")
}

fn ctrl(c: char) -> String {
    format!("{}{c}{}", key::CONTROL, key::NULL)
}

/// The puzzle as one line, `.` empty (9×9 digits).
fn line_of(cells: &[u8]) -> String {
    cells
        .iter()
        .map(|&d| if d == 0 { '.' } else { (b'0' + d) as char })
        .collect()
}

/// `solution` with only the cells `empty` left to fill: a puzzle with the
/// same one solution (it has more givens than a unique one).
fn nearly_solved(solution: &[u8], empty: &[usize]) -> Vec<u8> {
    let mut cells = solution.to_vec();
    for &cell in empty {
        cells[cell] = 0;
    }
    cells
}

/// The classic's solution, by our own solver.
fn classic_solution() -> Vec<u8> {
    let puzzle = cells_in(CLASSIC, "123456789");
    first_solution(&puzzle).expect("the classic has a solution")
}

/// Waits until the clock passes `seconds` of play.
fn wait_for_clock(browser: &Browser, what: &str, seconds: f64) {
    browser.wait_for(
        what,
        &format!("return window.coverPlay.state().elapsed >= {seconds}"),
    );
}

fn elapsed(browser: &Browser) -> f64 {
    state(browser)["elapsed"].as_f64().unwrap()
}

/// Cells (by number) that have `class`.
fn cells_with(browser: &Browser, class: &str) -> Value {
    browser.run(
        "return [...document.querySelectorAll('.cell.' + arguments[0])].map(c => Number(c.dataset.cell))",
        json!([class]),
    )
}

/// Makes the page's `fetch` of `/api/{path}` answer `ms` milliseconds late.
fn slow_down(browser: &Browser, path: &str, ms: u64) {
    browser.run(
        "const [path, ms] = arguments; const fetch = window.fetch; \
         window.fetch = async (url, options) => { \
           const answer = await fetch(url, options); \
           if (String(url).endsWith(path)) await new Promise(r => setTimeout(r, ms)); \
           return answer; };",
        json!([format!("/api/{path}"), ms]),
    );
}

fn is_open(browser: &Browser, dialog: &str) -> bool {
    browser.run(
        "return document.getElementById(arguments[0]).open",
        json!([dialog]),
    ) == json!(true)
}

fn solution_of_game(game: &Value) -> Vec<u8> {
    let puzzle = grid(&game["puzzle"]);
    let solution = first_solution(&puzzle).expect("our solver solves the page's puzzle");
    assert!(is_solution_of(&puzzle, &solution));
    solution
}

// The game played: the tests of the page before it was rebuilt on the
// model, brought to it.

#[test]
fn a_4x4_game_by_keys_with_undo_redo_and_corner_marks() {
    let Some((_one, browser, _server, board)) = begin(desktop) else {
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
    browser.keys(&board, &ctrl('z'));
    assert_eq!(cell_value(&browser, cell), 0, "Ctrl+Z undoes");
    browser.keys(&board, &ctrl('y'));
    assert_eq!(cell_value(&browser, cell), wrong, "Ctrl+Y redoes");
    browser.keys(&board, &ctrl('z'));
    assert_eq!(cell_value(&browser, cell), 0);
    browser.keys(
        &board,
        &format!("{}{}z{}", key::CONTROL, key::SHIFT, key::NULL),
    );
    assert_eq!(cell_value(&browser, cell), wrong, "Ctrl+Shift+Z redoes too");
    browser.keys(&board, &ctrl('z'));
    assert_eq!(cell_value(&browser, cell), 0);

    // Corner marks (Space switches them on): two digits in, one toggled
    // out, and entering the digit clears them.
    let other = (solution[cell] % 4) + 1;
    browser.keys(&board, " ");
    assert_eq!(state(&browser)["mode"], "corner");
    let (right, other_symbol) = (symbol(&game, solution[cell]), symbol(&game, other));
    browser.keys(&board, &format!("{right}{other_symbol}"));
    let mut both = vec![solution[cell], other];
    both.sort();
    assert_eq!(marks_shown(&browser, cell), json!(both));
    browser.keys(&board, &other_symbol);
    assert_eq!(marks_shown(&browser, cell), json!([solution[cell]]));
    assert_eq!(cell_value(&browser, cell), 0, "marks are not entries");
    browser.keys(&board, " ");
    assert_eq!(state(&browser)["mode"], "digit");
    browser.keys(&board, &right);
    assert_eq!(cell_value(&browser, cell), solution[cell]);
    assert_eq!(marks_shown(&browser, cell), json!([]));
    // Backspace clears the cell, undo brings the digit back.
    browser.keys(&board, &key::BACKSPACE.to_string());
    assert_eq!(cell_value(&browser, cell), 0);
    browser.keys(&board, &ctrl('z'));
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
        &format!("const t = {MESSAGE}; return t.startsWith('Look at') && t"),
    );
    assert_eq!(
        state(&browser)["hinted"],
        -1,
        "a nudge selects nothing: {nudge}"
    );
    browser.keys(&board, "h");
    browser.wait_for(
        "the hint's technique",
        &format!("const t = {MESSAGE}; return t.includes('rated') && t"),
    );
    assert!(
        !cells_with(&browser, "hint-pattern")
            .as_array()
            .unwrap()
            .is_empty(),
        "the pattern is highlighted"
    );
    browser.keys(&board, "h");
    let text = browser.wait_for(
        "the hint",
        &format!("return window.coverPlay.state().hinted >= 0 && {MESSAGE}"),
    );
    let hinted = state(&browser)["hinted"].as_u64().unwrap() as usize;
    assert_eq!(puzzle[hinted], 0, "the hint is about an empty cell");
    let words = text.as_str().unwrap();
    assert!(
        words.contains(&format!("= {}", solution[hinted])),
        "the hint gives the step: {words}"
    );
    assert_eq!(selected(&browser), hinted, "the hint selects its cell");
    assert_eq!(cells_with(&browser, "hinted"), json!([hinted]));
    browser.keys(&board, &symbol(&game, solution[hinted]));

    // Half the empty cells, then corner marks in the next empty one.
    let empty: Vec<usize> = (0..81).filter(|&c| puzzle[c] == 0 && c != hinted).collect();
    let mut half = state(&browser);
    let mut partial = grid(&half["cells"]);
    for &cell in &empty[..empty.len() / 2] {
        partial[cell] = solution[cell];
    }
    half["cells"] = json!(grid(&half["cells"]));
    browser.keys(&board, &keys_for(&half, &partial));
    half = state(&browser);
    assert_eq!(grid(&half["cells"]), partial, "half the cells typed");
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
        &format!("return {MESSAGE}.startsWith('Look at')"),
    );
    browser.keys(&board, "?");
    browser.wait_for(
        "the second hint",
        &format!("return {MESSAGE}.includes('rated')"),
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
    board = reload(&browser);
    let after = state(&browser);
    for field in ["puzzle", "cells", "marks", "size", "symbols", "undo", "id"] {
        assert_eq!(after[field], before[field], "{field} survives a reload");
    }
    assert_eq!(
        marks_shown(&browser, marked),
        marks,
        "marks are drawn after a reload"
    );
    // The undo history came back too, and the new page takes keys.
    browser.keys(&board, &ctrl('z'));
    assert_eq!(marks_shown(&browser, marked), json!([solution[marked]]));
    browser.keys(&board, &ctrl('y'));
    assert_eq!(marks_shown(&browser, marked), marks);

    // So does a server restart on the same port (the game lives in the
    // browser), and the new server answers the page.
    drop(server);
    server = Background::start(addr, Config::default()).expect("the server restarts");
    board = reload(&browser);
    assert_eq!(
        state(&browser)["cells"],
        before["cells"],
        "the game survives a restart"
    );
    browser.keys(&board, "?");
    browser.wait_for(
        "a hint from the new server",
        &format!("return {MESSAGE}.startsWith('Look at')"),
    );

    play_to_the_win(&browser, &board, &solution);
    drop(server);
}

#[test]
fn the_timer_runs_while_visible_and_pauses_while_hidden() {
    let Some((_one, browser, _server, _board)) = begin(desktop) else {
        return;
    };
    wait_for_clock(&browser, "the clock to run", 1.5);
    let shown = browser.run(
        "return document.getElementById('timer').textContent",
        json!([]),
    );
    assert!(shown.as_str().unwrap().starts_with("0:0"), "{shown}");
    // Headless Chromium has no window to hide, so the tab is made hidden
    // the way the page sees it: `document.hidden` and the event.
    browser.run(
        "Object.defineProperty(document, 'hidden', {value: true, configurable: true}); \
         document.dispatchEvent(new Event('visibilitychange'));",
        json!([]),
    );
    let hidden_at = elapsed(&browser);
    sleep(Duration::from_millis(2200));
    let still = elapsed(&browser);
    assert!(
        still - hidden_at < 0.01,
        "paused while hidden: {hidden_at} → {still}"
    );
    browser.run(
        "Object.defineProperty(document, 'hidden', {value: false, configurable: true}); \
         document.dispatchEvent(new Event('visibilitychange'));",
        json!([]),
    );
    wait_for_clock(&browser, "the clock to run again", still + 1.0);
}

#[test]
fn import_takes_any_layout_and_shows_the_servers_refusals() {
    let Some((_one, browser, server, _board)) = begin(desktop) else {
        return;
    };
    browser.click(&browser.find("summary"));
    let text = browser.find("#import-text");
    let import = browser.find("#import");

    // A 9-line grid with spaces, typed line by line.
    let lines: Vec<String> = CLASSIC
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
    browser.wait_for("the import", &format!("return {MESSAGE} === 'imported'"));
    let game = state(&browser);
    let expected = cells_in(CLASSIC, "123456789");
    assert_eq!(grid(&game["puzzle"]), expected);
    assert_eq!(grid(&game["cells"]), expected);

    // A digit its row already has: both cells turn red as it is typed;
    // Check calls it wrong; Solve, once confirmed, fills in the one
    // solution.
    let board = browser.find("#board");
    type_at(&browser, &board, 2, "5");
    assert_eq!(
        cells_with(&browser, "conflict"),
        json!([0, 2]),
        "the clash is shown as it is typed"
    );
    browser.click(&browser.find("#check"));
    browser.wait_for("the check", &format!("return {MESSAGE} === '1 wrong'"));
    assert_eq!(cells_with(&browser, "wrong"), json!([2]));
    browser.click(&browser.find("#solve"));
    assert!(is_open(&browser, "confirm"), "Solve asks first");
    browser.click(&browser.find("#confirm-yes"));
    browser.wait_for(
        "the solution",
        &format!("return {MESSAGE} === 'solved by the computer'"),
    );
    let solved = grid(&state(&browser)["cells"]);
    assert!(is_solution_of(&expected, &solved), "{solved:?}");
    assert_eq!(count_solutions(&expected, 2), 1);
    assert_eq!(Some(solved), first_solution(&expected));
    assert_eq!(state(&browser)["status"], "revealed");
    assert!(!win_open(&browser), "a solution shown is no win");

    // Refusals: the page shows the server's own message.
    let several = format!("{}{}", &CLASSIC[..20], ".".repeat(61));
    let no_solution = format!("55{}", &CLASSIC[2..]);
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
            &format!("const m = {MESSAGE}; return m === {error:?} && m"),
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
    let Some((_one, browser, _server, board)) = begin(|| Browser::start_phone(390, 844)) else {
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
    let solution = solution_of_game(&game);
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
    assert_eq!(selected(&browser), other);
    browser.click(&browser.find(&format!(".pad[data-digit='{}']", solution[other])));
    assert_eq!(cell_value(&browser, other), solution[other]);
    let png = browser.screenshot(None);
    let shot = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("cover-play-phone.png");
    std::fs::write(&shot, png).unwrap();
    eprintln!("screenshot: {}", shot.display());
    // And the rest by keys, to the win.
    play_to_the_win(&browser, &board, &solution);
}

// Regressions of issue 35, one test per bug, each in Chromium.

/// Three cells the classic leaves empty, in reading order: a game with
/// these three to fill is won in three digits.
const LAST_THREE: [usize; 3] = [2, 40, 78];

#[test]
fn undo_after_a_win_empties_the_cell_closes_the_win_screen_and_play_and_clock_go_on() {
    let solution = classic_solution();
    let puzzle = nearly_solved(&solution, &LAST_THREE);
    let Some((_one, browser, _server, board)) = begin_with(desktop, &line_of(&puzzle)) else {
        return;
    };
    play_to_the_win(&browser, &board, &solution);
    let last = LAST_THREE[2];
    assert_eq!(selected(&browser), last);
    let won_at = elapsed(&browser);

    // Ctrl+Z where the focus is (the win screen's button): the last digit
    // goes, and the win screen with it.
    browser.press(&ctrl('z'));
    browser.wait_for(
        "the win screen to close",
        "return !document.getElementById('win').open",
    );
    let game = state(&browser);
    assert_eq!(grid(&game["cells"])[last], 0, "the cell empties");
    assert_eq!(game["status"], "playing");
    assert_eq!(game["redo"], 1);

    // Typing works: a wrong digit goes in and out, then the right one
    // wins again.
    let wrong = solution[last] % 9 + 1;
    browser.keys(&board, &wrong.to_string());
    assert_eq!(cell_value(&browser, last), wrong, "typing works after Undo");
    assert!(!win_open(&browser));
    // The clock runs again.
    wait_for_clock(&browser, "the clock to run after Undo", won_at + 1.0);
    browser.keys(&board, &format!("{}{}", key::BACKSPACE, solution[last]));
    wait_for_the_win(&browser);

    // Closed by Escape, the win screen stays shut and the game won (no
    // new game starts); Undo by the button on the page then does the same
    // as Ctrl+Z.
    let id = state(&browser)["id"].clone();
    browser.press(&more_keys::ESCAPE.to_string());
    browser.wait_for(
        "the win screen to close",
        "return !document.getElementById('win').open",
    );
    let game = state(&browser);
    assert_eq!((&game["id"], &game["status"]), (&id, &json!("won")));
    browser.click(&browser.find("#undo"));
    assert_eq!(cell_value(&browser, last), 0);
    assert_eq!(state(&browser)["status"], "playing");
    browser.keys(&board, &solution[last].to_string());
    wait_for_the_win(&browser);
}

#[test]
fn undo_after_solve_brings_the_puzzle_back_to_play_with_the_clock_running() {
    let solution = classic_solution();
    let puzzle = cells_in(CLASSIC, "123456789");
    let Some((_one, browser, _server, board)) = begin_with(desktop, CLASSIC) else {
        return;
    };
    let game = state(&browser);
    let cell = first_empty(&game);
    type_at(&browser, &board, cell, &solution[cell].to_string());
    let mut played = puzzle.clone();
    played[cell] = solution[cell];

    browser.click(&browser.find("#solve"));
    assert!(is_open(&browser, "confirm"), "Solve asks first");
    browser.click(&browser.find("#confirm-yes"));
    browser.wait_for(
        "the solution shown",
        "return window.coverPlay.state().status === 'revealed'",
    );
    assert_eq!(grid(&state(&browser)["cells"]), solution);
    assert!(!win_open(&browser), "Solve is no win");
    let solved_at = elapsed(&browser);

    browser.keys(&board, &ctrl('z'));
    let game = state(&browser);
    assert_eq!(grid(&game["cells"]), played, "the puzzle returns");
    assert_eq!(game["status"], "playing");
    let next = (0..81).find(|&c| played[c] == 0).unwrap();
    type_at(&browser, &board, next, &solution[next].to_string());
    assert_eq!(cell_value(&browser, next), solution[next], "typing works");
    wait_for_clock(&browser, "the clock to run after Undo", solved_at + 1.0);
    // Redo shows the solution again, Undo takes it back again.
    browser.keys(&board, &ctrl('z'));
    browser.keys(&board, &ctrl('y'));
    assert_eq!(cell_value(&browser, next), solution[next]);
}

#[test]
fn the_win_is_judged_on_the_board_shown_so_a_backspace_after_the_last_digit_is_refused() {
    let solution = classic_solution();
    let puzzle = nearly_solved(&solution, &LAST_THREE);
    let Some((_one, browser, _server, board)) = begin_with(desktop, &line_of(&puzzle)) else {
        return;
    };
    let last = LAST_THREE[2];
    let mut most = puzzle.clone();
    most[LAST_THREE[0]] = solution[LAST_THREE[0]];
    most[LAST_THREE[1]] = solution[LAST_THREE[1]];
    let game = state(&browser);
    browser.keys(&board, &keys_for(&game, &most));
    // The last digit and Backspace at once, in one keys call.
    let game = state(&browser);
    browser.keys(
        &board,
        &format!(
            "{}{}{}",
            arrows(9, game["selected"].as_u64().unwrap() as usize, last),
            solution[last],
            key::BACKSPACE
        ),
    );
    wait_for_the_win(&browser);
    sleep(Duration::from_millis(200));
    let game = state(&browser);
    assert_eq!(
        grid(&game["cells"]),
        solution,
        "the Backspace after the win was refused"
    );
    assert_eq!(game["status"], "won");
    assert!(win_open(&browser), "the win screen stays over a full board");
}

#[test]
fn a_hint_or_a_check_that_answers_after_the_board_changed_is_dropped() {
    let solution = classic_solution();
    let Some((_one, browser, _server, board)) = begin_with(desktop, CLASSIC) else {
        return;
    };
    let game = state(&browser);
    let empty: Vec<usize> = (0..81).filter(|&c| grid(&game["cells"])[c] == 0).collect();

    // A hint asked, a digit typed while it is on its way.
    slow_down(&browser, "hint", 700);
    browser.keys(&board, "h");
    type_at(&browser, &board, empty[0], &solution[empty[0]].to_string());
    sleep(Duration::from_millis(1000));
    let game = state(&browser);
    assert_eq!(game["hinted"], -1);
    assert_eq!(game["hints"], 0, "the late hint is not counted");
    assert_eq!(cells_with(&browser, "hint-pattern"), json!([]));
    let said = message(&browser);
    assert!(
        !said.starts_with("Look at"),
        "the late hint is not shown: {said}"
    );
    // The same hint asked on the board as it stands is shown.
    browser.keys(&board, "h");
    browser.wait_for(
        "the hint on the board shown",
        &format!("return {MESSAGE}.startsWith('Look at')"),
    );

    // Check pressed, a wrong digit typed while it is on its way.
    slow_down(&browser, "check", 700);
    browser.click(&browser.find("#check"));
    let wrong = solution[empty[1]] % 9 + 1;
    type_at(&browser, &board, empty[1], &wrong.to_string());
    sleep(Duration::from_millis(1000));
    assert_eq!(cells_with(&browser, "wrong"), json!([]));
    let said = message(&browser);
    assert!(
        !said.contains("wrong"),
        "the late check is not shown: {said}"
    );
    // Pressed again on this board, Check finds the wrong digit.
    browser.click(&browser.find("#check"));
    browser.wait_for("the check", &format!("return {MESSAGE} === '1 wrong'"));
    assert_eq!(cells_with(&browser, "wrong"), json!([empty[1]]));
}

// Features of the rebuilt page.

#[test]
fn corner_marks_by_shift_and_centre_marks_by_ctrl_or_alt_are_drawn() {
    let solution = classic_solution();
    let Some((_one, browser, _server, board)) = begin_with(desktop, CLASSIC) else {
        return;
    };
    let cell = first_empty(&state(&browser));
    type_at(
        &browser,
        &board,
        cell,
        &format!("{}127{}", key::SHIFT, key::NULL),
    );
    assert_eq!(marks_shown(&browser, cell), json!([1, 2, 7]));
    let drawn = browser.run(
        "return [...document.querySelectorAll(`.cell[data-cell='${arguments[0]}'] .mark`)]\
         .map(m => m.textContent).join('')",
        json!([cell]),
    );
    assert_eq!(drawn, "127", "the corner marks' digits are drawn");
    browser.keys(&board, &format!("{}7{}", key::SHIFT, key::NULL));
    assert_eq!(marks_shown(&browser, cell), json!([1, 2]), "Shift toggles");

    browser.keys(
        &board,
        &format!(
            "{}3{}{}4{}",
            key::CONTROL,
            key::NULL,
            more_keys::ALT,
            key::NULL
        ),
    );
    assert_eq!(centre_shown(&browser, cell), json!([3, 4]), "Ctrl and Alt");
    let game = state(&browser);
    assert_eq!(game["centre"][cell], json!([3, 4]));
    assert_eq!(game["marks"][cell], json!([1, 2]));
    assert_eq!(game["cells"][cell], 0, "marks are no entries");
    let middle = browser.run(
        "return document.querySelector(`.cell[data-cell='${arguments[0]}'] .centre`).textContent",
        json!([cell]),
    );
    assert_eq!(middle, "34");

    // The Centre mode: plain digits write centre marks; Digit goes back.
    browser.click(&browser.find("#mode-centre"));
    browser.keys(&board, "5");
    assert_eq!(centre_shown(&browser, cell), json!([3, 4, 5]));
    browser.click(&browser.find("#mode-digit"));
    // A digit hides the marks; Undo shows them again.
    browser.keys(&board, &solution[cell].to_string());
    assert_eq!(marks_shown(&browser, cell), json!([]));
    assert_eq!(centre_shown(&browser, cell), json!([]));
    browser.keys(&board, &ctrl('z'));
    assert_eq!(marks_shown(&browser, cell), json!([1, 2]));
    assert_eq!(centre_shown(&browser, cell), json!([3, 4, 5]));
}
