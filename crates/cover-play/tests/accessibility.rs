//! The page against issue 35's accessibility bar: axe-core (the npm
//! package pinned in `tools/npm/`, read from its `node_modules` at test
//! time) runs inside Debian's Chromium, driven through ChromeDriver, on
//! the page served on loopback, at a desktop's and a phone's size, in
//! light and dark colour schemes, once more with a cell selected and
//! the import box open, and with a killer imported (its cages drawn). Any violation of impact critical or serious, by
//! the rules tagged wcag2a, wcag2aa and best-practice, fails the test,
//! which lists every one (rule, help, the first elements, where seen);
//! the lesser ones are printed and saved beside the full results in
//! `target/tmp/axe-*.json`. `docs/accessibility.md` has the bar and how to
//! run it.
//!
//! Skipped with a message when axe-core is not installed (`npm ci
//! --prefix tools/npm`), unless `COVER_REQUIRE_AXE` is set, and when
//! Chromium or ChromeDriver is missing, unless `COVER_REQUIRE_BROWSER` is
//! (`.ci/run` installs all three and sets both).

mod common;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::Mutex;

use common::webdriver::{key, Browser};
use common::*;
use serde_json::{json, Value};

/// One browser at a time: two cores run each Chromium faster alone.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// The rule tags of the bar: WCAG 2 A and AA, and axe's best practices.
const TAGS: [&str; 3] = ["wcag2a", "wcag2aa", "best-practice"];
/// The impacts that fail the test.
const FAILING: [&str; 2] = ["critical", "serious"];
/// How many elements of a violation the failure names.
const TARGETS_SHOWN: usize = 3;

/// Where `npm ci --prefix tools/npm` puts axe-core's browser build;
/// `COVER_AXE` names another file.
fn axe_path() -> PathBuf {
    match std::env::var_os("COVER_AXE") {
        Some(path) => PathBuf::from(path),
        None => PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tools/npm/node_modules/axe-core/axe.min.js"
        )),
    }
}

/// axe-core's source, or None (with a message) when it is not installed
/// and not required.
fn axe_source() -> Option<String> {
    let path = axe_path();
    match std::fs::read_to_string(&path) {
        Ok(source) => Some(source),
        Err(error) => {
            assert!(
                std::env::var_os("COVER_REQUIRE_AXE").is_none(),
                "COVER_REQUIRE_AXE is set but axe-core is not at {} ({error}); \
                 install it with `npm ci --prefix tools/npm`",
                path.display()
            );
            eprintln!(
                "skipped: no axe-core at {} (npm ci --prefix tools/npm)",
                path.display()
            );
            None
        }
    }
}

/// What axe says of a page: its violations, and the checks it could not
/// decide (a person has to look: a contrast over an image, say), each as
/// `{id, impact, help, helpUrl, nodes, targets}`.
struct Findings {
    violations: Vec<Value>,
    incomplete: Vec<Value>,
}

/// Injects axe into the page (once per page) and runs it on the whole
/// document.
fn axe_run(browser: &Browser, source: &str) -> Findings {
    let present = browser.run("return typeof window.axe === 'object'", json!([]));
    if present != json!(true) {
        browser.run(source, json!([]));
    }
    let answer = browser.run_async(
        "const [tags, done] = arguments; \
         axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations', 'incomplete']}) \
           .then(r => { \
               const brief = v => ({ \
                   id: v.id, impact: v.impact, help: v.help, helpUrl: v.helpUrl, \
                   nodes: v.nodes.length, targets: v.nodes.map(n => n.target.join(' ')), \
               }); \
               done({violations: r.violations.map(brief), incomplete: r.incomplete.map(brief)}); \
           }) \
           .catch(e => done({error: String(e && e.stack || e)}));",
        json!([TAGS]),
    );
    assert!(answer["error"].is_null(), "axe failed: {}", answer["error"]);
    let list = |name: &str| answer[name].as_array().expect(name).clone();
    Findings {
        violations: list("violations"),
        incomplete: list("incomplete"),
    }
}

fn wait_ready(browser: &Browser) {
    browser.wait_for(
        "a game on the page",
        "return document.body.dataset.ready === '1' && document.querySelectorAll('.cell').length > 0",
    );
}

/// Opens the page in `scheme` ("light" or "dark") and checks that the
/// page sees it.
fn open_in(browser: &Browser, url: &str, scheme: &str) {
    browser.goto(url);
    browser.color_scheme(scheme);
    let seen = browser.run(
        "return window.matchMedia(`(prefers-color-scheme: ${arguments[0]})`).matches",
        json!([scheme]),
    );
    assert_eq!(seen, true, "the page sees prefers-color-scheme: {scheme}");
    wait_ready(browser);
}

/// Moves the selection off the first cell by the keyboard (the board
/// keeps the focus) and opens every closed `<details>` (the import box).
fn select_a_cell_and_open_the_import_box(browser: &Browser) {
    let selected = || browser.run("return window.coverPlay.state().selected", json!([]));
    let before = selected();
    let board = browser.find("#board");
    browser.keys(&board, &format!("{}{}", key::RIGHT, key::DOWN));
    assert_ne!(selected(), before, "the arrows moved the selection");
    let opened = browser.run(
        "const closed = [...document.querySelectorAll('details:not([open])')]; \
         closed.forEach(d => { d.open = true; }); return closed.length",
        json!([]),
    );
    eprintln!("opened {opened} <details>");
}

/// Imports the tests' 6×6 killer through the import box and waits for it.
fn import_a_killer(browser: &Browser) {
    browser.run(
        "document.getElementById('more').open = true; \
         document.getElementById('import-text').value = arguments[0];",
        json!([common::variants::killer6_json()]),
    );
    browser.click(&browser.find("#import"));
    browser.wait_for(
        "the killer",
        "const s = window.coverPlay.state(); return s.variant && s.variant.name === 'killer' \
         && document.querySelectorAll('#rules-layer .cage-sum').length > 0",
    );
}

/// One page state's findings, named (`light`, `dark`, ...).
type Case = (String, Findings);

/// Lists the violations (or, with `incomplete`, the undecided checks)
/// that `keep` keeps, of every case, grouped by rule (a rule seen in
/// several cases is listed once): `[impact] id: help`, how many elements
/// in all the cases and the first few, the cases, the rule's page.
fn list(cases: &[Case], incomplete: bool, keep: impl Fn(&Value) -> bool) -> (usize, String) {
    // rule id → (its first finding, the cases it was found in, the
    // elements found in any of them)
    let mut rules: BTreeMap<&str, (&Value, Vec<&str>, Vec<&str>)> = BTreeMap::new();
    for (case, findings) in cases {
        let found = if incomplete {
            &findings.incomplete
        } else {
            &findings.violations
        };
        for finding in found.iter().filter(|f| keep(f)) {
            let id = finding["id"].as_str().expect("a rule id");
            let (_, seen, targets) = rules.entry(id).or_insert((finding, vec![], vec![]));
            seen.push(case);
            for target in finding["targets"].as_array().expect("targets") {
                let target = target.as_str().unwrap_or("?");
                if !targets.contains(&target) {
                    targets.push(target);
                }
            }
        }
    }
    let mut text = String::new();
    for (id, (finding, seen, targets)) in &rules {
        let shown = &targets[..targets.len().min(TARGETS_SHOWN)];
        let more = match targets.len() - shown.len() {
            0 => String::new(),
            n => format!(" and {n} more"),
        };
        let _ = writeln!(
            text,
            "  [{}] {id}: {}\n      {} element(s): {}{more}\n      in: {}\n      {}",
            finding["impact"].as_str().unwrap_or("?"),
            finding["help"].as_str().unwrap_or("?"),
            targets.len(),
            shown.join(", "),
            seen.join("; "),
            finding["helpUrl"].as_str().unwrap_or(""),
        );
    }
    (rules.len(), text)
}

fn is_failing(finding: &Value) -> bool {
    FAILING.contains(&finding["impact"].as_str().unwrap_or(""))
}

/// The report of one form factor's cases: the failure's text when some
/// violation is critical or serious (else it is printed).
fn report(form: &str, cases: &[Case]) -> Option<String> {
    let (failures, failing) = list(cases, false, is_failing);
    let (_, lesser) = list(cases, false, |f| !is_failing(f));
    let (_, review) = list(cases, true, |_| true);
    let mut text = format!(
        "axe ({}) on the game page, {form}, {}: {failures} rule(s) violated \
         at impact critical or serious\n{failing}",
        TAGS.join(", "),
        cases
            .iter()
            .map(|(name, _)| name.as_str())
            .collect::<Vec<_>>()
            .join(" / "),
    );
    if !lesser.is_empty() {
        let _ = write!(text, "moderate or minor (not failing):\n{lesser}");
    }
    if !review.is_empty() {
        let _ = write!(
            text,
            "axe could not decide (a person should look):\n{review}"
        );
    }
    if failures > 0 {
        Some(text)
    } else {
        eprintln!("{text}");
        None
    }
}

/// Saves every case's findings as JSON in `target/tmp/axe-NAME.json`.
fn save(name: &str, cases: &[Case]) {
    let all: serde_json::Map<String, Value> = cases
        .iter()
        .map(|(case, f)| {
            let findings = json!({"violations": f.violations, "incomplete": f.incomplete});
            (case.clone(), findings)
        })
        .collect();
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("axe-{name}.json"));
    std::fs::write(&path, serde_json::to_string_pretty(&all).unwrap()).unwrap();
    eprintln!("axe's findings: {}", path.display());
}

/// Runs axe on the page in light and dark, then (still dark) with a
/// cell selected and the import box open; fails listing every critical
/// or serious violation.
fn check(name: &str, form: &str, browser: impl FnOnce() -> Option<Browser>) {
    let Some(source) = axe_source() else {
        return;
    };
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let Some(browser) = browser() else {
        return;
    };
    let server = start();
    let url = format!("http://{}/", server.addr());
    let mut cases = Vec::new();
    for scheme in ["light", "dark"] {
        open_in(&browser, &url, scheme);
        cases.push((scheme.to_owned(), axe_run(&browser, &source)));
    }
    select_a_cell_and_open_the_import_box(&browser);
    cases.push((
        "dark, a cell selected and the import box open".to_owned(),
        axe_run(&browser, &source),
    ));
    import_a_killer(&browser);
    cases.push((
        "dark, a killer imported (cages and sums drawn)".to_owned(),
        axe_run(&browser, &source),
    ));
    save(name, &cases);
    if let Some(failure) = report(form, &cases) {
        panic!("{failure}");
    }
}

#[test]
fn desktop_page_has_no_serious_axe_violations_in_light_or_dark() {
    check("desktop", "desktop 1280×900", || Browser::start(1280, 900));
}

#[test]
fn phone_page_has_no_serious_axe_violations_in_light_or_dark() {
    check("phone", "phone 390×844", || Browser::start_phone(390, 844));
}
