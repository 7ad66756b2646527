//! Reading `cover sudoku`'s inputs: on the reading thread alone, or, from
//! 8 threads on and once an input turns out to hold one puzzle per line,
//! on parsing threads, the reading thread only cutting the input into
//! blocks.
//!
//! Parsing a line is a large part of the work on easy puzzles (see
//! `docs/measurements.md`), and on one thread it bounds the speed-up of a
//! run. So [`SudokuReader`] reads the first puzzle itself (the input's
//! layout is learnt there), then cuts the rest at line ends into blocks of
//! at most about [`BLOCK_BYTES`] and [`BLOCK_LINES`], has parsing threads
//! (one per [`POOL_THREADS_PER_PARSER`] of rayon's global pool) read each
//! from the point where the reader stood ([`ResumePoint`]), and hands on
//! their puzzles in order. A block is read from a guess, the last point
//! known moved to its first line; if the block before it ended elsewhere
//! (an input of 16×16 puzzles whose symbol set changes), it is read again
//! here, from the right point. A block no parsing thread has started when
//! its turn comes is read here too, so the reading never waits on them.
//! What comes out is what one reader gives, line numbers and errors
//! included.
//!
//! Some lines are read by one reader, which then reads on for
//! [`ALONE_AT_LEAST`] puzzles before blocks start again: a JSON document
//! (it may span lines), a line longer than [`LONGEST_CUT_LINE`]. An `end`
//! line stops the cutting. A source that has no more at hand (a terminal, a slow
//! pipe) gets the puzzles cut so far handed on before it is read again.
//!
//! Knows nothing of answering; the [batch](crate::batch) runner calls it on
//! its reading thread.

use std::collections::VecDeque;
use std::io::{self, BufRead, Cursor, Read};
use std::panic::{self, AssertUnwindSafe};
use std::sync::{mpsc, Arc, Mutex, OnceLock, PoisonError};
use std::thread;

use cover_models::sudoku::{
    begins_document, is_end_line, Entries, Entry, InputError, Layout, Puzzles, ResumePoint, Symbols,
};

/// An input, as the batch runner opens it.
pub type Input<'r> = Box<dyn BufRead + Send + 'r>;

/// What one reader reads: bytes already read from the input, then the
/// rest of it.
type Rest<'r> = io::Chain<Cursor<Vec<u8>>, Input<'r>>;

/// One puzzle read, or why it could not be.
type ReadEntry = Result<Entry, InputError>;

/// The most bytes of a block, about: it ends at the line end after.
pub const BLOCK_BYTES: usize = 64 << 10;

/// The most lines of a block: with [`BLOCKS_AHEAD`], the puzzles held
/// ahead are about four of the batch runner's chunks, however short the
/// lines.
pub const BLOCK_LINES: usize = 1024;

/// How many blocks are cut ahead of the one handed on: enough that they
/// are read while the pool answers (a chunk of 9×9 puzzles is about
/// five).
const BLOCKS_AHEAD: usize = 16;

/// A line longer than this is read by one reader (which also reports it
/// when it is too long for any), so a block is at most about
/// [`BLOCK_BYTES`] and one line this long.
pub const LONGEST_CUT_LINE: usize = 256 << 10;

/// A read shorter than this shows a source that had no more at hand.
const SHORT_READ: usize = 4 << 10;

/// How big the blocks of an input are, at most.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cut {
    /// About this many bytes: a block ends at the line end after.
    pub bytes: usize,
    /// This many lines.
    pub lines: usize,
}

impl Cut {
    /// [`BLOCK_BYTES`] and [`BLOCK_LINES`].
    pub const DEFAULT: Cut = Cut {
        bytes: BLOCK_BYTES,
        lines: BLOCK_LINES,
    };
}

/// The puzzles of one input; see the [module](self) docs.
pub struct SudokuReader<'r> {
    state: State<'r>,
    /// `None`: one reader reads everything.
    cut: Option<Cut>,
    /// The puzzles one reader reads before blocks may start again.
    alone_for: usize,
}

/// After a document or a long line, one reader reads at least this many
/// puzzles before blocks start again: going back and forth costs more
/// than reading a few lines (an input of documents among puzzles).
const ALONE_AT_LEAST: usize = 64;

enum State<'r> {
    /// One reader, here.
    Alone(Entries<Rest<'r>>),
    /// Blocks read on the parsing threads.
    Blocks(Blocks<'r>),
    /// Only while one state is swapped for the next.
    Swapping,
}

impl<'r> SudokuReader<'r> {
    /// Reads `input`, with `symbols` for every puzzle when given; in
    /// blocks when rayon's global pool has a parsing thread's worth of
    /// threads ([`POOL_THREADS_PER_PARSER`]). With fewer, the pool is the
    /// limit, not the one reader, which then costs least.
    pub fn new(input: Input<'r>, symbols: Option<Symbols>) -> Self {
        let cut = rayon::current_num_threads() >= POOL_THREADS_PER_PARSER;
        SudokuReader::cutting(input, symbols, cut.then_some(Cut::DEFAULT))
    }

    /// Reads `input`, in blocks of at most `cut` when given.
    pub fn cutting(input: Input<'r>, symbols: Option<Symbols>, cut: Option<Cut>) -> Self {
        assert!(cut.is_none_or(|cut| cut.lines > 0), "a block holds a line");
        let rest = Cursor::new(Vec::new()).chain(input);
        SudokuReader {
            state: State::Alone(Puzzles::new(rest, symbols).entries()),
            cut,
            alone_for: 0,
        }
    }

    /// The layout of the input, once its first puzzle was read.
    pub fn layout(&self) -> Option<Layout> {
        match &self.state {
            State::Alone(entries) => entries.layout(),
            State::Blocks(_) => Some(Layout::Line),
            State::Swapping => None,
        }
    }
}

impl Iterator for SudokuReader<'_> {
    type Item = ReadEntry;

    fn next(&mut self) -> Option<ReadEntry> {
        loop {
            match &mut self.state {
                State::Alone(entries) => {
                    let read = entries.next()?;
                    self.alone_for = self.alone_for.saturating_sub(1);
                    let Some(cut) = self.cut.filter(|_| self.alone_for == 0) else {
                        return Some(read);
                    };
                    let Some(point) = entries.resume_point() else {
                        return Some(read);
                    };
                    let State::Alone(entries) = std::mem::replace(&mut self.state, State::Swapping)
                    else {
                        unreachable!("matched above");
                    };
                    // The bytes read ahead and not yet read go on as
                    // they are, not copied.
                    let (read_ahead, input) = entries.into_inner().into_inner();
                    let at = usize::try_from(read_ahead.position()).expect("within memory");
                    let buffer = read_ahead.into_inner();
                    self.state = State::Blocks(Blocks::new(input, buffer, at, point, cut));
                    return Some(read);
                }
                State::Blocks(blocks) => {
                    if let Some(read) = blocks.current.next() {
                        return Some(read);
                    }
                    match blocks.next_block() {
                        Next::Block => {}
                        Next::End => return None,
                        Next::Alone(entries) => {
                            self.state = State::Alone(*entries);
                            self.alone_for = ALONE_AT_LEAST;
                        }
                    }
                }
                State::Swapping => unreachable!("never left swapping"),
            }
        }
    }
}

/// The input cut into blocks, each read on a parsing thread.
struct Blocks<'r> {
    /// The rest of the input, not yet read; `None` once it ended (or an
    /// `end` line was cut).
    input: Option<Input<'r>>,
    /// Bytes read from the input: those from `start` on are not yet cut
    /// (part of a line, or more when a block was full of lines).
    buffer: Vec<u8>,
    start: usize,
    /// The number of the last line cut.
    lines_cut: usize,
    /// Where the last block handed on ended: the guess for blocks cut from
    /// now on, and the check of the next one's.
    known: ResumePoint,
    /// Blocks cut and not yet handed on, oldest first.
    pending: VecDeque<Pending>,
    /// What was cut for one reader, which reads on from there: nothing
    /// more is cut.
    alone_next: bool,
    /// A JSON document begins at `start`: it goes to one reader.
    document_next: bool,
    /// The last read was short (the source has no more at hand): hand on
    /// what is pending before reading again.
    source_waits: bool,
    /// The puzzles of the block being handed on.
    current: std::vec::IntoIter<ReadEntry>,
    cut: Cut,
}

/// What happened to the blocks, for tests.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Counts {
    /// Blocks handed on.
    blocks: usize,
    /// Of them, those cut with a guess that turned out wrong.
    wrong: usize,
    /// Of those, the ones a parsing thread read from the wrong guess,
    /// read again here.
    reread: usize,
    /// Hand-overs to one reader.
    alone: usize,
}

/// A block cut.
enum Pending {
    /// Handed to the parsing threads, read from `guess`: its bytes, until
    /// a thread takes them (a parsing thread, or this one when its turn
    /// comes first), and where a parsing thread's reading arrives.
    Reading {
        guess: ResumePoint,
        bytes: Arc<Mutex<Option<Vec<u8>>>>,
        read: mpsc::Receiver<ReadBlock>,
    },
    /// From `buffer[start..]` on, one reader reads (the rest of the input
    /// after it).
    Alone { buffer: Vec<u8>, start: usize },
}

/// A block as a parsing thread read it: its bytes (to read again from
/// another point), and its puzzles and where its reader ended, or its
/// panic.
struct ReadBlock {
    bytes: Vec<u8>,
    read: thread::Result<(Vec<ReadEntry>, Option<ResumePoint>)>,
}

/// What [`Blocks::next_block`] came to.
enum Next<'r> {
    /// The next block's puzzles are in hand.
    Block,
    /// The input ended.
    End,
    /// One reader reads on.
    Alone(Box<Entries<Rest<'r>>>),
}

/// What a block holds that matters to cutting, and where (the start of
/// its line).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Holds {
    /// Puzzles, errors, comments.
    Lines,
    /// A line that ends the input.
    End(usize),
    /// The first line of a JSON document, before any `end` line.
    Document(usize),
}

impl<'r> Blocks<'r> {
    /// Cuts `input`, after `buffer[start..]` (bytes read from it but not
    /// yet by the reader that stood at `point`).
    fn new(input: Input<'r>, buffer: Vec<u8>, start: usize, point: ResumePoint, cut: Cut) -> Self {
        Blocks {
            input: Some(input),
            buffer,
            start,
            lines_cut: point.line(),
            known: point,
            pending: VecDeque::with_capacity(BLOCKS_AHEAD),
            alone_next: false,
            document_next: false,
            // Not known yet: what is at hand goes on before anything is
            // waited for.
            source_waits: true,
            current: Vec::new().into_iter(),
            cut,
        }
    }

    /// Takes the next block's puzzles in hand, first cutting blocks ahead
    /// while the source keeps up.
    fn next_block(&mut self) -> Next<'r> {
        while self.pending.len() < BLOCKS_AHEAD && (self.pending.is_empty() || !self.source_waits) {
            let Some(block) = self.cut() else {
                break;
            };
            self.pending.push_back(block);
        }
        let (guess, bytes, read) = match self.pending.pop_front() {
            None => return Next::End,
            Some(Pending::Alone { buffer, start }) => {
                count(|c| c.alone += 1);
                let mut read_ahead = Cursor::new(buffer);
                read_ahead.set_position(start as u64);
                let rest = self.input.take().unwrap_or_else(|| Box::new(io::empty()));
                let entries = Entries::resume(read_ahead.chain(rest), &self.known);
                return Next::Alone(Box::new(entries));
            }
            Some(Pending::Reading { guess, bytes, read }) => (guess, bytes, read),
        };
        let right = guess == self.known;
        count(|c| {
            c.blocks += 1;
            c.wrong += usize::from(!right);
        });
        let taken = if waits_for_parsers() {
            None
        } else {
            bytes.lock().unwrap_or_else(PoisonError::into_inner).take()
        };
        let (puzzles, end) = match taken {
            // Not started elsewhere: read here, from the known point.
            Some(bytes) => read_block(&bytes, &self.known),
            None => {
                let block = read.recv().expect("a block's job sends its reading");
                match block.read {
                    Ok(read) if right => read,
                    // (Where panics abort, as in release builds, they
                    // never come here: the parser does not panic.)
                    Err(panic) if right => panic::resume_unwind(panic),
                    // Read from a wrong guess: read again.
                    Ok(_) | Err(_) => {
                        count(|c| c.reread += 1);
                        read_block(&block.bytes, &self.known)
                    }
                }
            }
        };
        self.current = puzzles.into_iter();
        match end {
            Some(end) => self.known = end,
            None => {
                // An `end` line, or a fault: nothing after it is read.
                self.pending.clear();
                self.input = None;
                self.buffer = Vec::new();
                self.start = 0;
            }
        }
        Next::Block
    }

    /// Cuts the next block and hands it to the parsing threads, or to one
    /// reader; `None` at the end of the input.
    fn cut(&mut self) -> Option<Pending> {
        if self.alone_next {
            return None;
        }
        if std::mem::take(&mut self.document_next) {
            return self.alone();
        }
        // What was cut is dropped once it is most of the buffer, so that
        // each byte is moved a bounded number of times.
        if self.start > 0 && self.start >= self.buffer.len() / 2 {
            self.buffer.drain(..self.start);
            self.start = 0;
        }
        // In `buffer[start..]`: line ends counted in `[..looked]`, whole
        // lines end at `end`, and those in `[..checked]` hold `held`.
        let (mut looked, mut lines, mut end) = (0, 0, 0);
        let (mut checked, mut held) = (0, Holds::Lines);
        let mut short = self.source_waits;
        loop {
            let uncut = &self.buffer[self.start..];
            // What is new, a window at a time: a document or `end` near
            // its start stops the looking there (one reader after another
            // must not each look at a whole block).
            while looked < uncut.len() && held == Holds::Lines && lines < self.cut.lines {
                let upto = uncut.len().min(looked + LOOK_WINDOW);
                if let Some(at) = line_ends(&uncut[looked..upto], &mut lines, self.cut.lines) {
                    end = looked + at;
                }
                looked = upto;
                held = holds(&uncut[checked..end]).offset(checked);
                checked = end;
            }
            // Not a byte more is read after `end`, as one reader reads
            // none; nor for a document, which goes to one reader.
            if held != Holds::Lines {
                break;
            }
            let enough = uncut.len() >= self.cut.bytes || short;
            if lines >= self.cut.lines || (end > 0 && enough) {
                break;
            }
            if end == 0 && uncut.len() > LONGEST_CUT_LINE {
                return self.alone();
            }
            let Some(input) = self.input.as_mut() else {
                break;
            };
            let piece = match input.fill_buf() {
                Ok(piece) => piece,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    // One reader meets the error where it would have.
                    self.input = Some(Box::new(Failing(Some(e))));
                    return self.alone();
                }
            };
            if piece.is_empty() {
                short = true;
                if end < uncut.len() {
                    // Like a line reader: the end of a line, and the input
                    // is read again after it (a terminal may say more).
                    // The line end written makes it one for every reader.
                    self.buffer.push(b'\n');
                } else {
                    self.input = None;
                    break;
                }
            } else {
                short = piece.len() < SHORT_READ;
                self.buffer.extend_from_slice(piece);
                let used = piece.len();
                input.consume(used);
            }
        }
        self.source_waits = short;
        match held {
            Holds::Lines => {}
            Holds::End(_) => {
                // Nothing after it is read.
                self.input = None;
                self.buffer.truncate(self.start + end);
            }
            // The document first: one reader, from it.
            Holds::Document(0) => return self.alone(),
            Holds::Document(at) => {
                // The lines before it first, as a block.
                lines = self.buffer[self.start..self.start + at]
                    .iter()
                    .filter(|&&b| b == b'\n')
                    .count();
                end = at;
                self.document_next = true;
            }
        }
        if end == 0 {
            return None;
        }
        let block = self.buffer[self.start..self.start + end].to_vec();
        self.start += end;
        let guess = self.known.at_line(self.lines_cut);
        self.lines_cut += lines;
        let bytes = Arc::new(Mutex::new(Some(block)));
        let (send, read) = mpsc::sync_channel(1);
        let (job_bytes, from) = (Arc::clone(&bytes), guess.clone());
        // Without parsing threads, every block is read here.
        let Some(parsers) = parsers() else {
            return Some(Pending::Reading { guess, bytes, read });
        };
        parsers.spawn(move || {
            let taken = job_bytes
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .take();
            // Taken by the reading thread, whose turn came first.
            let Some(bytes) = taken else {
                return;
            };
            let read = panic::catch_unwind(AssertUnwindSafe(|| read_block(&bytes, &from)));
            // Nobody receives once the input ended before this block.
            let _ = send.send(ReadBlock { bytes, read });
        });
        Some(Pending::Reading { guess, bytes, read })
    }

    /// What is not yet cut, for one reader, which reads on after it.
    fn alone(&mut self) -> Option<Pending> {
        self.alone_next = true;
        let buffer = std::mem::take(&mut self.buffer);
        let start = std::mem::take(&mut self.start);
        Some(Pending::Alone { buffer, start })
    }
}

/// Whether the reading thread leaves every block to the parsing threads,
/// even one not yet started: never, but in a test that must see a block
/// read from a wrong guess.
#[cfg(not(test))]
fn waits_for_parsers() -> bool {
    false
}

#[cfg(test)]
fn waits_for_parsers() -> bool {
    tests::WAIT_FOR_PARSERS.get()
}

/// Counts what happened to the blocks, in tests.
#[cfg(not(test))]
fn count(_: impl FnOnce(&mut Counts)) {}

#[cfg(test)]
fn count(change: impl FnOnce(&mut Counts)) {
    tests::COUNTS.with(|counts| {
        let mut now = counts.get();
        change(&mut now);
        counts.set(now);
    });
}

impl Holds {
    /// The same, its place moved by `by`.
    fn offset(self, by: usize) -> Holds {
        match self {
            Holds::Lines => Holds::Lines,
            Holds::End(at) => Holds::End(at + by),
            Holds::Document(at) => Holds::Document(at + by),
        }
    }
}

/// One parsing thread per this many of the pool's, and none with fewer:
/// one reader keeps up with about ten (its share of the work on easy
/// puzzles is 8%), and blocks cost a little more work in all.
pub const POOL_THREADS_PER_PARSER: usize = 8;

/// The threads that read blocks, made at the first block: their own, not
/// the pool's, for rayon runs work sent to its pool from outside only
/// once its threads have none left to steal, so blocks would wait while
/// the pool answers (at `-j 2`, the reading thread came to read about
/// half of them itself).
fn parsers() -> Option<&'static rayon::ThreadPool> {
    static PARSERS: OnceLock<Option<rayon::ThreadPool>> = OnceLock::new();
    PARSERS
        .get_or_init(|| {
            let threads = (rayon::current_num_threads() / POOL_THREADS_PER_PARSER).max(1);
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .thread_name(|k| format!("cover-parse-{k}"))
                .build()
                .ok()
        })
        .as_ref()
}

/// How much of the uncut bytes a block's cutting looks at a time.
const LOOK_WINDOW: usize = 4 << 10;

/// Counts the line ends of `bytes` into `lines`, up to `most` in all; the
/// place after the last one counted, if any.
fn line_ends(bytes: &[u8], lines: &mut usize, most: usize) -> Option<usize> {
    let count = bytes.iter().filter(|&&b| b == b'\n').count();
    if *lines + count < most {
        *lines += count;
        return bytes.iter().rposition(|&b| b == b'\n').map(|at| at + 1);
    }
    let wanted = most - *lines;
    *lines = most;
    let mut ends = bytes.iter().enumerate().filter(|&(_, &b)| b == b'\n');
    ends.nth(wanted.checked_sub(1)?).map(|(at, _)| at + 1)
}

/// What the lines of `block` hold that matters to cutting.
fn holds(block: &[u8]) -> Holds {
    // Most blocks hold neither `{` nor the letter `e`: one pass says so.
    if !block.iter().any(|&b| b == b'{' || b | 0x20 == b'e') {
        return Holds::Lines;
    }
    let mut at = 0;
    for line in block.split(|&b| b == b'\n') {
        let line_start = at;
        at += line.len() + 1;
        // Past white space (ASCII's, as `str::trim` sees it), only `{`,
        // `e` or a character beyond ASCII may begin what matters.
        let first = line.iter().find(|&&b| !matches!(b, b'\t'..=b'\r' | b' '));
        match first {
            Some(b'{' | b'e' | b'E') => {}
            Some(b) if b.is_ascii() => continue,
            None => continue,
            Some(_) => {}
        }
        let Ok(text) = std::str::from_utf8(line) else {
            continue;
        };
        if is_end_line(text) {
            return Holds::End(line_start);
        }
        if begins_document(text) {
            return Holds::Document(line_start);
        }
    }
    Holds::Lines
}

/// The puzzles of `block` read from `point`, and where the reading ended.
fn read_block(block: &[u8], point: &ResumePoint) -> (Vec<ReadEntry>, Option<ResumePoint>) {
    let mut entries = Entries::resume(block, point);
    let puzzles = entries.by_ref().collect();
    (puzzles, entries.resume_point())
}

/// A reader that fails with its error once, then ends.
struct Failing(Option<io::Error>);

impl Read for Failing {
    fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
        self.0.take().map_or(Ok(0), Err)
    }
}

impl BufRead for Failing {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.0.take().map_or(Ok(&[]), Err)
    }

    fn consume(&mut self, _: usize) {}
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;
    use std::collections::VecDeque;

    use super::*;

    thread_local! {
        /// See [`waits_for_parsers`].
        pub(super) static WAIT_FOR_PARSERS: Cell<bool> = const { Cell::new(false) };
        /// What happened to the blocks read on this thread.
        pub(super) static COUNTS: Cell<Counts> = Cell::new(Counts::default());
    }

    /// Each puzzle read, or its error as text: comparable.
    type Readings = Vec<Result<Entry, String>>;

    /// What `reader` gives.
    fn read_all(reader: &mut SudokuReader<'_>) -> Readings {
        reader
            .map(|read| read.map_err(|e| format!("{e:?}")))
            .collect()
    }

    /// `input` read by one reader, and in blocks of at most `cut` from
    /// reads of at most `piece` bytes; with the second's counts.
    fn both(
        input: &[u8],
        symbols: Option<&str>,
        cut: Cut,
        piece: usize,
    ) -> (Readings, Readings, Counts) {
        let symbols = || symbols.map(|s| Symbols::new(s).unwrap());
        let alone = read_all(&mut SudokuReader::cutting(Box::new(input), symbols(), None));
        let pieces = io::BufReader::with_capacity(piece, input);
        COUNTS.set(Counts::default());
        let mut reader = SudokuReader::cutting(Box::new(pieces), symbols(), Some(cut));
        let cut = read_all(&mut reader);
        (alone, cut, COUNTS.get())
    }

    fn cut(bytes: usize, lines: usize) -> Cut {
        Cut { bytes, lines }
    }

    const NINE: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    /// A 16×16 puzzle in 1-9A-G.
    const G16: &str = "D92.....G...43..4CF.....9D.2.6EB.E.1....F.8BC..AG56.....A3C....1.7G5A8....61....2...C....B7.......AE.964..G......F9.5.7.4.......\
                       .....29....A.C..........645D.1......D....1.C.B7F.....E.C2G...8A9B..9.G52.....EF6.256..F.....D.B.E13.6.D........7A...8BC3....954.";

    /// The 16×16 puzzle in 0-9A-F.
    fn f16() -> String {
        G16.replace('G', "0")
    }

    /// A 16×16 puzzle that fits both sets: read as the one the input
    /// settled on.
    fn either() -> String {
        G16.chars()
            .map(|c| if c.is_ascii_digit() { c } else { '.' })
            .collect()
    }

    /// Lines an input of line puzzles may hold, good and bad.
    fn lines() -> Vec<Vec<u8>> {
        let json = r#"{"size":4,"grid":[[{"value":1,"given":true},{},{},{}],
[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]]}"#;
        [
            NINE,
            NINE,
            "",
            "# a comment {",
            "+-------+",
            G16,
            &f16(),
            &either(),
            "not a puzzle",
            "123",
            &NINE.replace('4', "x"),
            &format!("{NINE}\r"),
            &format!("{NINE} trailing words"),
            "1234341221434321",
            " End ",
            json,
            "\u{3000}end",
            "\u{feff}",
        ]
        .iter()
        .map(|line| line.as_bytes().to_vec())
        .chain([b"\xFF\xFE".to_vec(), b"\x0Bend".to_vec()])
        .collect()
    }

    proptest::proptest! {
        /// Any input of such lines (from its first), cut into blocks of
        /// any size from reads of any size, with or without `--symbols`,
        /// reads as one reader reads it: the same puzzles and errors, in
        /// order.
        #[test]
        fn blocks_read_as_one_reader(
            picks in proptest::collection::vec(0..20usize, 1..40),
            bytes in 1..300usize,
            block_lines in 1..6usize,
            piece in 1..9000usize,
            bom in proptest::bool::ANY,
            sixteen in proptest::bool::ANY,
            last_line_ends in proptest::bool::ANY,
        ) {
            let lines = lines();
            let mut input = Vec::new();
            if bom {
                input.extend_from_slice("\u{feff}".as_bytes());
            }
            for (k, pick) in picks.iter().enumerate() {
                if k > 0 {
                    input.push(b'\n');
                }
                input.extend_from_slice(&lines[*pick]);
            }
            if last_line_ends {
                input.push(b'\n');
            }
            let symbols = sixteen.then_some("0123456789ABCDEF");
            let (alone, cut, _) = both(&input, symbols, cut(bytes, block_lines), piece);
            proptest::prop_assert_eq!(alone, cut);
        }
    }

    /// Many blocks, each read apart: the same puzzles, with their
    /// line numbers; every guess holds.
    #[test]
    fn a_long_input_reads_the_same_in_blocks() {
        let mut input = String::new();
        for k in 0..5000 {
            input.push_str(if k % 7 == 3 { "# comment\n" } else { "" });
            input.push_str(NINE);
            input.push('\n');
        }
        let (alone, cut, counts) = both(input.as_bytes(), None, Cut::DEFAULT, 1 << 16);
        assert_eq!(alone.len(), 5000);
        assert_eq!(alone, cut);
        assert!(counts.blocks > 5, "{counts:?}");
        assert_eq!(counts.wrong, 0, "line numbers counted right");
    }

    /// Short lines: a block holds at most [`BLOCK_LINES`] of them, so
    /// what is held ahead is bounded by lines as well as bytes.
    #[test]
    fn blocks_hold_a_bounded_number_of_lines() {
        let input = format!("{NINE}\n{}", "x\n".repeat(10 * BLOCK_LINES));
        let (alone, cut, counts) = both(input.as_bytes(), None, Cut::DEFAULT, 1 << 16);
        assert_eq!(alone.len(), 10 * BLOCK_LINES + 1);
        assert_eq!(alone, cut);
        assert_eq!(counts.blocks, 10);
    }

    /// The 16×16 set settles otherwise in a block than the guess the
    /// blocks after it were cut with: they are read again, and give what
    /// one reader gives.
    #[test]
    fn a_wrong_guess_is_read_again() {
        // Comments, so that the reads are long and blocks are cut ahead.
        let comments = format!("# {}\n", "-".repeat(100)).repeat(50);
        let input = format!("{G16}\n{}\n{}\n{}\n{comments}", either(), f16(), either());
        WAIT_FOR_PARSERS.set(true);
        let (alone, cut, counts) = both(input.as_bytes(), None, cut(1, 1), 1 << 16);
        WAIT_FOR_PARSERS.set(false);
        assert_eq!(alone, cut);
        assert!(counts.reread > 0, "{counts:?}");
        // The last reads as 0-9A-F, the one before as 1-9A-G.
        let set = |read: &Result<Entry, String>| match read {
            Ok(Entry::Classic(puzzle)) => format!("{:?}", puzzle.notation),
            other => panic!("{other:?}"),
        };
        assert_ne!(set(&cut[1]), set(&cut[3]));
    }

    /// A line over [`LONGEST_CUT_LINE`] goes to one reader, which reports
    /// it (it is too long for any reader); blocks go on after it.
    #[test]
    fn a_very_long_line_is_read_by_one_reader() {
        let long = "9".repeat(cover_models::text::MAX_LINE_BYTES + 10);
        let nines = format!("{NINE}\n").repeat(ALONE_AT_LEAST + 10);
        let input = format!("{NINE}\n{NINE}\n{long}\n{nines}");
        let (alone, cut, counts) = both(input.as_bytes(), None, cut(100, 1), 100);
        assert_eq!(alone.len(), ALONE_AT_LEAST + 13);
        assert!(
            alone[2].as_ref().unwrap_err().contains("TooLong"),
            "{:?}",
            alone[2]
        );
        assert_eq!(alone, cut);
        // One reader read the line, and blocks came again after it.
        assert_eq!(counts.alone, 1, "{counts:?}");
        assert!(counts.blocks >= 2, "{counts:?}");
    }

    /// A JSON document spans lines: one reader reads it, the lines before
    /// it in its block go on as a block, and blocks go on after it.
    #[test]
    fn a_document_is_read_by_one_reader() {
        let json =
            "{\"size\":4,\n\"grid\":[[{},{},{},{}],[{},{},{},{}],\n[{},{},{},{}],[{},{},{},{}]]}";
        let nines = format!("{NINE}\n").repeat(100);
        let input = format!("{nines}{json}\n{nines}{json}\n{json}\n{nines}");
        let (alone, cut, counts) = both(input.as_bytes(), None, Cut::DEFAULT, 1 << 16);
        assert_eq!(alone.len(), 303);
        let at = &alone[100];
        assert!(matches!(at, Ok(Entry::Variant(_))), "{at:?}");
        assert_eq!(alone, cut);
        // Three documents, the third read by the reader of the second (it
        // reads on for a while).
        assert_eq!(counts.alone, 2, "{counts:?}");
        assert!(counts.blocks >= 3, "{counts:?}");
    }

    /// A source that hands out `pieces` one read at a time (an empty one
    /// is an end of input, and reading goes on after it, as a terminal's
    /// Ctrl-D), and fails the test if read past them, unless `lenient`
    /// (then it ends there for good).
    struct Script {
        pieces: VecDeque<Vec<u8>>,
        at: usize,
        lenient: bool,
    }

    impl Script {
        fn new(pieces: &[&str]) -> Self {
            Script {
                pieces: pieces.iter().map(|p| p.as_bytes().to_vec()).collect(),
                at: 0,
                lenient: false,
            }
        }

        fn lenient(pieces: &[&str]) -> Self {
            Script {
                lenient: true,
                ..Script::new(pieces)
            }
        }
    }

    impl Read for Script {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let piece = self.fill_buf()?;
            let n = piece.len().min(buf.len());
            buf[..n].copy_from_slice(&piece[..n]);
            self.consume(n);
            Ok(n)
        }
    }

    impl BufRead for Script {
        fn fill_buf(&mut self) -> io::Result<&[u8]> {
            if self.lenient && self.pieces.is_empty() {
                return Ok(&[]);
            }
            let front = self.pieces.front().expect("read past the script");
            if front.is_empty() {
                self.pieces.pop_front();
                return Ok(&[]);
            }
            Ok(&self.pieces[0][self.at..])
        }

        fn consume(&mut self, amount: usize) {
            self.at += amount;
            if self.at == self.pieces[0].len() {
                self.pieces.pop_front();
                self.at = 0;
            }
        }
    }

    /// `pieces` read in blocks of at most `cut`, `take` puzzles of them,
    /// without reading past them.
    fn take_from_script(pieces: &[&str], take: usize, cut: Cut) -> Readings {
        let mut reader = SudokuReader::cutting(Box::new(Script::new(pieces)), None, Some(cut));
        let got: Readings = reader
            .by_ref()
            .take(take)
            .map(|r| r.map_err(|e| format!("{e:?}")))
            .collect();
        assert_eq!(got.len(), take);
        got
    }

    /// `end` stops the reading at once, as it does for one reader; a
    /// source that has no more at hand gets the puzzles so far handed on
    /// before it is read again.
    #[test]
    fn end_and_a_waiting_source_are_not_read_past() {
        let line = format!("{NINE}\n");
        // A long read (more is at hand), with `end` in it.
        let ended = format!("{}end\n", line.repeat(60));
        let mut reader = SudokuReader::cutting(
            Box::new(Script::new(&[&line, &ended])),
            None,
            Some(Cut::DEFAULT),
        );
        assert_eq!(reader.by_ref().count(), 61, "nothing read after end");
        take_from_script(&[&line, &line, &line, &line], 4, Cut::DEFAULT);
        // A block full of lines leaves whole lines uncut after a short
        // read: they go on before the source is read again.
        let three = line.repeat(3);
        take_from_script(&[&line, &three], 4, cut(1 << 16, 2));
        // So do whole lines after a document one reader read.
        let json = r#"{"size":4,"grid":[[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]]}"#;
        take_from_script(&[&line, &format!("{json}\n{line}{line}")], 4, Cut::DEFAULT);
    }

    /// An end of input in the middle of a line ends the line, and reading
    /// goes on after it, as one reader does; a document's first line
    /// too, which is not joined to what follows.
    #[test]
    fn an_end_of_input_mid_line_ends_the_line() {
        let (half, rest) = NINE.split_at(40);
        let both = |pieces: &[&str]| {
            let script = || Box::new(Script::new(pieces));
            let alone = read_all(&mut SudokuReader::cutting(script(), None, None));
            let cut = read_all(&mut SudokuReader::cutting(
                script(),
                None,
                Some(Cut::DEFAULT),
            ));
            assert_eq!(alone, cut);
            alone
        };
        let read = both(&[NINE, "\n", half, "", rest, "\n", NINE, "\n", ""]);
        assert_eq!(read.len(), 4, "{read:?}");
        let nine = format!("{NINE}\n");
        let grid = "\"grid\":[[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]]}\n";
        // (The document's lines go on after the end of input.)
        let read = both(&[&nine, &nine, "{\"size\":4,", "", grid, "xyz\n", ""]);
        assert_eq!(read.len(), 4, "{read:?}");
    }

    proptest::proptest! {
        /// Any input of such lines, from a source whose reads end anywhere
        /// and that may say the input ended in the middle of it (then
        /// more): blocks read what one reader reads of the same source.
        #[test]
        fn blocks_read_any_source_as_one_reader(
            picks in proptest::collection::vec(0..20usize, 1..30),
            cuts in proptest::collection::vec((0..4000usize, proptest::bool::ANY), 0..12),
        ) {
            let lines = lines();
            let mut input = Vec::new();
            for pick in picks {
                input.extend_from_slice(&lines[pick]);
                input.push(b'\n');
            }
            let text = String::from_utf8_lossy(&input).into_owned();
            let mut places: Vec<(usize, bool)> = cuts
                .into_iter()
                .map(|(at, ends)| (at % (text.len() + 1), ends))
                .filter(|(at, _)| text.is_char_boundary(*at))
                .collect();
            places.sort_unstable();
            let mut pieces: Vec<&str> = Vec::new();
            let mut from = 0;
            for (at, ends) in places {
                if at > from {
                    pieces.push(&text[from..at]);
                    from = at;
                }
                if ends {
                    pieces.push("");
                }
            }
            pieces.push(&text[from..]);
            // (One reader may read on after an end of input, inside a
            // JSON document.)
            let script = || Box::new(Script::lenient(&pieces));
            let alone = read_all(&mut SudokuReader::cutting(script(), None, None));
            let cut = read_all(&mut SudokuReader::cutting(script(), None, Some(cut(200, 3))));
            proptest::prop_assert_eq!(alone, cut);
        }
    }

    /// Inputs a proptest once found to differ (pinned from its seeds).
    #[test]
    fn inputs_once_found() {
        let lines = lines();
        for picks in [&[5, 0, 15][..], &[6, 0, 7], &[14, 5], &[0, 6, 0, 7, 7]] {
            let input: Vec<u8> = picks
                .iter()
                .flat_map(|&k| lines[k].iter().copied().chain([b'\n']))
                .collect();
            for (block, piece) in [(1, 1), (10, 7), (300, 4096)] {
                let (alone, cut, _) = both(&input, None, cut(block, 2), piece);
                assert_eq!(alone, cut, "{picks:?}, block {block}, piece {piece}");
            }
        }
    }

    /// A reader that fails after its first `good` bytes.
    struct FailsAfter<'a> {
        good: &'a [u8],
    }

    impl Read for FailsAfter<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.good.is_empty() {
                return Err(io::Error::other("the disk failed"));
            }
            let n = buf.len().min(self.good.len()).min(50);
            buf[..n].copy_from_slice(&self.good[..n]);
            self.good = &self.good[n..];
            Ok(n)
        }
    }

    /// An input that fails part way: the puzzles before, then the error,
    /// then nothing, as one reader gives them.
    #[test]
    fn an_input_error_comes_where_it_would() {
        let input = format!("{NINE}\n{NINE}\n{NINE}\n{NINE}\n");
        let failing = |good: usize, cut: Option<Cut>| {
            let reader = io::BufReader::with_capacity(
                64,
                FailsAfter {
                    good: &input.as_bytes()[..good],
                },
            );
            read_all(&mut SudokuReader::cutting(Box::new(reader), None, cut))
        };
        for good in [90, 170, 200] {
            let alone = failing(good, None);
            let last = alone.last().unwrap().as_ref().unwrap_err();
            assert!(last.contains("the disk failed"), "{last}");
            assert_eq!(
                alone,
                failing(good, Some(cut(100, 1))),
                "failing after {good}"
            );
        }
    }
}
