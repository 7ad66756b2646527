//! Independent numbers for the colour (XCC) and multiplicity (MCC)
//! fixtures, with nothing shared with the engine or its parsers, and the
//! tests that hold `fixtures/exact/expected.tsv` to them:
//! - [`brute_force_count`], their solutions;
//! - [`compare_with_manifest`], which `cargo xtask fixtures` runs after
//!   writing, so that a changed generator shows its new solution counts at
//!   once.
//!
//! The brute force decides each option in or out, in input order, and
//! counts the sets of options that are solutions by the rules of Knuth's
//! DLX2 and DLX3 (see [`crate::verify::check_cover`]): each primary item
//! covered within its bounds, each secondary item named by one option, or
//! by several that all give it the same colour; options without a primary
//! item are never chosen. It prunes only what cannot end in a solution (an
//! item past its upper bound, a colour clash, an item that the options
//! left can no longer bring to its lower bound), so it is slow but plainly
//! right; it is meant for the small fixtures.
//!
//! The nodes and updates that the manifest gives the colour fixtures are
//! data, not computed here: they are what Knuth's DLX2 itself printed for
//! each file (built by hand, as README's "Benchmarks" says; `cargo xtask
//! bench xcc` runs it beside `cover`). No code of Knuth's is in this
//! repository.
//!
//! What not to trust: the brute force reads problems with verify's own
//! reader ([`crate::verify::read_knuth`]), so a bug there is shared with
//! the checker (the reader's tests are the guard), and it counts options
//! by place, where the checker knows them by content: that is why
//! fixtures may not hold two equal options (tested below).
//!
//! The tests also count tiny problems a third way, every subset of the
//! options through `check_cover`, so that the brute force and the checker
//! are held to each other.

use crate::fixtures::Generated;
use crate::verify::{read_knuth, read_manifest, Cover};

/// The number of solutions of `cover` (colours and bounds included).
pub fn brute_force_count(cover: &Cover) -> u64 {
    let mut counter = Counter::new(cover);
    counter.decide(0);
    counter.solutions
}

/// Counts every generated fixture with colours or bounds by brute force
/// and compares the solutions with `fixtures/exact/expected.tsv`; prints
/// the row the manifest should have for each that disagrees or is
/// missing, and returns how many did. (Nodes and updates are not checked
/// here: see the module documentation.)
pub fn compare_with_manifest(files: &[Generated]) -> anyhow::Result<usize> {
    let dir = crate::fixtures::fixtures_dir();
    let manifest = read_manifest(&dir.join("exact/expected.tsv"))?;
    let mut wrong = 0;
    for file in files {
        let Some(name) = file.path.strip_prefix("exact/") else {
            continue;
        };
        let cover = read_knuth(&file.text).map_err(|e| anyhow::anyhow!("{}: {e}", file.path))?;
        if !cover.has_colours() && !cover.has_bounds() {
            continue;
        }
        let solutions = brute_force_count(&cover);
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

/// The state of the brute force: options decided so far and their effect.
struct Counter<'a> {
    cover: &'a Cover,
    /// The options that may be chosen: those with a primary item.
    options: Vec<usize>,
    /// `later[k][i]`: how many of `options[k..]` name primary item `i`.
    later: Vec<Vec<u32>>,
    /// How many chosen options name each primary item.
    covered: Vec<u32>,
    /// For each item (only the secondary ones are used): how many chosen
    /// options name it, and the colour the first of them gives it.
    shared: Vec<(u32, Option<usize>)>,
    solutions: u64,
}

impl<'a> Counter<'a> {
    fn new(cover: &'a Cover) -> Counter<'a> {
        let options: Vec<usize> = (0..cover.options.len())
            .filter(|&o| cover.has_primary(o))
            .collect();
        let mut later = vec![vec![0; cover.primary]; options.len() + 1];
        for k in (0..options.len()).rev() {
            later[k] = later[k + 1].clone();
            for &item in &cover.options[options[k]] {
                if item < cover.primary {
                    later[k][item] += 1;
                }
            }
        }
        Counter {
            cover,
            options,
            later,
            covered: vec![0; cover.primary],
            shared: vec![(0, None); cover.items.len()],
            solutions: 0,
        }
    }

    /// Counts the solutions that extend the choices made for
    /// `options[..k]`.
    fn decide(&mut self, k: usize) {
        let cover = self.cover;
        let Some(&option) = self.options.get(k) else {
            let reached = (0..cover.primary).all(|i| self.covered[i] >= cover.bounds[i].min);
            self.solutions += u64::from(reached);
            return;
        };
        let primary = || cover.options[option].iter().filter(|&&i| i < cover.primary);
        // Leave the option out, unless one of its items could then never
        // reach its lower bound.
        if primary().all(|&i| self.covered[i] + self.later[k + 1][i] >= cover.bounds[i].min) {
            self.decide(k + 1);
        }
        // Take it, when it fits with the options taken.
        if self.fits(option) {
            self.take(option);
            self.decide(k + 1);
            self.put_back(option);
        }
    }

    /// Whether `option` can join the chosen options: no primary item past
    /// its upper bound, no secondary item named twice unless both give it
    /// the same colour.
    fn fits(&self, option: usize) -> bool {
        let cover = self.cover;
        let mut entries = cover.options[option].iter().zip(&cover.colours[option]);
        entries.all(|(&item, &colour)| {
            if item < cover.primary {
                return self.covered[item] < cover.bounds[item].max;
            }
            let (uses, first) = self.shared[item];
            uses == 0 || (colour.is_some() && first == colour)
        })
    }

    /// Adds `option` to the chosen options.
    fn take(&mut self, option: usize) {
        let cover = self.cover;
        for (&item, &colour) in cover.options[option].iter().zip(&cover.colours[option]) {
            if item < cover.primary {
                self.covered[item] += 1;
            } else {
                let (uses, first) = &mut self.shared[item];
                if *uses == 0 {
                    *first = colour;
                }
                *uses += 1;
            }
        }
    }

    /// Removes `option`, the last option taken, from the chosen options.
    fn put_back(&mut self, option: usize) {
        let cover = self.cover;
        for &item in &cover.options[option] {
            if item < cover.primary {
                self.covered[item] -= 1;
            } else {
                // The colour stays; it counts only while the item is used.
                self.shared[item].0 -= 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::harness::{parse_xcc_reference, Program, XccRow};
    use crate::fixtures::fixtures_dir;
    use crate::verify::{check_cover, read_fixture, Kind};

    /// Every subset of the options that `check_cover` accepts: a second
    /// count, for problems of at most 20 options.
    fn count_by_subsets(cover: &Cover) -> u64 {
        let n = cover.options.len();
        assert!(n <= 20, "{n} options are too many to try every subset");
        (0u32..1 << n)
            .filter(|mask| {
                let chosen: Vec<usize> = (0..n).filter(|&o| mask & (1 << o) != 0).collect();
                check_cover(cover, &chosen).is_ok()
            })
            .count() as u64
    }

    fn count(text: &str) -> u64 {
        let cover = read_knuth(text).unwrap();
        let counted = brute_force_count(&cover);
        assert_eq!(counted, count_by_subsets(&cover), "{text}");
        counted
    }

    /// Knuth's small colour example of `shared/xc/xcc_small.dlx`; its three
    /// solutions, worked out by hand: {1, 5}, {2, 4} and {3, 6}.
    pub const XCC_SMALL: &str = "\
| a small colour example: p q r primary, x y secondary with colours
p q r | x y
p q x:A y:A
p r x:B y:A
p x:A
q x:B
r y:A
q r y:B
";

    #[test]
    fn colours_by_hand() {
        assert_eq!(count(XCC_SMALL), 3);
        // The same colour may be shared; no colour may not.
        assert_eq!(count("a b | x\na x:A\nb x:A\na b\n"), 2);
        assert_eq!(count("a b | x\na x\nb x\na b\n"), 1);
        assert_eq!(count("a b | x\na x:A\nb x:B\n"), 0);
        assert_eq!(count("a b | x\na x\nb x:A\n"), 0);
        // A secondary item named by no chosen option is fine.
        assert_eq!(count("a | x y\na x:A\na y\n"), 2);
    }

    #[test]
    fn bounds_by_hand() {
        // a exactly twice, b once: only {a, a b}.
        assert_eq!(count("2|a b\na\na b\nb\n"), 1);
        // a 0 to 2 times, b 1 to 3: every subset of {a, b, a b} with b.
        assert_eq!(count("0:2|a 1:3|b\na\nb\na b\n"), 6);
        // `1:1|a` is the same as `a`.
        assert_eq!(count("1:1|a b\na\nb\na b\n"), count("a b\na\nb\na b\n"));
        assert_eq!(count("a b\na\nb\na b\n"), 2);
        // Bounds and colours together.
        // {1, 2}, {1, 4}, {2, 4}, {3, 4}: b twice, x of one colour.
        assert_eq!(count("0:2|a 2|b | x\na b x:A\nb x:A\na b x:B\nb\n"), 4);
        // A lower bound that the options cannot reach.
        assert_eq!(count("3|a b\na\na b\n| comment\n"), 0);
    }

    #[test]
    fn options_without_primary_items_are_never_chosen() {
        assert_eq!(count("a | x\na\nx\n"), 1);
        assert_eq!(count("0:1|a | x\na x:A\nx:A\n"), 2, "{{}} and {{a x:A}}");
        assert_eq!(count("a | x y\nx y:B\na x\ny:B\n"), 1);
    }

    /// The generated random instances, by two counts that share nothing
    /// but the reader.
    #[test]
    fn random_instances_by_subsets() {
        for seed in 0..12 {
            for text in [
                crate::fixtures_xcc::random_xcc(seed),
                crate::fixtures_xcc::random_mcc(seed),
            ] {
                count(&text);
            }
        }
    }

    /// The counts of `shared/xc/REFERENCE-XCC.md` for the files small
    /// enough to count here (the word squares take a release build; see
    /// the ignored test below).
    #[test]
    fn brute_force_matches_reference_xcc() {
        let Some((dir, reference)) = reference_xcc() else {
            return;
        };
        for name in ["xcc_small", "twoqueens6"] {
            let text = std::fs::read_to_string(dir.join(format!("{name}.dlx"))).unwrap();
            let want = reference.iter().find(|r| r.name == name).expect(name);
            let count = brute_force_count(&read_knuth(&text).unwrap());
            assert_eq!(count, want.solutions, "{name}");
        }
        let small = std::fs::read_to_string(dir.join("xcc_small.dlx")).unwrap();
        assert_eq!(small, XCC_SMALL, "xcc_small.dlx is the example above");
    }

    /// As above for `wordsquare4_a4` (296 solutions): `cargo test -p xtask
    /// --release -- --ignored` (a second; a minute in a debug build).
    #[test]
    #[ignore]
    fn brute_force_matches_reference_word_square() {
        let Some((dir, reference)) = reference_xcc() else {
            return;
        };
        let name = "wordsquare4_a4";
        let text = std::fs::read_to_string(dir.join(format!("{name}.dlx"))).unwrap();
        let want = reference.iter().find(|r| r.name == name).expect(name);
        let count = brute_force_count(&read_knuth(&text).unwrap());
        assert_eq!(count, want.solutions);
    }

    /// The fixture `xcc_small.dlx` is Knuth's example, and the manifest
    /// gives it and `twoqueens6` the counts of REFERENCE-XCC.md (for
    /// `xcc_small`, DLX2's nodes and updates too).
    #[test]
    fn manifest_agrees_with_reference_xcc() {
        let dir = fixtures_dir().join("exact");
        let text = std::fs::read_to_string(dir.join("xcc_small.dlx")).unwrap();
        assert_eq!(text, XCC_SMALL);
        let manifest = read_manifest(&dir.join("expected.tsv")).unwrap();
        let row = |file: &str| manifest.iter().find(|r| r.file == file).unwrap();
        let small = row("xcc_small.dlx");
        assert_eq!(
            (small.nodes.as_deref(), small.updates.as_deref()),
            (Some(&[7][..]), Some(&[24][..]))
        );
        assert_eq!(row("twoqueens6.dlx").solutions, [1097]);
        let Some((_, reference)) = reference_xcc() else {
            return;
        };
        for file in ["xcc_small.dlx", "twoqueens6.dlx"] {
            let want = reference
                .iter()
                .find(|r| format!("{}.dlx", r.name) == file)
                .unwrap();
            let row = row(file);
            assert_eq!(row.solutions, [want.solutions], "{file}");
            if want.program == Program::Dlx2 {
                assert_eq!(row.nodes, Some(vec![want.nodes]), "{file}");
                assert_eq!(row.updates, Some(vec![want.updates]), "{file}");
            }
        }
    }

    /// `../shared/xc/` and the rows of its `REFERENCE-XCC.md`, or `None`
    /// (with a note) when the folder is not here.
    fn reference_xcc() -> Option<(std::path::PathBuf, Vec<XccRow>)> {
        let dir = crate::paths::shared().join("xc");
        let Ok(text) = std::fs::read_to_string(dir.join("REFERENCE-XCC.md")) else {
            println!("note: {} is not here; not compared", dir.display());
            return None;
        };
        let rows = parse_xcc_reference(&text).unwrap();
        assert!(rows.len() >= 7, "REFERENCE-XCC.md has its seven rows");
        Some((dir, rows))
    }

    /// The manifest's counts of every fixture with colours or bounds are
    /// the brute force's; the nodes and updates of problems with bounds
    /// are not checked (the engine's branching is its own there).
    #[test]
    fn manifest_counts_by_brute_force() {
        let dir = fixtures_dir().join("exact");
        let manifest = read_manifest(&dir.join("expected.tsv")).unwrap();
        let mut checked = 0;
        for row in &manifest {
            let covers = read_fixture(&dir.join(&row.file)).unwrap();
            let [cover] = &covers[..] else { continue };
            if !cover.has_colours() && !cover.has_bounds() {
                continue;
            }
            assert_eq!(
                [brute_force_count(cover)],
                row.solutions[..],
                "{}",
                row.file
            );
            if cover.has_bounds() {
                assert_eq!((&row.nodes, &row.updates), (&None, &None), "{}", row.file);
            }
            checked += 1;
        }
        assert!(checked >= 10, "{checked} colour and bound fixtures");
    }

    /// The checker knows an option by its items and colours, so no fixture
    /// may hold two equal options (their solutions would print alike).
    #[test]
    fn no_fixture_repeats_an_option() {
        let dir = fixtures_dir().join("exact");
        for row in read_manifest(&dir.join("expected.tsv")).unwrap() {
            for cover in read_fixture(&dir.join(&row.file)).unwrap() {
                if cover.kind != Kind::Knuth {
                    continue; // A matrix row is known by its number.
                }
                let mut seen = std::collections::HashSet::new();
                for option in 0..cover.options.len() {
                    let mut key: Vec<_> = cover.options[option]
                        .iter()
                        .zip(&cover.colours[option])
                        .collect();
                    key.sort_unstable();
                    assert!(
                        seen.insert(key),
                        "{}: option {} again",
                        row.file,
                        option + 1
                    );
                }
            }
        }
    }
}
