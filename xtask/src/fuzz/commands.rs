//! The commands of `cover` as the fuzzer drives them: which read input, the flags each is run with
//! (drawn from its own family, now and then with an odd value), and the [`Case`]: one invocation
//! with its inputs, fed on standard input, as files, or both. Every search is bounded
//! (`--max-nodes` where the command takes it, `--limit` with `--all`, `--attempts`, small boards),
//! so that a legitimately exponential search does not look like a hang.

use std::ffi::OsString;

use rand::rngs::ChaCha8Rng;
use rand::seq::{IndexedRandom, SliceRandom};
use rand::{RngExt, SeedableRng};

use super::grammar::Valid;
use super::mutate::make_input;

/// A command of `cover` and how often it is drawn.
pub struct Spec {
    pub name: &'static str,
    /// It reads inputs (files or standard input); `queens` and `generate` take only arguments.
    pub reads_input: bool,
    /// Relative weight. The commands that parse input get most runs; the other two have only their
    /// flags to vary, and cost more per run.
    pub weight: u32,
    /// It takes `--max-nodes`.
    pub max_nodes: bool,
}

/// Every command, in the order of the report.
#[rustfmt::skip]
pub const COMMANDS: &[Spec] = &[
    Spec { name: "sudoku", reads_input: true, weight: 24, max_nodes: true },
    Spec { name: "exact", reads_input: true, weight: 24, max_nodes: true },
    Spec { name: "radar", reads_input: true, weight: 20, max_nodes: true },
    Spec { name: "target", reads_input: true, weight: 20, max_nodes: true },
    Spec { name: "queens", reads_input: false, weight: 4, max_nodes: true },
    Spec { name: "generate", reads_input: false, weight: 4, max_nodes: false },
    Spec { name: "shard", reads_input: true, weight: 12, max_nodes: false },
];

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
    /// Its one input is valid, and written so (see [`Valid`]): its answers are checked.
    pub valid: Option<Valid>,
}

impl Case {
    /// Whether a flag is among the flags.
    pub fn has_flag(&self, flag: &str) -> bool {
        self.flags
            .iter()
            .any(|g| g.first().is_some_and(|f| f == flag))
    }

    /// The value of a flag, if it has one.
    pub fn value(&self, flag: &str) -> Option<&str> {
        let group = self.flags.iter().find(|g| g[0] == flag)?;
        group.get(1).map(String::as_str)
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
pub fn make_case(rng: &mut ChaCha8Rng, allowed: &[&'static Spec]) -> Case {
    let spec = *allowed
        .choose_weighted(rng, |s| s.weight)
        .expect("at least one command");
    let mut flags = flags(rng, spec);
    // Threads are always set: the default is every core, and 2 workers of 2 threads each already
    // fill this machine. (`shard forecast` has no threads to set.)
    if first(&flags) != "forecast" {
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
            make_input(rng, "sudoku", &[]).0
        } else {
            Vec::new()
        };
        return Case {
            command: spec.name,
            flags,
            inputs: vec![input],
            stdin_slot: Some(0),
            valid: None,
        };
    }
    // `shard split` reads one problem.
    let split = first(&flags) == "split";
    let count = if rng.random_bool(0.85) || split {
        1
    } else {
        rng.random_range(2..=3)
    };
    let (inputs, valid): (Vec<Vec<u8>>, Vec<Option<Valid>>) = (0..count)
        .map(|_| make_input(rng, spec.name, &flags))
        .unzip();
    // One input alone goes on standard input more often than not (but `shard split` reads files
    // only); of several, one may be `-`.
    let stdin_slot = if split {
        None
    } else if count == 1 {
        rng.random_bool(0.6).then_some(0)
    } else {
        rng.random_bool(0.5).then(|| rng.random_range(0..count))
    };
    Case {
        command: spec.name,
        flags,
        inputs,
        stdin_slot,
        valid: valid[0].filter(|_| count == 1),
    }
}

/// Values that are not what a numeric flag expects, or are at its edges: each must give a clean
/// answer or a usage error, never a crash.
#[rustfmt::skip]
const ODD_NUMBERS: &[&str] = &[
    "0", "-1", "", "x", "18446744073709551616", "4294967296x", "1e3", "+3", " 3", "3 ", "٣",
];

/// The levels of `--propagate`.
const LEVELS: [&str; 4] = ["none", "auto", "basic", "full"];

/// Usually one of `usual`; one time in `odds` an odd value instead.
fn odd_or(rng: &mut ChaCha8Rng, usual: &[&str], odds: u32) -> String {
    if rng.random_ratio(1, odds) {
        pick(rng, ODD_NUMBERS).to_owned()
    } else {
        pick(rng, usual).to_owned()
    }
}

/// One of `values` (not empty).
pub fn pick<'a>(rng: &mut ChaCha8Rng, values: &[&'a str]) -> &'a str {
    values.choose(rng).copied().unwrap_or_default()
}

fn pair(flag: &str, value: impl Into<String>) -> Vec<String> {
    vec![flag.to_owned(), value.into()]
}

/// The first word of the flags: `shard`'s subcommand.
fn first(flags: &[Vec<String>]) -> &str {
    flags
        .first()
        .and_then(|g| g.first())
        .map_or("", String::as_str)
}

fn single(flag: &str) -> Vec<String> {
    vec![flag.to_owned()]
}

/// The flags of one run of `command`, drawn from its own family.
fn flags(rng: &mut ChaCha8Rng, spec: &Spec) -> Vec<Vec<String>> {
    let mut flags = Vec::new();
    let json = rng.random_bool(0.3);
    match spec.name {
        "sudoku" => {
            // `--pretty` goes only with plain solutions: clap refuses the other pairs, and a usage
            // error reaches no parser.
            let mut plain = false;
            let mode = rng.random_range(0..9);
            match mode {
                0 => flags.push(single("--count")),
                1 => flags.extend([single("--count"), pair("--limit", odd_or(rng, &["2"], 20))]),
                2 => flags.extend([single("--all"), pair("--limit", odd_or(rng, &["3"], 20))]),
                3 => flags.push(pair("--limit", "2")),
                4 => flags.push(single("--rate")),
                5 => flags.push(single("--explain")),
                _ => plain = true,
            }
            if plain && !json && rng.random_bool(0.2) {
                flags.push(single("--pretty"));
            }
            // `sat` blocks each solution and solves again: not for an unbounded count of a grid
            // with millions.
            let engines: &[&str] = if mode == 0 {
                &["linked", "compact", "band", "triad", "auto"]
            } else {
                &["linked", "compact", "band", "triad", "auto", "sat"]
            };
            let engine = rng.random_bool(0.3).then(|| pick(rng, engines));
            flags.extend(engine.map(|e| pair("--engine", e)));
            // The 9×9 engines reason on their own: `basic` and `full` are a usage error with them.
            let alone = matches!(engine, Some("band" | "triad" | "sat"));
            if rng.random_bool(0.2) {
                let levels = &LEVELS[..if alone { 2 } else { 4 }];
                flags.push(pair("--propagate", pick(rng, levels)));
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
            let mode = rng.random_range(0..5);
            match mode {
                0 => flags.push(single("--count")),
                1 => flags.extend([single("--all"), pair("--limit", odd_or(rng, &["3"], 20))]),
                2 => flags.push(pair("--limit", odd_or(rng, &["2"], 20))),
                3 => flags.extend([single("--count"), pair("--limit", "2")]),
                _ if !json && rng.random_bool(0.1) => flags.push(single("--cnf")),
                _ => {}
            }
            // As for sudoku: no unbounded count by blocking.
            let engines: &[&str] = if mode == 0 {
                &["search", "auto"]
            } else {
                &["search", "auto", "sat"]
            };
            if rng.random_bool(0.3) {
                flags.push(pair("--engine", pick(rng, engines)));
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
            if rng.random_bool(0.2) {
                flags.push(pair("--propagate", pick(rng, &LEVELS)));
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
            // The inputs are a problem (for `split`), shard lines (for `run`) or result lines (for
            // `merge` and `forecast`) of `fixtures/shard/`; the split file of `--remaining` and
            // `forecast` is the fixture.
            let split = crate::paths::fixtures().join("shard/queens6.shards.jsonl");
            let split = split.to_string_lossy().into_owned();
            match rng.random_range(0..11) {
                0..=4 => {
                    let n = odd_or(rng, &["6", "6", "6", "6", "6", "5", "8"], 20);
                    flags.push(vec!["run".into(), "--queens".into(), n]);
                }
                5..=7 => {
                    flags.push(single("merge"));
                    if rng.random_bool(0.3) {
                        flags.push(pair("--remaining", split));
                    }
                }
                8 => {
                    flags.push(vec!["forecast".into(), split]);
                    flags.push(pair("--workers", odd_or(rng, &["1", "100"], 20)));
                }
                _ => {
                    let shards = odd_or(rng, &["1", "4", "16"], 20);
                    flags.push(vec!["split".into(), "--shards".into(), shards]);
                }
            }
        }
        other => unreachable!("no flags for {other}"),
    }
    // `shard split` writes JSON lines only.
    if json && first(&flags) != "split" {
        flags.push(single("--json"));
    }
    if rng.random_bool(0.08) && first(&flags) != "forecast" {
        flags.push(single("--stats"));
    }
    if spec.max_nodes {
        // A node budget: mostly large enough to solve what is solvable, now and then tiny, to reach
        // the `gave up` paths.
        let budget = odd_or(
            rng,
            &["100000", "100000", "100000", "100000", "1000", "10"],
            30,
        );
        flags.push(pair("--max-nodes", budget));
    }
    flags
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_case_depends_only_on_seed_and_index() {
        let all: Vec<&Spec> = COMMANDS.iter().collect();
        let make = |seed, index| make_case(&mut case_rng(seed, index), &all);
        assert_eq!(make(1, 5), make(1, 5));
        let differ = (0..20).filter(|&i| make(1, i) != make(1, i + 1)).count();
        assert!(differ > 15);
    }

    #[test]
    fn searches_are_bounded_where_the_binary_allows() {
        let all: Vec<&Spec> = COMMANDS.iter().collect();
        for index in 0..500 {
            let case = make_case(&mut case_rng(9, index), &all);
            assert_eq!(
                case.has_flag("--jobs"),
                first(&case.flags) != "forecast",
                "{case:?}"
            );
            let bounded = case.has_flag("--max-nodes");
            let spec = COMMANDS.iter().find(|s| s.name == case.command).unwrap();
            assert_eq!(bounded, spec.max_nodes, "{case:?}");
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
            valid: None,
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
