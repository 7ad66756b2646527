//! Puts the commit this binary was built from into `cover --version`
//! (`COVER_COMMIT`): the short hash, `+dirty` when the work tree had
//! changes; `unknown` outside a git checkout (a crates.io download).

use std::process::Command;

fn main() {
    let git = |args: &[&str]| {
        Command::new("git")
            .args(args)
            .output()
            .ok()
            .filter(|out| out.status.success())
            .map(|out| String::from_utf8_lossy(&out.stdout).trim().to_owned())
    };
    let commit = match git(&["rev-parse", "--short=12", "HEAD"]) {
        Some(hash) if !hash.is_empty() => {
            let dirty = git(&["status", "--porcelain", "--untracked-files=no"])
                .is_some_and(|status| !status.is_empty());
            if dirty {
                format!("{hash}+dirty")
            } else {
                hash
            }
        }
        _ => "unknown".to_owned(),
    };
    println!("cargo:rustc-env=COVER_COMMIT={commit}");
    // Built again when the checkout moves to another commit or its index
    // changes (a commit, a checkout, a staged edit).
    if let Some(dir) = git(&["rev-parse", "--absolute-git-dir"]) {
        println!("cargo:rerun-if-changed={dir}/HEAD");
        println!("cargo:rerun-if-changed={dir}/index");
        if let Some(reference) = git(&["symbolic-ref", "-q", "HEAD"]) {
            println!("cargo:rerun-if-changed={dir}/{reference}");
        }
    }
    println!("cargo:rerun-if-changed=build.rs");
}
