//! Definition files: the typed model, the on-disk shapes, the sources a
//! command reads, lossless edits, locked atomic writes, `${VAR}` expansion.
//!
//! This is the only module that writes definition files.

pub mod model;
pub mod redact;
pub mod vars;

pub use model::{
    Grant, Launch, LocalProcess, OAuth, ProcessRef, RestartPolicy, ServerDef, TokenEndpointAuth,
    Transport,
};
pub mod error;
pub mod format;

pub use error::DefsError;
pub mod catalog;
pub mod clients;
pub mod edit;
pub mod env_file;
pub mod grants;
pub mod layout;
pub mod locate;
pub mod nesting;
pub mod render;
pub mod rules;
pub mod sources;
pub mod store;
pub mod syntax;
pub mod trust;

pub use catalog::Catalog;
pub use sources::Sources;
