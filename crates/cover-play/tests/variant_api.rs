//! Variants through the JSON API: f-puzzles imported, their rules sent
//! back with every request, solutions, checks and hints checked against
//! `cover-check`'s variant checker and brute force.

mod common;

use common::variants::*;
use common::*;
use serde_json::{json, Value};

/// Imports `text`, answering the game.
fn import(server: &cover_play::Background, text: &str) -> Value {
    let (status, game) = post(server, "/api/import", &json!({ "text": text }));
    assert_eq!(status, 200, "{game}");
    game
}

/// Whether two piece numberings split the grid the same way.
fn same_partition(a: &[u8], b: &[usize]) -> bool {
    let n = a.len();
    (0..n).all(|x| (0..n).all(|y| (a[x] == a[y]) == (b[x] == b[y])))
}

#[test]
fn an_fpuzzles_killer_imports_with_its_cages_and_solves_checks_and_shares() {
    let server = start();
    let game = import(&server, &killer6_json());
    let givens = digits(KILLER6_GIVENS);
    assert_eq!(grid(&game["puzzle"]), givens);
    assert_eq!(game["size"], 6);
    assert_eq!(game["symbols"], "123456");
    let variant = &game["variant"];
    assert_eq!(variant["name"], "killer");
    assert_eq!(variant["boxes"], true, "{variant}");
    let cages = variant["cages"].as_array().unwrap();
    assert_eq!(cages.len(), KILLER6_CAGES.len());
    for ((sum, cells), cage) in KILLER6_CAGES.iter().zip(cages) {
        assert_eq!(cage["sum"], *sum);
        assert_eq!(
            grid(&cage["cells"]),
            cells.iter().map(|&c| c as u8).collect::<Vec<_>>()
        );
    }
    let solution = brute_solution(&killer6_rules(), &givens);
    let rules = json!({ "variant": variant });
    let mut body = json!({ "puzzle": givens });
    body["variant"] = rules["variant"].clone();
    let (status, solved) = post(&server, "/api/solve", &body);
    assert_eq!(status, 200, "{solved}");
    assert_eq!(grid(&solved["solution"]), solution);
    // Without its variant the grid is a 6×6 the classic game does not play.
    let (status, _) = post(&server, "/api/solve", &json!({ "puzzle": givens }));
    assert_eq!(status, 400);

    // A cage's repeat, and a full cage off its sum, are conflicts.
    let mut cells = givens.clone();
    cells[12] = 2;
    cells[13] = 2;
    let (_, check) = post(
        &server,
        "/api/check",
        &json!({ "puzzle": givens, "cells": cells, "variant": variant }),
    );
    assert_eq!(grid(&check["conflicts"]), vec![12, 13], "{check}");
    cells[13] = 4;
    let (_, check) = post(
        &server,
        "/api/check",
        &json!({ "puzzle": givens, "cells": cells, "variant": variant }),
    );
    assert_eq!(
        grid(&check["conflicts"]),
        vec![12, 13],
        "7 is not 2 + 4: {check}"
    );

    // The text to share imports the same game again.
    let text = game["text"]
        .as_str()
        .expect("a variant comes with its text");
    let again = import(&server, text);
    assert_eq!(again["puzzle"], game["puzzle"]);
    assert_eq!(again["variant"], game["variant"]);
}

#[test]
fn hints_alone_finish_a_variant_and_every_digit_they_give_is_the_solutions() {
    let server = start();
    for (text, rules, givens) in [
        (killer6_json(), killer6_rules(), digits(KILLER6_GIVENS)),
        (jigsaw9_json(), jigsaw9_rules(), digits(JIGSAW9_GIVENS)),
        (xw9_json(), xw9_rules(), digits(XW9_GIVENS)),
    ] {
        let game = import(&server, &text);
        let solution = brute_solution(&rules, &givens);
        let mut cells = givens.clone();
        let mut steps = 0;
        let mut kinds = std::collections::BTreeMap::new();
        loop {
            let (status, hint) = post(
                &server,
                "/api/hint",
                &json!({ "puzzle": givens, "cells": cells, "variant": game["variant"] }),
            );
            assert_eq!(status, 200, "{hint}");
            let (cell, digit) = match hint["kind"].as_str().unwrap() {
                "solved" => break,
                // A step that places nothing names the next placement.
                "step" if hint["cell"].is_null() => (
                    hint["then"]["cell"].as_u64().unwrap(),
                    hint["then"]["digit"].as_u64().unwrap(),
                ),
                "step" => (
                    hint["cell"].as_u64().unwrap(),
                    hint["placements"][0]["digit"].as_u64().unwrap(),
                ),
                "reveal" => (
                    hint["cell"].as_u64().unwrap(),
                    hint["digit"].as_u64().unwrap(),
                ),
                other => panic!("{other}: {hint}"),
            };
            assert_eq!(u64::from(solution[cell as usize]), digit, "{hint}");
            assert_eq!(cells[cell as usize], 0, "{hint}");
            cells[cell as usize] = digit as u8;
            *kinds
                .entry(hint["kind"].as_str().unwrap().to_owned())
                .or_insert(0) += 1;
            steps += 1;
            assert!(steps <= cells.len(), "hints go on after the grid is full");
        }
        assert_eq!(cells, solution);
        eprintln!("{}: {kinds:?}", game["variant"]["name"]);
        // A wrong entry comes first.
        let mut wrong = givens.clone();
        let empty = (0..wrong.len()).find(|&c| wrong[c] == 0).unwrap();
        wrong[empty] = solution[empty] % game["size"].as_u64().unwrap() as u8 + 1;
        let (_, hint) = post(
            &server,
            "/api/hint",
            &json!({ "puzzle": givens, "cells": wrong, "variant": game["variant"] }),
        );
        assert_eq!(hint["kind"], "wrong", "{hint}");
        assert_eq!(hint["cell"], empty);
    }
}

#[test]
fn diagonals_windows_and_thermometers_are_named_for_drawing() {
    let server = start();
    let game = import(&server, &xw9_json());
    let variant = &game["variant"];
    assert_eq!(variant["name"], "X windoku thermo");
    assert_eq!(variant["boxes"], true);
    let kinds: Vec<&str> = variant["extras"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        ["diagonal", "diagonal", "window", "window", "window", "window"]
    );
    assert_eq!(variant["thermos"], json!([XW9_THERMO]));
    // Digits rise from the bulb: 5 then 4 up the thermometer breaks it.
    let givens = digits(XW9_GIVENS);
    let mut cells = givens.clone();
    cells[18] = 5;
    cells[9] = 4;
    let (_, check) = post(
        &server,
        "/api/check",
        &json!({ "puzzle": givens, "cells": cells, "variant": variant }),
    );
    assert_eq!(grid(&check["conflicts"]), vec![9, 18], "{check}");
}

#[test]
fn a_jigsaw_imports_with_its_pieces_and_a_repeat_in_a_piece_is_a_conflict() {
    let server = start();
    let game = import(&server, &jigsaw9_json());
    let variant = &game["variant"];
    assert_eq!(variant["name"], "jigsaw");
    assert_eq!(variant["boxes"], false);
    let pieces: Vec<usize> = variant["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_u64().unwrap() as usize)
        .collect();
    assert!(same_partition(&jigsaw9_pieces(), &pieces));
    let givens = digits(JIGSAW9_GIVENS);
    // r1c2 and r3c3 share piece 1 (not a row or column): 7 twice.
    let (a, b) = (1, 20);
    assert_eq!(jigsaw9_pieces()[a], jigsaw9_pieces()[b]);
    assert!(a / 9 != b / 9 && a % 9 != b % 9);
    let mut cells = givens.clone();
    cells[a] = 7;
    cells[b] = 7;
    let (_, check) = post(
        &server,
        "/api/check",
        &json!({ "puzzle": givens, "cells": cells, "variant": variant }),
    );
    assert_eq!(grid(&check["conflicts"]), vec![a as u8, b as u8], "{check}");
}

#[test]
fn a_variant_line_imports_as_its_fpuzzles_twin_and_its_errors_name_the_line() {
    let server = start();
    let line = format!("{JIGSAW9_GIVENS} jigsaw={JIGSAW9_PIECES}");
    let from_line = import(&server, &format!("\n  \n{line}  # a jigsaw\n"));
    let from_json = import(&server, &jigsaw9_json());
    assert_eq!(from_line["puzzle"], from_json["puzzle"]);
    assert_eq!(from_line["variant"], from_json["variant"]);
    assert_eq!(from_line["text"], from_json["text"]);
    // Logic rates it (the jigsaw's steps are singles and the like).
    assert!(from_line["rating"].as_f64().is_some(), "{from_line}");
    assert_ne!(from_line["grade"], "");
    let (status, answer) = post(
        &server,
        "/api/import",
        &json!({ "text": format!("\n{JIGSAW9_GIVENS} x cage=99:r1c1,r1c2") }),
    );
    assert_eq!(status, 422);
    let error = answer["error"].as_str().unwrap();
    assert!(error.starts_with("line 2: "), "{error}");
}

#[test]
fn variants_that_cannot_be_played_are_refused_in_words() {
    let server = start();
    let refused = |text: &str| -> String {
        let (status, answer) = post(&server, "/api/import", &json!({ "text": text }));
        assert_eq!(status, 422, "{answer}");
        answer["error"].as_str().unwrap().to_owned()
    };
    // The killer without its givens has several solutions.
    let mut open: Value = serde_json::from_str(&killer6_json()).unwrap();
    for row in open["grid"].as_array_mut().unwrap() {
        for cell in row.as_array_mut().unwrap() {
            *cell = json!({});
        }
    }
    assert!(refused(&open.to_string()).contains("more than one solution"));
    // Givens that break a cage.
    let mut broken: Value = serde_json::from_str(&killer6_json()).unwrap();
    broken["grid"][2][0] = json!({"value": 1, "given": true});
    broken["grid"][2][1] = json!({"value": 1, "given": true});
    assert!(refused(&broken.to_string()).contains("break a rule"));
    // A rule the game cannot honour is named.
    let mut arrows: Value = serde_json::from_str(&killer6_json()).unwrap();
    arrows["arrow"] = json!([{"lines": [["R1C1", "R1C2"]], "cells": ["R1C1"]}]);
    assert!(refused(&arrows.to_string()).contains("arrow"));
    // A variant sent back that is not one.
    let givens = digits(KILLER6_GIVENS);
    let (status, answer) = post(
        &server,
        "/api/solve",
        &json!({ "puzzle": givens, "variant": {"pieces": [0, 1, 2]} }),
    );
    assert_eq!(status, 400, "{answer}");
    // More cages than cells is no puzzle, and not built.
    let cages: Vec<Value> = (0..37).map(|c| json!({"cells": [c % 36]})).collect();
    let (status, answer) = post(
        &server,
        "/api/solve",
        &json!({ "puzzle": givens, "variant": {"cages": cages} }),
    );
    assert_eq!(status, 400, "{answer}");
    assert!(
        answer["error"]
            .as_str()
            .unwrap()
            .contains("more regions, cages"),
        "{answer}"
    );
}

#[test]
fn new_games_of_every_variant_are_unique_keep_their_rules_and_repeat_by_seed() {
    let server = start();
    let levels = cover_play::client::request(server.addr(), "GET", "/api/levels", None, TIMEOUT)
        .unwrap()
        .json()
        .unwrap();
    let variants = levels["variants"].as_array().unwrap();
    let names: Vec<&str> = variants
        .iter()
        .map(|v| v["variant"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "jigsaw",
            "x",
            "windoku",
            "killer",
            "anti-knight",
            "anti-king",
            "thermo"
        ],
        "non-consecutive is made but not offered: its puzzles outrun the search budget"
    );
    let words = [
        ("jigsaw", "jigsaw"),
        ("x", "X"),
        ("windoku", "windoku"),
        ("killer", "killer"),
        ("anti-knight", "anti-knight"),
        ("anti-king", "anti-king"),
        ("thermo", "thermo"),
    ];
    for entry in variants {
        let variant = entry["variant"].as_str().unwrap();
        // The smallest size offered: 9×9 for the kinds made only there.
        let size = entry["sizes"][0]["size"].as_u64().unwrap() as usize;
        let body = json!({"size": size, "difficulty": "easy", "variant": variant, "seed": 3});
        let (status, game) = post(&server, "/api/new", &body);
        assert_eq!(status, 200, "{variant}: {game}");
        assert_eq!(game["size"], size);
        let name = game["variant"]["name"].as_str().unwrap();
        let word = words.iter().find(|(v, _)| *v == variant).unwrap().1;
        assert!(name.contains(word), "{variant}: {name}");
        let puzzle = grid(&game["puzzle"]);
        let rules = rules_of_game(&game["variant"], size);
        let (status, solved) = post(
            &server,
            "/api/solve",
            &json!({"puzzle": puzzle, "variant": game["variant"]}),
        );
        assert_eq!(status, 200, "{variant}: {solved}");
        let solution = grid(&solved["solution"]);
        cover_check::variant::check_variant_solution(&rules, &puzzle, &solution)
            .unwrap_or_else(|e| panic!("{variant}: {e}"));
        if size <= 6 {
            // One solution, by the checker's brute force.
            assert_eq!(brute_solution(&rules, &puzzle), solution, "{variant}");
        }
        // Rated by logic, every kind (thermometers included).
        if game["target_met"] == true {
            assert_eq!(game["grade"], "easy", "{variant}: {game}");
        }
        assert!(game["rating"].is_number(), "{variant}: {game}");
        // The same seed makes the same game.
        let (_, again) = post(&server, "/api/new", &body);
        assert_eq!(again["puzzle"], game["puzzle"], "{variant}");
        assert_eq!(again["variant"], game["variant"], "{variant}");
    }
    // A size or a name the generator does not make is refused.
    for body in [
        json!({"size": 16, "difficulty": "easy", "variant": "jigsaw"}),
        json!({"size": 9, "difficulty": "easy", "variant": "arrow"}),
        json!({"size": 4, "difficulty": "easy", "variant": "windoku"}),
        json!({"size": 9, "difficulty": "easy", "variant": "non-consecutive"}),
    ] {
        let (status, answer) = post(&server, "/api/new", &body);
        assert_eq!(status, 400, "{body}: {answer}");
    }
}
