//! Fifty `mcpctl add` processes racing on one file leave exactly fifty
//! entries and a valid file: the sidecar lock serialises read-modify-write.

mod support;

use std::process::Stdio;

use support::{Sandbox, to_run};

#[test]
fn fifty_parallel_adds_keep_every_entry() {
    let sb = Sandbox::new();
    let file = sb.path("servers.yaml");
    std::fs::write(&file, "# shared by fifty writers\nmcpServers: {}\n").unwrap();
    let f = file.to_str().unwrap();
    let children: Vec<_> = (0..50)
        .map(|i| {
            let name = format!("s{i:02}");
            sb.command()
                .args([
                    "--file",
                    f,
                    "add",
                    "--no-check",
                    "--name",
                    &name,
                    "--command",
                    "sh",
                ])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("spawn mcpctl")
        })
        .collect();
    for child in children {
        to_run(child.wait_with_output().unwrap()).expect_code(0);
    }
    let doc = sb
        .run(&["--file", f, "list", "--json"])
        .expect_code(0)
        .json();
    let mut names: Vec<String> = doc["servers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap().to_string())
        .collect();
    names.sort();
    let expected: Vec<String> = (0..50).map(|i| format!("s{i:02}")).collect();
    assert_eq!(names, expected);
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.starts_with("# shared by fifty writers\n"), "{text}");
}

#[test]
fn fifty_parallel_adds_with_derived_names_get_unique_names() {
    let sb = Sandbox::new();
    let file = sb.path("servers.json");
    let f = file.to_str().unwrap();
    let children: Vec<_> = (0..50)
        .map(|_| {
            sb.command()
                .args(["--file", f, "add", "--no-check", "--command", "sh"])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("spawn mcpctl")
        })
        .collect();
    for child in children {
        to_run(child.wait_with_output().unwrap()).expect_code(0);
    }
    let doc = sb
        .run(&["--file", f, "list", "--json"])
        .expect_code(0)
        .json();
    assert_eq!(doc["servers"].as_array().unwrap().len(), 50);
}
