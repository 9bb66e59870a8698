//! Definition files: the typed model, the on-disk shapes, the sources a
//! command reads, lossless edits, locked atomic writes, `${VAR}` expansion.
//!
//! This is the only module that writes definition files. Its rooms stand in
//! floors, each importing only from below: the vocabulary of a file's form
//! (`syntax`), the model (`model`, `grants`) and the small readers of raw
//! text (`locate`, `nesting`, `layout`); `${VAR}` expansion (`vars`); reading
//! every shape (`format`) and writing new entries (`render`); lossless edits
//! (`edit`) and locked atomic writes (`store`); and on top the catalog of
//! every source (`catalog`), `envFile`s (`env_file`) and redaction
//! (`redact`). `ARCHITECTURE.md` draws the same picture.

pub mod catalog;
pub mod clients;
pub mod edit;
pub mod encoded;
pub mod env_file;
pub mod error;
pub mod format;
pub mod grants;
pub mod inputs;
pub mod layout;
pub mod locate;
pub mod model;
pub mod nesting;
pub mod redact;
pub mod render;
pub mod rules;
pub mod sandbox_kind;
pub mod sources;
pub mod store;
pub mod syntax;
pub mod trust;
pub mod vars;

pub use catalog::Catalog;
pub use error::DefsError;
pub use model::{
    Grant, Launch, LocalProcess, OAuth, ProcessRef, RestartPolicy, ServerDef, TokenEndpointAuth,
    Transport,
};
pub use sources::Sources;
