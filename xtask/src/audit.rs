//! `cargo xtask audit`: Lighthouse (the npm package pinned in
//! `tools/npm/`) on `cover play`'s page, served by this process on
//! loopback, run with Debian's Chromium for the desktop and the mobile
//! form factor. Prints the accessibility, best-practices, performance and
//! SEO scores (and the audits that cost points), writes Lighthouse's JSON
//! and HTML reports under `target/audit/`, and fails when accessibility
//! or best practices is below 95 in either form factor.
//!
//! Without Node.js, Lighthouse (`npm ci --prefix tools/npm`) or Chromium
//! it prints why and skips, unless `COVER_REQUIRE_LIGHTHOUSE` is set (as
//! `.ci/run` does after installing them), and then it fails. The bars
//! and the figures of record: `docs/accessibility.md`.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use cover_play::{Background, Config};
use serde_json::Value;

use crate::flags::Flags;
use crate::paths;

pub const USAGE: &str = "[--form desktop|mobile]";

/// The categories printed, in order, with their bar: a score below it
/// fails the audit (performance and SEO are reported, not enforced).
const CATEGORIES: [(&str, Option<f64>); 4] = [
    ("accessibility", Some(0.95)),
    ("best-practices", Some(0.95)),
    ("performance", None),
    ("seo", None),
];

const FORMS: [&str; 2] = ["desktop", "mobile"];

/// One Lighthouse run may take this long before it is stopped.
const RUN_LIMIT: Duration = Duration::from_secs(180);

/// Chromium's flags: headless, out of the sandbox it cannot have as root
/// in a container, and off the network (the machines here have none, and
/// Chromium's background requests would only be refused). Lighthouse's
/// launcher adds its own (a fresh profile, no first run).
const CHROME_FLAGS: &str = "--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage \
    --disable-quic --no-first-run --disable-background-networking --disable-component-update \
    --disable-sync --disable-extensions";

/// `tools/npm/`, where `npm ci` installs the pinned npm tools.
pub fn npm_tools() -> PathBuf {
    paths::workspace_root().join("tools/npm")
}

/// Chromium: `$CHROME_PATH` (Lighthouse's own variable), else
/// `$COVER_CHROMIUM`, else `chromium` or `chromium-browser` on the PATH.
fn chromium() -> Option<PathBuf> {
    for var in ["CHROME_PATH", "COVER_CHROMIUM"] {
        if let Some(path) = std::env::var_os(var) {
            return Some(PathBuf::from(path));
        }
    }
    on_path(&["chromium", "chromium-browser"])
}

fn on_path(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .flat_map(|dir| names.iter().map(move |name| dir.join(name)))
        .find(|candidate| candidate.is_file())
}

/// What the audit needs, or why it cannot run.
struct Tools {
    node: PathBuf,
    lighthouse: PathBuf,
    chromium: PathBuf,
}

fn tools() -> Result<Tools, String> {
    let node = on_path(&["node", "nodejs"])
        .ok_or("no Node.js on the PATH (apt-get install -y nodejs npm)")?;
    let lighthouse = npm_tools().join("node_modules/lighthouse/cli/index.js");
    if !lighthouse.is_file() {
        return Err(format!(
            "no Lighthouse at {} (npm ci --prefix tools/npm)",
            lighthouse.display()
        ));
    }
    let chromium = chromium().ok_or("no chromium on the PATH (apt-get install -y chromium)")?;
    Ok(Tools {
        node,
        lighthouse,
        chromium,
    })
}

/// A form factor's scores, by category, from 0 to 1.
struct Scores {
    form: &'static str,
    scores: Vec<Option<f64>>,
    /// The audits that cost points: category, id, score, title.
    lost: Vec<(String, String, f64, String)>,
    seconds: f64,
    report: PathBuf,
}

pub fn run(args: &[String]) -> Result<()> {
    let flags = Flags::parse(args, &["--form"], &[])?;
    let forms: Vec<&'static str> = match flags.value("--form") {
        None => FORMS.to_vec(),
        Some(form) => vec![*FORMS
            .iter()
            .find(|f| **f == form)
            .with_context(|| format!("--form {form:?}: desktop or mobile"))?],
    };
    let tools = match tools() {
        Ok(tools) => tools,
        Err(why) if std::env::var_os("COVER_REQUIRE_LIGHTHOUSE").is_some() => {
            bail!("COVER_REQUIRE_LIGHTHOUSE is set but {why}")
        }
        Err(why) => {
            println!("audit: skipped: {why}");
            return Ok(());
        }
    };
    let out = paths::workspace_root().join("target/audit");
    std::fs::create_dir_all(&out).with_context(|| format!("creating {}", out.display()))?;
    let started = Instant::now();
    let server = Background::start(SocketAddr::from(([127, 0, 0, 1], 0)), Config::default())?;
    let url = format!("http://{}/", server.addr());
    println!(
        "audit: Lighthouse {} on {url} with {}",
        lighthouse_version(&tools),
        tools.chromium.display()
    );
    let mut results = Vec::new();
    for form in forms {
        results.push(lighthouse(&tools, &url, form, &out)?);
    }
    drop(server);

    let names: Vec<&str> = CATEGORIES.iter().map(|(name, _)| *name).collect();
    println!(
        "{:<8} {} {:>7}",
        "form",
        names.iter().map(|n| format!("{n:>16}")).collect::<String>(),
        "seconds"
    );
    let mut failures = Vec::new();
    for result in &results {
        let mut line = format!("{:<8} ", result.form);
        for ((name, bar), score) in CATEGORIES.iter().zip(&result.scores) {
            let shown = score.map_or("n/a".to_owned(), |s| format!("{:.0}", s * 100.0));
            line += &format!("{shown:>16}");
            if let Some(bar) = bar {
                if score.is_none_or(|s| s < *bar) {
                    failures.push(format!(
                        "{} {name} {shown} < {:.0}",
                        result.form,
                        bar * 100.0
                    ));
                }
            }
        }
        println!("{line} {:>7.1}", result.seconds);
    }
    for result in &results {
        for (category, id, score, title) in &result.lost {
            println!("  {} {category}: {id} ({:.2}): {title}", result.form, score);
        }
        println!("  report: {}", result.report.display());
    }
    println!(
        "audit: {} form factor(s) in {:.1} s",
        results.len(),
        started.elapsed().as_secs_f64()
    );
    if !failures.is_empty() {
        bail!(
            "below the bar (accessibility and best practices ≥ 95): {}",
            failures.join("; ")
        );
    }
    Ok(())
}

fn lighthouse_version(tools: &Tools) -> String {
    Command::new(&tools.node)
        .arg(&tools.lighthouse)
        .arg("--version")
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| "(version unknown)".to_owned())
}

/// One Lighthouse run; its reports go to `out/lighthouse-FORM.report.*`.
fn lighthouse(tools: &Tools, url: &str, form: &'static str, out: &Path) -> Result<Scores> {
    let base = out.join(format!("lighthouse-{form}"));
    let only: Vec<&str> = CATEGORIES.iter().map(|(name, _)| *name).collect();
    let mut command = Command::new(&tools.node);
    command
        .arg(&tools.lighthouse)
        .arg(url)
        .arg("--output=json")
        .arg("--output=html")
        .arg(format!("--output-path={}", base.display()))
        .arg(format!("--only-categories={}", only.join(",")))
        .arg(format!("--chrome-flags={CHROME_FLAGS}"))
        .arg("--quiet")
        .env("CHROME_PATH", &tools.chromium)
        .stdin(Stdio::null());
    if form == "desktop" {
        command.arg("--preset=desktop");
    }
    let started = Instant::now();
    let mut child = command.spawn().context("starting Lighthouse")?;
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        if started.elapsed() > RUN_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            bail!(
                "Lighthouse ({form}) ran past {} s and was stopped",
                RUN_LIMIT.as_secs()
            );
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let seconds = started.elapsed().as_secs_f64();
    if !status.success() {
        bail!("Lighthouse ({form}) failed: {status}");
    }
    let report = base.with_extension("report.json");
    let text = std::fs::read_to_string(&report)
        .with_context(|| format!("reading {}", report.display()))?;
    let json: Value = serde_json::from_str(&text).context("Lighthouse's JSON")?;
    if let Some(error) = json.get("runtimeError") {
        bail!("Lighthouse ({form}) could not audit the page: {error}");
    }
    let scores = CATEGORIES
        .iter()
        .map(|(name, _)| json["categories"][name]["score"].as_f64())
        .collect();
    let mut lost = Vec::new();
    for (name, _) in CATEGORIES {
        let refs = json["categories"][name]["auditRefs"].as_array();
        for audit_ref in refs.into_iter().flatten() {
            let id = audit_ref["id"].as_str().unwrap_or("?");
            let audit = &json["audits"][id];
            let weight = audit_ref["weight"].as_f64().unwrap_or(0.0);
            match audit["score"].as_f64() {
                Some(score) if score < 1.0 && weight > 0.0 => lost.push((
                    name.to_owned(),
                    id.to_owned(),
                    score,
                    audit["title"].as_str().unwrap_or("").to_owned(),
                )),
                _ => {}
            }
        }
    }
    Ok(Scores {
        form,
        scores,
        lost,
        seconds,
        report: base.with_extension("report.html"),
    })
}
