//! Measures the supervisor's call path against a direct rmcp call, in the
//! same run, plus throughput with 16 concurrent callers and the daemon's
//! RSS. Driven by `benches/supervisor.sh`, which starts the daemon first.
//!
//! Usage: supervisor_bench DEFS_FILE FIXTURE_PATH
//! (MCPCTL_STATE_DIR must point at the running daemon's directory; the
//! definitions must hold `fast0` … `fast9`, fixtures with a `fast` tool.)

use std::path::PathBuf;
use std::time::{Duration, Instant};

use mcpctl::defs::{Catalog, Sources, sources::Origin};
use mcpctl::mcp::{ConnectOptions, Connection};
use mcpctl::supervisor::client::Client;
use mcpctl::supervisor::protocol::{Body, CallRequest, Op, Target};

const N: usize = 2000;

fn pct(mut v: Vec<Duration>, p: f64) -> f64 {
    v.sort();
    v[((v.len() - 1) as f64 * p) as usize].as_secs_f64() * 1e3
}

fn call(name: &str) -> Op {
    Op::Call(CallRequest {
        name: name.into(),
        tool: "fast".into(),
        arguments: Default::default(),
        catalog_id: None,
        binding_id: None,
        timeout_ms: None,
        validate: true,
        relay: None,
    })
}

fn main() {
    let mut args = std::env::args().skip(1);
    let file = PathBuf::from(args.next().expect("DEFS_FILE"));
    let sources = Sources {
        files: vec![file],
        origin: Origin::Flag,
    };
    let catalog = Catalog::load(&sources).expect("definitions");
    let def = catalog.get("fast0").expect("fast0").clone();

    // Direct: one rmcp connection owned by this process.
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let direct = rt.block_on(async {
        let (mut conn, _) = Connection::connect(&def, &ConnectOptions::default())
            .await
            .expect("connect");
        let mut lat = Vec::with_capacity(N);
        for i in 0..N + 200 {
            let t = Instant::now();
            conn.call_tool("fast", Some(Default::default()), Duration::from_secs(10))
                .await
                .expect("call");
            if i >= 200 {
                lat.push(t.elapsed());
            }
        }
        conn.close().await;
        lat
    });

    // Through the supervisor.
    let mut client = Client::connect(&sources, false).expect("a running supervisor");
    let daemon = client.daemon_pid;
    let target = Target {
        names: (0..10).map(|i| format!("fast{i}")).collect(),
        all: false,
        allow_insecure_file: false,
        env: None,
    };
    let Body::Batch { results } = client.request(Op::Start(target)).expect("start") else {
        panic!("unexpected answer")
    };
    assert!(results.iter().all(|r| r.error.is_none()), "{results:?}");
    let mut lat = Vec::with_capacity(N);
    for i in 0..N + 200 {
        let t = Instant::now();
        client.request(call("fast0")).expect("call");
        if i >= 200 {
            lat.push(t.elapsed());
        }
    }

    // 16 concurrent callers, each on its own connection, for 5 s.
    let until = Instant::now() + Duration::from_secs(5);
    let started = Instant::now();
    let threads: Vec<_> = (0..16)
        .map(|i| {
            let sources = sources.clone();
            std::thread::spawn(move || {
                let mut c = Client::connect(&sources, false).expect("connect");
                let name = format!("fast{}", i % 10);
                let mut n = 0u64;
                while Instant::now() < until {
                    c.request(call(&name)).expect("call");
                    n += 1;
                }
                n
            })
        })
        .collect();
    let total: u64 = threads.into_iter().map(|t| t.join().unwrap()).sum();
    let rate = total as f64 / started.elapsed().as_secs_f64();

    // No figure rather than a made-up one: an unreadable RSS would print
    // as 0 MB and meet the target without measuring anything.
    let status = std::fs::read_to_string(format!("/proc/{daemon}/status"))
        .unwrap_or_else(|e| panic!("cannot read /proc/{daemon}/status: {e}"));
    let rss_kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .filter(|&kb| kb > 0)
        .unwrap_or_else(|| panic!("no VmRSS for the daemon (pid {daemon}):\n{status}"));

    let (d50, s50) = (pct(direct.clone(), 0.5), pct(lat.clone(), 0.5));
    println!("| `tools/call` p50, direct rmcp | {d50:.3} ms | |");
    println!("| `tools/call` p50, through the supervisor | {s50:.3} ms | |");
    println!(
        "| supervisor overhead at p50 | {:.3} ms | < 1 ms |",
        s50 - d50
    );
    println!(
        "| `tools/call` p99, direct / supervisor | {:.3} / {:.3} ms | |",
        pct(direct, 0.99),
        pct(lat, 0.99)
    );
    println!("| calls/s, 16 concurrent callers | {rate:.0} | ≥ 2,000 |");
    println!(
        "| supervisor RSS, 10 servers ready | {:.1} MB | < 25 MB |",
        rss_kb as f64 / 1024.0
    );
}
