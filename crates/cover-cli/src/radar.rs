//! `cover radar`: the radar problem (HDU 2295), the smallest radius with
//! which at most K stations cover every city, exactly.
//!
//! Reading and solving are [`cover_models::radar`]; this module adds the
//! parallelism (the cases of a file are solved in parallel, a chunk at a
//! time, and each case probes several candidate radii per round on
//! rayon's threads), printing in input order (text or JSON), the
//! `--svg` drawings and the session's bookkeeping.

use std::fmt::Write as _;
use std::io::{self, BufRead};
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

use clap::Args;
use cover_models::radar::{
    format_radius, solve_within, Cases, NoAnswer, ParseError, ParseErrorKind, Probe, RadarAnswer,
    RadarCase,
};
use cover_models::text::LineFault;
use dlx_core::Stats;
use rayon::prelude::*;
use serde::Serialize;

use crate::batch::{self, At, Batch, Head, Invalid, ReadInstances, Verdict, GAVE_UP, INVALID};
use crate::common::{self, Common, Inputs, Session, TimeLimit};
use crate::output::{push_json, Out};
use crate::pipeline::ChunkSizes;

const LONG_ABOUT: &str = "\
Solve the radar problem (HDU 2295): N cities and M radar stations, of which
at most K may be operated; find the smallest radius R with which the
operated stations cover every city (a city is covered when its distance to
a station is at most R).

Input, as HDU 2295: the number of cases T alone on the first line, then for
each case a line `N M K`, N lines of city coordinates and M lines of station
coordinates. Coordinates are integers within ±1000000000; after T, any white
space may separate the numbers. N and M have no limit of 50. A first line of
several numbers is an error (T is missing, and the first case's numbers
would be misread as T and cases), and so is an input without T (empty, or
blank lines only): `0` is the input of no cases.

The answer is exact: R is the distance of some city–station pair, so the
search runs over those distances (as integers, squared) and asks, for each
candidate probed, whether K stations suffice (a repeat cover with a lower
bound). Several candidates are probed at once, and the cases of a file are
solved in parallel; answers are printed in input order.";

const AFTER_LONG_HELP: &str = "\
Output (text): one line per case, R rounded to 6 decimals (correctly
rounded); `no answer` for a case with cities but no station. N = 0 answers
0.000000. With --max-nodes N or --time-limit SECONDS, `gave up` for a case
whose probes reached N nodes, or ran SECONDS, before the answer was decided.
A case that cannot be read prints `invalid` in its place, so answers stay
aligned with cases; the error goes to standard error as `cover: FILE:LINE:
message`, and the cases after it are still answered when the reader can tell
where they start (when it cannot, the error says so and nothing more is
printed).

JSON (--json), one object per case per line:
  index           the case's number in its file, from 1
  file            the file name, or <stdin>
  line            the line of the case's `N M K` (for invalid cases: the
                  line of the error)
  status          \"solved\", \"no_solution\", \"invalid\" or \"gave_up\"
  radius          R, rounded to 6 decimals
  radius_text     R as printed in text
  squared_radius  R², exact (an integer)
  stations        the stations operated, 1-based, ascending (at most K)
  probes          candidate radii probed (cancelled ones included)
  rounds          rounds of probes
  nodes           search nodes of all probes
  error           for invalid, unanswerable and given-up cases: what is wrong

--svg PATH draws each answered case: cities (dots), stations (squares; the
operated ones red, with their coverage circles), scaled to fit, labelled.
PATH is a directory when it exists as one or ends in `/`: each case is
drawn to `<input name>-<case>.svg` in it. Otherwise PATH is a file that
receives the first case; case n after it goes to `<PATH stem>-<n>.svg`
beside it.

Exit status: 0 every case answered; 1 all input valid but some case has no
answer (cities and no station, or it gave up); 2 bad input, bad usage or an
I/O error.

Examples:
  cover radar hdu2295.in                radii, one per line
  cover radar --json --stats cases.in   JSON lines and a summary
  cover radar --svg out/ cases.in       a drawing per case in out/";

/// Solve the radar problem (HDU 2295): the smallest radius with which at
/// most K stations cover every city.
#[derive(Args, Debug, Clone)]
#[command(long_about = LONG_ABOUT, after_long_help = AFTER_LONG_HELP)]
pub struct RadarArgs {
    #[command(flatten)]
    pub inputs: Inputs,

    /// Draw each answered case as SVG into PATH (a file, or a directory
    /// for many cases; see below).
    #[arg(long, value_name = "PATH")]
    pub svg: Option<PathBuf>,

    /// Candidate radii probed at once per case [default: one per thread].
    #[arg(long, value_name = "N", value_parser = common::parse_nonzero)]
    pub probes: Option<NonZeroUsize>,

    /// Give up on a case once its probes have taken N search nodes.
    ///
    /// Its answer is then `gave up` (JSON status "gave_up"), and the exit
    /// status is 1; the other cases are still answered. Probes that run
    /// at once may each take what the rounds before left, so a case takes
    /// at most --probes times N nodes. Which radii are probed depends on
    /// --probes (by default the number of threads), so whether a hard
    /// case gives up may too; give --probes for runs that must agree.
    #[arg(long, value_name = "N", value_parser = common::parse_positive)]
    pub max_nodes: Option<u64>,

    #[command(flatten)]
    pub time_limit: TimeLimit,

    #[command(flatten)]
    pub common: Common,
}

/// At most this many cases are read ahead and solved together (and fewer
/// once they hold [`batch::CHUNK_WEIGHT`] points, so that memory stays
/// bounded by the input's cases, not by the whole file).
const CHUNK_CASES: usize = 64;

/// One line of `--json` output.
#[derive(Debug, Default, Serialize)]
struct Record<'a> {
    #[serde(flatten)]
    head: Head<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    radius: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    radius_text: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    squared_radius: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stations: Option<Vec<usize>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    probes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rounds: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    nodes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

/// Solves `case` with up to `width` probes per round on rayon's threads,
/// each bounded by `max_nodes`, all of them by `time_limit` from now.
pub fn solve_case(
    case: &RadarCase,
    width: usize,
    max_nodes: Option<u64>,
    time_limit: TimeLimit,
) -> Result<RadarAnswer, NoAnswer> {
    let deadline = time_limit.limits(None).deadline;
    solve_within(
        case,
        width,
        max_nodes,
        deadline,
        |probes: &[Probe<'_>]| {
            if probes.len() == 1 {
                vec![probes[0].run()]
            } else {
                probes.par_iter().map(Probe::run).collect()
            }
        },
    )
}

/// Where `--svg` drawings go.
#[derive(Debug)]
enum SvgTarget {
    /// One file per case in this directory.
    Directory(PathBuf),
    /// The first case to this file, later ones beside it.
    File { path: PathBuf, drawn: u64 },
}

impl SvgTarget {
    fn new(path: &Path) -> SvgTarget {
        let text = path.to_string_lossy();
        if path.is_dir() || text.ends_with('/') || text.ends_with(std::path::MAIN_SEPARATOR) {
            SvgTarget::Directory(path.to_owned())
        } else {
            SvgTarget::File {
                path: path.to_owned(),
                drawn: 0,
            }
        }
    }

    /// The path for case `index` of the input called `input`.
    fn next_path(&mut self, input: &str, index: usize) -> PathBuf {
        match self {
            SvgTarget::Directory(dir) => {
                let stem = if input == "<stdin>" {
                    "stdin".to_owned()
                } else {
                    Path::new(input)
                        .file_stem()
                        .map_or_else(|| "input".to_owned(), |s| s.to_string_lossy().into_owned())
                };
                dir.join(format!("{stem}-{index}.svg"))
            }
            SvgTarget::File { path, drawn } => {
                *drawn += 1;
                if *drawn == 1 {
                    return path.clone();
                }
                let stem = path
                    .file_stem()
                    .map_or_else(|| "radar".to_owned(), |s| s.to_string_lossy().into_owned());
                path.with_file_name(format!("{stem}-{drawn}.svg"))
            }
        }
    }

    fn write(&mut self, input: &str, index: usize, drawing: &str) -> (PathBuf, io::Result<()>) {
        let path = self.next_path(input, index);
        let result = (|| {
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir)?;
            }
            std::fs::write(&path, drawing)
        })();
        (path, result)
    }
}

impl Invalid for ParseError {
    fn line(&self) -> usize {
        self.line
    }

    /// The message, saying when the rest of the input is lost.
    fn message(&self) -> String {
        let lost = self.fatal
            && matches!(
                self.kind,
                ParseErrorKind::BadCount { .. }
                    | ParseErrorKind::NegativeCount { .. }
                    | ParseErrorKind::Line(LineFault::NotUtf8 | LineFault::TooLong { .. })
            );
        if lost {
            format!(
                "{}; the rest of the input cannot be read as cases",
                self.kind
            )
        } else {
            self.kind.to_string()
        }
    }
}

/// `cover radar` as a [`Batch`].
struct RadarBatch<'a> {
    args: &'a RadarArgs,
    /// Candidate radii probed at once.
    width: usize,
    /// Where drawings go; used on the printing thread only, in order.
    svg: Mutex<Option<SvgTarget>>,
}

impl Batch for RadarBatch<'_> {
    type Instance = RadarCase;
    type Error = ParseError;
    type Worker = ();
    type Answer = Result<RadarAnswer, NoAnswer>;

    fn label(&self) -> &'static str {
        "radar"
    }

    fn chunk_sizes(&self) -> ChunkSizes {
        // A case takes milliseconds, and its probes run in parallel too.
        ChunkSizes::fixed(CHUNK_CASES)
    }

    fn weight(&self, case: &RadarCase) -> usize {
        case.cities.len() + case.stations.len()
    }

    fn instances<'r>(&'r self, reader: Box<dyn BufRead + Send + 'r>) -> ReadInstances<'r, Self> {
        Box::new(Cases::new(reader))
    }

    fn worker(&self) {}

    fn answer(
        &self,
        _: &mut (),
        at: At<'_>,
        case: &RadarCase,
        text: &mut String,
        _flush: &mut dyn FnMut(&mut String) -> io::Result<()>,
    ) -> io::Result<Result<RadarAnswer, NoAnswer>> {
        let answer = solve_case(case, self.width, self.args.max_nodes, self.args.time_limit);
        write_answer(text, self.args, at, case, &answer);
        Ok(answer)
    }

    fn verdict(&self, answer: &Result<RadarAnswer, NoAnswer>) -> Verdict {
        verdict(answer)
    }

    fn invalid(&self, at: At<'_>, error: &ParseError, text: &mut String) {
        if self.args.common.json {
            let record = Record {
                head: Head::new(at, error.line, "invalid"),
                error: Some(error.message()),
                ..Record::default()
            };
            push_json(text, &record);
        } else if !error.fatal {
            // In its place, so that answers stay aligned with cases. (A
            // fatal error ends the input: no case stands there.)
            text.push_str(INVALID);
            text.push('\n');
        }
    }

    fn printed(
        &self,
        at: At<'_>,
        case: &RadarCase,
        answer: &Result<RadarAnswer, NoAnswer>,
        session: &mut Session,
    ) {
        let mut svg = self.svg.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(target) = svg.as_mut() {
            let drawing = draw(at.file, at.index, case, answer.as_ref().ok());
            let (path, result) = target.write(at.file, at.index, &drawing);
            if let Err(e) = result {
                session.io_error(&path.display().to_string(), &e);
            }
        }
    }
}

/// Runs `cover radar`.
pub fn run(args: &RadarArgs, session: &mut Session) -> anyhow::Result<()> {
    let width = args
        .probes
        .map_or_else(rayon::current_num_threads, NonZeroUsize::get)
        .max(1);
    let batch = RadarBatch {
        args,
        width,
        svg: Mutex::new(args.svg.as_deref().map(SvgTarget::new)),
    };
    batch::run(&batch, &args.inputs, &mut Out::stdout(), session)?;
    Ok(())
}

/// What `answer` means for the exit status, `--stats` and JSON.
fn verdict(answer: &Result<RadarAnswer, NoAnswer>) -> Verdict {
    match answer {
        Ok(answer) => Verdict::Solved(answer.stats),
        Err(NoAnswer::GaveUp { stats, .. }) => Verdict::GaveUp(*stats),
        Err(_) => Verdict::NoSolution(Stats::default()),
    }
}

/// Appends one case's answer, text or JSON.
fn write_answer(
    text: &mut String,
    args: &RadarArgs,
    at: At<'_>,
    case: &RadarCase,
    answer: &Result<RadarAnswer, NoAnswer>,
) {
    if !args.common.json {
        match answer {
            Ok(answer) => text.push_str(&format_radius(answer.squared_radius)),
            Err(NoAnswer::GaveUp { .. }) => text.push_str(GAVE_UP),
            Err(_) => text.push_str("no answer"),
        }
        text.push('\n');
        return;
    }
    let mut record = Record {
        head: Head::new(at, case.line, verdict(answer).status()),
        ..Record::default()
    };
    match answer {
        Ok(answer) => {
            let radius = format_radius(answer.squared_radius);
            record.radius = radius.parse().ok();
            record.radius_text = Some(radius);
            record.squared_radius = Some(answer.squared_radius);
            record.stations = Some(answer.stations.iter().map(|s| s + 1).collect());
            record.probes = Some(answer.probes);
            record.rounds = Some(answer.rounds);
            record.nodes = Some(answer.stats.nodes);
        }
        Err(reason) => {
            if let NoAnswer::GaveUp { stats, .. } = reason {
                record.nodes = Some(stats.nodes);
            }
            record.error = Some(reason.to_string());
        }
    }
    push_json(text, &record);
}

// ---------------------------------------------------------------------------
// SVG drawings.

/// Escapes text for SVG.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Above this many points, only the operated stations are labelled.
const MAX_LABELLED_POINTS: usize = 80;

/// Draws one case: cities, stations, and the operated stations with their
/// coverage circles, scaled to fit a square of 800 pixels.
pub fn draw(file: &str, index: usize, case: &RadarCase, answer: Option<&RadarAnswer>) -> String {
    const SIZE: f64 = 800.0;
    const MARGIN: f64 = 40.0;
    const TOP: f64 = 56.0;
    let radius = answer.map_or(0.0, |a| (a.squared_radius as f64).sqrt());
    let chosen: Vec<usize> = answer.map_or_else(Vec::new, |a| a.stations.clone());
    // The extent of everything drawn: points and circles.
    let mut min = (f64::INFINITY, f64::INFINITY);
    let mut max = (f64::NEG_INFINITY, f64::NEG_INFINITY);
    let mut include = |x: f64, y: f64, r: f64| {
        min = (min.0.min(x - r), min.1.min(y - r));
        max = (max.0.max(x + r), max.1.max(y + r));
    };
    for p in case.cities.iter().chain(&case.stations) {
        include(p.x as f64, p.y as f64, 0.0);
    }
    for &s in &chosen {
        let p = case.stations[s];
        include(p.x as f64, p.y as f64, radius);
    }
    if !min.0.is_finite() {
        min = (0.0, 0.0);
        max = (1.0, 1.0);
    }
    let extent = (max.0 - min.0).max(max.1 - min.1).max(1e-9);
    let scale = (SIZE - 2.0 * MARGIN) / extent;
    // Centre the drawing; y grows upwards in the input, downwards in SVG.
    let offset_x = MARGIN + ((SIZE - 2.0 * MARGIN) - (max.0 - min.0) * scale) / 2.0;
    let offset_y = TOP + ((SIZE - 2.0 * MARGIN) - (max.1 - min.1) * scale) / 2.0;
    let px = |x: i64| offset_x + (x as f64 - min.0) * scale;
    let py = |y: i64| offset_y + (max.1 - y as f64) * scale;
    let height = SIZE - 2.0 * MARGIN + TOP + MARGIN;
    let labelled = case.cities.len() + case.stations.len() <= MAX_LABELLED_POINTS;

    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{SIZE}" height="{height}" viewBox="0 0 {SIZE} {height}" font-family="sans-serif">"#
    );
    let _ = writeln!(svg, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let title = match answer {
        Some(a) => format!(
            "{} case {index}: {} cities, {} stations, K = {}, R = {} (stations {})",
            escape(file),
            case.cities.len(),
            case.stations.len(),
            case.operators,
            format_radius(a.squared_radius),
            a.stations
                .iter()
                .map(|s| (s + 1).to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        None => format!(
            "{} case {index}: {} cities, {} stations, K = {}: no answer",
            escape(file),
            case.cities.len(),
            case.stations.len(),
            case.operators
        ),
    };
    let _ = writeln!(
        svg,
        r#"<text x="{MARGIN}" y="28" font-size="16" fill="black">{title}</text>"#
    );
    let _ = writeln!(
        svg,
        r##"<text x="{MARGIN}" y="46" font-size="12" fill="#555">dots: cities c1..; squares: stations s1..; red: operated, with coverage circles</text>"##
    );
    // Coverage circles first, under everything.
    for &s in &chosen {
        let p = case.stations[s];
        let _ = writeln!(
            svg,
            r##"<circle cx="{:.2}" cy="{:.2}" r="{:.2}" fill="#d62728" fill-opacity="0.10" stroke="#d62728" stroke-width="1.5"/>"##,
            px(p.x),
            py(p.y),
            radius * scale
        );
    }
    for (c, p) in case.cities.iter().enumerate() {
        let (x, y) = (px(p.x), py(p.y));
        let _ = writeln!(
            svg,
            r##"<circle cx="{x:.2}" cy="{y:.2}" r="3.5" fill="#1f3b73"/>"##
        );
        if labelled {
            let _ = writeln!(
                svg,
                r##"<text x="{:.2}" y="{:.2}" font-size="11" fill="#1f3b73">c{}</text>"##,
                x + 5.0,
                y - 5.0,
                c + 1
            );
        }
    }
    for (s, p) in case.stations.iter().enumerate() {
        let (x, y) = (px(p.x), py(p.y));
        let operated = chosen.contains(&s);
        let (fill, side) = if operated {
            ("#d62728", 10.0)
        } else {
            ("#888888", 7.0)
        };
        let _ = writeln!(
            svg,
            r#"<rect x="{:.2}" y="{:.2}" width="{side}" height="{side}" fill="{fill}"/>"#,
            x - side / 2.0,
            y - side / 2.0
        );
        if labelled || operated {
            let weight = if operated { "bold" } else { "normal" };
            let _ = writeln!(
                svg,
                r#"<text x="{:.2}" y="{:.2}" font-size="12" font-weight="{weight}" fill="{fill}">s{}</text>"#,
                x + 6.0,
                y + 14.0,
                s + 1
            );
        }
    }
    svg.push_str("</svg>\n");
    svg
}

#[cfg(test)]
mod tests {
    use cover_models::radar::Point;

    use super::*;

    fn sample() -> RadarCase {
        let points = |list: &[(i64, i64)]| list.iter().map(|&(x, y)| Point { x, y }).collect();
        RadarCase {
            cities: points(&[(3, 4), (3, 1), (5, 4)]),
            stations: points(&[(1, 1), (2, 2), (3, 3)]),
            operators: 2,
            line: 2,
        }
    }

    #[test]
    fn the_sample_in_parallel() {
        for width in [1, 2, 5] {
            let answer = solve_case(&sample(), width, None, TimeLimit::default()).unwrap();
            assert_eq!(format_radius(answer.squared_radius), "2.236068");
        }
    }

    #[test]
    fn drawings_show_every_point_and_the_circles() {
        let case = sample();
        let answer = solve_case(&case, 1, None, TimeLimit::default()).unwrap();
        let svg = draw("a<b>.in", 1, &case, Some(&answer));
        assert!(svg.starts_with("<svg"));
        assert!(svg.trim_end().ends_with("</svg>"));
        assert!(svg.contains("a&lt;b&gt;.in"));
        assert_eq!(svg.matches("r=\"3.5\"").count(), 3, "one dot per city");
        assert_eq!(svg.matches("<rect x=").count(), 3, "one square per station");
        assert_eq!(
            svg.matches("fill-opacity").count(),
            answer.stations.len(),
            "one circle per operated station"
        );
        assert!(svg.contains(">c3<") && svg.contains(">s2<"));
        // Degenerate cases still draw.
        let point = RadarCase {
            cities: vec![Point { x: 5, y: 5 }],
            stations: vec![Point { x: 5, y: 5 }],
            operators: 1,
            line: 1,
        };
        let answer = solve_case(&point, 1, None, TimeLimit::default()).unwrap();
        assert!(!draw("-", 1, &point, Some(&answer)).contains("NaN"));
        let empty = RadarCase {
            cities: vec![],
            stations: vec![],
            operators: 1,
            line: 1,
        };
        assert!(!draw("-", 1, &empty, None).contains("NaN"));
    }

    #[test]
    fn svg_paths() {
        let mut target = SvgTarget::new(Path::new("out/pic.svg"));
        assert_eq!(target.next_path("a.in", 1), PathBuf::from("out/pic.svg"));
        assert_eq!(target.next_path("a.in", 2), PathBuf::from("out/pic-2.svg"));
        let mut target = SvgTarget::new(Path::new("out/"));
        assert_eq!(
            target.next_path("dir/cases.in", 3),
            PathBuf::from("out/cases-3.svg")
        );
        assert_eq!(
            target.next_path("<stdin>", 1),
            PathBuf::from("out/stdin-1.svg")
        );
    }
}
