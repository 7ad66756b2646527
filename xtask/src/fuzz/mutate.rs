//! The input side of `cargo xtask fuzz`: the corpus (every input file of `fixtures/`, each tied to
//! the command that reads it) and the dumb mutators that turn a corpus file, or random bytes, into
//! a new input. They know nothing of the formats beyond "text made of lines", and draw everything
//! from the caller's generator, so that an input depends only on the seed that made it.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use rand::seq::IndexedRandom;
use rand::{Rng, RngExt};

/// No input grows past this (the long lines stay below it).
pub const MAX_INPUT: usize = 12 << 20;

/// The longest of the occasional very long lines.
const LONG_LINE_MAX: usize = 10 << 20;

/// The shortest of them: past any sane line, well below the memory cap.
const LONG_LINE_MIN: usize = 200 << 10;

/// One in this many inputs gets a very long line appended. Rare, because each costs milliseconds to
/// build and to feed; frequent enough that a ten-minute run tries a few hundred of them.
const LONG_LINE_ODDS: u32 = 150;

/// Tokens that parsers tend to get wrong: numbers at and past the limits of the integer types, the
/// format's own separators and keywords, line ends, NUL, a byte-order mark and invalid UTF-8.
#[rustfmt::skip]
pub const TOKENS: &[&[u8]] = &[
    b"0", b"-1", b"1", b"-0", b"+1",
    b"4294967296", b"4294967295", b"18446744073709551616", b"18446744073709551615",
    b"9223372036854775808", b"999999999999",
    b"1000000001", b"-1000000001", b"1000000000", b"-1000000000",
    b"99999999999999999999999999999999999999999999999999",
    b":", b"|", b"end", b"END", b"#",
    b"\r\n", b"\r", b"\n", b"\n\n", b"\0", b"\xEF\xBB\xBF", b"\xFF", b"\xC3",
    b"\t", b" ", b".", b"-", b"_", b"x:red", b"a:b|x", b",", b",,",
    b"+-----+", b"+-----+-----+-----+", b"1e9", b"0x10", b"\xE2\x80\x83",
];

/// Numbers at the edges of what the formats and the integer types take, for [`Mutation::Number`].
#[rustfmt::skip]
const EDGE_NUMBERS: &[&str] = &[
    "0", "1", "2", "-1", "9", "16", "50", "51", "64", "81",
    "1000000000", "1000000001", "-1000000001",
    "2147483648", "4294967296", "9223372036854775807", "18446744073709551616",
];

/// A file of the corpus: a fixture and the command that reads it.
pub struct Seed {
    /// The command (`sudoku`, `exact`, `radar`, `target`).
    pub command: &'static str,
    /// Its bytes.
    pub bytes: Vec<u8>,
}

/// Every input file under `fixtures/<command>/` for the given commands: everything but the
/// manifests, the expected outputs and the READMEs.
pub fn load_corpus(fixtures: &Path, commands: &[&'static str]) -> Result<Vec<Seed>> {
    let mut corpus = Vec::new();
    for &command in commands {
        let dir = fixtures.join(command);
        let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
            .with_context(|| format!("reading {}", dir.display()))?
            .filter_map(|entry| Some(entry.ok()?.path()))
            .filter(|path| path.is_file())
            .filter(|path| {
                !matches!(
                    path.extension().and_then(|e| e.to_str()),
                    Some("out" | "tsv" | "md")
                )
            })
            .collect();
        // A fixed order, so that a seed picks the same files everywhere.
        paths.sort();
        for path in paths {
            let bytes =
                std::fs::read(&path).with_context(|| format!("reading {}", path.display()))?;
            corpus.push(Seed { command, bytes });
        }
    }
    Ok(corpus)
}

/// A new input for `command`: mostly a mutated fixture of that command, sometimes one of another
/// command's, random bytes or nothing at all. `donors` is the whole corpus, for splicing lines
/// across commands.
pub fn make_input<R: Rng + ?Sized>(rng: &mut R, command: &str, donors: &[Seed]) -> Vec<u8> {
    let own: Vec<&Seed> = donors.iter().filter(|s| s.command == command).collect();
    let roll = rng.random_range(0..100);
    let mut input = if roll < 3 {
        return Vec::new();
    } else if roll < 13 || donors.is_empty() {
        random_bytes(rng, 512)
    } else if roll < 18 || own.is_empty() {
        donors
            .choose(rng)
            .map(|s| s.bytes.clone())
            .unwrap_or_default()
    } else {
        own.choose(rng).map(|s| s.bytes.clone()).unwrap_or_default()
    };
    // A few inputs go in as they are (a fixture through other flags, or the random bytes); most get
    // one to a handful of mutations, small numbers being likelier, so that most inputs stay near
    // valid.
    if rng.random_range(0..100) >= 3 {
        let count = 1 + rng.random_range(0..4usize) * rng.random_range(0..3usize);
        mutate(rng, &mut input, donors, count);
    }
    if rng.random_ratio(1, LONG_LINE_ODDS) {
        add_long_line(rng, &mut input);
        input.truncate(MAX_INPUT);
    }
    input
}

/// Applies `count` mutations drawn at random to `input`.
pub fn mutate<R: Rng + ?Sized>(rng: &mut R, input: &mut Vec<u8>, donors: &[Seed], count: usize) {
    for _ in 0..count {
        let kind = MUTATIONS.choose(rng).copied().unwrap_or(Mutation::Replace);
        apply(rng, kind, input, donors);
        input.truncate(MAX_INPUT);
    }
}

/// The mutations, one way to change an input each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mutation {
    /// Flip one bit of a byte.
    FlipBit,
    /// Replace a byte by a random one (or a digit, or white space).
    Replace,
    /// Insert a few random bytes.
    Insert,
    /// Insert one of [`TOKENS`], or a long run of digits.
    Token,
    /// Replace a number by a neighbour or by a number at some edge, keeping the layout: what
    /// reaches the models instead of stopping at the parser.
    Number,
    /// Delete a range of bytes.
    Delete,
    /// Copy a range of bytes next to itself.
    Duplicate,
    /// Swap two lines.
    SwapLines,
    /// Repeat a line.
    DuplicateLine,
    /// Delete a line.
    DeleteLine,
    /// Insert lines taken from another file of the corpus.
    Splice,
    /// Cut the input short.
    Truncate,
}

/// Every mutation; [`Mutation::Token`] and [`Mutation::Replace`] twice and [`Mutation::Number`]
/// three times, as they reach the number parsers and the models: the other mutations mostly make
/// invalid input.
#[rustfmt::skip]
pub const MUTATIONS: &[Mutation] = &[
    Mutation::FlipBit, Mutation::Replace, Mutation::Replace, Mutation::Insert,
    Mutation::Token, Mutation::Token, Mutation::Number, Mutation::Number, Mutation::Number,
    Mutation::Delete, Mutation::Duplicate, Mutation::SwapLines, Mutation::DuplicateLine,
    Mutation::DeleteLine, Mutation::Splice, Mutation::Truncate,
];

/// Applies one mutation. Inputs too short for it (a swap of lines in a one-line input) are left as
/// they are. The copies stop at [`MAX_INPUT`]; an insertion may pass it by a token, which
/// [`mutate`] cuts off.
pub fn apply<R: Rng + ?Sized>(rng: &mut R, kind: Mutation, input: &mut Vec<u8>, donors: &[Seed]) {
    use Mutation::*;
    let needs_bytes = matches!(kind, FlipBit | Replace | Delete | Duplicate | Truncate);
    if needs_bytes && input.is_empty() {
        return;
    }
    match kind {
        FlipBit => {
            let at = rng.random_range(0..input.len());
            // The top bit seldom: it makes invalid UTF-8, which the line reader rejects before any
            // parser sees the line.
            let bit = if rng.random_ratio(1, 8) {
                7
            } else {
                rng.random_range(0..7)
            };
            input[at] ^= 1 << bit;
        }
        Replace => {
            let at = rng.random_range(0..input.len());
            input[at] = random_byte(rng);
        }
        Insert => {
            let at = rng.random_range(0..=input.len());
            let bytes: Vec<u8> = (0..rng.random_range(1..=8))
                .map(|_| random_byte(rng))
                .collect();
            input.splice(at..at, bytes);
        }
        Token => {
            let at = rng.random_range(0..=input.len());
            let token: Vec<u8> = if rng.random_ratio(1, 12) {
                // A number far past every integer type, of varying length.
                let digits = rng.random_range(20..200);
                (0..digits)
                    .map(|_| b'0' + rng.random_range(0..10))
                    .collect()
            } else {
                TOKENS.choose(rng).copied().unwrap_or(b"0").to_vec()
            };
            input.splice(at..at, token);
        }
        Number => {
            let runs = number_runs(input);
            let Some(&(start, end)) = runs.choose(rng) else {
                return;
            };
            let old = std::str::from_utf8(&input[start..end])
                .ok()
                .and_then(|t| t.parse::<i128>().ok())
                .unwrap_or(0);
            let new = match rng.random_range(0..4) {
                0 => (old + 1).to_string(),
                1 => (old - 1).to_string(),
                2 => (old.saturating_mul(rng.random_range(2..100))).to_string(),
                _ => EDGE_NUMBERS.choose(rng).copied().unwrap_or("0").to_owned(),
            };
            input.splice(start..end, new.into_bytes());
        }
        Delete => {
            let (start, end) = random_range_in(rng, input.len());
            input.drain(start..end);
        }
        Duplicate => {
            let (start, end) = random_range_in(rng, input.len());
            // Repeated, a copy doubles the input: keep it bounded.
            let end = end.min(start + MAX_INPUT.saturating_sub(input.len()));
            let copy = input[start..end].to_vec();
            input.splice(end..end, copy);
        }
        Truncate => {
            let keep = rng.random_range(0..input.len());
            input.truncate(keep);
        }
        SwapLines | DuplicateLine | DeleteLine | Splice => {
            let room = MAX_INPUT.saturating_sub(input.len());
            let mut lines = split_lines(input);
            apply_to_lines(rng, kind, &mut lines, room, donors);
            *input = lines.concat();
        }
    }
}

/// The mutations of whole lines; `room` is what the input may still grow.
fn apply_to_lines<R: Rng + ?Sized>(
    rng: &mut R,
    kind: Mutation,
    lines: &mut Vec<Vec<u8>>,
    room: usize,
    donors: &[Seed],
) {
    match kind {
        Mutation::SwapLines if lines.len() >= 2 => {
            let a = rng.random_range(0..lines.len());
            let b = rng.random_range(0..lines.len());
            lines.swap(a, b);
        }
        Mutation::DuplicateLine if !lines.is_empty() => {
            let line = lines.choose(rng).cloned().unwrap_or_default();
            let at = rng.random_range(0..=lines.len());
            let times = if rng.random_ratio(1, 8) {
                rng.random_range(2..50)
            } else {
                1
            };
            for _ in 0..times.min(room / line.len().max(1)) {
                lines.insert(at, line.clone());
            }
        }
        Mutation::DeleteLine if !lines.is_empty() => {
            lines.remove(rng.random_range(0..lines.len()));
        }
        Mutation::Splice => {
            let Some(donor) = donors.choose(rng) else {
                return;
            };
            let theirs = split_lines(&donor.bytes);
            if theirs.is_empty() {
                return;
            }
            let (start, end) = random_range_in(rng, theirs.len());
            let at = rng.random_range(0..=lines.len());
            // A line without its end would glue onto the next one.
            let piece = theirs[start..end].iter().map(|l| {
                let mut l = l.clone();
                if l.last() != Some(&b'\n') {
                    l.push(b'\n');
                }
                l
            });
            lines.splice(at..at, piece.collect::<Vec<_>>());
        }
        _ => {}
    }
}

/// Adds one line of 200 KB to 10 MB of digits, of spaced digits, of letters or of dots: past every
/// line a puzzle needs, to find the readers that keep it all in memory. Half the sizes are spread
/// evenly on a log scale; the other half are a power of two give or take two bytes, where line
/// limits tend to be, to reach the most a reader that has a limit still takes.
pub fn add_long_line<R: Rng + ?Sized>(rng: &mut R, input: &mut Vec<u8>) {
    let len = if rng.random_bool(0.5) {
        let (lo, hi) = ((LONG_LINE_MIN as f64).ln(), (LONG_LINE_MAX as f64).ln());
        rng.random_range(lo..hi).exp() as usize
    } else {
        let power = 1usize << rng.random_range(18..=23);
        (power + rng.random_range(0..5)).saturating_sub(2)
    };
    let len = len.clamp(LONG_LINE_MIN, LONG_LINE_MAX);
    let len = len.min(MAX_INPUT - input.len().min(MAX_INPUT));
    #[rustfmt::skip]
    let patterns: [&[u8]; 5] = [
        b"0123456789", b"1 2 3 4 5 6 7 8 9 ", b"abcdefghijklmnopqrstuvwxyz", b"................", b"1",
    ];
    let pattern = patterns.choose(rng).copied().unwrap_or(b"1");
    let mut line: Vec<u8> = pattern.iter().copied().cycle().take(len).collect();
    // First, last, or between two lines: the first line of a file is the header or the item line,
    // read by other code than the rest.
    let at = match rng.random_range(0..3) {
        0 => 0,
        1 => input.len(),
        _ => {
            let ends: Vec<usize> = (0..input.len()).filter(|&i| input[i] == b'\n').collect();
            ends.choose(rng).map_or(input.len(), |&i| i + 1)
        }
    };
    if at < input.len() || rng.random_bool(0.5) {
        line.push(b'\n');
    }
    input.splice(at..at, line);
}

/// Up to `max` random bytes: uniformly random, or printable, or only the characters the formats are
/// made of (digits, dots, spaces, newlines).
pub fn random_bytes<R: Rng + ?Sized>(rng: &mut R, max: usize) -> Vec<u8> {
    let len = rng.random_range(0..=max);
    let alphabet: &[u8] = match rng.random_range(0..3) {
        0 => return (0..len).map(|_| rng.random()).collect(),
        1 => b" !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ|abcdefxyz\n",
        _ => b"0123456789 .\n\n",
    };
    (0..len)
        .map(|_| *alphabet.choose(rng).unwrap_or(&b'0'))
        .collect()
}

/// A byte: a digit or white space most of the time, else printable ASCII, and now and then anything
/// (invalid UTF-8 stops at the reader).
fn random_byte<R: Rng + ?Sized>(rng: &mut R) -> u8 {
    match rng.random_range(0..8) {
        0..=2 => b'0' + rng.random_range(0..10),
        3..=4 => *b" \n\t.,|:-#".choose(rng).unwrap_or(&b' '),
        5..=6 => rng.random_range(0x20..0x7f),
        _ => rng.random(),
    }
}

/// A non-empty range `start..end` inside `0..len` (`len > 0`), short more often than long.
fn random_range_in<R: Rng + ?Sized>(rng: &mut R, len: usize) -> (usize, usize) {
    let start = rng.random_range(0..len);
    let room = len - start;
    let span = if rng.random_bool(0.75) {
        rng.random_range(1..=room.min(16))
    } else {
        rng.random_range(1..=room)
    };
    (start, start + span)
}

/// Where the numbers of `bytes` are: each maximal run of digits, with the `-` before it if there is
/// one.
fn number_runs(bytes: &[u8]) -> Vec<(usize, usize)> {
    let mut runs = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let digits = bytes[i..].iter().take_while(|b| b.is_ascii_digit()).count();
        if digits > 0 {
            let minus = usize::from(i > 0 && bytes[i - 1] == b'-');
            runs.push((i - minus, i + digits));
        }
        i += digits.max(1);
    }
    runs
}

/// The lines of `bytes`, each with its `\n` (the last one may lack it).
pub fn split_lines(bytes: &[u8]) -> Vec<Vec<u8>> {
    bytes
        .split_inclusive(|&b| b == b'\n')
        .map(<[u8]>::to_vec)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::ChaCha8Rng;
    use rand::SeedableRng;

    fn corpus() -> Vec<Seed> {
        vec![
            Seed {
                command: "sudoku",
                bytes: b"1...\n.2..\n..3.\n...4\n".to_vec(),
            },
            Seed {
                command: "exact",
                bytes: b"a b c\na b\nc\n".to_vec(),
            },
        ]
    }

    #[test]
    fn inputs_depend_only_on_the_seed() {
        let corpus = corpus();
        let make = |seed| {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            (0..200)
                .map(|_| make_input(&mut rng, "sudoku", &corpus))
                .collect::<Vec<_>>()
        };
        assert_eq!(make(7), make(7));
        assert_ne!(make(7), make(8));
    }

    #[test]
    fn every_mutation_is_deterministic_and_bounded_from_any_start() {
        let corpus = corpus();
        for &kind in MUTATIONS {
            for start in [&b""[..], b"x", b"\n", b"1 2\n3 4\n", &corpus[0].bytes] {
                let run = |seed| {
                    let mut rng = ChaCha8Rng::seed_from_u64(seed);
                    let mut input = start.to_vec();
                    for _ in 0..30 {
                        apply(&mut rng, kind, &mut input, &corpus);
                        assert!(input.len() <= MAX_INPUT, "{kind:?} grew to {}", input.len());
                    }
                    input
                };
                let once = run(3);
                assert_eq!(once, run(3), "{kind:?} from {start:?}");
            }
        }
    }

    #[test]
    fn lengths_stay_under_the_bound() {
        let corpus = corpus();
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut longest = 0;
        for _ in 0..3000 {
            let input = make_input(&mut rng, "exact", &corpus);
            assert!(input.len() <= MAX_INPUT);
            longest = longest.max(input.len());
        }
        // 3000 inputs include a few long lines.
        assert!(longest >= LONG_LINE_MIN, "{longest}");
        let mut input = vec![b'1'; MAX_INPUT - 10];
        add_long_line(&mut rng, &mut input);
        assert!(input.len() <= MAX_INPUT + 1);
        mutate(&mut rng, &mut input, &corpus, 20);
        assert!(input.len() <= MAX_INPUT);
    }

    #[test]
    fn long_lines_are_long() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        for _ in 0..20 {
            let mut input = Vec::new();
            add_long_line(&mut rng, &mut input);
            assert!(input.len() >= LONG_LINE_MIN && input.len() <= LONG_LINE_MAX + 1);
            assert!(input[..input.len() - 1].iter().all(|&b| b != b'\n'));
        }
        // Among other lines it is a line of its own, the others intact.
        for _ in 0..20 {
            let mut input = b"a\nb\nc\n".to_vec();
            add_long_line(&mut rng, &mut input);
            let lines = split_lines(&input);
            assert_eq!(lines.len(), 4);
            let short: Vec<&Vec<u8>> = lines.iter().filter(|l| l.len() <= 2).collect();
            assert_eq!(short, [b"a\n", b"b\n", b"c\n"]);
        }
    }

    #[test]
    fn numbers_are_replaced_whole() {
        assert_eq!(number_runs(b"3 -12\nx7"), [(0, 1), (2, 5), (7, 8)]);
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for _ in 0..100 {
            let mut input = b"a 5 b\n".to_vec();
            apply(&mut rng, Mutation::Number, &mut input, &[]);
            let text = String::from_utf8(input).unwrap();
            let middle = text
                .strip_prefix("a ")
                .unwrap()
                .strip_suffix(" b\n")
                .unwrap();
            assert!(
                middle.parse::<i128>().is_ok() || middle.len() > 20,
                "{text:?}"
            );
        }
    }

    #[test]
    fn lines_split_and_join_back() {
        let text = b"a\n\nb\r\nc";
        let lines = split_lines(text);
        assert_eq!(lines.len(), 4);
        assert_eq!(lines.concat(), text);
    }
}
