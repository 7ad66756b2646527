//! The colour (XCC) and multiplicity (MCC) fixtures held to numbers that
//! owe nothing to the engine: `fixtures/exact/expected.tsv`'s solutions
//! against `cover-check`'s brute force ([`brute_force_count`]), the brute
//! force against Knuth's published counts in `../shared/xc/`, and both
//! against a third count (every subset of the options through
//! `check_cover`) on tiny problems.
//!
//! The nodes and updates that the manifest gives the colour fixtures are
//! data, not computed here: they are what Knuth's DLX2 itself printed for
//! each file (`cargo xtask bench xcc` runs it beside `cover`).
//!
//! What not to trust: the brute force reads problems with `cover-check`'s
//! reader, so a bug there is shared with the checker (the reader's tests
//! are the guard), and it counts options by place, where the checker knows
//! them by content: that is why fixtures may not hold two equal options
//! (tested below).

use cover_check::brute;
use cover_check::exact::Cover;

/// The number of solutions of `cover` (colours and bounds included), by
/// `cover-check`'s brute force.
pub fn brute_force_count(cover: &Cover) -> u64 {
    brute::count(&cover.to_problem())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::harness::{parse_xcc_reference, Program, XccRow};
    use cover_check::exact::{check_cover, read_fixture, read_knuth, Kind};
    use cover_check::manifest::read_manifest;

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
                crate::fixtures::random_xcc(seed),
                crate::fixtures::random_mcc(seed),
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
        let dir = crate::paths::fixtures().join("exact");
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
        let dir = crate::paths::fixtures().join("exact");
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
        let dir = crate::paths::fixtures().join("exact");
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
