//! Every server from every source, loaded once per command.
//!
//! A name defined in two sources is an error that names both files; mcpctl
//! never merges or shadows definitions silently.
//!
//! An entry whose name is not a valid server name (`../../x`, `a/b`, an
//! empty name, a control character) is kept aside: `list` shows its error,
//! every command that names it is refused, and the other entries of the
//! file stay usable. Such a name never reaches the supervisor, so it never
//! becomes part of a log or state path.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::error::DefsError;
use super::format::{self, ParsedFile};
use super::model::ServerDef;
use super::sources::Sources;
use super::store;
use super::syntax::Format;
use crate::validate::name;

/// One source file as loaded.
#[derive(Debug, Clone, serde::Serialize)]
pub struct SourceFile {
    /// The path as given.
    pub path: PathBuf,
    /// False when the file does not exist yet.
    pub exists: bool,
    /// The detected format, when the file exists.
    pub format: Option<Format>,
}

/// The servers of all sources, in source order then file order.
#[derive(Debug, Clone)]
pub struct Catalog {
    /// The sources that were read.
    pub sources: Sources,
    /// Each source file's state.
    pub files: Vec<SourceFile>,
    servers: Vec<ServerDef>,
    refused: Vec<RefusedEntry>,
}

/// An entry whose name is not a valid server name: listed, never used.
#[derive(Debug, Clone)]
pub struct RefusedEntry {
    /// The name as written (may hold anything; print it escaped).
    pub name: String,
    /// The file.
    pub path: PathBuf,
    /// 1-based line of the entry's key.
    pub line: usize,
    /// 1-based column of the entry's key.
    pub column: usize,
    /// What is wrong with the name, the name debug-escaped.
    pub problem: String,
    /// A valid name derived from it.
    pub suggestion: String,
}

impl RefusedEntry {
    /// The error a command that names this entry fails with.
    pub fn error(&self) -> DefsError {
        DefsError::InvalidName {
            path: self.path.clone(),
            line: self.line,
            column: self.column,
            problem: self.problem.clone(),
            suggestion: self.suggestion.clone(),
        }
    }
}

/// A definition file as one read saw it: its text (`None` when it did not
/// exist) and its parse. [`Catalog::load_keeping`] keeps it for a command
/// that edits the file next, which still compares it with the file under
/// the write lock before trusting it.
#[derive(Debug, Clone)]
pub struct ReadFile {
    /// The text read.
    pub text: Option<String>,
    /// Its parse (every entry, refused names included).
    pub parsed: ParsedFile,
}

/// The servers and refused entries gathered so far, and the names taken.
#[derive(Default)]
struct Loader {
    servers: Vec<ServerDef>,
    refused: Vec<RefusedEntry>,
    // Name → index into `servers`: a linear scan per entry made loading
    // a 30,000-entry file take seconds.
    seen: HashMap<String, usize>,
    // The same, by the name in lowercase: two names that differ only in
    // case would share a log file on a case-insensitive file system.
    folded_seen: HashMap<String, usize>,
}

impl Loader {
    /// Take in the servers of the file at `path` (read as `text`): a name
    /// another source defines is an error, an invalid name or a case twin
    /// is set aside as refused.
    fn admit(&mut self, path: &Path, text: &str, parsed: ParsedFile) -> Result<(), DefsError> {
        for def in parsed.servers {
            if let Some(&first) = self.seen.get(&def.name) {
                return Err(DefsError::DuplicateAcrossSources {
                    name: def.name,
                    first: self.servers[first].source.clone(),
                    second: path.to_path_buf(),
                });
            }
            let folded = def.name.to_ascii_lowercase();
            let problem = match name::check(&def.name) {
                Some(finding) => Some((finding.message, name::suggest(&def.name))),
                None => self.folded_seen.get(&folded).and_then(|&twin| {
                    let taken: &str = &self.servers[twin].name;
                    name::case_twin(&def.name, taken)
                        .map(|problem| (problem, format!("{}-2", name::suggest(&def.name))))
                }),
            };
            if let Some((problem, suggestion)) = problem {
                let (line, column) =
                    super::locate::key(text, &def.name, parsed.format.syntax).unwrap_or((1, 1));
                self.refused.push(RefusedEntry {
                    suggestion,
                    name: def.name,
                    path: path.to_path_buf(),
                    line,
                    column,
                    problem,
                });
                continue;
            }
            self.folded_seen.insert(folded, self.servers.len());
            self.seen.insert(def.name.clone(), self.servers.len());
            self.servers.push(def);
        }
        Ok(())
    }
}

impl Catalog {
    /// Read and parse every source. A missing file is an empty source (it is
    /// where `add` creates it); `list` says which files are missing.
    pub fn load(sources: &Sources) -> Result<Catalog, DefsError> {
        Ok(Self::load_keeping(sources, None)?.0)
    }

    /// [`Catalog::load`], handing back the text and parse of `keep` (when it
    /// is a source that exists, compared as given): a command that goes on
    /// to edit that file (`add`) neither reads nor parses it a second time.
    pub fn load_keeping(
        sources: &Sources,
        keep: Option<&Path>,
    ) -> Result<(Catalog, Option<ReadFile>), DefsError> {
        let mut files = Vec::with_capacity(sources.files.len());
        let mut loader = Loader::default();
        let mut kept = None;
        for path in &sources.files {
            let Some(text) = store::read_text(path)? else {
                files.push(SourceFile {
                    path: path.clone(),
                    exists: false,
                    format: None,
                });
                continue;
            };
            let parsed = format::parse(path, &text)?;
            let keeping = kept.is_none() && keep == Some(path.as_path());
            let copy = keeping.then(|| parsed.clone());
            files.push(SourceFile {
                path: path.clone(),
                exists: true,
                format: Some(parsed.format),
            });
            loader.admit(path, &text, parsed)?;
            if let Some(parsed) = copy {
                let text = Some(text);
                kept = Some(ReadFile { text, parsed });
            }
        }
        let catalog = Catalog {
            sources: sources.clone(),
            files,
            servers: loader.servers,
            refused: loader.refused,
        };
        Ok((catalog, kept))
    }

    /// Every server, in order.
    pub fn servers(&self) -> &[ServerDef] {
        &self.servers
    }

    /// The entries refused for their name, in source order.
    pub fn refused(&self) -> &[RefusedEntry] {
        &self.refused
    }

    /// The server called `name`; the entry's own error when that name was
    /// refused; else a not-found error with a suggestion.
    pub fn get(&self, name: &str) -> Result<&ServerDef, DefsError> {
        if let Some(refused) = self.refused.iter().find(|r| r.name == name) {
            return Err(refused.error());
        }
        self.servers
            .iter()
            .find(|def| def.name == name)
            .ok_or_else(|| self.not_found(name))
    }

    /// The error for an unknown name, suggesting the closest known one.
    pub fn not_found(&self, name: &str) -> DefsError {
        let suggestion = self
            .servers
            .iter()
            .map(|def| (edit_distance(name, &def.name), &def.name))
            .filter(|(distance, candidate)| *distance <= 2.max(candidate.len() / 3))
            .min_by_key(|(distance, _)| *distance)
            .map(|(_, candidate)| candidate.clone());
        DefsError::NotFound {
            name: name.to_string(),
            sources: self.sources.describe(),
            suggestion,
        }
    }

    /// True when `path` is one of the sources (compared as given).
    pub fn has_source(&self, path: &Path) -> bool {
        self.sources.files.iter().any(|p| p == path)
    }
}

/// Levenshtein distance, for "did you mean" suggestions.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            let next = (row[j + 1] + 1).min(row[j] + 1).min(prev + cost);
            prev = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}
