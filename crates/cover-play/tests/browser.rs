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

use common::variants;
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

/// Makes the page's `fetch` of `/api/{path}` answer `ms` milliseconds
/// late; [`wait_for_late_answer`] waits until it has answered.
fn slow_down(browser: &Browser, path: &str, ms: u64) {
    browser.run(
        "const [path, ms] = arguments; const fetch = window.fetch; \
         window.lateAnswers = window.lateAnswers || {}; window.lateAnswers[path] = 0; \
         window.fetch = async (url, options) => { \
           const answer = await fetch(url, options); \
           if (String(url).endsWith(path)) { \
             await new Promise(r => setTimeout(r, ms)); \
             setTimeout(() => window.lateAnswers[path]++, 100); } \
           return answer; };",
        json!([format!("/api/{path}"), ms]),
    );
}

/// Waits until the page has had `count` late answers of `/api/{path}`
/// (and a moment to act on the last).
fn wait_for_late_answer(browser: &Browser, path: &str, count: u64) {
    browser.wait_for(
        &format!("the late answer of /api/{path}"),
        &format!("return window.lateAnswers['/api/{path}'] >= {count}"),
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
    wait_for_late_answer(&browser, "hint", 1);
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
    wait_for_late_answer(&browser, "check", 1);
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

/// The candidates of each empty cell (a list of digits; empty for filled
/// cells), by our own reading of the rules.
fn candidates(cells: &[u8]) -> Vec<Vec<u8>> {
    let size = side_of(cells.len());
    let box_side = (size as f64).sqrt() as usize;
    let peers = |a: usize, b: usize| {
        let (ra, ca, rb, cb) = (a / size, a % size, b / size, b % size);
        ra == rb || ca == cb || (ra / box_side == rb / box_side && ca / box_side == cb / box_side)
    };
    (0..cells.len())
        .map(|cell| {
            if cells[cell] != 0 {
                return Vec::new();
            }
            (1..=size as u8)
                .filter(|&d| {
                    !(0..cells.len()).any(|c| c != cell && peers(c, cell) && cells[c] == d)
                })
                .collect()
        })
        .collect()
}

/// A keydown of `symbol` (a digit or a letter) with `modifier` ("shift",
/// "ctrl", "alt" or ""), as the browser would send it.
fn key_event(symbol: char, modifier: &str) -> Value {
    let code = if symbol.is_ascii_digit() {
        format!("Digit{symbol}")
    } else {
        format!("Key{}", symbol.to_ascii_uppercase())
    };
    json!({
        "key": symbol.to_string(), "code": code, "shiftKey": modifier == "shift",
        "ctrlKey": modifier == "ctrl", "altKey": modifier == "alt",
    })
}

/// The keydown of one of [`key`]'s arrows.
fn arrow_event(arrow: char) -> Value {
    let name = match arrow {
        key::UP => "ArrowUp",
        key::DOWN => "ArrowDown",
        key::LEFT => "ArrowLeft",
        _ => "ArrowRight",
    };
    json!({ "key": name, "code": name })
}

/// Dispatches `events` (keydown initialisers) on the board, one after the
/// other, in one script: what a player's keys do, without WebDriver's
/// milliseconds a key.
fn dispatch(browser: &Browser, events: &[Value]) {
    browser.run(
        "const board = document.getElementById('board'); board.focus();          for (const init of arguments[0])            board.dispatchEvent(new KeyboardEvent('keydown', { ...init, bubbles: true, cancelable: true }));",
        json!([events]),
    );
}

/// The characters the page keeps in localStorage, keys and values.
fn stored_chars(browser: &Browser) -> u64 {
    browser
        .run(
            "return Object.keys(localStorage).reduce((n, k) => n + k.length + localStorage.getItem(k).length, 0)",
            json!([]),
        )
        .as_u64()
        .unwrap()
}

#[test]
fn a_16x16_full_of_pencil_marks_saves_small_reloads_whole_and_wins_and_a_full_store_is_said() {
    let line = fixture_line("line_16x16_digits.txt", 0);
    let puzzle = cells_in(&line, "123456789ABCDEFG");
    let solution = first_solution(&puzzle).expect("the fixture has a solution");
    let Some((_one, browser, _server, _board)) = begin_with(desktop, &line) else {
        return;
    };
    let empty: Vec<usize> = (0..256).filter(|&c| puzzle[c] == 0).collect();

    // Every mark in every empty cell, by Shift and each symbol: 16 moves
    // a cell, as key events dispatched in the page (WebDriver's own key
    // presses take milliseconds each).
    let mut events = Vec::new();
    let mut at = 0;
    for &cell in &empty {
        events.extend(arrows(16, at, cell).chars().map(arrow_event));
        events.extend("123456789ABCDEFG".chars().map(|s| key_event(s, "shift")));
        at = cell;
    }
    dispatch(&browser, &events);
    let game = state(&browser);
    let full: Vec<u8> = (1..=16).collect();
    for &cell in &empty {
        assert_eq!(game["marks"][cell], json!(full), "cell {cell}'s marks");
    }
    assert_eq!(game["undo"], empty.len() * 16, "one move a mark");
    let marked = stored_chars(&browser);

    // Auto notes: the marks become the candidates.
    browser.click(&browser.find("#notes"));
    let game = state(&browser);
    let expected = candidates(&puzzle);
    for &cell in &empty {
        assert_eq!(game["marks"][cell], json!(expected[cell]), "cell {cell}");
    }
    let noted = stored_chars(&browser);
    eprintln!("stored: {marked} characters with every mark, {noted} after Auto notes");
    assert!(
        noted < 150_000,
        "{} moves of marks keep the saved game small: {noted} characters",
        empty.len() * 16 + 1
    );

    // A reload brings back the marks, the digits and the history.
    let board = reload(&browser);
    let after = state(&browser);
    for field in ["cells", "marks", "centre", "undo", "id", "status"] {
        assert_eq!(after[field], game[field], "{field} survives a reload");
    }
    let drawn = browser.run(
        "return document.querySelectorAll('.mark').length",
        json!([]),
    );
    let count: usize = expected.iter().map(Vec::len).sum();
    assert_eq!(drawn, count, "every mark drawn after the reload");

    // The store full: the page says so in its message and play goes on.
    browser.run(
        "window.realSetItem = Storage.prototype.setItem; \
         Storage.prototype.setItem = function () { \
           throw new DOMException('the quota is exceeded', 'QuotaExceededError'); };",
        json!([]),
    );
    // One digit: its save fails, and the message says so.
    let first = empty[0];
    type_at(
        &browser,
        &board,
        first,
        &symbol(&after, solution[first]).to_lowercase(),
    );
    assert_eq!(cell_value(&browser, first), solution[first]);
    let said = message(&browser);
    assert!(said.contains("storage is full"), "the page says: {said}");
    assert_eq!(state(&browser)["saveFailed"], true);
    // Two more: play goes on.
    let mut some = grid(&state(&browser)["cells"]);
    for &cell in &empty[1..3] {
        some[cell] = solution[cell];
    }
    browser.keys(&board, &keys_for(&state(&browser), &some));
    assert_eq!(grid(&state(&browser)["cells"]), some, "play goes on");
    let warning = browser.run(
        "const w = document.getElementById('storage-warning'); return !w.hidden && w.textContent",
        json!([]),
    );
    assert!(
        warning.as_str().is_some_and(|w| w.contains("not saved")),
        "the warning stays while saves fail: {warning}"
    );
    browser.run("Storage.prototype.setItem = window.realSetItem;", json!([]));

    // The rest by keys: the win registers, saved and counted.
    play_to_the_win(&browser, &board, &solution);
    assert_eq!(state(&browser)["saveFailed"], false);
    let saved = browser.run(
        "return [JSON.parse(localStorage.getItem('cover-play-game')).status, \
                 JSON.parse(localStorage.getItem('cover-play-stats')).kinds['16×16 easy'].won]",
        json!([]),
    );
    assert_eq!(saved, json!(["won", 1]));
    let won = stored_chars(&browser);
    eprintln!("stored: {won} characters once won");
    assert!(won < 200_000, "the won game's store: {won} characters");
}

/// Waits until the page's game in the current window has `id`.
fn wait_for_game(browser: &Browser, what: &str, id: &Value) {
    browser.wait_for(
        what,
        &format!("return window.coverPlay.state().id === {id}"),
    );
}

#[test]
fn two_windows_follow_each_others_moves_and_new_games_and_neither_overwrites_the_other() {
    let solution = classic_solution();
    let Some((_one, browser, server, board)) = begin_with(desktop, CLASSIC) else {
        return;
    };
    let first = browser.window();
    let game = state(&browser);
    let id = game["id"].clone();
    let empty: Vec<usize> = (0..81).filter(|&c| grid(&game["cells"])[c] == 0).collect();

    // The second window opens on the same game.
    let second = browser.new_tab();
    browser.switch_to(&second);
    let board2 = open(&browser, &server);
    assert_eq!(
        state(&browser)["id"],
        id,
        "the second window plays the saved game"
    );

    // A move in the second shows in the first, and back.
    type_at(&browser, &board2, empty[0], &solution[empty[0]].to_string());
    browser.switch_to(&first);
    browser.wait_for(
        "the second window's move",
        &format!(
            "return window.coverPlay.state().cells[{}] === {} && \
             document.querySelector(\".cell[data-cell='{}']\").textContent === '{}'",
            empty[0], solution[empty[0]], empty[0], solution[empty[0]]
        ),
    );
    type_at(&browser, &board, empty[1], &solution[empty[1]].to_string());
    browser.switch_to(&second);
    browser.wait_for(
        "the first window's move",
        &format!(
            "return window.coverPlay.state().cells[{}] === {}",
            empty[1], solution[empty[1]]
        ),
    );
    assert_eq!(state(&browser)["undo"], 2, "the history came along");

    // A new game in the second (asked first: one is in progress) shows in
    // the first.
    browser.click(&browser.find("#new"));
    assert!(is_open(&browser, "confirm"));
    browser.click(&browser.find("#confirm-yes"));
    browser.wait_for(
        "the new game",
        &format!("return window.coverPlay.state().id !== {id}"),
    );
    let newer = state(&browser)["id"].clone();
    browser.switch_to(&first);
    wait_for_game(&browser, "the new game in the first window", &newer);

    // The first window's saves (the clock's, leaving the page) keep the
    // newer game; its moves go to the second.
    browser.run("window.dispatchEvent(new Event('pagehide'))", json!([]));
    let kept = browser.run(
        "return JSON.parse(localStorage.getItem('cover-play-game')).id",
        json!([]),
    );
    assert_eq!(
        kept, newer,
        "the first window did not put its old game back"
    );
    let fresh = state(&browser);
    let cell = first_empty(&fresh);
    let digit = solution_of_game(&fresh)[cell];
    let board = browser.find("#board");
    type_at(&browser, &board, cell, &digit.to_string());
    browser.switch_to(&second);
    browser.wait_for(
        "the first window's move on the new game",
        &format!("return window.coverPlay.state().cells[{cell}] === {digit}"),
    );
    assert_eq!(state(&browser)["id"], newer);
    // Undo in the second goes back across the new game, and the first
    // follows there too.
    browser.keys(&board2, &ctrl('z'));
    browser.keys(&board2, &ctrl('z'));
    wait_for_game(&browser, "the old game back in the second window", &id);
    browser.switch_to(&first);
    wait_for_game(&browser, "the old game back in the first window", &id);
    assert_eq!(
        grid(&state(&browser)["cells"])[empty[1]],
        solution[empty[1]]
    );
    // A reload shows the game both windows agree on.
    reload(&browser);
    assert_eq!(state(&browser)["id"], id);
}

/// Imports `text` through the import box (the text put in by script: a
/// 25×25 typed key by key takes seconds) and waits for its game.
fn import_by_box(browser: &Browser, text: &str) -> Value {
    let before = state(browser)["id"].clone();
    browser.run(
        "document.getElementById('more').open = true; \
         document.getElementById('import-text').value = arguments[0]; \
         document.getElementById('message').textContent = '';",
        json!([text]),
    );
    browser.click(&browser.find("#import"));
    browser.wait_for("the import", &format!("return {MESSAGE}"));
    let game = state(browser);
    assert_ne!(
        game["id"],
        before,
        "the import was refused: {}",
        message(browser)
    );
    game
}

/// The marks drawn outside their cell's box (by more than a rounding
/// error), as `[cell, mark]` pairs, and how many marks were measured.
fn marks_outside_cells(browser: &Browser) -> (Value, u64) {
    let found = browser.run(
        "const out = []; let n = 0; \
         for (const mark of document.querySelectorAll('.mark')) { \
           n++; const m = mark.getBoundingClientRect(); \
           const c = mark.closest('.cell').getBoundingClientRect(); \
           if (m.left < c.left - 0.5 || m.top < c.top - 0.5 || m.right > c.right + 0.5 || m.bottom > c.bottom + 0.5) \
             out.push([Number(mark.closest('.cell').dataset.cell), Number(mark.dataset.mark)]); } \
         return [out.slice(0, 10), n];",
        json!([]),
    );
    (found[0].clone(), found[1].as_u64().unwrap())
}

/// The board inside its frame and the viewport, and no sideways scroll:
/// the rectangles, or None when everything fits.
fn misfit(browser: &Browser) -> Option<Value> {
    let sizes = browser.run(
        "const b = document.getElementById('board').getBoundingClientRect(); \
         const f = document.getElementById('board-frame').getBoundingClientRect(); \
         const w = document.documentElement.clientWidth; \
         const fits = b.left >= f.left - 0.5 && b.right <= f.right + 0.5 && b.top >= f.top - 0.5 && \
           b.bottom <= f.bottom + 0.5 && b.left >= 0 && b.right <= w + 0.5 && \
           document.documentElement.scrollWidth <= w && document.body.scrollWidth <= w; \
         return fits ? null : { board: [b.left, b.top, b.right, b.bottom], frame: [f.left, f.top, f.right, f.bottom], \
           width: w, scrollWidth: document.documentElement.scrollWidth };",
        json!([]),
    );
    (!sizes.is_null()).then_some(sizes)
}

/// A 16×16 full of marks keeps each inside its cell, and a 25×25 fits the
/// frame and the screen, on the page as `browser` shows it.
fn check_large_grids(browser: &Browser, screen: &str) {
    import_by_box(browser, &fixture_line("line_16x16_digits.txt", 0));
    // Every empty cell: Auto notes, then each mark Auto notes left out.
    browser.click(&browser.find("#notes"));
    let game = state(browser);
    let mut events = Vec::new();
    let mut at = game["selected"].as_u64().unwrap() as usize;
    for cell in (0..256).filter(|&c| game["cells"][c] == 0) {
        events.extend(arrows(16, at, cell).chars().map(arrow_event));
        let marks = &game["marks"][cell];
        for (d, s) in "123456789ABCDEFG".chars().enumerate() {
            if !marks.as_array().unwrap().contains(&json!(d + 1)) {
                events.push(key_event(s, "shift"));
            }
        }
        at = cell;
    }
    dispatch(browser, &events);
    let (outside, measured) = marks_outside_cells(browser);
    assert!(
        measured > 1500,
        "{measured} marks drawn on the 16×16 ({screen})"
    );
    assert_eq!(
        outside,
        json!([]),
        "16×16 marks outside their cells ({screen})"
    );
    assert_eq!(misfit(browser), None, "the 16×16 fits ({screen})");

    let game = import_by_box(browser, &easy_25x25());
    assert_eq!(game["size"], 25);
    assert_eq!(misfit(browser), None, "the 25×25 fits ({screen})");
    browser.click(&browser.find("#notes"));
    let (outside, measured) = marks_outside_cells(browser);
    assert!(
        measured > 100,
        "{measured} marks drawn on the 25×25 ({screen})"
    );
    assert_eq!(
        outside,
        json!([]),
        "25×25 marks outside their cells ({screen})"
    );
    let png = browser.screenshot(None);
    let shot = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("cover-play-25x25-{screen}.png"));
    std::fs::write(&shot, png).unwrap();
    eprintln!("screenshot: {}", shot.display());
}

#[test]
fn marks_stay_inside_16x16_cells_and_a_25x25_fits_the_frame_on_a_desktop() {
    let Some((_one, browser, _server, _board)) = begin_with(desktop, CLASSIC) else {
        return;
    };
    check_large_grids(&browser, "desktop");
}

#[test]
fn marks_stay_inside_16x16_cells_and_a_25x25_fits_the_frame_on_a_phone() {
    let Some((_one, browser, _server, _board)) =
        begin_with(|| Browser::start_phone(390, 844), CLASSIC)
    else {
        return;
    };
    check_large_grids(&browser, "phone");
}

#[test]
fn a_16x16_imports_through_the_import_box_in_1_to_g_and_in_0_to_f() {
    let Some((_one, browser, _server, _board)) = begin_with(desktop, CLASSIC) else {
        return;
    };
    // The same puzzle written both ways (the hex fixture relabels the
    // digits fixture: 0 for its 1, F for its G).
    let digits = fixture_line("line_16x16_digits.txt", 0);
    let hex = fixture_line("line_16x16_hex.txt", 0);
    let puzzle = cells_in(&digits, "123456789ABCDEFG");
    assert_eq!(cells_in(&hex, "0123456789ABCDEF"), puzzle);
    let solution = first_solution(&puzzle).expect("the fixture has a solution");

    browser.click(&browser.find("summary"));
    let text = browser.find("#import-text");
    for (line, symbols) in [(&digits, "123456789ABCDEFG"), (&hex, "0123456789ABCDEF")] {
        browser.run(
            "document.getElementById('import-text').value = ''; \
             document.getElementById('message').textContent = '';",
            json!([]),
        );
        // Typed into the box, key by key.
        browser.keys(&text, line);
        browser.click(&browser.find("#import"));
        let said = browser.wait_for("the import", &format!("return {MESSAGE}"));
        assert_eq!(
            said, "imported",
            "the server refused the 16×16 in {symbols} (the import of this notation is \
             another change's: is it in?)"
        );
        let game = state(&browser);
        assert_eq!(game["size"], 16);
        assert_eq!(game["symbols"], symbols, "the page shows the notation read");
        assert_eq!(
            grid(&game["puzzle"]),
            puzzle,
            "read as written in {symbols}"
        );
        let shown = browser.run(
            "return [...document.querySelectorAll('.cell')].map(c => c.textContent || '.').join('')",
            json!([]),
        );
        assert_eq!(shown, **line, "drawn in the notation's symbols");
    }
    // Played to the win in 0–F: 0 is a digit there (not Delete).
    let board = browser.find("#board");
    let zero = (0..256)
        .find(|&c| puzzle[c] == 0 && solution[c] == 1)
        .unwrap();
    type_at(&browser, &board, zero, "0");
    assert_eq!(cell_value(&browser, zero), 1, "0 writes 0–F's first digit");
    play_to_the_win(&browser, &board, &solution);
}

#[test]
fn a_late_hint_does_not_move_the_cursor_or_take_the_digit_typed_meanwhile() {
    let solution = classic_solution();
    let Some((_one, browser, _server, board)) = begin_with(desktop, CLASSIC) else {
        return;
    };
    let puzzle = cells_in(CLASSIC, "123456789");
    // The hint in three presses, each answer a second late: the presses
    // come before the answers, and the player moves on meanwhile.
    slow_down(&browser, "hint", 1000);
    let empty: Vec<usize> = (0..81).filter(|&c| puzzle[c] == 0).collect();
    let here = *empty.last().unwrap();
    browser.keys(&board, "hhh");
    type_at(&browser, &board, here, "");
    // While it is on its way, a digit where the player is.
    browser.keys(&board, &solution[here].to_string());
    wait_for_late_answer(&browser, "hint", 1);
    let game = state(&browser);
    assert_eq!(
        game["selected"], here,
        "the cursor stayed where the player put it"
    );
    assert_eq!(
        grid(&game["cells"])[here],
        solution[here],
        "the digit landed there"
    );
    let typed = grid(&game["cells"])
        .iter()
        .zip(&puzzle)
        .filter(|(a, b)| a != b)
        .count();
    assert_eq!(typed, 1, "one digit typed, in one cell");

    // Asked again and only moving meanwhile: the answer shows where to
    // look, and the cursor stays.
    let there = empty[0];
    browser.keys(&board, "h");
    type_at(&browser, &board, there, "");
    browser.wait_for(
        "the hint",
        &format!("return {MESSAGE}.startsWith('Look at')"),
    );
    assert_eq!(selected(&browser), there, "a late nudge moves nothing");
    // The whole step, asked on the answer already here, selects its cell.
    browser.keys(&board, "h");
    browser.wait_for(
        "the technique",
        &format!("return {MESSAGE}.includes('rated')"),
    );
    browser.keys(&board, "h");
    browser.wait_for("the step", "return window.coverPlay.state().hinted >= 0");
    let hinted = state(&browser)["hinted"].clone();
    assert_eq!(
        state(&browser)["selected"],
        hinted,
        "a press on the step here selects it"
    );
}

#[test]
fn a_new_easy_game_is_announced_as_an_easy_puzzle_with_the_spinner_meanwhile() {
    let Some((_one, browser, _server, _board)) = begin_with(desktop, CLASSIC) else {
        return;
    };
    slow_down(&browser, "new", 800);
    browser.run(
        "document.getElementById('message').textContent = ''",
        json!([]),
    );
    browser.keys(&browser.find("#difficulty"), "easy");
    browser.keys(&browser.find("#new"), &key::ENTER.to_string());
    let busy = browser.wait_for(
        "the spinner",
        "const b = document.getElementById('busy'); \
         return !b.hidden && getComputedStyle(b).display !== 'none' && \
           document.getElementById('busy-text').textContent",
    );
    assert_eq!(busy, "Making an easy 9×9 puzzle…");
    assert_eq!(
        browser.run(
            "return document.getElementById('board').getAttribute('aria-busy')",
            json!([])
        ),
        "true"
    );
    let said = browser.wait_for("the new game's words", &format!("return {MESSAGE}"));
    let said = said.as_str().unwrap();
    assert!(said.starts_with("an easy puzzle, "), "{said}");
    assert!(
        browser.run("return document.getElementById('busy').hidden", json!([])) == json!(true),
        "the spinner goes"
    );
}

#[test]
fn the_size_and_level_chosen_survive_a_reload() {
    let Some((_one, browser, _server, _board)) = begin_with(desktop, CLASSIC) else {
        return;
    };
    browser.keys(&browser.find("#size"), "16");
    browser.keys(&browser.find("#difficulty"), "hard");
    reload(&browser);
    let menus = browser.run(
        "return [document.getElementById('size').value, document.getElementById('difficulty').value]",
        json!([]),
    );
    assert_eq!(menus, json!(["16", "hard"]), "the menus as chosen");
    assert_eq!(state(&browser)["size"], 9, "the game in play stays");
}

#[test]
fn marks_typed_into_a_filled_cell_do_not_come_back_when_it_is_cleared() {
    let solution = classic_solution();
    let Some((_one, browser, _server, board)) = begin_with(desktop, CLASSIC) else {
        return;
    };
    let cell = first_empty(&state(&browser));
    let digit = solution[cell].to_string();
    type_at(
        &browser,
        &board,
        cell,
        &format!("{}12{}{digit}", key::SHIFT, key::NULL),
    );
    assert_eq!(cell_value(&browser, cell), solution[cell]);
    let moves = state(&browser)["undo"].clone();
    // Marks into the filled cell: Shift, Ctrl, Alt and the Corner mode.
    browser.keys(
        &board,
        &format!(
            "{}34{}{}5{}{}6{} 7 ",
            key::SHIFT,
            key::NULL,
            key::CONTROL,
            key::NULL,
            more_keys::ALT,
            key::NULL
        ),
    );
    let game = state(&browser);
    assert_eq!(game["undo"], moves, "a filled cell takes no marks");
    browser.keys(&board, &key::BACKSPACE.to_string());
    assert_eq!(cell_value(&browser, cell), 0);
    assert_eq!(
        marks_shown(&browser, cell),
        json!([]),
        "no corner marks came back"
    );
    assert_eq!(
        centre_shown(&browser, cell),
        json!([]),
        "no centre marks came back"
    );
    let game = state(&browser);
    assert_eq!(
        (&game["marks"][cell], &game["centre"][cell]),
        (&json!([]), &json!([]))
    );
    // Undo: the digit, then the marks from before it.
    browser.keys(&board, &ctrl('z'));
    assert_eq!(cell_value(&browser, cell), solution[cell]);
    browser.keys(&board, &ctrl('z'));
    assert_eq!(marks_shown(&browser, cell), json!([1, 2]));
}

#[test]
fn the_clock_loses_no_time_over_a_reload() {
    let Some((_one, browser, _server, _board)) = begin_with(desktop, CLASSIC) else {
        return;
    };
    wait_for_clock(&browser, "the clock to run", 1.0);
    // Just before the next tick: most of a second not yet on the clock.
    browser.wait_for("late in a second", "return Date.now() - lastTick > 800");
    let before = browser
        .run(
            "return window.coverPlay.state().elapsed + (Date.now() - lastTick) / 1000",
            json!([]),
        )
        .as_f64()
        .unwrap();
    reload(&browser);
    let after = browser
        .run(
            "return JSON.parse(localStorage.getItem('cover-play-game')).elapsed",
            json!([]),
        )
        .as_f64()
        .unwrap();
    assert!(
        after >= before - 0.05,
        "the clock before the reload {before:.2}, after it {after:.2}"
    );
}

#[test]
fn the_favicon_is_served_and_linked() {
    let Some((_one, browser, server, _board)) = begin_with(desktop, CLASSIC) else {
        return;
    };
    let link = browser.run(
        "const l = document.querySelector('link[rel~=icon]'); return l && [l.href, l.type]",
        json!([]),
    );
    assert_eq!(
        link,
        json!([
            format!("http://{}/favicon.svg", server.addr()),
            "image/svg+xml"
        ])
    );
    let served = browser.run_await(
        "const r = await fetch('/favicon.svg'); const text = await r.text(); \
         const image = new Image(); image.src = '/favicon.svg'; await image.decode(); \
         return [r.status, r.headers.get('content-type'), text.trimStart().slice(0, 4), image.naturalWidth > 0];",
        json!([]),
    );
    assert_eq!(served, json!([200, "image/svg+xml", "<svg", true]));
}

#[test]
fn auto_notes_fill_the_candidates_and_a_digit_cleans_its_peers_marks_until_undone() {
    let solution = classic_solution();
    let puzzle = cells_in(CLASSIC, "123456789");
    let Some((_one, browser, _server, board)) = begin_with(desktop, CLASSIC) else {
        return;
    };
    browser.click(&browser.find("#notes"));
    let expected = candidates(&puzzle);
    let game = state(&browser);
    for cell in 0..81 {
        assert_eq!(game["marks"][cell], json!(expected[cell]), "cell {cell}");
    }
    let drawn: usize = expected.iter().map(Vec::len).sum();
    assert_eq!(
        browser.run(
            "return document.querySelectorAll('.mark').length",
            json!([])
        ),
        drawn,
        "every candidate drawn"
    );

    // A digit leaves its peers' marks, and only theirs.
    let cell = first_empty(&game);
    let digit = solution[cell];
    type_at(&browser, &board, cell, &digit.to_string());
    let mut played = puzzle.clone();
    played[cell] = digit;
    let game = state(&browser);
    let size = 9;
    for other in (0..81).filter(|&c| played[c] == 0) {
        let peer = other / size == cell / size
            || other % size == cell % size
            || (other / 27 == cell / 27 && other % 9 / 3 == cell % 9 / 3);
        let mut marks = expected[other].clone();
        if peer {
            marks.retain(|&d| d != digit);
        }
        assert_eq!(game["marks"][other], json!(marks), "cell {other}");
    }
    assert_eq!(marks_shown(&browser, cell), json!([]));
    // Undo gives the marks back; Redo takes them again.
    browser.keys(&board, &ctrl('z'));
    let game = state(&browser);
    for c in 0..81 {
        assert_eq!(game["marks"][c], json!(expected[c]), "cell {c} after Undo");
    }
    browser.keys(&board, &ctrl('y'));
    let redone = state(&browser);
    assert_eq!(redone["marks"], state(&browser)["marks"]);
    assert_eq!(grid(&redone["cells"]), played);
    assert!(
        (0..81).all(|c| !(c / 9 == cell / 9
            && redone["marks"][c]
                .as_array()
                .unwrap()
                .contains(&json!(digit)))),
        "Redo cleans the row again"
    );
}

#[test]
fn the_selected_digit_is_highlighted_in_cells_and_marks() {
    let puzzle = cells_in(CLASSIC, "123456789");
    let Some((_one, browser, _server, board)) = begin_with(desktop, CLASSIC) else {
        return;
    };
    browser.click(&browser.find("#notes"));
    // The first given 5 (cell 0), selected.
    type_at(&browser, &board, 0, "");
    let fives: Vec<usize> = (1..81).filter(|&c| puzzle[c] == 5).collect();
    assert_eq!(cells_with(&browser, "same"), json!(fives), "the other 5s");
    let marked = browser.run(
        "return [...document.querySelectorAll('.mark.same')].map(m => Number(m.dataset.mark))",
        json!([]),
    );
    let with_five = candidates(&puzzle)
        .iter()
        .filter(|m| m.contains(&5))
        .count();
    assert_eq!(marked, json!(vec![5; with_five]), "each 5 among the marks");
    // An empty cell selected: nothing is.
    let empty = first_empty(&state(&browser));
    type_at(&browser, &board, empty, "");
    assert_eq!(cells_with(&browser, "same"), json!([]));
    assert_eq!(
        browser.run(
            "return document.querySelectorAll('.mark.same').length",
            json!([])
        ),
        0
    );
    // A 3 typed there: now the 3s are.
    browser.keys(&board, "3");
    let threes: Vec<usize> = (0..81).filter(|&c| puzzle[c] == 3).collect();
    assert_eq!(cells_with(&browser, "same"), json!(threes));
}

#[test]
fn the_number_pad_shows_how_many_of_each_digit_are_left() {
    let solution = classic_solution();
    let puzzle = cells_in(CLASSIC, "123456789");
    let Some((_one, browser, _server, board)) = begin_with(desktop, CLASSIC) else {
        return;
    };
    let left = |browser: &Browser| {
        browser.run(
            "return [...document.querySelectorAll('.pad')].map(b => Number(b.querySelector('small').textContent))",
            json!([]),
        )
    };
    let count = |cells: &[u8]| -> Vec<usize> {
        (1..=9u8)
            .map(|d| 9 - cells.iter().filter(|&&c| c == d).count())
            .collect()
    };
    assert_eq!(left(&browser), json!(count(&puzzle)));
    let cell = first_empty(&state(&browser));
    let digit = solution[cell];
    type_at(&browser, &board, cell, &digit.to_string());
    let mut played = puzzle.clone();
    played[cell] = digit;
    assert_eq!(left(&browser), json!(count(&played)));
    let label = browser.run(
        "return document.querySelector(`.pad[data-digit='${arguments[0]}']`).getAttribute('aria-label')",
        json!([digit]),
    );
    assert_eq!(
        label,
        format!("{digit}, {} left", count(&played)[digit as usize - 1])
    );
    // A digit all placed is marked done.
    let all: Vec<usize> = (0..81)
        .filter(|&c| played[c] == 0 && solution[c] == digit)
        .collect();
    let mut target = played.clone();
    for &c in &all {
        target[c] = digit;
    }
    browser.keys(&board, &keys_for(&state(&browser), &target));
    assert_eq!(left(&browser)[digit as usize - 1], 0);
    let done = browser.run(
        "return document.querySelector(`.pad[data-digit='${arguments[0]}']`).classList.contains('done')",
        json!([digit]),
    );
    assert_eq!(done, true);
}

/// Opens Settings, clicks the input `selector`, and closes it by Done.
fn set_setting(browser: &Browser, selector: &str) {
    browser.click(&browser.find("#settings-open"));
    assert!(is_open(browser, "settings"));
    browser.click(&browser.find(&format!("#settings {selector}")));
    browser.click(&browser.find("#settings button[value='close']"));
    assert!(!is_open(browser, "settings"));
}

#[test]
fn digit_first_input_writes_the_pad_digit_in_each_tapped_cell() {
    let solution = classic_solution();
    let puzzle = cells_in(CLASSIC, "123456789");
    let Some((_one, browser, _server, _board)) = begin_with(desktop, CLASSIC) else {
        return;
    };
    set_setting(&browser, "input[name='digitFirst']");
    assert_eq!(state(&browser)["settings"]["digitFirst"], true);
    let digit = 4u8;
    let pad = browser.find(&format!(".pad[data-digit='{digit}']"));
    browser.click(&pad);
    let pressed = browser.run(
        "return [...document.querySelectorAll('.pad')].map(b => b.getAttribute('aria-pressed'))",
        json!([]),
    );
    let mut expected = vec!["false"; 9];
    expected[digit as usize - 1] = "true";
    assert_eq!(pressed, json!(expected), "the pad's digit is chosen");
    let fours: Vec<usize> = (0..81).filter(|&c| puzzle[c] == digit).collect();
    assert_eq!(
        cells_with(&browser, "same"),
        json!(fours),
        "and highlighted"
    );
    // Each tap on an empty cell writes it; a given stays.
    let cells: Vec<usize> = (0..81)
        .filter(|&c| puzzle[c] == 0 && solution[c] == digit)
        .collect();
    for &cell in &cells {
        browser.click(&browser.find(&format!(".cell[data-cell='{cell}']")));
        assert_eq!(cell_value(&browser, cell), digit, "cell {cell}");
    }
    browser.click(&browser.find(".cell[data-cell='0']"));
    assert_eq!(cell_value(&browser, 0), 5, "a given stays");
    // The digit tapped again on the pad is let go: taps only select.
    browser.click(&pad);
    let empty = (0..81)
        .find(|&c| puzzle[c] == 0 && solution[c] != digit)
        .unwrap();
    browser.click(&browser.find(&format!(".cell[data-cell='{empty}']")));
    assert_eq!(cell_value(&browser, empty), 0);
    assert_eq!(selected(&browser), empty);
    // Off again, a pad press writes in the selected cell.
    set_setting(&browser, "input[name='digitFirst']");
    browser.click(&browser.find(&format!(".pad[data-digit='{}']", solution[empty])));
    assert_eq!(cell_value(&browser, empty), solution[empty]);
}

#[test]
fn the_mistakes_setting_shows_nothing_repeats_or_wrong_digits_and_goes_back_to_the_last_correct_grid(
) {
    let solution = classic_solution();
    let puzzle = cells_in(CLASSIC, "123456789");
    let Some((_one, browser, _server, board)) = begin_with(desktop, CLASSIC) else {
        return;
    };
    // A repeat: cell 2 takes the 5 of cell 0.
    type_at(&browser, &board, 2, "5");
    assert_eq!(
        cells_with(&browser, "conflict"),
        json!([0, 2]),
        "repeats by default"
    );
    set_setting(&browser, "input[value='off']");
    assert_eq!(
        cells_with(&browser, "conflict"),
        json!([]),
        "off: nothing shown"
    );
    browser.keys(&board, &key::BACKSPACE.to_string());

    // Against the solution: a wrong digit that repeats nothing is shown,
    // counted, and undone by "Back to the last correct grid".
    set_setting(&browser, "input[value='solution']");
    browser.wait_for(
        "the mistakes count",
        "return document.getElementById('mistakes-count').textContent === 'mistakes: 0'",
    );
    let empty: Vec<usize> = (0..81).filter(|&c| puzzle[c] == 0).collect();
    let right = empty[0];
    let wrong_cell = empty
        .iter()
        .copied()
        .find(|&c| candidates(&puzzle)[c].len() > 1 && c != right)
        .unwrap();
    let wrong = *candidates(&puzzle)[wrong_cell]
        .iter()
        .find(|&&d| d != solution[wrong_cell])
        .unwrap();
    // Solution's wait: the page asks the server for it once.
    browser.wait_for(
        "the solution known",
        "return !document.getElementById('rewind') || true",
    );
    type_at(&browser, &board, right, &solution[right].to_string());
    type_at(&browser, &board, wrong_cell, &wrong.to_string());
    let after = empty
        .iter()
        .copied()
        .find(|&c| c != right && c != wrong_cell)
        .unwrap();
    type_at(&browser, &board, after, &solution[after].to_string());
    assert_eq!(
        cells_with(&browser, "conflict"),
        json!([wrong_cell]),
        "the wrong digit"
    );
    assert_eq!(
        browser.run(
            "return document.getElementById('mistakes-count').textContent",
            json!([])
        ),
        "mistakes: 1"
    );
    let rewind = browser.find("#rewind");
    assert_eq!(
        browser.run("return document.getElementById('rewind').hidden", json!([])),
        false,
        "Back to the last correct grid is offered"
    );
    browser.click(&rewind);
    let cells = grid(&state(&browser)["cells"]);
    let mut expected = puzzle.clone();
    expected[right] = solution[right];
    assert_eq!(cells, expected, "back to the grid before the wrong digit");
    assert!(message(&browser).contains("every digit left is right"));
    assert_eq!(
        browser.run("return document.getElementById('rewind').hidden", json!([])),
        true
    );
    assert_eq!(cells_with(&browser, "conflict"), json!([]));
}

#[test]
fn the_theme_button_sets_dark_and_a_reload_keeps_it() {
    let Some((_one, browser, _server, _board)) = begin_with(desktop, CLASSIC) else {
        return;
    };
    let look = |browser: &Browser| {
        browser.run(
            "return [document.documentElement.dataset.theme || 'system', getComputedStyle(document.body).backgroundColor]",
            json!([]),
        )
    };
    let light = look(&browser);
    assert_eq!(light[0], "system");
    let theme = browser.find("#theme");
    browser.click(&theme);
    assert_eq!(look(&browser)[0], "light");
    browser.click(&theme);
    let dark = look(&browser);
    assert_eq!(dark[0], "dark");
    let rgb: Vec<f64> = dark[1]
        .as_str()
        .unwrap()
        .trim_start_matches("rgb(")
        .trim_end_matches(')')
        .split(',')
        .map(|v| v.trim().parse().unwrap())
        .collect();
    assert!(rgb.iter().all(|&v| v < 60.0), "a dark background: {dark}");
    assert_ne!(dark[1], light[1]);
    reload(&browser);
    assert_eq!(look(&browser), dark, "the reload keeps the dark theme");
    assert_eq!(state(&browser)["settings"]["theme"], "dark");
}

#[test]
fn the_statistics_show_a_win_with_the_time_the_win_screen_gives() {
    let solution = classic_solution();
    let puzzle = nearly_solved(&solution, &LAST_THREE);
    let Some((_one, browser, _server, _board)) = begin_with(desktop, &line_of(&puzzle)) else {
        return;
    };
    // A reload late in a second leaves the clock at a fraction past it
    // (as any reload may): the win's time, shown and kept, is one time.
    wait_for_clock(&browser, "the clock to run", 1.0);
    browser.wait_for("late in a second", "return Date.now() - lastTick > 700");
    let board = reload(&browser);
    let text = play_to_the_win(&browser, &board, &solution);
    // "Solved in 0:42: 9×9 easy."
    let time = text
        .strip_prefix("Solved in ")
        .and_then(|t| t.split_once(": "))
        .map(|(time, _)| time.to_owned())
        .unwrap_or_else(|| panic!("a time in {text}"));
    let time = time.as_str();
    let kept = browser.run(
        "const dl = document.getElementById('win-stats'); \
         return Object.fromEntries([...dl.querySelectorAll('dt')].map(dt => [dt.textContent, dt.nextElementSibling.textContent]))",
        json!([]),
    );
    assert_eq!(
        kept["Best"], time,
        "the win screen's best is its time: {text} {kept}"
    );
    assert_eq!(kept["Won"], "1 of 1");
    browser.press(&more_keys::ESCAPE.to_string());

    browser.click(&browser.find("#stats-open"));
    assert!(is_open(&browser, "stats"));
    let rows = browser.run(
        "return [...document.querySelectorAll('#stats-rows tr')].map(tr => [...tr.cells].map(td => td.textContent))",
        json!([]),
    );
    let grade = state(&browser)["grade"].as_str().unwrap().to_owned();
    assert_eq!(
        rows,
        json!([[format!("9×9 {grade}"), "1", "1", time, time]]),
        "one game started and won, in {time}"
    );
    let streak = browser.run(
        "return document.getElementById('streak').textContent",
        json!([]),
    );
    assert_eq!(streak, "Streak: 1 day with a win (best 1).");
}

#[test]
fn a_shared_link_opens_its_puzzle_and_the_share_button_makes_one() {
    let Some((_one, browser, server, _board)) = begin(desktop) else {
        return;
    };
    let first = state(&browser);
    let symbols: Vec<char> = first["symbols"].as_str().unwrap().chars().collect();
    let text: String = grid(&first["puzzle"])
        .iter()
        .map(|&d| if d == 0 { '.' } else { symbols[d as usize - 1] })
        .collect();
    browser.click(&browser.find("summary"));
    browser.click(&browser.find("#share"));
    let link = browser.wait_for(
        "the link",
        "return document.getElementById('share-link').textContent",
    );
    assert_eq!(link, format!("http://{}/?p={text}", server.addr()));

    // Another puzzle's link: that puzzle, and the address loses its query.
    let board = open_link(&browser, &server, CLASSIC);
    assert_eq!(
        browser.run("return location.search", json!([])),
        "",
        "the address is the page's again"
    );
    let classic = state(&browser);
    assert_eq!(message(&browser), "the puzzle of the link");
    // The link of the game in play keeps it, moves and all.
    let cell = first_empty(&classic);
    type_at(
        &browser,
        &board,
        cell,
        &classic_solution()[cell].to_string(),
    );
    open_link(&browser, &server, CLASSIC);
    let again = state(&browser);
    assert_eq!(
        again["id"], classic["id"],
        "the same game, not imported again"
    );
    assert_eq!(again["undo"], 1);
    // And the link shared first brings its puzzle back.
    open_link(
        &browser,
        &server,
        link.as_str().unwrap().split("?p=").nth(1).unwrap(),
    );
    assert_eq!(state(&browser)["puzzle"], first["puzzle"]);
}

#[test]
fn a_new_game_asks_first_when_one_is_in_progress_and_undo_returns_to_the_old_game() {
    let solution = classic_solution();
    let Some((_one, browser, _server, board)) = begin_with(desktop, CLASSIC) else {
        return;
    };
    let old = state(&browser)["id"].clone();
    let cell = first_empty(&state(&browser));
    type_at(&browser, &board, cell, &solution[cell].to_string());

    // Asked, and cancelled: the game stays.
    browser.keys(&browser.find("#new"), &key::ENTER.to_string());
    assert!(
        is_open(&browser, "confirm"),
        "a game in progress: New game asks"
    );
    let asked = browser.run(
        "return document.getElementById('confirm-title').textContent",
        json!([]),
    );
    assert_eq!(asked, "Start a new game?");
    browser.press(&more_keys::ESCAPE.to_string());
    assert!(!is_open(&browser, "confirm"));
    sleep(Duration::from_millis(200));
    assert_eq!(state(&browser)["id"], old, "cancelled: the same game");
    // Asked, and confirmed: a new game.
    browser.keys(&browser.find("#new"), &key::ENTER.to_string());
    browser.click(&browser.find("#confirm-yes"));
    browser.wait_for(
        "the new game",
        &format!("return window.coverPlay.state().id !== {old}"),
    );
    let new = state(&browser)["id"].clone();
    // Undo: back to the old game, its move there; Undo undoes it.
    browser.keys(&board, &ctrl('z'));
    let back = state(&browser);
    assert_eq!(back["id"], old);
    assert_eq!(grid(&back["cells"])[cell], solution[cell]);
    assert!(message(&browser).starts_with("back to the game before"));
    browser.keys(&board, &ctrl('z'));
    assert_eq!(cell_value(&browser, cell), 0);
    // Redo: the move, then forward to the new game.
    browser.keys(&board, &ctrl('y'));
    assert_eq!(cell_value(&browser, cell), solution[cell]);
    browser.keys(&board, &ctrl('y'));
    assert_eq!(
        state(&browser)["id"],
        new,
        "Redo goes forward to the new game"
    );
    // The new game untouched: New game asks nothing.
    browser.keys(&browser.find("#new"), &key::ENTER.to_string());
    assert!(
        !is_open(&browser, "confirm"),
        "nothing in progress: no question"
    );
    browser.wait_for(
        "another game",
        &format!("return window.coverPlay.state().id !== {new}"),
    );
}

/// The id of the focused element ("" for none).
fn focused(browser: &Browser) -> Value {
    browser.run(
        "return document.activeElement && document.activeElement.id",
        json!([]),
    )
}

#[test]
fn a_game_is_played_to_the_win_by_the_keyboard_alone() {
    let Some((_one, browser, _server, _board)) = begin(desktop) else {
        return;
    };
    let before = state(&browser)["id"].clone();
    let tab = more_keys::TAB.to_string();
    // Tab past Statistics, Settings, the theme and the variant (classic)
    // to the size, 4×4; Tab to the level; Tab to New game, Enter.
    browser.wait_for(
        "the variant menu",
        "return !document.getElementById('variant-field').hidden",
    );
    for control in ["stats-open", "settings-open", "theme", "variant", "size"] {
        browser.press(&tab);
        assert_eq!(focused(&browser), control);
    }
    browser.press("4");
    browser.press(&tab);
    assert_eq!(focused(&browser), "difficulty");
    browser.press(&tab);
    assert_eq!(focused(&browser), "new");
    browser.press(&key::ENTER.to_string());
    browser.wait_for(
        "the new 4×4 game",
        &format!("const s = window.coverPlay.state(); return s.id !== {before} && s.size === 4"),
    );
    // The board comes next.
    browser.press(&tab);
    assert_eq!(focused(&browser), "board");
    let game = state(&browser);
    let solution = solution_of_game(&game);
    // A corner mark (Space on and off), a wrong digit and its Undo, then
    // every digit.
    let cell = first_empty(&game);
    let wrong = solution[cell] % 4 + 1;
    browser.press(&format!(
        "{} {} {wrong}{}",
        arrows(4, 0, cell),
        wrong,
        ctrl('z')
    ));
    let now = state(&browser);
    assert_eq!(now["marks"][cell], json!([wrong]), "a corner mark by Space");
    assert_eq!(now["cells"][cell], 0, "the wrong digit undone");
    browser.press(&keys_for(&now, &solution));
    wait_for_the_win(&browser);
    assert!(
        browser.run(
            "return document.getElementById('win').contains(document.activeElement)",
            json!([])
        ) == json!(true),
        "the win screen has the focus"
    );
    // Escape closes it and the focus is the board's again.
    browser.press(&more_keys::ESCAPE.to_string());
    assert!(!win_open(&browser));
    assert_eq!(focused(&browser), "board");
}

// Variants: imported from f-puzzles, drawn, judged by their own rules,
// won by keys. The solutions come from `cover-check`'s variant brute
// force, never from the server.

/// The numbers of `#rules-layer` elements matching `css`, and their texts.
fn drawn(browser: &Browser, css: &str) -> Vec<String> {
    let texts = browser.run(
        "return [...document.querySelectorAll('#rules-layer ' + arguments[0])].map(e => e.textContent)",
        json!([css]),
    );
    serde_json::from_value(texts).unwrap()
}

/// The label of `cell` as a screen reader reads it.
fn label(browser: &Browser, cell: usize) -> String {
    let text = browser.run(
        "return document.getElementById('cell-' + arguments[0]).getAttribute('aria-label')",
        json!([cell]),
    );
    text.as_str().unwrap().to_owned()
}

#[test]
fn an_fpuzzles_killer_is_drawn_with_its_sums_judged_by_its_cages_and_won_by_keys() {
    let Some((_one, browser, _server, board)) = begin(desktop) else {
        return;
    };
    let game = import_by_box(&browser, &variants::killer6_json());
    assert_eq!(game["variant"]["name"], "killer");
    let givens = variants::digits(variants::KILLER6_GIVENS);
    assert_eq!(grid(&game["puzzle"]), givens);

    // Every cage drawn, its sum written once, inside the board.
    assert_eq!(
        drawn(&browser, ".cage").len(),
        variants::KILLER6_CAGES.len()
    );
    let mut sums = drawn(&browser, ".cage-sum");
    let mut expected: Vec<String> = variants::KILLER6_CAGES
        .iter()
        .map(|(sum, _)| sum.to_string())
        .collect();
    sums.sort();
    expected.sort();
    assert_eq!(sums, expected);
    let inside = browser.run(
        "const b = document.getElementById('board').getBoundingClientRect(); \
         const sums = [...document.querySelectorAll('#rules-layer .cage-sum')]; \
         return sums.every(t => { const r = t.getBoundingClientRect(); \
           return r.width > 2 && r.height > 2 && r.left >= b.left && r.right <= b.right \
             && r.top >= b.top && r.bottom <= b.bottom; })",
        json!([]),
    );
    assert_eq!(inside, json!(true), "the sums are drawn on the board");
    // The 2×3 boxes: a thick line after every third column and second row.
    assert_eq!(
        cells_with(&browser, "box-right").as_array().unwrap().len(),
        6
    );
    assert_eq!(
        cells_with(&browser, "box-bottom").as_array().unwrap().len(),
        12
    );
    let rules = browser.run(
        "return document.getElementById('rules').textContent",
        json!([]),
    );
    assert!(rules.as_str().unwrap().contains("cage"), "{rules}");
    assert!(
        label(&browser, 12).contains("cage of 2 cells adding up to 7"),
        "{}",
        label(&browser, 12)
    );

    // A cage's repeat, then its sum missed, are shown; the cage's ways
    // to its sum are said for the selected cell.
    type_at(&browser, &board, 12, "2");
    let info = browser.run(
        "return document.getElementById('cage-info').textContent",
        json!([]),
    );
    assert_eq!(info, json!("Cage 7 in 2: 25"), "2 placed leaves 2+5");
    type_at(&browser, &board, 13, "2");
    assert_eq!(cells_with(&browser, "conflict"), json!([12, 13]));
    type_at(&browser, &board, 13, "4");
    assert_eq!(
        cells_with(&browser, "conflict"),
        json!([12, 13]),
        "2 + 4 is not 7"
    );
    type_at(&browser, &board, 13, "5");
    assert_eq!(cells_with(&browser, "conflict"), json!([]));

    // The variant survives a reload, and the solution wins.
    let board = reload(&browser);
    assert_eq!(state(&browser)["variant"]["name"], "killer");
    assert_eq!(
        drawn(&browser, ".cage-sum").len(),
        variants::KILLER6_CAGES.len()
    );
    let solution = variants::brute_solution(&variants::killer6_rules(), &givens);
    let text = play_to_the_win(&browser, &board, &solution);
    assert!(text.contains("6×6 killer"), "{text}");
}

#[test]
fn a_jigsaw_is_drawn_by_its_regions_and_a_repeat_in_a_region_is_shown() {
    let Some((_one, browser, _server, board)) = begin(desktop) else {
        return;
    };
    let game = import_by_box(&browser, &variants::jigsaw9_json());
    assert_eq!(game["variant"]["name"], "jigsaw");
    // Thick lines exactly between cells of different regions.
    let pieces = variants::jigsaw9_pieces();
    let right: Vec<usize> = (0..81)
        .filter(|&c| c % 9 < 8 && pieces[c] != pieces[c + 1])
        .collect();
    let bottom: Vec<usize> = (0..72).filter(|&c| pieces[c] != pieces[c + 9]).collect();
    assert_eq!(cells_with(&browser, "box-right"), json!(right));
    assert_eq!(cells_with(&browser, "box-bottom"), json!(bottom));
    assert!(
        label(&browser, 1).contains("region"),
        "{}",
        label(&browser, 1)
    );

    // r1c2 and r3c3 share a region, not a row, column or 3×3 box line.
    type_at(&browser, &board, 1, "7");
    type_at(&browser, &board, 20, "7");
    assert_eq!(cells_with(&browser, "conflict"), json!([1, 20]));
    // The selected cell's peers are its region's cells, highlighted.
    let peers = cells_with(&browser, "peer");
    let piece_of_20: Vec<usize> = (0..81).filter(|&c| pieces[c] == pieces[20]).collect();
    for cell in piece_of_20.iter().filter(|&&c| c != 20) {
        assert!(
            peers.as_array().unwrap().contains(&json!(cell)),
            "{cell}: {peers}"
        );
    }
    let erase = key::BACKSPACE.to_string();
    browser.keys(&board, &erase);
    type_at(&browser, &board, 1, &erase);

    // Auto notes: a cell's candidates leave out its region's digits.
    browser.click(&browser.find("#notes"));
    let givens = variants::digits(variants::JIGSAW9_GIVENS);
    let solution = variants::brute_solution(&variants::jigsaw9_rules(), &givens);
    let empty = (0..81).find(|&c| givens[c] == 0).unwrap();
    let marks = marks_shown(&browser, empty);
    let region_digits: Vec<u8> = (0..81)
        .filter(|&c| pieces[c] == pieces[empty])
        .map(|c| givens[c])
        .filter(|&d| d != 0)
        .collect();
    for d in &region_digits {
        assert!(
            !marks.as_array().unwrap().contains(&json!(d)),
            "{d} in {marks}"
        );
    }
    assert!(marks.as_array().unwrap().contains(&json!(solution[empty])));
    let text = play_to_the_win(&browser, &board, &solution);
    assert!(text.contains("jigsaw"), "{text}");
}

#[test]
fn an_x_windoku_with_a_thermometer_draws_each_rule_and_is_won_by_keys() {
    let Some((_one, browser, _server, board)) = begin(desktop) else {
        return;
    };
    let game = import_by_box(&browser, &variants::xw9_json());
    assert_eq!(game["variant"]["name"], "X windoku thermo");
    assert_eq!(drawn(&browser, ".diagonal").len(), 2);
    assert_eq!(drawn(&browser, ".shade.window").len(), 4 * 9);
    assert_eq!(drawn(&browser, "polyline.thermo").len(), 1);
    assert_eq!(drawn(&browser, ".thermo.bulb").len(), 1);
    assert!(
        label(&browser, 27).contains("a thermometer's bulb"),
        "{}",
        label(&browser, 27)
    );
    assert!(
        label(&browser, 10).contains("on a diagonal, in a window"),
        "{}",
        label(&browser, 10)
    );
    let rules = browser.run(
        "return document.getElementById('rules').textContent",
        json!([]),
    );
    for words in ["diagonal", "window", "thermometer"] {
        assert!(rules.as_str().unwrap().contains(words), "{rules}");
    }
    // A repeat on a diagonal only (r2c8 and r6c4: other rows, columns,
    // boxes and windows).
    let givens = variants::digits(variants::XW9_GIVENS);
    let (a, b) = (16, 48);
    assert_eq!((givens[a], givens[b]), (6, 0));
    type_at(&browser, &board, b, "6");
    assert_eq!(cells_with(&browser, "conflict"), json!([a, b]));
    let solution = variants::brute_solution(&variants::xw9_rules(), &givens);
    let text = play_to_the_win(&browser, &board, &solution);
    assert!(text.contains("X windoku thermo"), "{text}");
}

#[test]
fn a_new_jigsaw_is_chosen_from_the_variant_menu_by_keys_and_won() {
    let Some((_one, browser, _server, _board)) = begin(desktop) else {
        return;
    };
    // The menu offers what the server makes; the sizes follow the variant.
    browser.wait_for(
        "the variant menu",
        "return !document.getElementById('variant-field').hidden",
    );
    let offered = browser.run(
        "return [...document.getElementById('variant').options].map(o => o.value)",
        json!([]),
    );
    assert_eq!(
        offered,
        json!([
            "classic",
            "jigsaw",
            "x",
            "windoku",
            "killer",
            "anti-knight",
            "anti-king",
            "thermo"
        ])
    );
    let six_for_classic = browser.run(
        "return document.querySelector('#size option[value=\"6\"]').disabled",
        json!([]),
    );
    assert_eq!(six_for_classic, json!(true), "no 6×6 classic is made");
    browser.keys(&browser.find("#variant"), "jigsaw");
    let game = new_game_by_keys(&browser, 6, "easy");
    assert_eq!(game["variant"]["name"], "jigsaw", "{game}");
    assert!(message(&browser).contains("easy"), "{}", message(&browser));
    let level = browser.run(
        "return document.getElementById('level').textContent",
        json!([]),
    );
    let level = level.as_str().unwrap();
    assert!(level.starts_with("6×6 jigsaw easy, rated "), "{level}");
    // The settings keep the variant across a reload.
    let board = reload(&browser);
    let kept = browser.run("return document.getElementById('variant').value", json!([]));
    assert_eq!(kept, json!("jigsaw"));
    let rules = variants::rules_of_game(&game["variant"], 6);
    let solution = variants::brute_solution(&rules, &grid(&game["puzzle"]));
    let text = play_to_the_win(&browser, &board, &solution);
    assert!(text.contains("6×6 jigsaw easy"), "{text}");
}

#[test]
fn a_variant_line_opens_from_a_link_and_its_game_shares_its_line() {
    let Some((_one, browser, server, _board)) = begin(desktop) else {
        return;
    };
    let line = format!(
        "{} jigsaw={}",
        variants::JIGSAW9_GIVENS,
        variants::JIGSAW9_PIECES
    );
    browser.goto(&format!(
        "http://{}/?p={}",
        server.addr(),
        url_encoded(&line)
    ));
    browser.wait_for(
        "the jigsaw of the link",
        "const s = window.coverPlay && window.coverPlay.state(); \
         return s && s.variant && s.variant.name === 'jigsaw'",
    );
    let game = state(&browser);
    assert_eq!(
        grid(&game["puzzle"]),
        variants::digits(variants::JIGSAW9_GIVENS)
    );
    browser.run("document.getElementById('more').open = true", json!([]));
    browser.click(&browser.find("#share"));
    let link = browser.wait_for(
        "the link",
        "return document.getElementById('share-link').textContent",
    );
    let shared = link
        .as_str()
        .unwrap()
        .split("?p=")
        .nth(1)
        .unwrap()
        .to_owned();
    let opened = browser.run(
        "return new URLSearchParams('p=' + arguments[0]).get('p')",
        json!([shared]),
    );
    assert_eq!(
        opened,
        json!(game["text"]),
        "the link carries the game's line"
    );
    assert!(opened.as_str().unwrap().contains(" jigsaw="), "{opened}");
    // Opening it again continues the game in play.
    type_at(&browser, &browser.find("#board"), 1, "7");
    browser.goto(&format!("http://{}/?p={shared}", server.addr()));
    wait_ready(&browser);
    assert_eq!(
        cell_value(&browser, 1),
        7,
        "the game in play, not a new one"
    );
}
