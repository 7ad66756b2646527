//! The batch runner: how every command that reads files of instances
//! (`sudoku`, `target`, `radar`, `exact`) answers them.
//!
//! A command says only what is its own, by implementing [`Batch`]: how to
//! read an input into instances, how to answer one instance into text (on
//! the pool, with a per-thread [`Batch::Worker`] such as a solver), what
//! the answer means for the exit status, and what stands on standard
//! output for an instance that could not be read. [`run`] does the rest,
//! the same way for all of them:
//!
//! - opens each input in order (standard input for `-` or none), reporting
//!   one that cannot be opened and going on with the next;
//! - reads instances in chunks bounded in number and in weight, answers
//!   each chunk on rayon's pool through the [`pipeline`] (several
//!   instances per pool task, their answers formatted by the worker into
//!   one string) while this thread prints the chunk before and reads the
//!   chunk after;
//! - prints in input order, reports each unreadable instance as
//!   `cover: FILE:LINE: message` on standard error at its place (standard
//!   output flushed first, so that the two interleave in order), records
//!   every instance in the [`Session`] for the exit status and `--stats`;
//! - draws a progress bar of the bytes read, on a terminal.
//!
//! When one instance's answer may be too big to hold (every solution,
//! `--all`), the command asks for [`Batch::streaming`]: instances are then
//! answered one at a time on this thread, and the answer (text or JSON) is
//! written out as it grows.

use std::fmt::Display;
use std::io::{self, BufRead, IsTerminal as _, Read, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use cover_models::text::InputError;
use dlx_core::{Control, Stats};
use rayon::prelude::*;
use serde::Serialize;

use crate::common::{Inputs, Session};
use crate::output::Out;
use crate::pipeline::{self, ChunkSizes};
use crate::progress::Ticker;

/// Where an instance comes from: its file and its number there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct At<'a> {
    /// The file name, or `<stdin>`.
    pub file: &'a str,
    /// The instance's number in its file, from 1.
    pub index: usize,
}

/// The fields a `--json` line of `target` and `radar` starts with: which
/// instance, the line it starts on (or of its error), and its status.
#[derive(Debug, Default, Serialize)]
pub struct Head<'a> {
    /// The instance's number in its file, from 1.
    pub index: usize,
    /// The file name, or `<stdin>`.
    pub file: &'a str,
    /// The line.
    pub line: usize,
    /// `solved`, `no_solution`, `invalid`, `gave_up`.
    pub status: &'static str,
}

impl<'a> Head<'a> {
    /// The head of instance `at`, at `line`, with `status`.
    pub fn new(at: At<'a>, line: usize, status: &'static str) -> Head<'a> {
        Head {
            index: at.index,
            file: at.file,
            line,
            status,
        }
    }
}

/// What an answered instance means for the exit status and `--stats`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// It has a solution (exit 0).
    Solved(Stats),
    /// It has none (exit 1).
    NoSolution(Stats),
    /// Its search reached `--max-nodes` before it was done (exit 1).
    GaveUp(Stats),
}

/// What stands in place of an answer when the search reached
/// `--max-nodes` first, in every command.
pub const GAVE_UP: &str = "gave up";

/// What stands in place of a count (`--count`) when the search gave up:
/// [`GAVE_UP`] and the solutions found by then, on one line, as JSON's
/// `count` (with `complete` false) gives them.
pub fn gave_up_after(found: u64) -> String {
    let plural = if found == 1 { "" } else { "s" };
    format!("{GAVE_UP} after {found} solution{plural}")
}

/// What stands in place of an instance that could not be read, in every
/// command's text output (its error goes to standard error).
pub const INVALID: &str = "invalid";

impl Verdict {
    /// The verdict of a search that gave up or not, and found a solution
    /// or not, with these counters.
    pub fn of(gave_up: bool, solved: bool, stats: Stats) -> Verdict {
        match (gave_up, solved) {
            (true, _) => Verdict::GaveUp(stats),
            (false, true) => Verdict::Solved(stats),
            (false, false) => Verdict::NoSolution(stats),
        }
    }

    /// Its name in JSON records' `status`.
    pub fn status(self) -> &'static str {
        match self {
            Verdict::Solved(_) => "solved",
            Verdict::NoSolution(_) => "no_solution",
            Verdict::GaveUp(_) => "gave_up",
        }
    }

    /// Records it in `session`.
    pub fn record(self, session: &mut Session) {
        match self {
            Verdict::Solved(stats) => session.answered(true, stats),
            Verdict::NoSolution(stats) => session.answered(false, stats),
            Verdict::GaveUp(stats) => session.gave_up(stats),
        }
    }
}

/// Why an instance could not be read, as the runner reports it.
pub trait Invalid {
    /// The line of the problem.
    fn line(&self) -> usize;
    /// What is wrong, for `cover: FILE:LINE: message`.
    fn message(&self) -> String;
}

impl<K: Display> Invalid for cover_models::text::LineError<K> {
    fn line(&self) -> usize {
        self.line
    }

    fn message(&self) -> String {
        self.kind.to_string()
    }
}

/// What a batch command is made of; see the [module](self) docs.
pub trait Batch: Sync {
    /// One instance, as read.
    type Instance: Send + Sync;
    /// Why one instance could not be read.
    type Error: Invalid + Send + Sync;
    /// What one thread keeps between instances (a solver, say); made by
    /// [`Batch::worker`], kept for the whole run.
    type Worker: Send;
    /// One instance's answer, beyond its text: what [`Batch::verdict`] and
    /// [`Batch::printed`] need.
    type Answer: Send;

    /// The label of the progress bar.
    fn label(&self) -> &'static str;

    /// How many instances a chunk holds.
    fn chunk_sizes(&self) -> ChunkSizes;

    /// How many instances one pool task answers, one after another: more
    /// than one when an instance takes less time than handing it to a
    /// thread.
    fn group_size(&self) -> usize {
        1
    }

    /// What `instance` weighs, for bounding a chunk's memory: a chunk is
    /// full once its weights reach [`CHUNK_WEIGHT`].
    fn weight(&self, _instance: &Self::Instance) -> usize {
        1
    }

    /// Whether one instance's answer may be too big to hold: then
    /// instances are answered one at a time, written out as they go.
    fn streaming(&self) -> bool {
        false
    }

    /// The instances of one input.
    fn instances<'r>(&'r self, reader: Box<dyn BufRead + Send + 'r>) -> ReadInstances<'r, Self>;

    /// A new worker.
    fn worker(&self) -> Self::Worker;

    /// Answers `instance`, appending its text to `text`. `flush` may be
    /// called as the text grows (it writes the text out and clears it
    /// when streaming, and does nothing otherwise); an error from it is
    /// returned.
    fn answer(
        &self,
        worker: &mut Self::Worker,
        at: At<'_>,
        instance: &Self::Instance,
        text: &mut String,
        flush: &mut dyn FnMut(&mut String) -> io::Result<()>,
    ) -> io::Result<Self::Answer>;

    /// What `answer` means for the exit status and `--stats`.
    fn verdict(&self, answer: &Self::Answer) -> Verdict;

    /// Whether a command-line argument that names no file is an instance
    /// itself (a sudoku puzzle on one line), to be read as its own input.
    fn is_instance_text(&self, _argument: &str) -> bool {
        false
    }

    /// The clauses learnt from conflicts, if conflict learning answered
    /// (for `--stats`).
    fn learnt(&self, _answer: &Self::Answer) -> Option<u64> {
        None
    }

    /// When the instance turned out to be bad only once it was answered
    /// (read fine, but its search refused it): the line and what is
    /// wrong. It is then reported and recorded as an instance that could
    /// not be read, in place of its verdict.
    fn failure(&self, _answer: &Self::Answer) -> Option<(usize, String)> {
        None
    }

    /// Appends what stands on standard output in place of an instance
    /// that could not be read (nothing, a marker, a JSON record).
    fn invalid(&self, at: At<'_>, error: &Self::Error, text: &mut String);

    /// Warnings about `instance` (lines of the input and what to say of
    /// them), reported on standard error before its answer.
    fn warnings(&self, _instance: &Self::Instance) -> Vec<(usize, String)> {
        Vec::new()
    }

    /// Called on this thread, in input order, once an instance's answer
    /// was printed and recorded: for side effects that must happen in
    /// order (files drawn and numbered one after another).
    fn printed(
        &self,
        _at: At<'_>,
        _instance: &Self::Instance,
        _answer: &Self::Answer,
        _session: &mut Session,
    ) {
    }
}

/// Calls an answer's `flush` (see [`Batch::answer`]) after each solution a
/// search visits, and keeps the first error, which stops the search.
pub struct Flush<'f> {
    flush: &'f mut dyn FnMut(&mut String) -> io::Result<()>,
    failed: Option<io::Error>,
}

impl<'f> Flush<'f> {
    /// Wraps `flush`.
    pub fn new(flush: &'f mut dyn FnMut(&mut String) -> io::Result<()>) -> Flush<'f> {
        Flush {
            flush,
            failed: None,
        }
    }

    /// Flushes `text`: the search goes on unless that failed.
    pub fn after_solution(&mut self, text: &mut String) -> Control {
        match (self.flush)(text) {
            Ok(()) => Control::Continue,
            Err(e) => {
                self.failed = Some(e);
                Control::Stop
            }
        }
    }

    /// The error that stopped the search, if one did.
    pub fn finish(self) -> io::Result<()> {
        self.failed.map_or(Ok(()), Err)
    }
}

/// A chunk is full once the weights of its instances reach this.
pub const CHUNK_WEIGHT: usize = 1 << 22;

/// Answers every instance of every input of `inputs` with `batch`,
/// printing to `out` and recording in `session`. Returns an error only
/// when writing the output failed (a closed pipe, a full disk): the
/// failures of inputs are reported and recorded, and the next input read.
pub fn run<B: Batch>(
    batch: &B,
    inputs: &Inputs,
    out: &mut Out,
    session: &mut Session,
) -> io::Result<()> {
    let workers = Workers::new();
    let bytes_done = Arc::new(AtomicU64::new(0));
    let bytes_total = Arc::new(AtomicU64::new(0));
    // A bar of bytes typed would only get in the way of the typing.
    let typed = inputs.iter().any(|input| input.reads_terminal());
    let ticker = (!typed).then(|| {
        let (done, total) = (Arc::clone(&bytes_done), Arc::clone(&bytes_total));
        Ticker::start(batch.label(), move || {
            (done.load(Ordering::Relaxed), total.load(Ordering::Relaxed))
        })
    });
    for input in inputs.iter() {
        let input = input.or_text(|text| batch.is_instance_text(text));
        if input.reads_terminal() && io::stderr().is_terminal() {
            let end = if cfg!(windows) {
                "Ctrl-Z, Enter"
            } else {
                "Ctrl-D"
            };
            eprintln!(
                "cover: reading standard input: type or paste, then {end} to end \
                 (or name the files to read)"
            );
        }
        let Some(reader) = input.open_or_report(session) else {
            continue;
        };
        bytes_done.store(0, Ordering::Relaxed);
        bytes_total.store(input.size().unwrap_or(0), Ordering::Relaxed);
        let reader = Counted {
            inner: reader,
            count: Arc::clone(&bytes_done),
        };
        let mut instances = batch.instances(Box::new(reader));
        let file = input.name();
        let printer = Printer {
            batch,
            file,
            out: &mut *out,
            session: &mut *session,
        };
        if batch.streaming() {
            run_streaming(&workers, &mut instances, printer)?;
        } else {
            run_chunked(&workers, &mut instances, printer)?;
        }
    }
    if let Some(ticker) = ticker {
        ticker.finish();
    }
    out.flush()
}

/// A reader of instances whose parse errors are each given what the
/// reader knows when it reports them (the input's layout or format, which
/// says what stands in an unreadable instance's place): `context(reader,
/// error)`. I/O errors pass unchanged.
pub struct WithContext<I, F> {
    reader: I,
    context: F,
}

impl<I, F> WithContext<I, F> {
    /// Wraps `reader`.
    pub fn new(reader: I, context: F) -> Self {
        WithContext { reader, context }
    }
}

impl<T, E, E2, I, F> Iterator for WithContext<I, F>
where
    I: Iterator<Item = Result<T, InputError<E>>>,
    F: FnMut(&I, E) -> E2,
{
    type Item = Result<T, InputError<E2>>;

    fn next(&mut self) -> Option<Self::Item> {
        Some(match self.reader.next()? {
            Ok(instance) => Ok(instance),
            Err(InputError::Parse(error)) => {
                Err(InputError::Parse((self.context)(&self.reader, error)))
            }
            Err(InputError::Io(e)) => Err(InputError::Io(e)),
        })
    }
}

/// One read instance, or why it could not be read.
pub type Item<B> = Result<<B as Batch>::Instance, InputError<<B as Batch>::Error>>;

/// The instances of one input, as [`Batch::instances`] reads them.
pub type ReadInstances<'r, B> = Box<dyn Iterator<Item = Item<B>> + Send + 'r>;

/// A chunk of read instances; the first is number `first_index` of its
/// file.
struct Chunk<B: Batch> {
    items: Vec<Item<B>>,
    first_index: usize,
}

/// The answers of one group of instances: their texts one after another,
/// and for each where its text ends and its answer (`None` for an
/// instance that could not be read).
struct GroupAnswers<A> {
    text: String,
    ends: Vec<(usize, Option<A>)>,
}

/// Where the answers of one input go, in input order: standard output,
/// and the session that records them.
struct Printer<'a, B> {
    batch: &'a B,
    file: &'a str,
    out: &'a mut Out,
    session: &'a mut Session,
}

/// Answers chunks of instances on the pool while this thread prints.
fn run_chunked<B: Batch>(
    workers: &Workers<B::Worker>,
    instances: &mut (dyn Iterator<Item = Item<B>> + Send),
    mut printer: Printer<'_, B>,
) -> io::Result<()> {
    let (batch, file) = (printer.batch, printer.file);
    let mut next_index = 1;
    let group = batch.group_size().max(1);
    // Set once printing failed: the reader stops at its next instance
    // rather than at the end of its chunk (which a terminal may be slow
    // to fill).
    let stopped = AtomicBool::new(false);
    pipeline::run(
        batch.chunk_sizes(),
        |size| {
            let mut items = Vec::with_capacity(size.min(4096));
            let mut weight = 0;
            let mut more = true;
            while items.len() < size && weight < CHUNK_WEIGHT {
                if stopped.load(Ordering::Relaxed) {
                    more = false;
                    break;
                }
                let Some(item) = instances.next() else {
                    more = false;
                    break;
                };
                if let Ok(instance) = &item {
                    weight += batch.weight(instance);
                }
                items.push(item);
            }
            let chunk = Chunk::<B> {
                items,
                first_index: next_index,
            };
            next_index += chunk.items.len();
            (chunk, more)
        },
        |chunk| {
            chunk
                .items
                .par_chunks(group)
                .enumerate()
                .map(|(g, items)| {
                    let first = chunk.first_index + g * group;
                    workers.with(
                        || batch.worker(),
                        |worker| answer_group(batch, worker, file, first, items),
                    )
                })
                .collect::<Vec<_>>()
        },
        |chunk, groups| {
            let printed = printer.chunk(chunk, groups);
            if printed.is_err() {
                stopped.store(true, Ordering::Relaxed);
            }
            printed
        },
    )
}

/// Answers `items`, the first of which is number `first` of `file`, into
/// one string.
fn answer_group<B: Batch>(
    batch: &B,
    worker: &mut B::Worker,
    file: &str,
    first: usize,
    items: &[Item<B>],
) -> GroupAnswers<B::Answer> {
    let mut answers = GroupAnswers {
        text: String::new(),
        ends: Vec::with_capacity(items.len()),
    };
    for (k, item) in items.iter().enumerate() {
        let answer = item.as_ref().ok().map(|instance| {
            let at = At {
                file,
                index: first + k,
            };
            batch
                .answer(worker, at, instance, &mut answers.text, &mut |_| Ok(()))
                .expect("writing into a string does not fail")
        });
        answers.ends.push((answers.text.len(), answer));
    }
    answers
}

impl<B: Batch> Printer<'_, B> {
    /// Prints a chunk's answers in order, reports its unreadable instances
    /// and records everything.
    fn chunk(&mut self, chunk: Chunk<B>, groups: Vec<GroupAnswers<B::Answer>>) -> io::Result<()> {
        let mut items = chunk.items.iter().enumerate();
        for group in groups {
            let mut start = 0;
            for (end, answer) in group.ends {
                let (k, item) = items.next().expect("one answer per instance");
                let at = At {
                    file: self.file,
                    index: chunk.first_index + k,
                };
                self.one(at, item, &group.text[start..end], answer)?;
                start = end;
            }
        }
        Ok(())
    }

    /// Prints one instance's answer (`text`, made by the pool) or reports
    /// why it could not be read, and records it.
    fn one(
        &mut self,
        at: At<'_>,
        item: &Item<B>,
        text: &str,
        answer: Option<B::Answer>,
    ) -> io::Result<()> {
        let Printer {
            batch,
            out,
            session,
            ..
        } = self;
        match (item, answer) {
            (Ok(instance), Some(answer)) => {
                let warnings = batch.warnings(instance);
                if !warnings.is_empty() {
                    out.end_instance()?;
                    for (line, message) in warnings {
                        session.warning(at.file, line, message);
                    }
                }
                out.write_all(text.as_bytes())?;
                match batch.failure(&answer) {
                    Some((line, message)) => {
                        out.end_instance()?;
                        session.invalid(at.file, line, message);
                    }
                    None => batch.verdict(&answer).record(session),
                }
                if let Some(learnt) = batch.learnt(&answer) {
                    session.learnt(learnt);
                }
                // The answer first, so that what `printed` reports comes after
                // it on a terminal.
                out.end_instance()?;
                batch.printed(at, instance, &answer, session);
            }
            (Err(InputError::Parse(error)), _) => {
                // What comes before it first, so that standard output and
                // standard error interleave in order on a terminal.
                out.end_instance()?;
                session.invalid(at.file, error.line(), error.message());
                let mut text = String::new();
                batch.invalid(at, error, &mut text);
                out.write_all(text.as_bytes())?;
            }
            (Err(InputError::Io(error)), _) => {
                out.end_instance()?;
                session.io_error(at.file, error);
            }
            (Ok(_), None) => unreachable!("every instance read is answered"),
        }
        out.end_instance()
    }
}

/// Answers one instance at a time on this thread, writing each answer out
/// as it grows.
fn run_streaming<B: Batch>(
    workers: &Workers<B::Worker>,
    instances: &mut (dyn Iterator<Item = Item<B>> + Send),
    mut printer: Printer<'_, B>,
) -> io::Result<()> {
    for (k, item) in instances.enumerate() {
        let at = At {
            file: printer.file,
            index: k + 1,
        };
        let mut text = String::new();
        let answer = match &item {
            Ok(instance) => Some(workers.with(
                || printer.batch.worker(),
                |worker| {
                    printer
                        .batch
                        .answer(worker, at, instance, &mut text, &mut |text| {
                            printer.out.write_all(text.as_bytes())?;
                            text.clear();
                            printer.out.end_instance()
                        })
                },
            )?),
            Err(_) => None,
        };
        printer.one(at, &item, &text, answer)?;
    }
    Ok(())
}

/// One worker per thread, kept for the whole run.
///
/// A worker is taken out of its thread's slot while it answers, not
/// borrowed: an answer that waits for other threads (a search shared
/// between them) lets rayon run another instance on the waiting thread,
/// which then needs a worker of its own. Such extra workers are kept as
/// spares for the next time, so that there are never more workers than
/// were ever in use at once, and none is built twice (a 64×64 sudoku's
/// model and engine take tens of megabytes and milliseconds to build).
struct Workers<W> {
    /// Slot 0 for threads outside the pool, then one per pool thread.
    slots: Vec<Mutex<Option<W>>>,
    spares: Mutex<Vec<W>>,
}

impl<W> Workers<W> {
    fn new() -> Workers<W> {
        Workers {
            slots: (0..=rayon::current_num_threads())
                .map(|_| Mutex::new(None))
                .collect(),
            spares: Mutex::new(Vec::new()),
        }
    }

    /// Runs `f` with this thread's worker, or a spare, or one made by
    /// `make`.
    fn with<T>(&self, make: impl FnOnce() -> W, f: impl FnOnce(&mut W) -> T) -> T {
        let slot = rayon::current_thread_index().map_or(0, |index| index + 1);
        let slot = &self.slots[slot.min(self.slots.len() - 1)];
        let taken = slot.lock().unwrap_or_else(PoisonError::into_inner).take();
        let mut worker = taken
            .or_else(|| {
                self.spares
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .pop()
            })
            .unwrap_or_else(make);
        let result = f(&mut worker);
        let mut slot = slot.lock().unwrap_or_else(PoisonError::into_inner);
        if slot.is_none() {
            *slot = Some(worker);
        } else {
            drop(slot);
            self.spares
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(worker);
        }
        result
    }
}

/// A reader that counts the bytes consumed, for the progress bar.
struct Counted<R> {
    inner: R,
    count: Arc<AtomicU64>,
}

impl<R: BufRead> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Counted<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn consume(&mut self, amount: usize) {
        self.inner.consume(amount);
        self.count.fetch_add(amount as u64, Ordering::Relaxed);
    }
}
