//! Where xtask finds things: the workspace, its fixtures, and the shared
//! data folder beside it (datasets, reference problems, seeds).
//!
//! Every chore asks here instead of joining `CARGO_MANIFEST_DIR` itself;
//! it knows no chore.

use std::path::{Path, PathBuf};

/// The workspace root (the folder of the top `Cargo.toml`).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `fixtures/`, the inputs and expected answers kept in the repository.
pub fn fixtures() -> PathBuf {
    workspace_root().join("fixtures")
}

/// The shared data folder: `$COVER_SHARED` when set, else `../shared`
/// beside the workspace root. It may not exist.
pub fn shared() -> PathBuf {
    match std::env::var_os("COVER_SHARED") {
        Some(dir) => PathBuf::from(dir),
        None => workspace_root().join("../shared"),
    }
}

/// The public puzzle sets, `shared()/datasets`.
pub fn datasets() -> PathBuf {
    shared().join("datasets")
}
