//! The test suite's loopback registry as a standalone process, for
//! benchmarks and manual runs: `cargo run --example loopback_registry`
//! prints its URL on the first line and serves until killed.

#[path = "../tests/support/registry.rs"]
mod registry_support;

fn main() {
    let registry = registry_support::TestRegistry::start();
    println!("{}", registry.url);
    loop {
        std::thread::park();
    }
}
