//! The commands of `cover` as the fuzzer drives them: which read input, the flags each is run with
//! (drawn from its own family, now and then with an odd value), and the [`Case`]: one invocation
//! with its inputs, fed on standard input, as files, or both. Every search is bounded
//! (`--max-nodes` where `--help` lists it, `--limit` with `--all`, `--attempts`, small boards), so
//! that a legitimately exponential search does not look like a hang.

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::path::Path;
use std::time::Duration;

use anyhow::{bail, Result};
use cover_check::process;
use rand::rngs::ChaCha8Rng;
use rand::seq::{IndexedRandom, SliceRandom};
use rand::{RngExt, SeedableRng};

use super::mutate::{make_input, Seed};

/// A command of `cover` and how often it is drawn.
pub struct Spec {
    pub name: &'static str,
    /// It reads inputs (files or standard input); `queens` and `generate` take only arguments.
    pub reads_input: bool,
    /// Relative weight. The commands that parse input get most runs; the other two have only their
    /// flags to vary, and cost more per run.
    pub weight: u32,
}

/// Every command, in the order of the report.
#[rustfmt::skip]
pub const COMMANDS: &[Spec] = &[
    Spec { name: "sudoku", reads_input: true, weight: 24 },
    Spec { name: "exact", reads_input: true, weight: 24 },
    Spec { name: "radar", reads_input: true, weight: 20 },
    Spec { name: "target", reads_input: true, weight: 20 },
    Spec { name: "queens", reads_input: false, weight: 4 },
    Spec { name: "generate", reads_input: false, weight: 4 },
    Spec { name: "shard", reads_input: true, weight: 12 },
];

/// What the binary at hand supports.
#[derive(Clone, Debug, Default)]
pub struct Caps {
    /// The commands whose `--help` mentions `--max-nodes`.
    pub max_nodes: BTreeSet<&'static str>,
}

/// Asks `cover <command> --help` of every command whether it takes `--max-nodes`.
pub fn detect_caps(bin: &Path) -> Result<Caps> {
    let mut caps = Caps::default();
    for spec in COMMANDS {
        let help = process::run(bin, &[spec.name, "--help"], b"", Duration::from_secs(60))
            .map_err(anyhow::Error::msg)?;
        if help.code != Some(0) {
            bail!(
                "`{} {} --help` failed: {}",
                bin.display(),
                spec.name,
                help.stderr
            );
        }
        if help.stdout.contains("--max-nodes") {
            caps.max_nodes.insert(spec.name);
        }
    }
    Ok(caps)
}

/// One invocation of `cover`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// The command (`sudoku`).
    pub command: &'static str,
    /// The flags after it, in groups (`["--limit", "3"]`), so that the minimiser can drop a flag
    /// with its value. `queens`' N is a group.
    pub flags: Vec<Vec<String>>,
    /// The inputs, in the order of the command line.
    pub inputs: Vec<Vec<u8>>,
    /// The input fed on standard input (named `-` on the command line, or not named when it is the
    /// only one), if any.
    pub stdin_slot: Option<usize>,
}

impl Case {
    /// Whether a flag is among the flags.
    pub fn has_flag(&self, flag: &str) -> bool {
        self.flags
            .iter()
            .any(|g| g.first().is_some_and(|f| f == flag))
    }

    /// The bytes for standard input.
    pub fn stdin(&self) -> &[u8] {
        self.stdin_slot
            .and_then(|i| self.inputs.get(i))
            .map_or(&[][..], Vec::as_slice)
    }

    /// The arguments after the binary, with input `i` named `names[i]` when it is a file.
    pub fn args(&self, names: &[String]) -> Vec<OsString> {
        let mut args = vec![OsString::from(self.command)];
        args.extend(self.flags.iter().flatten().map(OsString::from));
        let alone_on_stdin = self.inputs.len() == 1 && self.stdin_slot == Some(0);
        if !alone_on_stdin {
            for (i, name) in names.iter().enumerate().take(self.inputs.len()) {
                if self.stdin_slot == Some(i) {
                    args.push("-".into());
                } else {
                    args.push(name.into());
                }
            }
        }
        args
    }
}

/// The generator of case `index` of the run with `seed`: its own stream of ChaCha8, so that a case
/// is the same whichever worker draws it.
pub fn case_rng(seed: u64, index: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(index);
    rng
}

/// Draws a case: a command (among `allowed`), its flags, its inputs.
pub fn make_case(
    rng: &mut ChaCha8Rng,
    allowed: &[&'static Spec],
    caps: &Caps,
    corpus: &[Seed],
) -> Case {
    let spec = *allowed
        .choose_weighted(rng, |s| s.weight)
        .expect("at least one command");
    let mut flags = flags(rng, spec.name, caps);
    // Threads are always set: the default is every core, and 2 workers of 2 threads each already
    // fill this machine. (`shard forecast` has no threads to set.)
    if !is_forecast(&flags) {
        flags.push(vec!["--jobs".into(), odd_or(rng, &["1", "2"], 40)]);
    }
    // clap takes flags in any order, and `queens`' N anywhere among them. (`shard`'s subcommand
    // stays first.)
    if rng.random_bool(0.3) && spec.name != "shard" {
        flags.shuffle(rng);
    }
    if !spec.reads_input {
        // Standard input is ignored; random bytes on it cost little.
        let input = if rng.random_bool(0.1) {
            make_input(rng, "sudoku", corpus)
        } else {
            Vec::new()
        };
        return Case {
            command: spec.name,
            flags,
            inputs: vec![input],
            stdin_slot: Some(0),
        };
    }
    let count = if rng.random_bool(0.85) {
        1
    } else {
        rng.random_range(2..=3)
    };
    let inputs: Vec<Vec<u8>> = (0..count)
        .map(|_| make_input(rng, spec.name, corpus))
        .collect();
    // One input alone goes on standard input more often than not; of several, one may be `-`.
    let stdin_slot = if count == 1 {
        rng.random_bool(0.6).then_some(0)
    } else {
        rng.random_bool(0.5).then(|| rng.random_range(0..count))
    };
    Case {
        command: spec.name,
        flags,
        inputs,
        stdin_slot,
    }
}

/// Values that are not what a numeric flag expects, or are at its edges: each must give a clean
/// answer or a usage error, never a crash.
#[rustfmt::skip]
const ODD_NUMBERS: &[&str] = &[
    "0", "-1", "", "x", "18446744073709551616", "4294967296x", "1e3", "+3", " 3", "3 ", "٣",
];

/// Usually one of `usual`; one time in `odds` an odd value instead.
fn odd_or(rng: &mut ChaCha8Rng, usual: &[&str], odds: u32) -> String {
    if rng.random_ratio(1, odds) {
        pick(rng, ODD_NUMBERS).to_owned()
    } else {
        pick(rng, usual).to_owned()
    }
}

/// One of `values` (not empty).
fn pick<'a>(rng: &mut ChaCha8Rng, values: &[&'a str]) -> &'a str {
    values.choose(rng).copied().unwrap_or_default()
}

fn pair(flag: &str, value: impl Into<String>) -> Vec<String> {
    vec![flag.to_owned(), value.into()]
}

/// Whether the flags are those of `shard forecast`, which takes neither `--jobs` nor `--stats`.
fn is_forecast(flags: &[Vec<String>]) -> bool {
    flags
        .first()
        .and_then(|group| group.first())
        .is_some_and(|first| first == "forecast")
}

fn single(flag: &str) -> Vec<String> {
    vec![flag.to_owned()]
}

/// The flags of one run of `command`, drawn from its own family.
fn flags(rng: &mut ChaCha8Rng, command: &str, caps: &Caps) -> Vec<Vec<String>> {
    let mut flags = Vec::new();
    let json = rng.random_bool(0.3);
    match command {
        "sudoku" => {
            // `--pretty` goes only with plain solutions: clap refuses the other pairs, and a usage
            // error reaches no parser.
            let mut plain = false;
            match rng.random_range(0..8) {
                0 => flags.push(single("--count")),
                1 => flags.extend([single("--count"), pair("--limit", odd_or(rng, &["2"], 20))]),
                2 => flags.extend([single("--all"), pair("--limit", odd_or(rng, &["3"], 20))]),
                3 => flags.push(pair("--limit", "2")),
                4 => flags.push(single("--rate")),
                _ => plain = true,
            }
            if plain && !json && rng.random_bool(0.2) {
                flags.push(single("--pretty"));
            }
            if rng.random_bool(0.3) {
                flags.push(pair("--engine", pick(rng, &["linked", "compact"])));
            }
            if rng.random_bool(0.06) {
                #[rustfmt::skip]
                let symbols = [
                    "123456789ABCDEFG", "123456789", "1234", "ABCDEFGHIJKLMNOPQRSTUVWXY", "", "1",
                    "11", "12345678", "0123456789", "abcdefghi", "éèêëàâäôö",
                ];
                flags.push(pair("--symbols", pick(rng, &symbols)));
            }
        }
        "exact" => {
            match rng.random_range(0..5) {
                0 => flags.push(single("--count")),
                1 => flags.extend([single("--all"), pair("--limit", odd_or(rng, &["3"], 20))]),
                2 => flags.push(pair("--limit", odd_or(rng, &["2"], 20))),
                3 => flags.extend([single("--count"), pair("--limit", "2")]),
                _ => {}
            }
            if rng.random_bool(0.3) {
                flags.push(pair("--format", pick(rng, &["matrix", "knuth"])));
            }
        }
        "radar" => {
            if rng.random_bool(0.4) {
                flags.push(pair("--probes", odd_or(rng, &["1", "2", "3"], 15)));
            }
        }
        "target" => {
            if rng.random_bool(0.4) {
                flags.push(single("--show"));
            }
        }
        "queens" => {
            // At most 14, and rarely above 12: `--count 14` takes a second here, and a bigger board
            // is an exponential search, not a bug.
            let odd = ["-1", "x", "", "18446744073709551616", "4294967296", "1.5"];
            let n = if rng.random_ratio(1, 20) {
                pick(rng, &odd).to_owned()
            } else if rng.random_ratio(1, 10) {
                rng.random_range(13..=14u32).to_string()
            } else {
                rng.random_range(0..=12u32).to_string()
            };
            flags.push(vec![n]);
            match rng.random_range(0..5) {
                0 => flags.push(single("--count")),
                1 => flags.extend([single("--count"), single("--symmetry")]),
                2 => flags.extend([single("--all"), pair("--limit", odd_or(rng, &["3"], 20))]),
                3 => flags.push(pair("--limit", "2")),
                _ => {}
            }
        }
        "generate" => {
            // No 16×16: its generation has a heavy tail (one seed in 25 takes 4 s here, two cores
            // shared), which would read as a hang; `cargo xtask bench generate` times it instead.
            let size = pick(rng, &["4", "9", "9"]);
            let count = pick(rng, &["1", "2", "3"]);
            flags.push(pair("--size", odd_or(rng, &[size], 30)));
            flags.push(pair("--count", count));
            flags.push(pair("--seed", rng.random::<u64>().to_string()));
            let cells: u32 = size.parse::<u32>().unwrap().pow(2);
            let mut targeted = false;
            if rng.random_bool(0.25) {
                flags.push(pair("--clues", rng.random_range(0..=cells + 2).to_string()));
                targeted = true;
            }
            if rng.random_bool(0.25) {
                flags.push(single("--symmetric"));
            }
            if rng.random_bool(0.25) {
                let grade = pick(rng, &["easy", "medium", "hard", "extreme", "Easy", ""]);
                flags.push(pair("--difficulty", grade));
                targeted = true;
            }
            if targeted {
                // The default of 1000 attempts runs for seconds.
                let attempts = pick(rng, &["1", "5", "20"]);
                flags.push(pair("--attempts", odd_or(rng, &[attempts], 20)));
            }
        }
        "shard" => {
            // The inputs are shard lines (for `run`) or result lines (for `merge` and `forecast`)
            // of `fixtures/shard/`, mutated; the split file of `--remaining` and `forecast` is the
            // fixture.
            let split = crate::paths::fixtures().join("shard/queens6.shards.jsonl");
            let split = split.to_string_lossy().into_owned();
            match rng.random_range(0..10) {
                0..=4 => {
                    let n = odd_or(rng, &["6", "6", "6", "5", "8"], 20);
                    flags.push(vec!["run".into(), "--queens".into(), n]);
                }
                5..=7 => {
                    flags.push(single("merge"));
                    if rng.random_bool(0.3) {
                        flags.push(pair("--remaining", split));
                    }
                }
                _ => {
                    flags.push(vec!["forecast".into(), split]);
                    flags.push(pair("--workers", odd_or(rng, &["1", "100"], 20)));
                }
            }
        }
        other => unreachable!("no flags for {other}"),
    }
    if json {
        flags.push(single("--json"));
    }
    if rng.random_bool(0.08) && !is_forecast(&flags) {
        flags.push(single("--stats"));
    }
    if caps.max_nodes.contains(command) {
        // A node budget: mostly large enough to solve what is solvable, now and then tiny, to reach
        // the `gave up` paths.
        let budget = odd_or(rng, &["100000", "100000", "100000", "1000", "10", "1"], 30);
        flags.push(pair("--max-nodes", budget));
    }
    flags
}

#[cfg(test)]
mod tests {
    use super::*;

    fn caps() -> Caps {
        Caps {
            max_nodes: ["sudoku", "exact"].into_iter().collect(),
        }
    }

    #[test]
    fn a_case_depends_only_on_seed_and_index() {
        let all: Vec<&Spec> = COMMANDS.iter().collect();
        let make = |seed, index| make_case(&mut case_rng(seed, index), &all, &caps(), &[]);
        assert_eq!(make(1, 5), make(1, 5));
        let differ = (0..20).filter(|&i| make(1, i) != make(1, i + 1)).count();
        assert!(differ > 15);
    }

    #[test]
    fn searches_are_bounded_where_the_binary_allows() {
        let all: Vec<&Spec> = COMMANDS.iter().collect();
        for index in 0..500 {
            let case = make_case(&mut case_rng(9, index), &all, &caps(), &[]);
            assert_eq!(
                case.has_flag("--jobs"),
                !is_forecast(&case.flags),
                "{case:?}"
            );
            let bounded = case.has_flag("--max-nodes");
            let expected = caps().max_nodes.contains(case.command);
            assert_eq!(bounded, expected, "{case:?}");
            if case.has_flag("--all") {
                assert!(case.has_flag("--limit"), "{case:?}");
            }
        }
    }

    #[test]
    fn arguments_name_files_and_stdin() {
        let mut case = Case {
            command: "exact",
            flags: vec![vec!["--count".into()]],
            inputs: vec![b"a".to_vec(), b"b".to_vec()],
            stdin_slot: Some(1),
        };
        let names = ["in0".to_owned(), "in1".to_owned()];
        assert_eq!(case.args(&names), ["exact", "--count", "in0", "-"]);
        assert_eq!(case.stdin(), b"b");
        case.inputs.truncate(1);
        case.stdin_slot = Some(0);
        assert_eq!(case.args(&names), ["exact", "--count"]);
        case.stdin_slot = None;
        assert_eq!(case.args(&names), ["exact", "--count", "in0"]);
        assert_eq!(case.stdin(), b"");
    }
}
