//! Tidiness checks that run in plain `cargo test`: the README's test
//! command is the one CI runs, and every Rust file opens with a `//!`
//! comment that says what it is.

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use crate::paths::workspace_root as root;

    /// The last line of `.ci/run` that is not blank or a comment.
    fn ci_command() -> String {
        let script = std::fs::read_to_string(root().join(".ci/run")).unwrap();
        script
            .lines()
            .map(str::trim)
            .rfind(|l| {
                !l.is_empty()
                    && !l.starts_with('#')
                    && !l.starts_with("set ")
                    && !l.starts_with("cd ")
            })
            .expect(".ci/run runs a command")
            .to_owned()
    }

    #[test]
    fn readme_test_command_is_what_ci_runs() {
        let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
        let command = ci_command();
        assert!(command.contains("cargo test --workspace"), "{command}");
        assert!(command.contains("cargo xtask verify"), "{command}");
        assert!(
            readme.lines().any(|line| line.trim() == command),
            "README.md must show the command of .ci/run on a line of its own:\n{command}"
        );
    }

    fn rust_files(dir: &Path, found: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if path.is_dir() {
                if name != "target" && !name.starts_with('.') {
                    rust_files(&path, found);
                }
            } else if name.ends_with(".rs") {
                found.push(path);
            }
        }
    }

    #[test]
    fn every_rust_file_says_what_it_is() {
        let mut files = Vec::new();
        for dir in ["crates", "xtask"] {
            rust_files(&root().join(dir), &mut files);
        }
        assert!(files.len() > 10);
        let undocumented: Vec<String> = files
            .iter()
            .filter(|path| {
                let text = std::fs::read_to_string(path).unwrap();
                !text.trim_start().starts_with("//!")
            })
            .map(|path| path.display().to_string())
            .collect();
        assert!(
            undocumented.is_empty(),
            "files without a `//!` header: {undocumented:?}"
        );
    }
}
