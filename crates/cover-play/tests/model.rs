//! The game model's unit tests (`tests/js/model.test.js`, on
//! `assets/model.js`), run by Node's own test runner.
//!
//! Skipped with a message when Node is missing, unless `COVER_REQUIRE_NODE`
//! is set (as `.ci/run` does after installing it).

use std::path::Path;
use std::process::Command;

#[test]
fn the_game_model_passes_its_unit_tests_under_node() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/js");
    let run = Command::new("node")
        .arg("--test")
        .arg("--test-reporter=tap")
        .arg(&dir)
        .output();
    let output = match run {
        Ok(output) => output,
        Err(error) if std::env::var_os("COVER_REQUIRE_NODE").is_none() => {
            eprintln!("skipped: Node.js is not here ({error}); COVER_REQUIRE_NODE makes this fail");
            return;
        }
        Err(error) => panic!("COVER_REQUIRE_NODE is set but node cannot run: {error}"),
    };
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "the model's tests failed:\n{stdout}\n{stderr}"
    );
    // Node finds no test files and passes: make sure they ran.
    let passed = stdout
        .lines()
        .find_map(|line| line.strip_prefix("# pass "))
        .and_then(|n| n.trim().parse::<usize>().ok())
        .unwrap_or(0);
    assert!(passed >= 10, "only {passed} model tests ran:\n{stdout}");
}
