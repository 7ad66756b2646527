//! The JSON API, end to end over loopback: every endpoint, answers checked
//! by the independent checker and counter of `common`, and every kind of
//! bad request.

mod common;

use std::thread;

use common::*;
use cover_models::sudoku::human::{Difficulty, Rating};
use cover_models::sudoku::Puzzles;
use cover_play::client::request;
use cover_play::Config;
use serde_json::{json, Value};

/// POJ 3074's sample (one solution).
const CLASSIC: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
/// One of the forum's hardest 9×9 puzzles: hundreds of search nodes.
const HARD: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
/// Sudoku Explainer rates it 8.4: region forcing chains.
const CHAINS: &str =
    "038000570700030001000806000000782000007000100050000090013407950006901400000000000";

fn cells_of(line: &str) -> Vec<u8> {
    line.bytes()
        .map(|b| if b == b'.' { 0 } else { b - b'0' })
        .collect()
}

#[test]
fn new_games_are_unique_keep_their_size_and_repeat_by_seed() {
    let server = start();
    // 16×16 hard and extreme try many puzzles (seconds each in a test
    // build): the API bounds them, this test does not wait for them.
    let cases = [4usize, 9]
        .into_iter()
        .flat_map(|size| ["easy", "medium", "hard", "extreme"].map(|d| (size, d)))
        .chain([(16, "easy"), (16, "medium")]);
    {
        for (size, difficulty) in cases {
            let (status, game) = post(
                &server,
                "/api/new",
                &json!({"size": size, "difficulty": difficulty, "seed": 11}),
            );
            assert_eq!(status, 200, "{size} {difficulty}: {game}");
            let puzzle = grid(&game["puzzle"]);
            assert_eq!(puzzle.len(), size * size);
            assert_eq!(game["size"], size);
            assert_eq!(game["box"].as_u64().unwrap().pow(2), size as u64);
            assert_eq!(game["symbols"].as_str().unwrap().chars().count(), size);
            assert_eq!(
                game["clues"].as_u64().unwrap() as usize,
                puzzle.iter().filter(|&&d| d != 0).count()
            );
            assert_eq!(count_solutions(&puzzle, 2), 1, "{size} {difficulty}");
            // A difficulty met is the one asked for, and its rating is in
            // that difficulty's range; 9×9 meets every one.
            if game["target_met"] == true {
                assert_eq!(game["grade"], difficulty);
                let range = difficulty.parse::<Difficulty>().unwrap().range();
                let rating = game["rating"].as_f64().unwrap();
                assert!(
                    range.contains(Rating((rating * 10.0).round() as u16)),
                    "{game}"
                );
            } else {
                assert_ne!(size, 9, "{difficulty}: {game}");
            }
            let (_, again) = post(
                &server,
                "/api/new",
                &json!({"size": size, "difficulty": difficulty, "seed": 11}),
            );
            assert_eq!(again, game, "the same seed makes the same game");
        }
    }
    // Without a seed, two games differ (and say which seed made them).
    let (_, a) = post(
        &server,
        "/api/new",
        &json!({"size": 9, "difficulty": "easy"}),
    );
    let (_, b) = post(
        &server,
        "/api/new",
        &json!({"size": 9, "difficulty": "easy"}),
    );
    assert!(a["seed"].is_u64() && a["seed"] != b["seed"]);
    // A 16×16 game without a seed was made ahead; its seed makes it again.
    let (status, ahead) = post(
        &server,
        "/api/new",
        &json!({"size": 16, "difficulty": "easy"}),
    );
    assert_eq!(status, 200, "{ahead}");
    let (_, again) = post(
        &server,
        "/api/new",
        &json!({"size": 16, "difficulty": "easy", "seed": ahead["seed"]}),
    );
    assert_eq!(again, ahead);
    // 9×9 and 16×16 easy games are met as asked.
    for size in [9, 16] {
        let (_, game) = post(
            &server,
            "/api/new",
            &json!({"size": size, "difficulty": "easy", "seed": 5}),
        );
        assert_eq!(
            (game["grade"].as_str(), game["target_met"].as_bool()),
            (Some("easy"), Some(true))
        );
    }
}

#[test]
fn levels_name_what_each_size_meets_and_new_games_meet_them_in_time() {
    let server = start();
    let levels = request(server.addr(), "GET", "/api/levels", None, TIMEOUT).unwrap();
    assert_eq!(levels.status, 200);
    let all = ["easy", "medium", "hard", "expert", "extreme"];
    let levels = levels.json().unwrap();
    assert_eq!(
        levels["sizes"],
        json!([
            {"size": 4, "levels": ["easy"]},
            {"size": 9, "levels": all},
            {"size": 16, "levels": all},
        ])
    );
    // Variants are offered too (tests/variant_api.rs makes them).
    assert_eq!(levels["variants"][0]["variant"], "jigsaw");
    // Every level offered is met, by a game made on the request (the
    // first of its level) and by one made ahead; an hour's worth of
    // difficulty never holds the page: a game comes within the wait.
    let wait = Config::default().game_wait;
    for size in [4, 9, 16] {
        let offered: Vec<&str> = if size == 4 {
            vec!["easy"]
        } else {
            all.to_vec()
        };
        for difficulty in offered {
            let body = json!({"size": size, "difficulty": difficulty});
            let sent = std::time::Instant::now();
            let (status, game) = post(&server, "/api/new", &body);
            assert_eq!(status, 200, "{game}");
            // (Under a test build on a busy machine a level may miss.)
            assert!(sent.elapsed() < wait * 5, "{size} {difficulty}");
            assert_eq!(count_solutions(&grid(&game["puzzle"]), 2), 1);
            if game["target_met"] == true {
                assert_eq!(game["grade"], difficulty, "{game}");
            }
        }
    }
    // 4×4 cannot be hard: the closest game, and says so.
    let (status, game) = post(
        &server,
        "/api/new",
        &json!({"size": 4, "difficulty": "hard", "seed": 1}),
    );
    assert_eq!(
        (status, &game["target_met"], &game["grade"]),
        (200, &json!(false), &json!("easy"))
    );
}

/// With no time to make a game, the page still gets one at once: the
/// closest made, `target_met` false, and its seed makes a game again.
#[test]
fn a_new_game_without_a_seed_comes_within_the_game_wait() {
    let server = start_with(Config {
        game_wait: std::time::Duration::ZERO,
        ..Config::default()
    });
    for difficulty in ["hard", "expert", "extreme"] {
        let body = json!({"size": 16, "difficulty": difficulty});
        let sent = std::time::Instant::now();
        let (status, game) = post(&server, "/api/new", &body);
        assert_eq!(status, 200, "{game}");
        assert!(sent.elapsed().as_secs() < 5, "{difficulty}");
        assert_eq!(grid(&game["puzzle"]).len(), 256);
        assert!(game["seed"].is_u64());
        // Made again from its seed, with a seed's time: the same game
        // when its first puzzle met the level, else one that meets it
        // (every level of 16×16 is met in well under a second).
        let seeded = json!({"size": 16, "difficulty": difficulty, "seed": game["seed"]});
        let (status, again) = post(&server, "/api/new", &seeded);
        assert_eq!(status, 200, "{again}");
        if game["target_met"] == true {
            assert_eq!(again, game);
        } else {
            assert_eq!(again["target_met"], true, "{again}");
        }
    }
}

#[test]
fn solve_answers_the_one_solution_and_refuses_the_others() {
    let server = start();
    let puzzle = cells_of(CLASSIC);
    let (status, answer) = post(&server, "/api/solve", &json!({"puzzle": puzzle}));
    assert_eq!(status, 200);
    assert!(is_solution_of(&puzzle, &grid(&answer["solution"])));

    let mut empty_ish = vec![0u8; 81];
    empty_ish[0] = 1;
    let (status, answer) = post(&server, "/api/solve", &json!({"puzzle": empty_ish}));
    assert_eq!(
        (status, answer["error"].as_str()),
        (422, Some("the puzzle has more than one solution"))
    );

    // Givens that do not clash but leave r1c9 without a digit.
    let mut none = vec![0u8; 81];
    none[..8].copy_from_slice(&[1, 2, 3, 4, 5, 6, 7, 8]);
    none[8 + 9] = 9;
    assert_eq!(count_solutions(&none, 1), 0);
    let (status, answer) = post(&server, "/api/solve", &json!({"puzzle": none}));
    assert_eq!(
        (status, answer["error"].as_str()),
        (422, Some("the puzzle has no solution"))
    );

    let mut clash = puzzle.clone();
    clash[1] = 5;
    let (status, answer) = post(&server, "/api/solve", &json!({"puzzle": clash}));
    assert_eq!(status, 422, "{answer}");
}

#[test]
fn a_search_past_its_budget_answers_503() {
    let server = start_with(Config {
        search_nodes: 50,
        ..Config::default()
    });
    let hard = cells_of(HARD);
    for (path, body) in [
        ("/api/solve", json!({"puzzle": hard})),
        ("/api/check", json!({"puzzle": hard, "cells": hard})),
        ("/api/hint", json!({"puzzle": hard, "cells": hard})),
    ] {
        let (status, answer) = post(&server, path, &body);
        assert_eq!(status, 503, "{path}: {answer}");
        assert!(answer["error"]
            .as_str()
            .unwrap()
            .contains("50 search nodes"));
    }
    // The same puzzle within the default budget.
    let server = start();
    let (status, answer) = post(&server, "/api/solve", &json!({"puzzle": hard}));
    assert_eq!(status, 200);
    assert!(is_solution_of(&hard, &grid(&answer["solution"])));
}

#[test]
fn check_finds_wrong_entries_and_conflicts_and_the_win() {
    let server = start();
    let puzzle = cells_of(CLASSIC);
    let (_, answer) = post(&server, "/api/solve", &json!({"puzzle": puzzle}));
    let solution = grid(&answer["solution"]);
    let check_cells = |cells: &[u8]| {
        post(
            &server,
            "/api/check",
            &json!({"puzzle": puzzle, "cells": cells}),
        )
    };

    let (status, check) = check_cells(&puzzle);
    assert_eq!(status, 200);
    assert_eq!(
        check,
        json!({"wrong": [], "conflicts": [], "complete": false, "solved": false})
    );

    // r1c3 holds a wrong digit that also clashes with r1c1's 5.
    let mut cells = puzzle.clone();
    cells[2] = 5;
    cells[3] = solution[3];
    let (_, check) = check_cells(&cells);
    assert_eq!(check["wrong"], json!([2]));
    assert_eq!(check["conflicts"], json!([0, 2]));

    let (_, check) = check_cells(&solution);
    assert_eq!(
        check,
        json!({"wrong": [], "conflicts": [], "complete": true, "solved": true})
    );

    // Changing a given is a bad request.
    let mut changed = solution.clone();
    changed[0] = 1;
    let (status, answer) = check_cells(&changed);
    assert_eq!(status, 400);
    assert!(
        answer["error"].as_str().unwrap().contains("given"),
        "{answer}"
    );
}

/// Plays a game by hints alone: each hint is a logical step, in words at
/// three levels; the digit it places (or, for a step that only removes
/// candidates, the first digit the steps after it place) goes in. Returns
/// the hints taken and the techniques they named.
fn play_by_hints(server: &cover_play::Background, puzzle: &[u8]) -> (usize, Vec<String>) {
    let mut cells = puzzle.to_vec();
    let mut hints = 0;
    let mut techniques = Vec::new();
    loop {
        let (status, hint) = post(
            server,
            "/api/hint",
            &json!({"puzzle": puzzle, "cells": cells}),
        );
        assert_eq!(status, 200, "{hint}");
        match hint["kind"].as_str().unwrap() {
            "solved" => break,
            "step" => {
                for level in ["nudge", "pattern", "text"] {
                    assert!(!hint[level].as_str().unwrap().is_empty(), "{hint}");
                }
                assert!(hint["rating"].as_f64().unwrap() >= 1.0, "{hint}");
                let (cell, digit) = match hint["placements"].as_array().unwrap().first() {
                    Some(place) => (place["cell"].clone(), place["digit"].clone()),
                    None => {
                        assert!(
                            !hint["eliminations"].as_array().unwrap().is_empty(),
                            "{hint}"
                        );
                        (hint["then"]["cell"].clone(), hint["then"]["digit"].clone())
                    }
                };
                let cell = cell.as_u64().unwrap_or_else(|| panic!("no digit: {hint}")) as usize;
                assert_eq!(cells[cell], 0, "{hint}");
                cells[cell] = digit.as_u64().unwrap() as u8;
                techniques.push(hint["technique"].as_str().unwrap().to_owned());
                hints += 1;
                assert!(hints <= puzzle.len(), "hints end");
            }
            other => panic!("unexpected hint {other}: {hint}"),
        }
    }
    assert!(is_solution_of(puzzle, &cells));
    (hints, techniques)
}

#[test]
fn hints_alone_solve_a_game_and_point_at_wrong_entries_first() {
    let server = start();
    let puzzle = cells_of(CLASSIC);
    let empties = puzzle.iter().filter(|&&d| d == 0).count();
    assert_eq!(play_by_hints(&server, &puzzle).0, empties);
    // A hard puzzle (SE 8.4): every hint is still logic, no digit is ever
    // taken from the solution. (The hardest, nested chains, can take
    // longer than a hint's time in a test build.)
    let (hints, techniques) = play_by_hints(&server, &cells_of(&CHAINS.replace('0', ".")));
    assert_eq!(hints, techniques.len());

    let (_, first) = post(
        &server,
        "/api/hint",
        &json!({"puzzle": puzzle, "cells": puzzle}),
    );
    assert_eq!(first["kind"], "step", "{first}");
    assert!(
        first["nudge"].as_str().unwrap().starts_with("Look at"),
        "{first}"
    );

    let mut cells = puzzle.clone();
    cells[2] = 1;
    let (_, hint) = post(
        &server,
        "/api/hint",
        &json!({"puzzle": puzzle, "cells": cells}),
    );
    assert_eq!(hint["kind"], "wrong");
    assert_eq!(hint["cell"], 2);
    assert!(
        hint["text"].as_str().unwrap().starts_with("r1c3 is not 1"),
        "{hint}"
    );

    // A 16×16 game, its hints in its own letters.
    let (_, game) = post(
        &server,
        "/api/new",
        &json!({"size": 16, "difficulty": "easy", "seed": 3}),
    );
    let puzzle16 = grid(&game["puzzle"]);
    let (_, hint) = post(
        &server,
        "/api/hint",
        &json!({"puzzle": puzzle16, "cells": puzzle16, "symbols": "ABCDEFGHIJKLMNOP"}),
    );
    let digit = hint["placements"][0]["digit"].as_u64().unwrap() as u8;
    let letter = (b'A' + digit - 1) as char;
    assert!(
        hint["text"]
            .as_str()
            .unwrap()
            .contains(&format!("= {letter}")),
        "{hint}"
    );
    play_by_hints(&server, &puzzle16);
}

#[test]
fn import_reads_every_layout_and_refuses_what_cannot_be_played() {
    let server = start();
    let classic = cells_of(CLASSIC);
    // Nine rows of symbols split by spaces, each ended by CRLF.
    let grid_text: String = CLASSIC
        .chars()
        .enumerate()
        .map(|(i, c)| format!("{c}{}", if i % 9 == 8 { "\r\n" } else { " " }))
        .collect();
    for text in [
        CLASSIC.to_owned(),
        format!("# a comment\n{CLASSIC}\n"),
        grid_text,
    ] {
        let (status, game) = post(&server, "/api/import", &json!({ "text": text }));
        assert_eq!(status, 200, "{text:?}: {game}");
        assert_eq!(grid(&game["puzzle"]), classic);
        assert_eq!(
            (game["size"].as_u64(), game["box"].as_u64()),
            (Some(9), Some(3))
        );
        assert_eq!(game["symbols"], "123456789");
        assert_eq!(game["grade"], "easy");
    }
    // A 16×16 game written in letters reads back with its letters.
    let (_, game) = post(
        &server,
        "/api/new",
        &json!({"size": 16, "difficulty": "easy", "seed": 2}),
    );
    let cells16 = grid(&game["puzzle"]);
    let line: String = cells16
        .iter()
        .map(|&d| if d == 0 { '.' } else { (b'A' + d - 1) as char })
        .collect();
    let (status, imported) = post(&server, "/api/import", &json!({ "text": line }));
    assert_eq!(status, 200, "{imported}");
    assert_eq!(grid(&imported["puzzle"]), cells16);
    assert_eq!(imported["symbols"], "ABCDEFGHIJKLMNOP");

    let refused = [
        ("", "no puzzle"),
        ("53..7....6..19", "line 1"),
        (&format!("{}x", &CLASSIC[..80]), "unknown symbol"),
        (&".".repeat(81), "more than one solution"),
        (&format!("55{}", &CLASSIC[2..]), "repeat a digit"),
        (&".".repeat(1296), "too large"),
    ];
    for (text, why) in refused {
        let (status, answer) = post(&server, "/api/import", &json!({ "text": text }));
        assert_eq!(status, 422, "{text:?}: {answer}");
        let error = answer["error"].as_str().unwrap();
        assert!(
            error.contains(why),
            "{text:?}: {error:?} should say {why:?}"
        );
    }
}

/// `cells` written one character a cell, digit `d` as `symbols[d-1]`
/// and empty cells as `empty`: a line, or rows of `side` cells split by
/// `between` (a grid).
fn written(cells: &[u8], symbols: &str, empty: char, grid: Option<&str>) -> String {
    let symbols: Vec<char> = symbols.chars().collect();
    let side = side_of(cells.len());
    let mut text = String::new();
    for (i, &d) in cells.iter().enumerate() {
        text.push(if d == 0 {
            empty
        } else {
            symbols[d as usize - 1]
        });
        if let Some(between) = grid {
            text.push_str(if i % side == side - 1 { "\n" } else { between });
        }
    }
    text
}

/// `cells` as numbers split by spaces, 0 for empty: a line, or a grid.
fn numbers(cells: &[u8], grid: bool) -> String {
    let side = side_of(cells.len());
    let mut text = String::new();
    for (i, d) in cells.iter().enumerate() {
        text.push_str(&d.to_string());
        text.push_str(if grid && i % side == side - 1 {
            "\n"
        } else {
            " "
        });
    }
    text
}

/// Imports `text`, which must read as `cells`, shown in `symbols`.
fn imports_as(server: &cover_play::Background, text: &str, cells: &[u8], symbols: &str) {
    let (status, game) = post(server, "/api/import", &json!({ "text": text }));
    assert_eq!(status, 200, "{text:?}: {game}");
    assert_eq!(grid(&game["puzzle"]), cells, "{text:?}");
    assert_eq!(game["symbols"], symbols, "{text:?}");
    let side = side_of(cells.len());
    assert_eq!(game["size"], side);
    assert_eq!(game["box"].as_u64().unwrap().pow(2), side as u64);
}

#[test]
fn import_reads_every_notation_of_every_size() {
    let server = start();
    // 4×4, a line with `.` and a grid with `0`.
    let four = cells_of("..2..3....4....1");
    assert_eq!(count_solutions(&four, 2), 1);
    imports_as(&server, &written(&four, "1234", '.', None), &four, "1234");
    imports_as(
        &server,
        &written(&four, "1234", '0', Some("")),
        &four,
        "1234",
    );
    imports_as(&server, &numbers(&four, true), &four, "1234");

    // 9×9 with `.` and with `0`, on a line and as a grid.
    let nine = cells_of(CLASSIC);
    for empty in ['.', '0'] {
        for grid in [None, Some(""), Some(" ")] {
            let text = written(&nine, "123456789", empty, grid);
            imports_as(&server, &text, &nine, "123456789");
        }
    }

    // 16×16 in each of its sets, and in numbers.
    let (_, game) = post(
        &server,
        "/api/new",
        &json!({"size": 16, "difficulty": "easy", "seed": 2}),
    );
    let sixteen = grid(&game["puzzle"]);
    let cases16 = [
        ("ABCDEFGHIJKLMNOP", '.', None),
        ("ABCDEFGHIJKLMNOP", '0', Some(" ")),
        ("123456789ABCDEFG", '.', None),
        ("123456789ABCDEFG", '0', None),
        ("123456789ABCDEFG", '0', Some(" ")),
        ("0123456789ABCDEF", '.', None),
        ("0123456789ABCDEF", '.', Some(" ")),
        ("0123456789ABCDEF", '-', Some("")),
    ];
    for (symbols, empty, grid) in cases16 {
        imports_as(
            &server,
            &written(&sixteen, symbols, empty, grid),
            &sixteen,
            symbols,
        );
    }
    // In lower case, shown in capitals.
    let lower = written(&sixteen, "0123456789abcdef", '.', None);
    imports_as(&server, &lower, &sixteen, "0123456789ABCDEF");
    for grid in [false, true] {
        imports_as(
            &server,
            &numbers(&sixteen, grid),
            &sixteen,
            "ABCDEFGHIJKLMNOP",
        );
    }
    // 1–9A–G with `0` for empty cells and no G among the givens: `cover
    // sudoku` cannot tell whether `0` is a digit (0–9A–F) or an empty
    // cell, and asks for --symbols; read as 0–9A–F it has no empty cell
    // and repeats digits, so the import takes the other reading.
    // (Without its 16s the puzzle has two solutions: givens of the
    // solution's other digits go in, in cell order, until it has one.)
    let (_, solved) = post(&server, "/api/solve", &json!({ "puzzle": sixteen }));
    let solution = grid(&solved["solution"]);
    let mut no_g: Vec<u8> = sixteen
        .iter()
        .map(|&d| if d == 16 { 0 } else { d })
        .collect();
    let mut added = (0..256).filter(|&c| sixteen[c] == 0 && solution[c] != 16);
    while count_solutions(&no_g, 2) > 1 {
        let cell = added.next().expect("the solution's givens make it unique");
        no_g[cell] = solution[cell];
    }
    let text = written(&no_g, "123456789ABCDEFG", '0', None);
    let plain = Puzzles::new(text.as_bytes(), None).next().unwrap();
    assert!(plain.unwrap_err().to_string().contains("--symbols"));
    imports_as(&server, &text, &no_g, "123456789ABCDEFG");

    // 25×25 in its three sets and in numbers.
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fixtures/sudoku/line_25x25.txt"
    );
    let line = std::fs::read_to_string(path).unwrap();
    let line = line.lines().next().unwrap();
    let letters = "ABCDEFGHIJKLMNOPQRSTUVWXY";
    let twenty_five: Vec<u8> = line
        .chars()
        .map(|c| letters.find(c).map_or(0, |d| d as u8 + 1))
        .collect();
    assert_eq!(twenty_five.len(), 625);
    for (symbols, empty, grid) in [
        (letters, '.', None),
        ("123456789ABCDEFGHIJKLMNOP", '.', None),
        ("123456789ABCDEFGHIJKLMNOP", '0', Some(" ")),
        ("0123456789ABCDEFGHIJKLMNO", '.', None),
        ("0123456789ABCDEFGHIJKLMNO", '.', Some("")),
    ] {
        let text = written(&twenty_five, symbols, empty, grid);
        imports_as(&server, &text, &twenty_five, symbols);
    }
    for grid in [false, true] {
        imports_as(&server, &numbers(&twenty_five, grid), &twenty_five, letters);
    }
}

#[test]
fn import_errors_say_what_is_wrong_in_a_players_words() {
    let server = start();
    let row = "5 3 . . 7 . . . .\n";
    let refused = [
        ("53..7....6..19", "line 1: 14 cells is not a sudoku"),
        (
            &format!("# a comment\n{}x", &CLASSIC[..80]),
            "line 2: unknown symbol \"x\" in cell 81: a 9×9 puzzle is written with 1–9",
        ),
        (
            &format!("{}Z", &".".repeat(255)),
            "line 1: unknown symbol \"Z\" in cell 256: a 16×16 puzzle is written with A–P",
        ),
        (
            &format!("{row}{row}5 3 . . 7 . .\n"),
            "line 3: row 3 of the grid has 7 cells, but the rows before have 9",
        ),
        (
            &format!("{row}{row}\n"),
            "line 1: the grid ends after 2 rows; a 9×9 grid has 9",
        ),
        (
            &format!("17 {}", "0 ".repeat(255)),
            "line 1: number 17 in cell 1 is larger than 16",
        ),
        (
            &".".repeat(81),
            "line 1: the puzzle has more than one solution",
        ),
        (
            &format!("55{}", &CLASSIC[2..]),
            "line 1: the givens repeat a digit",
        ),
        (&".".repeat(1296), "line 1: a 36×36 puzzle is too large"),
        ("# only a comment\n", "no puzzle in the text"),
    ];
    for (text, why) in refused {
        let (status, answer) = post(&server, "/api/import", &json!({ "text": text }));
        assert_eq!(status, 422, "{text:?}: {answer}");
        let error = answer["error"].as_str().unwrap();
        assert!(
            error.starts_with(why),
            "{text:?}: {error:?} should start {why:?}"
        );
        assert!(!error.contains("--"), "{error:?} names a flag");
    }
}

#[test]
fn bad_requests_get_a_4xx_with_a_json_message() {
    let server = start();
    let big_grid = json!({"puzzle": vec![0; 10_000], "cells": vec![0; 10_000]});
    let mut cases: Vec<(&str, Vec<u8>, u16, &str)> = vec![
        ("/api/check", b"not json".to_vec(), 400, "bad request JSON"),
        (
            "/api/check",
            b"{\"puzzle\": [1, 2]}".to_vec(),
            400,
            "missing field",
        ),
    ];
    // Every refused `/api/new` is a 400; only the body and the reason vary.
    let new_refusals = [
        (r#"{"size": 9}"#, "difficulty"),
        (r#"{"size": 12, "difficulty": "easy"}"#, "12×12"),
        (r#"{"size": 25, "difficulty": "easy"}"#, "sizes: 4, 9, 16"),
        (r#"{"size": -1, "difficulty": "easy"}"#, "bad request JSON"),
        (
            r#"{"size": 9, "difficulty": "insane"}"#,
            "unknown difficulty",
        ),
        (
            r#"{"size": 9, "difficulty": "easy", "x": 1}"#,
            "unknown field",
        ),
    ];
    cases.extend(new_refusals.map(|(body, why)| ("/api/new", body.as_bytes().to_vec(), 400, why)));
    cases.extend([
        (
            "/api/hint",
            big_grid.to_string().into_bytes(),
            400,
            "10000 cells",
        ),
        (
            "/api/solve",
            json!({"puzzle": vec![10; 81]}).to_string().into_bytes(),
            400,
            "more than 9",
        ),
        (
            "/api/solve",
            json!({"puzzle": vec![300; 81]}).to_string().into_bytes(),
            400,
            "bad request JSON",
        ),
        (
            "/api/check",
            json!({"puzzle": vec![0; 81], "cells": vec![0; 16]})
                .to_string()
                .into_bytes(),
            400,
            "81 cells but cells has 16",
        ),
        (
            "/api/import",
            vec![b'{'; 10 << 20],
            413,
            "larger than 65536 bytes",
        ),
        ("/api/import", vec![0; 1000], 400, "bad request JSON"),
        ("/api/nothing", b"{}".to_vec(), 404, "no such"),
    ]);
    for (path, body, status, why) in cases {
        let answer = post_raw(&server, path, &body);
        let json: Value = answer.json().unwrap();
        assert_eq!(answer.status, status, "{path} {json}");
        let error = json["error"].as_str().unwrap();
        assert!(error.contains(why), "{path}: {error:?} should say {why:?}");
    }
    let get = request(server.addr(), "GET", "/api/new", None, TIMEOUT).unwrap();
    assert_eq!(get.status, 405);
    assert!(get.json().unwrap()["error"].is_string());
}

#[test]
fn the_page_is_served_from_the_binary() {
    let server = start();
    for (path, kind, mark) in [
        ("/", "text/html", "<title>cover play: sudoku</title>"),
        ("/app.js", "text/javascript", "api(\"new\""),
        ("/style.css", "text/css", ".cell"),
        ("/model.js", "text/javascript", "class Game"),
        ("/favicon.svg", "image/svg+xml", "<svg"),
    ] {
        let answer = request(server.addr(), "GET", path, None, TIMEOUT).unwrap();
        assert_eq!(answer.status, 200, "{path}");
        assert!(
            answer.content_type.as_deref().unwrap().starts_with(kind),
            "{path}"
        );
        let body = String::from_utf8(answer.body).unwrap();
        assert!(body.contains(mark), "{path} holds {mark:?}");
    }
}

#[test]
fn many_requests_at_once_are_all_answered() {
    let server = start();
    let puzzle = cells_of(CLASSIC);
    let body = json!({"puzzle": puzzle, "cells": puzzle});
    let (_, expected) = post(&server, "/api/hint", &body);
    let answers: Vec<(u16, Value)> = thread::scope(|scope| {
        let workers: Vec<_> = (0..25)
            .map(|k| {
                let (server, body) = (&server, &body);
                scope.spawn(move || {
                    (0..8)
                        .map(|i| {
                            if (k + i) % 2 == 0 {
                                post(server, "/api/hint", body)
                            } else {
                                post(
                                    server,
                                    "/api/new",
                                    &json!({"size": 9, "difficulty": "easy"}),
                                )
                            }
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap())
            .collect()
    });
    assert_eq!(answers.len(), 200);
    for (status, answer) in answers {
        assert_eq!(status, 200, "{answer}");
        if answer.get("kind").is_some() {
            assert_eq!(answer, expected);
        } else {
            assert_eq!(count_solutions(&grid(&answer["puzzle"]), 2), 1);
        }
    }
}
