//! Noticing hand edits: the definition files are watched (through their
//! directories, because editors save by writing a new file and renaming it
//! over the old one) and a burst of changes becomes one reload.
//!
//! A file whose directory does not exist yet (a fresh machine before the
//! first `add`) is watched through its nearest existing ancestor; the
//! watches move down as directories appear.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

use notify::{EventKind, RecursiveMode, Watcher};
use tokio::sync::mpsc;

/// How long the files must be quiet before a change is acted on.
pub const DEBOUNCE: Duration = Duration::from_millis(200);

/// Watches the definition files and yields once per burst of changes.
pub struct FileWatch {
    files: Vec<PathBuf>,
    watcher: notify::RecommendedWatcher,
    watched: BTreeSet<PathBuf>,
    events: mpsc::UnboundedReceiver<()>,
}

/// The directory to watch for `file`: its parent, or the nearest ancestor
/// that exists.
fn watch_dir(file: &Path) -> Option<PathBuf> {
    file.ancestors()
        .skip(1)
        .find(|d| d.is_dir())
        .map(Path::to_path_buf)
}

/// True when an event at `changed` may change `file`: the file itself, or a
/// directory on its way (created, renamed or removed).
fn concerns(file: &Path, changed: &Path) -> bool {
    file == changed || file.starts_with(changed)
}

impl FileWatch {
    /// Watch `files` (canonical paths). Fails only if the platform has no
    /// file watching at all.
    pub fn new(files: Vec<PathBuf>) -> notify::Result<FileWatch> {
        let (tx, events) = mpsc::unbounded_channel();
        let targets = files.clone();
        let watcher = notify::recommended_watcher(move |res: notify::Result<notify::Event>| {
            let Ok(event) = res else { return };
            // Reading the files (as a reload does) must not count as a change.
            if matches!(event.kind, EventKind::Access(_)) {
                return;
            }
            if event
                .paths
                .iter()
                .any(|p| targets.iter().any(|f| concerns(f, p)))
            {
                let _ = tx.send(());
            }
        })?;
        let mut watch = FileWatch {
            files,
            watcher,
            watched: BTreeSet::new(),
            events,
        };
        watch.rearm();
        Ok(watch)
    }

    /// Point the watches at the directories that exist now.
    pub fn rearm(&mut self) {
        let wanted: BTreeSet<PathBuf> = self.files.iter().filter_map(|f| watch_dir(f)).collect();
        for gone in self.watched.difference(&wanted) {
            let _ = self.watcher.unwatch(gone);
        }
        let mut now = BTreeSet::new();
        for dir in wanted {
            if self.watched.contains(&dir)
                || self
                    .watcher
                    .watch(&dir, RecursiveMode::NonRecursive)
                    .is_ok()
            {
                now.insert(dir);
            }
        }
        self.watched = now;
    }

    /// Wait for a change, then for [`DEBOUNCE`] of quiet. `None` when the
    /// watcher is gone.
    pub async fn changed(&mut self) -> Option<()> {
        self.events.recv().await?;
        while let Ok(Some(())) = tokio::time::timeout(DEBOUNCE, self.events.recv()).await {}
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_concerned_by_itself_and_its_directories_only() {
        let file = Path::new("/h/.config/mcpctl/servers.json");
        assert!(concerns(file, file));
        assert!(concerns(file, Path::new("/h/.config/mcpctl")));
        assert!(!concerns(
            file,
            Path::new("/h/.config/mcpctl/servers.json.tmp")
        ));
        assert!(!concerns(file, Path::new("/h/.config/other.json")));
    }
}
