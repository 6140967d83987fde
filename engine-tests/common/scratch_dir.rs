//! A test's scratch directory under the system's temporary directory: emptied when the test
//! takes it, removed when the test ends, and kept when the test fails so that what the
//! engines and the referee wrote can be read.

use std::ops::Deref;
use std::path::{Path, PathBuf};

/// A directory named after the test process and a label; see the module header.
pub struct ScratchDir(PathBuf);

impl ScratchDir {
    /// `<temp>/<prefix>-<pid>-<label>`, emptied of anything an earlier run left there.
    pub fn new(prefix: &str, label: &str) -> ScratchDir {
        let dir = std::env::temp_dir().join(format!("{prefix}-{}-{label}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        ScratchDir(dir)
    }
}

impl Deref for ScratchDir {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for ScratchDir {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}
