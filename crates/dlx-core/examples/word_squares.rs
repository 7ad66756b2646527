//! Double word squares with colours (Knuth's XCC): a 3×3 grid of letters
//! whose rows and columns are six different words of a list.
//!
//! Primary items: each row and each column, filled once. Secondary items:
//! each cell, which may be shared by options that give it the same
//! colour (its letter), and each word, used at most once. An option puts
//! one word in one row or column: `r0 c00:a c01:n c02:t ant`.
//!
//! Run with `cargo run --release -p dlx-core --example word_squares`.

use dlx_core::{Control, Limits, Problem, ProblemBuilder, Solver};

/// Three-letter words.
const WORDS: &str = "ace act add age ago aid aim air ale all and ant any ape arc are ark arm \
    art ash ask ate awe axe bad bag ban bar bat bay bed bee bet bid big bin bit \
    bog bow box boy bud bug bus but buy cab can cap car cat cow cry cub cup cut \
    day den dew did die dig dim dog dot dry due dug dye ear eat ebb egg ego elk \
    elm end era eve ewe eye fan far fat fee few fig fin fir fit fix fly foe fog \
    for fox fry fun fur gag gap gas gel gem get gig gin got gum gut guy had ham \
    has hat hay hen her hew hid him hip his hit hog hop hot how hub hue hug hum \
    hut ice icy ill imp ink inn ion ire irk its ivy jam jar jaw jet jig job jog \
    joy jug key kid kin kit lab lad lag lap law lay led leg let lid lie lip lit \
    log lot low mad man map mat may men met mid mix mob mop mud mug nab nag nap \
    net new nil nip nod nor not now nut oak oar oat odd ode off oft oil old one \
    opt orb ore our out owe owl own pad pal pan par pat paw pay pea peg pen pet \
    pie pig pin pit ply pod pot pro pry pun pup put rag ram ran rap rat raw ray \
    red rib rid rig rim rip rob rod roe rot row rub rug rum run rut rye sad sag \
    sap sat saw say sea see set sew she shy sin sip sir sit six ski sky sly sob \
    sod son sow soy spa spy sty sub sum sun tab tag tan tap tar tax tea tee ten \
    the tie tin tip toe ton too top tot tow toy try tub tug two urn use van vat \
    vet via vie vow wag war was wax way web wed wet who why wig win wit woe won \
    wow yak yam yap yaw yea yes yet yew you zap zip zoo";

/// The problem of 3×3 double word squares over `words`, and each
/// option's place (`true` for a row) and word.
fn problem(words: &[&str]) -> (Problem, Vec<(bool, usize, usize)>) {
    let lines: Vec<String> = (0..3)
        .map(|i| format!("r{i}"))
        .chain((0..3).map(|j| format!("c{j}")))
        .collect();
    let cells = (0..3).flat_map(|i| (0..3).map(move |j| format!("c{i}{j}")));
    let secondary: Vec<String> = cells.chain(words.iter().map(|w| w.to_string())).collect();
    let mut builder: ProblemBuilder = Problem::named(lines, secondary).expect("distinct names");
    let mut places = Vec::new();
    for (k, word) in words.iter().enumerate() {
        for line in 0..3 {
            for is_row in [true, false] {
                let letters: Vec<String> = word.chars().map(String::from).collect();
                let name = if is_row {
                    format!("r{line}")
                } else {
                    format!("c{line}")
                };
                let cell_names: Vec<String> = (0..3)
                    .map(|p| {
                        if is_row {
                            format!("c{line}{p}")
                        } else {
                            format!("c{p}{line}")
                        }
                    })
                    .collect();
                let mut items: Vec<(&str, Option<&str>)> = vec![(name.as_str(), None)];
                for (cell, letter) in cell_names.iter().zip(&letters) {
                    items.push((cell.as_str(), Some(letter.as_str())));
                }
                items.push((word, None));
                builder
                    .add_named_coloured_option(items)
                    .expect("a valid option");
                places.push((is_row, line, k));
            }
        }
    }
    (builder.build(), places)
}

/// The rows of one solution.
fn rows(words: &[&str], places: &[(bool, usize, usize)], chosen: &[usize]) -> [String; 3] {
    let mut rows: [String; 3] = Default::default();
    for &option in chosen {
        let (is_row, line, word) = places[option];
        if is_row {
            rows[line] = words[word].to_string();
        }
    }
    rows
}

fn main() {
    let words: Vec<&str> = WORDS.split_whitespace().collect();
    let (problem, places) = problem(&words);
    let mut solver = Solver::new(&problem);
    let mut shown = 0;
    let report = solver
        .search(&[], &Limits::none(), &mut |chosen: &[usize]| {
            if shown < 3 {
                println!("{}\n", rows(&words, &places, chosen).join("\n"));
                shown += 1;
            }
            Control::Continue
        })
        .expect("no givens");
    println!(
        "{} words: {} double word squares ({} nodes)",
        words.len(),
        report.stats.solutions,
        report.stats.nodes
    );
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    /// The squares by brute force: every three rows, their columns looked
    /// up in the list.
    fn brute(words: &[&str]) -> HashSet<[String; 3]> {
        let known: HashSet<&str> = words.iter().copied().collect();
        let mut found = HashSet::new();
        for a in words {
            for b in words {
                for c in words {
                    let rows = [*a, *b, *c];
                    let columns: Vec<String> = (0..3)
                        .map(|j| rows.iter().map(|r| &r[j..=j]).collect())
                        .collect();
                    let mut all: HashSet<&str> = rows.iter().copied().collect();
                    all.extend(columns.iter().map(String::as_str));
                    if all.len() == 6 && columns.iter().all(|w| known.contains(w.as_str())) {
                        found.insert(rows.map(String::from));
                    }
                }
            }
        }
        found
    }

    #[test]
    fn the_squares_are_those_of_a_brute_force() {
        // A part of the list keeps the brute force quick unoptimised.
        let words: Vec<&str> = WORDS.split_whitespace().step_by(2).collect();
        let (problem, places) = problem(&words);
        let mut found = Vec::new();
        Solver::new(&problem)
            .search(&[], &Limits::none(), &mut |chosen: &[usize]| {
                found.push(rows(&words, &places, chosen));
                Control::Continue
            })
            .unwrap();
        let unique: HashSet<[String; 3]> = found.iter().cloned().collect();
        assert_eq!(unique.len(), found.len(), "each square once");
        let expected = brute(&words);
        assert!(!expected.is_empty());
        assert_eq!(unique, expected);
    }
}
