//! How long the lockfile's catalog hashing takes for a large catalog:
//! `cargo run --release --example lock_hash_bench [N]` builds N tools shaped
//! like server-everything's (a description, a draft-07 inputSchema with a
//! few properties, an outputSchema, annotations) and prints the median of 21
//! runs of `mcpctl::lock::tools` (canonical JSON and sha256 of each).

use std::sync::Arc;
use std::time::Instant;

use rmcp::model::{Tool, ToolAnnotations};
use serde_json::json;

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .map(|a| a.parse().expect("N"))
        .unwrap_or(5000);
    let tools: Vec<Tool> = (0..n)
        .map(|i| {
            let input = json!({
                "$schema": "http://json-schema.org/draft-07/schema#",
                "type": "object",
                "properties": {
                    "message": {"type": "string", "description": format!("The message for tool {i}")},
                    "count": {"type": "integer", "minimum": 0, "maximum": 100},
                    "mode": {"type": "string", "enum": ["fast", "slow", "careful"]},
                    "tags": {"type": "array", "items": {"type": "string"}}
                },
                "required": ["message"],
                "additionalProperties": false
            });
            let output = json!({"type": "object", "properties": {"result": {"type": "string"}}});
            let mut tool = Tool::new(
                format!("tool_{i}"),
                format!("Tool number {i}: does one thing and reports what it did, with a longer description as real servers write them."),
                Arc::new(input.as_object().unwrap().clone()),
            );
            tool.output_schema = Some(Arc::new(output.as_object().unwrap().clone()));
            tool.annotations = Some(ToolAnnotations::new().read_only(true));
            tool
        })
        .collect();
    let mut times = Vec::new();
    for _ in 0..21 {
        let start = Instant::now();
        let pinned = mcpctl::lock::tools(&tools);
        times.push(start.elapsed().as_secs_f64() * 1000.0);
        assert_eq!(pinned.len(), n);
    }
    times.sort_by(f64::total_cmp);
    println!(
        "hashing {n} tools: median {:.1} ms (min {:.1}, max {:.1})",
        times[10], times[0], times[20]
    );
}
