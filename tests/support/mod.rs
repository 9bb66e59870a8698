//! The one test harness: a [`World`] per test (scratch home, state
//! directory and definition files, a supervisor it owns and stops, and
//! the check that no process of it is left), running the real `mcpctl`
//! in it, the peers (fixture server, real servers and clients), waiting
//! with a deadline, the JSON Schema assertion, and the loopback registry.
//!
//! Every test file says `mod support;` and uses what it needs from here.

#![allow(dead_code, unused_imports)]

pub mod agent;
pub mod mcpctl;
pub mod peers;
pub mod processes;
pub mod registry;
pub mod run;
pub mod schema;
pub mod supervisor;
pub mod wait;
pub mod world;

pub use agent::client_script;
pub use mcpctl::Served;
pub use peers::{
    Background, browser, checkout, fixture, fixture_def, free_port, http_fixture, peer_dirs,
    python, python_from, remote, require, stdio,
};
pub use processes::{live, my_zombies, processes_with, rss_kib};
pub use registry::{
    FloodServer, Loopback, OciRegistry, PackageRegistry, Quirks, Registry, TestRegistry,
    dns_server, package_fixtures,
};
pub use run::{Run, bytes, structured_content, to_run};
pub use schema::{matches_schema, schema, schema_errors};
pub use supervisor::{impostor_as_nobody, require_root};
pub use wait::{after, wait_for, wait_until, within};
pub use world::{Sandbox, World, files_under};
