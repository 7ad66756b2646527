//! The input side of `cargo xtask fuzz`: an input of a command's grammar ([`super::grammar`]),
//! now and then random bytes or nothing, and the dumb mutators that change some of them. They know
//! nothing of the formats beyond "text made of lines", so they reach the error paths the grammar's
//! faults do not; everything is drawn from the caller's generator, so that an input depends only
//! on the seed that made it.

use rand::rngs::ChaCha8Rng;
use rand::seq::IndexedRandom;
use rand::{Rng, RngExt};

use super::grammar::{self, Valid};

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

/// A new input for `command` with `flags`: mostly one of its grammar, an eighth of those mutated
/// (which leaves it unchecked), now and then random bytes or nothing at all.
pub fn make_input(
    rng: &mut ChaCha8Rng,
    command: &str,
    flags: &[Vec<String>],
) -> (Vec<u8>, Option<Valid>) {
    let roll = rng.random_range(0..100);
    let (mut input, mut valid) = match roll {
        0..2 => return (Vec::new(), None),
        2..6 => (random_bytes(rng, 512), None),
        _ => {
            let (text, valid) = grammar::input(rng, command, flags);
            (text.into_bytes(), valid)
        }
    };
    // One to a handful of mutations, small numbers being likelier, so that most stay near valid.
    if rng.random_ratio(1, 8) {
        let count = 1 + rng.random_range(0..4usize) * rng.random_range(0..3usize);
        mutate(rng, &mut input, count);
        valid = None;
    }
    if rng.random_ratio(1, LONG_LINE_ODDS) {
        add_long_line(rng, &mut input);
        input.truncate(MAX_INPUT);
        valid = None;
    }
    (input, valid)
}

/// Applies `count` mutations drawn at random to `input`.
pub fn mutate(rng: &mut ChaCha8Rng, input: &mut Vec<u8>, count: usize) {
    for _ in 0..count {
        let kind = MUTATIONS.choose(rng).copied().unwrap_or(Mutation::Replace);
        apply(rng, kind, input);
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
    /// Insert one of [`TOKENS`], or a long run of digits.
    Token,
    /// Delete a few bytes.
    Delete,
    /// Swap two lines.
    SwapLines,
    /// Repeat a line.
    DuplicateLine,
    /// Cut the input short.
    Truncate,
}

/// Every mutation; [`Mutation::Token`] and [`Mutation::Replace`] twice, as they reach the number
/// parsers. (The grammar's faults drop lines and tokens.)
#[rustfmt::skip]
pub const MUTATIONS: &[Mutation] = &[
    Mutation::FlipBit, Mutation::Replace, Mutation::Replace, Mutation::Token, Mutation::Token,
    Mutation::Delete, Mutation::SwapLines, Mutation::DuplicateLine, Mutation::Truncate,
];

/// Applies one mutation. Inputs too short for it (a swap of lines in a one-line input) are left as
/// they are. Repeated lines stop at [`MAX_INPUT`]; an insertion may pass it by a token, which
/// [`mutate`] cuts off.
pub fn apply(rng: &mut ChaCha8Rng, kind: Mutation, input: &mut Vec<u8>) {
    use Mutation::*;
    let needs_bytes = matches!(kind, FlipBit | Replace | Delete | Truncate);
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
        Delete => {
            // A few bytes: Truncate takes long runs away.
            let start = rng.random_range(0..input.len());
            input.drain(start..(start + rng.random_range(1..=16)).min(input.len()));
        }
        Truncate => {
            let keep = rng.random_range(0..input.len());
            input.truncate(keep);
        }
        SwapLines | DuplicateLine => {
            let room = MAX_INPUT.saturating_sub(input.len());
            let mut lines = split_lines(input);
            apply_to_lines(rng, kind, &mut lines, room);
            *input = lines.concat();
        }
    }
}

/// The mutations of whole lines; `room` is what the input may still grow.
fn apply_to_lines(rng: &mut ChaCha8Rng, kind: Mutation, lines: &mut Vec<Vec<u8>>, room: usize) {
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
    use rand::SeedableRng;

    #[test]
    fn inputs_depend_only_on_the_seed() {
        let make = |seed| {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            (0..200)
                .map(|_| make_input(&mut rng, "sudoku", &[]))
                .collect::<Vec<_>>()
        };
        assert_eq!(make(7), make(7));
        assert_ne!(make(7), make(8));
    }

    #[test]
    fn every_mutation_is_deterministic_and_bounded_from_any_start() {
        for &kind in MUTATIONS {
            for start in [
                &b""[..],
                b"x",
                b"\n",
                b"1 2\n3 4\n",
                b"1...\n.2..\n..3.\n...4\n",
            ] {
                let run = |seed| {
                    let mut rng = ChaCha8Rng::seed_from_u64(seed);
                    let mut input = start.to_vec();
                    for _ in 0..30 {
                        apply(&mut rng, kind, &mut input);
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
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut longest = 0;
        for _ in 0..3000 {
            let (input, _) = make_input(&mut rng, "exact", &[]);
            assert!(input.len() <= MAX_INPUT);
            longest = longest.max(input.len());
        }
        // 3000 inputs include a few long lines.
        assert!(longest >= LONG_LINE_MIN, "{longest}");
        let mut input = vec![b'1'; MAX_INPUT - 10];
        add_long_line(&mut rng, &mut input);
        assert!(input.len() <= MAX_INPUT + 1);
        mutate(&mut rng, &mut input, 20);
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
    fn lines_split_and_join_back() {
        let text = b"a\n\nb\r\nc";
        let lines = split_lines(text);
        assert_eq!(lines.len(), 4);
        assert_eq!(lines.concat(), text);
    }
}
