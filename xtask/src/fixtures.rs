//! `cargo xtask fixtures`: writes the generated files of `fixtures/` from
//! the generators below, byte for byte the same on every run.
//!
//! Generated (Knuth's DLX text format, as in `../shared/xc/`):
//! - `exact/queensN.dlx`, N in 1..=12: N queens as Knuth states it.
//! - `exact/langfordN.dlx`, N in 3..=8 and 11: Langford pairs.
//! - `exact/latin5.dlx`: Latin squares of order 5.
//! - the colour (XCC) and multiplicity (MCC) problems, in Knuth's DLX2 and
//!   DLX3 format:
//!   - `twoqueensN.dlx`, N in 4..=6: two queens in every rank and file, no
//!     three on a diagonal (bounds `2|r*`, `2|c*`, `0:2|a*`, `0:2|b*`), in
//!     exactly the shape of `shared/xc/twoqueensN.dlx` (a test holds
//!     [`two_queens`] to those files byte for byte).
//!   - `wordsquareN_aK_wW.dlx`: double word squares N×N over a dictionary of
//!     W random words over K letters, in the shape of
//!     `shared/xc/wordsquareN_aK.dlx` (rows and columns primary; cells
//!     secondary, coloured by their letter; one uncoloured secondary item
//!     per word, so that no word is used twice). Their dictionaries are not
//!     those of `shared/xc` (made by another generator), hence the `_wW`;
//!     a test lays out the shared files' own dictionaries with
//!     [`word_square_text`] and gets those files back byte for byte.
//!   - `xcc_randomS.dlx` and `mcc_randomS.dlx`: small random problems with
//!     colours, and with bounds and colours, each with options that name no
//!     primary item (which Knuth's programs ignore).
//!
//!   Everything is seeded (ChaCha8) and drawn with [`below`] rather than
//!   rand's range sampling, whose algorithm may change between versions of
//!   rand: the files depend only on ChaCha8's stream.
//!
//! Written by hand and left alone here: the small matrices
//! `exact/matrix_*.txt`, `exact/xcc_small.dlx` (a copy of Knuth's example
//! in `../shared/xc/`) and the manifest `exact/expected.tsv`. After writing,
//! the manifest's rows of the generated colour and multiplicity problems
//! are compared with `cover-check`'s brute force (solutions only), and the
//! run fails, printing the rows to write, when they disagree.
//!
//! A test checks that the generators reproduce the `../shared/xc/` files
//! exactly, and another that the committed `fixtures/` are not stale.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use anyhow::{bail, Context, Result};
use cover_check::{brute, exact, manifest};
use rand::rngs::ChaCha8Rng;
use rand::{Rng, SeedableRng};

use crate::paths;

/// One generated file: its path under `fixtures/` and its contents.
pub struct Generated {
    /// The path relative to `fixtures/`, with `/` separators.
    pub path: String,
    /// The file's text.
    pub text: String,
}

/// Every generated fixture, in a fixed order.
pub fn generated() -> Vec<Generated> {
    let mut files = Vec::new();
    for n in 1..=12 {
        files.push(Generated {
            path: format!("exact/queens{n}.dlx"),
            text: queens(n),
        });
    }
    for n in [3, 4, 5, 6, 7, 8, 11] {
        files.push(Generated {
            path: format!("exact/langford{n}.dlx"),
            text: langford(n),
        });
    }
    files.push(Generated {
        path: "exact/latin5.dlx".to_owned(),
        text: latin(5),
    });
    files.extend(xcc_generated());
    files
}

/// Writes every generated fixture; files already up to date are left
/// untouched.
pub fn run(args: &[String]) -> Result<()> {
    if !args.is_empty() {
        bail!("usage: cargo xtask fixtures (no arguments)");
    }
    let root = paths::fixtures();
    let files = generated();
    let mut changed = 0;
    for file in &files {
        let path = root.join(&file.path);
        if std::fs::read(&path).ok().as_deref() == Some(file.text.as_bytes()) {
            continue;
        }
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).with_context(|| format!("{}", dir.display()))?;
        }
        std::fs::write(&path, &file.text).with_context(|| format!("{}", path.display()))?;
        println!("fixtures: wrote {}", file.path);
        changed += 1;
    }
    println!(
        "fixtures: {} generated files, {changed} rewritten",
        files.len()
    );
    // The manifest's numbers of the colour and multiplicity problems are
    // the brute force's: say so now if a generator changed them.
    let wrong = compare_with_manifest(&files)?;
    if wrong > 0 {
        bail!("{wrong} counts of fixtures/exact/expected.tsv to update (see above)");
    }
    Ok(())
}

/// N queens in Knuth's formulation, as the model writes it (the tests
/// below hold it byte for byte to `shared/xc/queensN.dlx`).
pub fn queens(n: usize) -> String {
    cover_models::queens::Queens::new(n)
        .expect("fixture sizes are valid boards")
        .knuth_text()
}

/// Langford pairs of 1..=N in 2N slots: primary items the values `v1..vN`
/// and slots `s0..s(2N-1)`; value `v` goes in slots `s` and `s + v + 1`,
/// options ordered by value, then by first slot. Both orientations of each
/// arrangement are solutions.
pub fn langford(n: usize) -> String {
    let slots = 2 * n;
    let mut items: Vec<String> = (1..=n).map(|v| format!("v{v}")).collect();
    items.extend((0..slots).map(|s| format!("s{s}")));
    let mut text = items.join(" ");
    text.push('\n');
    for v in 1..=n {
        for s in 0..slots.saturating_sub(v + 1) {
            writeln!(text, "v{v} s{s} s{}", s + v + 1).unwrap();
        }
    }
    text
}

/// Latin squares of order N: primary items `pI_J` (cell I, J is filled),
/// `rI_K` (row I holds symbol K) and `cJ_K` (column J holds symbol K); one
/// option `pI_J rI_K cJ_K` per cell and symbol, in that nesting order.
pub fn latin(n: usize) -> String {
    let mut items: Vec<String> = Vec::new();
    for prefix in ["p", "r", "c"] {
        for i in 0..n {
            for k in 0..n {
                items.push(format!("{prefix}{i}_{k}"));
            }
        }
    }
    let mut text = items.join(" ");
    text.push('\n');
    for i in 0..n {
        for j in 0..n {
            for k in 0..n {
                writeln!(text, "p{i}_{j} r{i}_{k} c{j}_{k}").unwrap();
            }
        }
    }
    text
}

/// Counts every generated fixture with colours or bounds by brute force
/// and compares the solutions with `fixtures/exact/expected.tsv`; prints
/// the row the manifest should have for each that disagrees or is
/// missing, and returns how many did. (Nodes and updates are not checked
/// here: they are what Knuth's DLX2 printed.)
fn compare_with_manifest(files: &[Generated]) -> Result<usize> {
    let dir = paths::fixtures();
    let manifest =
        manifest::read_manifest(&dir.join("exact/expected.tsv")).map_err(anyhow::Error::msg)?;
    let mut wrong = 0;
    for file in files {
        let Some(name) = file.path.strip_prefix("exact/") else {
            continue;
        };
        let cover =
            exact::read_knuth(&file.text).map_err(|e| anyhow::anyhow!("{}: {e}", file.path))?;
        if !cover.has_colours() && !cover.has_bounds() {
            continue;
        }
        let solutions = brute::count(&cover.to_problem());
        let row = manifest.iter().find(|row| row.file == name);
        if row.is_none_or(|row| row.solutions != [solutions]) {
            println!(
                "fixtures: {}: expected.tsv should give {name} {solutions} solutions (brute force); \
                 for its nodes and updates, run Knuth's DLX2 on it (colours only) or write `-`",
                file.path
            );
            wrong += 1;
        }
    }
    Ok(wrong)
}

// ---------------------------------------------------------------------------
// The colour and multiplicity problems.

/// The board sizes of the `twoqueensN.dlx` fixtures.
const TWO_QUEENS_SIZES: [usize; 3] = [4, 5, 6];

/// The word square fixtures: side, letters, words in the dictionary, seed.
/// Small enough for the brute force in a debug-build test. The third has
/// no solution: a square uses 2N different words, and there are only 5.
const WORD_SQUARES: [(usize, &str, usize, u64); 3] =
    [(3, "abc", 12, 1), (4, "abcd", 24, 2), (3, "abc", 5, 3)];

/// The seeds of the random fixtures, `xcc_randomS` and `mcc_randomS`.
const RANDOM_SEEDS: [u64; 3] = [1, 2, 3];

/// Every colour and multiplicity fixture, in a fixed order.
pub fn xcc_generated() -> Vec<Generated> {
    let mut files = Vec::new();
    for n in TWO_QUEENS_SIZES {
        files.push(Generated {
            path: format!("exact/twoqueens{n}.dlx"),
            text: two_queens(n),
        });
    }
    for (n, letters, words, seed) in WORD_SQUARES {
        files.push(Generated {
            path: format!("exact/wordsquare{n}_a{}_w{words}.dlx", letters.len()),
            text: word_square(n, letters, words, seed),
        });
    }
    for seed in RANDOM_SEEDS {
        files.push(Generated {
            path: format!("exact/xcc_random{seed}.dlx"),
            text: random_xcc(seed),
        });
        files.push(Generated {
            path: format!("exact/mcc_random{seed}.dlx"),
            text: random_mcc(seed),
        });
    }
    files
}

/// A number in `0..n` from the generator's next 64 bits (the bias of the
/// remainder is below 2^-50 for the small `n` used here).
fn below(rng: &mut ChaCha8Rng, n: usize) -> usize {
    (rng.next_u64() % n as u64) as usize
}

/// Whether an event of probability `numerator / denominator` happens.
fn chance(rng: &mut ChaCha8Rng, numerator: usize, denominator: usize) -> bool {
    below(rng, denominator) < numerator
}

/// Two queens in every rank and file of an N×N board, no three on a
/// diagonal: ranks `r*` and files `c*` covered exactly twice, diagonals
/// `a(i+j)` and `b(N-1+i-j)` at most twice; one option per square, rank by
/// rank. As `shared/xc/twoqueensN.dlx`.
pub fn two_queens(n: usize) -> String {
    let mut text =
        format!("| two queens in every rank and file of a {n}x{n} board, no three on a diagonal\n");
    let diagonals = 2 * n - 1;
    let mut items: Vec<String> = Vec::new();
    items.extend((0..n).map(|i| format!("2|r{i}")));
    items.extend((0..n).map(|j| format!("2|c{j}")));
    items.extend((0..diagonals).map(|d| format!("0:2|a{d}")));
    items.extend((0..diagonals).map(|d| format!("0:2|b{d}")));
    text.push_str(&items.join(" "));
    text.push('\n');
    for i in 0..n {
        for j in 0..n {
            writeln!(text, "r{i} c{j} a{} b{}", i + j, n - 1 + i - j).unwrap();
        }
    }
    text
}

/// `count` different random words of length `n` over `letters`, sorted.
pub fn random_dictionary(n: usize, letters: &str, count: usize, seed: u64) -> Vec<String> {
    let letters: Vec<char> = letters.chars().collect();
    assert!(count <= letters.len().pow(n as u32), "not that many words");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut words = BTreeSet::new();
    while words.len() < count {
        let word: String = (0..n)
            .map(|_| letters[below(&mut rng, letters.len())])
            .collect();
        words.insert(word);
    }
    words.into_iter().collect()
}

/// Double word squares N×N over a random dictionary (see
/// [`random_dictionary`]).
pub fn word_square(n: usize, letters: &str, count: usize, seed: u64) -> String {
    let words = random_dictionary(n, letters, count, seed);
    let comment = format!(
        "double word squares {n}x{n}, {count} random words over {letters}, seed {seed} (ChaCha8)"
    );
    word_square_text(n, &words, &comment)
}

/// Double word squares N×N over `words`, laid out as the files of
/// `shared/xc`: the comment line `| COMMENT`; primary items `R0..` (rows)
/// and `C0..` (columns), secondary items the cells `xIJ` and one item
/// `wWORD` per word; then for each row, each word, `RI wWORD xI0:L ...`,
/// and the same for each column.
pub fn word_square_text(n: usize, words: &[String], comment: &str) -> String {
    let mut text = format!("| {comment}\n");
    let mut items: Vec<String> = Vec::new();
    items.extend((0..n).map(|i| format!("R{i}")));
    items.extend((0..n).map(|j| format!("C{j}")));
    items.push("|".to_owned());
    items.extend((0..n * n).map(|k| format!("x{}{}", k / n, k % n)));
    items.extend(words.iter().map(|w| format!("w{w}")));
    text.push_str(&items.join(" "));
    text.push('\n');
    for prefix in ["R", "C"] {
        for line in 0..n {
            for word in words {
                write!(text, "{prefix}{line} w{word}").unwrap();
                for (k, letter) in word.chars().enumerate() {
                    let (i, j) = if prefix == "R" { (line, k) } else { (k, line) };
                    write!(text, " x{i}{j}:{letter}").unwrap();
                }
                text.push('\n');
            }
        }
    }
    text
}

/// One random option: the names of its items (`name` or `name:colour`).
/// `primary` and `secondary` are the item names; `primaries` how many
/// primary items it names (0: an option Knuth's programs ignore).
fn random_option(
    rng: &mut ChaCha8Rng,
    primary: &[String],
    secondary: &[String],
    colours: &[&str],
    primaries: usize,
) -> Vec<String> {
    let mut tokens = Vec::new();
    let mut pool: Vec<&String> = primary.iter().collect();
    for _ in 0..primaries.min(pool.len()) {
        tokens.push(pool.swap_remove(below(rng, pool.len())).clone());
    }
    // An option without a primary item gets at least one secondary one.
    let forced = (primaries == 0).then(|| below(rng, secondary.len()));
    for (k, name) in secondary.iter().enumerate() {
        if forced == Some(k) || chance(rng, 2, 5) {
            if chance(rng, 3, 4) {
                tokens.push(format!("{name}:{}", colours[below(rng, colours.len())]));
            } else {
                tokens.push(name.clone());
            }
        }
    }
    // Some options list their items out of item-line order, which the
    // answers must keep.
    if chance(rng, 1, 3) {
        for k in (1..tokens.len()).rev() {
            tokens.swap(k, below(rng, k + 1));
        }
    }
    tokens
}

/// `count` random options, `ignored` of them without a primary item, all
/// different (as sets of items and colours) and none empty.
fn random_options(
    rng: &mut ChaCha8Rng,
    (primary, secondary): (&[String], &[String]),
    colours: &[&str],
    max_primaries: usize,
    (count, ignored): (usize, usize),
) -> Vec<String> {
    let mut without: BTreeSet<usize> = BTreeSet::new();
    while without.len() < ignored {
        without.insert(below(rng, count));
    }
    let mut seen: BTreeSet<Vec<String>> = BTreeSet::new();
    let mut lines = Vec::new();
    for k in 0..count {
        loop {
            let primaries = if without.contains(&k) {
                0
            } else {
                1 + below(rng, max_primaries)
            };
            let tokens = random_option(rng, primary, secondary, colours, primaries);
            let mut key = tokens.clone();
            key.sort();
            if !tokens.is_empty() && seen.insert(key) {
                lines.push(tokens.join(" "));
                break;
            }
        }
    }
    lines
}

/// `least` to `least + more - 1` item names `prefix0`, `prefix1`, ...
fn item_names(rng: &mut ChaCha8Rng, prefix: &str, least: usize, more: usize) -> Vec<String> {
    (0..least + below(rng, more))
        .map(|i| format!("{prefix}{i}"))
        .collect()
}

/// A small random problem with colours: 3-5 primary items `p*`, 2-3
/// secondary `s*`, colours `A`, `B`, `C`, 12-14 options of one or two
/// primary items, 1-2 more that name no primary item. Never more than 16
/// options, so that a test can try every subset.
pub fn random_xcc(seed: u64) -> String {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let primary = item_names(&mut rng, "p", 3, 3);
    let secondary = item_names(&mut rng, "s", 2, 2);
    let colours = ["A", "B", "C"];
    let problem = ("colour", seed, &colours[..], 2);
    random_problem(&mut rng, problem, (&primary, &[], &secondary))
}

/// The options and text of a random problem, once its items are drawn:
/// `what` (colour, multiplicity) and `seed` for its comment line, options
/// of at most `most` primary items coloured from `colours`, and the
/// primary items written with their `bounds` (none: exactly once).
fn random_problem(
    rng: &mut ChaCha8Rng,
    (what, seed, colours, most): (&str, u64, &[&str], usize),
    (primary, bounds, secondary): (&[String], &[&str], &[String]),
) -> String {
    let ignored = 1 + below(rng, 2);
    let count = 12 + below(rng, 3) + ignored;
    let lines = random_options(rng, (primary, secondary), colours, most, (count, ignored));
    let mut text = format!(
        "| random {what} problem, seed {seed} (ChaCha8): {count} options, {ignored} without a primary item\n"
    );
    let items: Vec<String> = primary
        .iter()
        .enumerate()
        .map(|(k, name)| format!("{}{name}", bounds.get(k).unwrap_or(&"")))
        .collect();
    writeln!(text, "{} | {}", items.join(" "), secondary.join(" ")).unwrap();
    for line in lines {
        writeln!(text, "{line}").unwrap();
    }
    text
}

/// The bounds a random multiplicity problem draws from, as DLX3 writes
/// them before a primary item's name ("" for exactly once; `1:1|` is the
/// same, spelled out).
const RANDOM_BOUNDS: [&str; 8] = ["", "2|", "0:2|", "1:3|", "0:1|", "1:2|", "2:3|", "1:1|"];

/// A small random problem with bounds and colours: 3-5 primary items `q*`
/// with bounds from [`RANDOM_BOUNDS`] (at least one with a lower bound, so
/// that the empty set is never a solution, and at least one other than
/// "exactly once"), 1-2 secondary items `t*` with
/// colours `red`, `green`, `blue`, 12-14 options of one to three primary
/// items, 1-2 more without any. At most 16 options.
pub fn random_mcc(seed: u64) -> String {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let primary = item_names(&mut rng, "q", 3, 3);
    let secondary = item_names(&mut rng, "t", 1, 2);
    let mut bounds: Vec<&str> = primary
        .iter()
        .map(|_| RANDOM_BOUNDS[below(&mut rng, RANDOM_BOUNDS.len())])
        .collect();
    // A lower bound somewhere, and a bound other than "exactly once".
    if bounds.iter().all(|b| b.starts_with('0')) {
        bounds[0] = "";
    }
    if bounds.iter().all(|b| b.is_empty() || *b == "1:1|") {
        bounds[primary.len() - 1] = "0:2|";
    }
    let colours = ["red", "green", "blue"];
    let problem = ("multiplicity", seed, &colours[..], 3);
    random_problem(&mut rng, problem, (&primary, &bounds, &secondary))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_queens_by_hand() {
        assert_eq!(queens(1), "r0 c0 | a0 b0\nr0 c0 a0 b0\n");
        assert_eq!(
            queens(2),
            "r1 r0 c1 c0 | a0 a1 a2 b0 b1 b2\n\
             r0 c0 a0 b1\nr0 c1 a1 b2\nr1 c0 a1 b0\nr1 c1 a2 b1\n"
        );
    }

    /// The generators write exactly the files of `../shared/xc/`: every
    /// `queensN`, `langfordN`, `latinN` and `twoqueensN` there, not only
    /// those in `fixtures/`, and `word_square_text` every
    /// `wordsquareN_aK.dlx` from its dictionary and comment.
    #[test]
    fn generators_match_shared_xc() {
        let dir = paths::shared().join("xc");
        let Ok(entries) = std::fs::read_dir(&dir) else {
            println!(
                "note: {} is not here; generators not compared with it",
                dir.display()
            );
            return;
        };
        let mut compared = Vec::new();
        for entry in entries {
            let path = entry.unwrap().path();
            let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else {
                continue;
            };
            if path.extension().and_then(|e| e.to_str()) != Some("dlx") {
                continue;
            }
            let expected = std::fs::read_to_string(&path).unwrap();
            let sized = |prefix: &str| stem.strip_prefix(prefix)?.parse::<usize>().ok();
            let generated = if let Some(n) = sized("queens") {
                queens(n)
            } else if let Some(n) = sized("langford") {
                langford(n)
            } else if let Some(n) = sized("latin") {
                latin(n)
            } else if let Some(n) = sized("twoqueens") {
                two_queens(n)
            } else if let Some(rest) = stem.strip_prefix("wordsquare") {
                let n: usize = rest.split('_').next().unwrap().parse().unwrap();
                let mut lines = expected.lines();
                let comment = lines.next().unwrap().strip_prefix("| ").unwrap();
                let words: Vec<String> = lines
                    .next()
                    .unwrap()
                    .split_whitespace()
                    .filter_map(|item| item.strip_prefix('w'))
                    .map(str::to_owned)
                    .collect();
                word_square_text(n, &words, comment)
            } else {
                continue;
            };
            assert!(
                generated == expected,
                "generated {stem}.dlx differs from {}",
                path.display()
            );
            compared.push(stem.to_owned());
        }
        // The fixtures that have a reference twin must all have been seen.
        let twins = ["queens4", "queens12", "langford3", "langford11", "latin5"];
        for name in twins.into_iter().chain(["twoqueens6", "wordsquare4_a4"]) {
            assert!(
                compared.iter().any(|c| c == name),
                "{name}.dlx missing from {}",
                dir.display()
            );
        }
    }

    /// The generated fixtures whose file is missing or differs from what the
    /// generators write now.
    pub fn stale() -> Vec<String> {
        let root = paths::fixtures();
        generated()
            .into_iter()
            .filter(|file| {
                std::fs::read(root.join(&file.path)).ok().as_deref() != Some(file.text.as_bytes())
            })
            .map(|file| file.path)
            .collect()
    }

    /// The committed `fixtures/` are what the generators write now.
    #[test]
    fn fixtures_are_fresh() {
        let stale = stale();
        assert!(
            stale.is_empty(),
            "fixtures/ is stale ({}): run `cargo xtask fixtures` and commit the result",
            stale.join(", ")
        );
    }

    // The colour and multiplicity problems.

    #[test]
    fn two_queens_by_hand() {
        assert_eq!(
            two_queens(2),
            "| two queens in every rank and file of a 2x2 board, no three on a diagonal\n\
             2|r0 2|r1 2|c0 2|c1 0:2|a0 0:2|a1 0:2|a2 0:2|b0 0:2|b1 0:2|b2\n\
             r0 c0 a0 b1\nr0 c1 a1 b0\nr1 c0 a1 b2\nr1 c1 a2 b1\n"
        );
    }

    #[test]
    fn word_square_by_hand() {
        let words = ["ab".to_owned(), "ba".to_owned()];
        assert_eq!(
            word_square_text(2, &words, "two words"),
            "| two words\n\
             R0 R1 C0 C1 | x00 x01 x10 x11 wab wba\n\
             R0 wab x00:a x01:b\nR0 wba x00:b x01:a\n\
             R1 wab x10:a x11:b\nR1 wba x10:b x11:a\n\
             C0 wab x00:a x10:b\nC0 wba x00:b x10:a\n\
             C1 wab x01:a x11:b\nC1 wba x01:b x11:a\n"
        );
        let dictionary = random_dictionary(3, "abc", 12, 1);
        assert_eq!(dictionary.len(), 12);
        assert!(
            dictionary.windows(2).all(|w| w[0] < w[1]),
            "sorted, distinct"
        );
        assert!(dictionary.iter().all(|w| w.len() == 3));
        assert_eq!(dictionary, random_dictionary(3, "abc", 12, 1), "seeded");
    }

    /// The random problems keep their promises: sizes, ignored options,
    /// no two options alike, a lower bound somewhere.
    #[test]
    fn random_problems_are_as_described() {
        for seed in 0..40 {
            for (text, coloured) in [(random_xcc(seed), true), (random_mcc(seed), false)] {
                let cover = exact::read_knuth(&text).unwrap();
                let n = cover.options.len();
                assert!((13..=16).contains(&n), "seed {seed}: {n} options");
                let ignored = (0..n).filter(|&o| !cover.has_primary(o)).count();
                assert!((1..=2).contains(&ignored), "seed {seed}");
                assert!(cover.bounds.iter().any(|b| b.min > 0), "seed {seed}");
                assert_eq!(cover.has_bounds(), !coloured, "seed {seed}");
                assert!(!coloured || cover.has_colours(), "seed {seed}");
            }
        }
    }
}
