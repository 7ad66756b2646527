//! The `exact` family: every file of `fixtures/exact/` through `cover
//! exact`, each answer checked by `cover-check`'s exact-cover reader and
//! checker, counts, nodes and updates against `fixtures/exact/expected.tsv`.

use std::path::Path;

use anyhow::Result;
use cover_check::exact::{
    at_instance, check_cover, check_distinct, check_knuth_all_text, check_knuth_text,
    check_matrix_text, read_fixture, Cover, Kind,
};
use cover_check::manifest::{read_manifest, Expected};
use cover_check::snippet;
use serde_json::Value;

use super::runner::{run_checks, Check, Env, Fixture, Inspection, Run, ALL_LIMIT};

/// The JSON objects a run printed, one per line; there must be `expected`.
fn json_records(run: &Run, expected: usize) -> Result<Vec<serde_json::Map<String, Value>>, String> {
    let mut records = Vec::new();
    for line in run.stdout.lines().filter(|l| !l.trim().is_empty()) {
        match serde_json::from_str::<Value>(line) {
            Ok(Value::Object(map)) => records.push(map),
            _ => {
                return Err(format!(
                    "`{}` printed a line that is not a JSON object: {line}",
                    run.command
                ))
            }
        }
    }
    if records.len() != expected {
        return Err(format!(
            "`{}` printed {} JSON lines for {expected} instances{}",
            run.command,
            records.len(),
            run.stderr_hint()
        ));
    }
    Ok(records)
}

/// The status an instance with `count` solutions must report.
fn status_for(count: u64) -> &'static str {
    if count > 0 {
        "solved"
    } else {
        "no_solution"
    }
}

/// The common fields of one JSON record: the start line and the status.
fn check_record(
    record: &serde_json::Map<String, Value>,
    cover: &Cover,
    count: u64,
) -> Result<(), String> {
    if let Some(line) = record.get("line") {
        if line.as_u64() != Some(cover.line as u64) {
            return Err(format!(
                "\"line\" is {line}, the instance starts on line {}",
                cover.line
            ));
        }
    }
    if let Some(format) = record.get("format") {
        if format.as_str() != Some(cover.format_name()) {
            return Err(format!(
                "\"format\" is {format}, expected {:?}",
                cover.format_name()
            ));
        }
    }
    let status = record.get("status").and_then(Value::as_str);
    if status != Some(status_for(count)) {
        let found = record
            .get("status")
            .map_or("missing".to_owned(), Value::to_string);
        let mut message = format!("\"status\" is {found}, expected {:?}", status_for(count));
        if let Some(error) = record.get("error").and_then(Value::as_str) {
            message += &format!(" (error: {error})");
        }
        return Err(message);
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// The `exact` family: fixtures/exact/ through `cover exact`.
// ---------------------------------------------------------------------------

/// Checks every file of `fixtures/exact/expected.tsv`.
pub fn checks(env: &Env) -> Result<Vec<Check>> {
    let dir = env.fixtures.join("exact");
    let manifest = read_manifest(&dir.join("expected.tsv")).map_err(anyhow::Error::msg)?;
    // The fixtures are independent: check them on a few threads at once.
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(4));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut results: Vec<(usize, Vec<Check>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(expected) = manifest.get(k) else {
                            break done;
                        };
                        done.push((k, exact_file_checks(env, &dir, expected)));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap())
            .collect()
    });
    results.sort_by_key(|(k, _)| *k);
    Ok(results.into_iter().flat_map(|(_, checks)| checks).collect())
}

/// A `--json` record's own checks: given the record, its instance and count.
type RecordCheck = dyn Fn(&serde_json::Map<String, Value>, &Cover, u64) -> Result<(), String>;

/// Ok when each record of a `--json` run passes [`check_record`] for its
/// instance and count, and then `more`; else the first failure, placed.
fn each_record(
    run: &Run,
    instances: &[Cover],
    counts: &[u64],
    more: &RecordCheck,
) -> Result<(), String> {
    let n = instances.len();
    let records = json_records(run, n)?;
    for (k, (record, cover)) in records.iter().zip(instances).enumerate() {
        let check = || {
            check_record(record, cover, counts[k])?;
            more(record, cover, counts[k])
        };
        check().map_err(|m| at_instance(n, k, m))?;
    }
    Ok(())
}

/// Counts past this are not checked with `--engine sat`: it finds each
/// solution by a solve of its own.
const SAT_COUNT_UP_TO: u64 = 20_000;

/// The checks of one file: (a) counts and stats with `--count --json`,
/// (b) solutions with `--all --limit 1000 --json`, (c) the default text
/// answer, (d) the exit status of each run, (h) counts and solutions by
/// the learning engines; and for Knuth's format the
/// text checks of [`knuth_text_checks`].
fn exact_file_checks(env: &Env, dir: &Path, expected: &Expected) -> Vec<Check> {
    let fixture = format!("exact/{}", expected.file);
    let instances = match read_fixture(&dir.join(&expected.file)) {
        Ok(instances) if instances.len() == expected.solutions.len() => instances,
        Ok(instances) => {
            let reason = format!(
                "the manifest gives {} counts, the file holds {} instances",
                expected.solutions.len(),
                instances.len()
            );
            return vec![Check::new(&fixture, "fixture", Err(reason))];
        }
        Err(reason) => return vec![Check::new(&fixture, "fixture", Err(reason))],
    };
    let path = format!("fixtures/exact/{}", expected.file);
    let exit = if expected.solutions.contains(&0) {
        1
    } else {
        0
    };
    let n = instances.len();
    let mut fx = Fixture::new(env, &fixture, exit);

    // (a) Counts, and nodes and updates where the manifest has them.
    let counts = |run: &Run| {
        each_record(run, &instances, &expected.solutions, &|record, _, want| {
            let count = record.get("count").and_then(Value::as_u64);
            if count != Some(want) {
                return Err(format!("\"count\" is {count:?}, expected {want}"));
            }
            if record
                .get("complete")
                .is_some_and(|c| c != &Value::Bool(true))
            {
                return Err("\"complete\" is not true for a full count".to_owned());
            }
            Ok(())
        })
    };
    let stats = |run: &Run| {
        let records = json_records(run, n)?;
        for (k, record) in records.iter().enumerate() {
            for (field, list) in [("nodes", &expected.nodes), ("updates", &expected.updates)] {
                let Some(list) = list else { continue };
                let got = record.get(field).and_then(Value::as_u64);
                if got != Some(list[k]) {
                    let message = format!("\"{field}\" is {got:?}, expected {}", list[k]);
                    return Err(at_instance(n, k, message));
                }
            }
        }
        Ok(())
    };
    let mut inspections: Vec<Inspection> = vec![("count", &counts)];
    if expected.nodes.is_some() || expected.updates.is_some() {
        inspections.push(("nodes and updates", &stats));
    }
    fx.run(&["exact", "--count", "--json", &path], &inspections);

    // (b) Up to ALL_LIMIT solutions, each valid, all different.
    let all = |run: &Run| {
        each_record(
            run,
            &instances,
            &expected.solutions,
            &|record, cover, want| {
                let list = match record.get("solutions") {
                    Some(Value::Array(list)) => list.as_slice(),
                    None if want == 0 => &[],
                    _ => return Err("no \"solutions\" list".to_owned()),
                };
                if list.len() as u64 != want.min(ALL_LIMIT) {
                    return Err(format!(
                        "{} solutions printed, expected {}",
                        list.len(),
                        want.min(ALL_LIMIT)
                    ));
                }
                let mut solutions = Vec::new();
                for (j, solution) in list.iter().enumerate() {
                    let options = cover.options_from_json(solution);
                    let options = options
                        .and_then(|o| check_cover(cover, &o).map(|()| o))
                        .map_err(|m| format!("solution {}: {m}", j + 1))?;
                    solutions.push(options);
                }
                check_distinct(&solutions)
            },
        )
    };
    let limit = ALL_LIMIT.to_string();
    fx.run(
        &["exact", "--all", "--limit", &limit, "--json", &path],
        &[("all solutions", &all)],
    );

    // (h) The learning engines (`sat`, and `auto` past its search): the
    // same counts, where there are few enough to block one by one, and
    // solutions each valid, all different.
    for engine in ["sat", "auto"] {
        if expected.solutions.iter().sum::<u64>() <= SAT_COUNT_UP_TO {
            let what = format!("count (--engine {engine})");
            fx.run(
                &["exact", "--engine", engine, "--count", "--json", &path],
                &[(&what, &counts)],
            );
        }
        let what = format!("all solutions (--engine {engine})");
        fx.run(
            &[
                "exact", "--engine", engine, "--all", "--limit", &limit, "--json", &path,
            ],
            &[(&what, &all)],
        );
    }

    // (c) The default text answer: one valid solution or the marker.
    let first = |run: &Run| match instances[0].kind {
        Kind::Knuth => check_knuth_text(&instances[0], expected.solutions[0], &run.stdout),
        Kind::Matrix => check_matrix_text(&instances, &expected.solutions, &run.stdout),
    };
    fx.run(&["exact", &path], &[("first solution (text)", &first)]);
    if let [cover] = &instances[..] {
        if cover.kind == Kind::Knuth {
            knuth_text_checks(&mut fx, &path, cover, expected.solutions[0]);
        }
    }
    fx.checks
}

/// The text checks of a Knuth-format file (one problem, `count`
/// solutions): (e) every solution of `--all --limit 1000`, each valid,
/// all different, as many as there are up to the limit; (f) `--count`
/// on one thread and on three; (g) `--max-nodes 1` gives up, with exit
/// status 1, where no search can end that soon (see [`gives_up_at_once`]).
fn knuth_text_checks(fx: &mut Fixture, path: &str, cover: &Cover, count: u64) {
    let limit = ALL_LIMIT.to_string();
    let all = |run: &Run| check_knuth_all_text(cover, count.min(ALL_LIMIT), &run.stdout);
    fx.run(
        &["exact", "--all", "--limit", &limit, path],
        &[("all solutions (text)", &all)],
    );
    let counted = |run: &Run| match run.stdout.trim().parse::<u64>() {
        Ok(n) if n == count => Ok(()),
        _ => Err(format!(
            "`{}` printed {}, expected {count}",
            run.command,
            snippet(&run.stdout)
        )),
    };
    for jobs in ["1", "3"] {
        let what = format!("count (text, --jobs {jobs})");
        fx.run(
            &["exact", "--count", "--jobs", jobs, path],
            &[(&what, &counted)],
        );
    }
    if gives_up_at_once(cover, count) {
        // A count that gives up says how many solutions it had found: at
        // most all of them.
        let gave_up = |run: &Run| {
            let lines: Vec<&str> = run.stdout.lines().filter(|l| !l.is_empty()).collect();
            match lines[..] {
                [line] if cover_check::gave_up_count(line).is_some_and(|n| n <= count) => Ok(()),
                _ => Err(format!(
                    "`{}` printed {}, expected `gave up after N solutions`, N at most {count}",
                    run.command,
                    snippet(&run.stdout)
                )),
            }
        };
        let args = ["exact", "--max-nodes", "1", "--count", path];
        let inspections: &[Inspection] = &[("gave up (--max-nodes 1)", &gave_up)];
        fx.checks
            .extend(run_checks(fx.env, fx.name, &args, 1, inspections));
    }
}

/// Whether a search of `cover` (which has `count` solutions) must give up
/// at `--max-nodes 1`. The budget is tested on entering a level, and the
/// root is the first node: a search gives up unless it ends at the root,
/// which it can only do when there is no solution, or when one option is a
/// whole solution (queens1: it is found on the first level, whose entry is
/// not tested). So: some solution, and none of one option.
fn gives_up_at_once(cover: &Cover, count: u64) -> bool {
    count > 0 && cover.needs_two_options()
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use cover_check::exact::read_knuth;

    use super::*;

    fn exact_dir() -> PathBuf {
        crate::paths::fixtures().join("exact")
    }

    /// Every file of `fixtures/exact/` is in the manifest and the other way
    /// round, and each reads with as many instances as the manifest says.
    #[test]
    fn manifest_lists_every_exact_fixture() {
        let manifest = read_manifest(&exact_dir().join("expected.tsv")).unwrap();
        let mut files: Vec<String> = std::fs::read_dir(exact_dir())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|name| name != "expected.tsv")
            .collect();
        files.sort();
        let mut listed: Vec<String> = manifest.iter().map(|r| r.file.clone()).collect();
        listed.sort();
        assert_eq!(files, listed, "fixtures/exact/ and expected.tsv disagree");
        for row in &manifest {
            let covers = read_fixture(&exact_dir().join(&row.file)).unwrap();
            assert_eq!(covers.len(), row.solutions.len(), "{}", row.file);
        }
    }

    /// The manifest repeats REFERENCE.md's numbers for the problems both
    /// have.
    #[test]
    fn manifest_agrees_with_reference() {
        let path = crate::paths::shared().join("xc/REFERENCE.md");
        if !path.exists() {
            println!(
                "note: {} is not here; manifest not compared",
                path.display()
            );
            return;
        }
        let reference = crate::bench::harness::read_reference(&path).unwrap();
        let manifest = read_manifest(&exact_dir().join("expected.tsv")).unwrap();
        let mut compared = 0;
        for row in &manifest {
            let Some(name) = row.file.strip_suffix(".dlx") else {
                continue;
            };
            let Some(r) = reference.iter().find(|r| r.name == name) else {
                continue;
            };
            assert_eq!(row.solutions, [r.solutions], "{name} solutions");
            assert_eq!(row.nodes, Some(vec![r.nodes]), "{name} nodes");
            assert_eq!(row.updates, Some(vec![r.updates]), "{name} updates");
            compared += 1;
        }
        assert_eq!(
            compared, 16,
            "queens 1-8, 10, 12, langford 3, 4, 7, 8, 11, latin5"
        );
    }

    /// The manifest's solution counts hold for the small fixtures, by
    /// `cover-check`'s brute force (this covers the counts that are not in
    /// REFERENCE.md: queens9, queens11, langford5-6, matrices).
    #[test]
    fn manifest_counts_by_brute_force() {
        let manifest = read_manifest(&exact_dir().join("expected.tsv")).unwrap();
        let mut checked = 0;
        for row in &manifest {
            if row.file == "latin5.dlx"
                || row.file == "langford11.dlx"
                || row.file == "queens12.dlx"
            {
                continue; // Too slow for a debug-build test; REFERENCE.md has them.
            }
            let covers = read_fixture(&exact_dir().join(&row.file)).unwrap();
            if covers.iter().any(|c| c.has_colours() || c.has_bounds()) {
                continue; // The `xcc` tests count these.
            }
            let counts: Vec<u64> = covers
                .iter()
                .map(crate::verify::xcc::brute_force_count)
                .collect();
            assert_eq!(counts, row.solutions, "{}", row.file);
            checked += 1;
        }
        assert!(checked >= 20);
    }

    #[test]
    fn giving_up_is_expected_where_no_search_ends_at_the_root() {
        let plain = |name: &str| read_fixture(&exact_dir().join(name)).unwrap().remove(0);
        assert!(gives_up_at_once(&plain("queens4.dlx"), 2));
        assert!(
            !gives_up_at_once(&plain("queens1.dlx"), 1),
            "one option solves it"
        );
        assert!(!gives_up_at_once(&plain("queens3.dlx"), 0), "no solution");
        let coloured =
            read_knuth("0:2|p 1:3|q | x y\np x:A\nq x:A y\np q x:B\nq y:C\np\nq\n").unwrap();
        assert!(!gives_up_at_once(&coloured, 5), "`q` alone is a solution");
        assert!(gives_up_at_once(&plain("twoqueens4.dlx"), 11));
    }
}
