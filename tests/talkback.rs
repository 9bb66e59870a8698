//! Calls that talk back (issue 14): elicitation, `input_required` rounds,
//! progress and cancellation, against the fixture's `--talk` tools in both
//! protocol eras (`fx` speaks 2025-11-25 and elicits during the call, `fxs`
//! speaks 2026-07-28 and answers `input_required`), each through
//! `call --direct` and through the supervisor; prompts on a pty, flags
//! without a TTY; and against a server built with the official Python SDK.

mod support;

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use support::{Run, Sandbox};

/// Both eras of the fixture, recording rounds and cancellations to `rec`.
fn setup(sb: &Sandbox) -> (String, PathBuf) {
    setup_with(sb, &[])
}

/// [`setup`], with `extra` fixture flags for both.
fn setup_with(sb: &Sandbox, extra: &[&str]) -> (String, PathBuf) {
    let rec = sb.path("rec");
    let fx = support::fixture().display().to_string();
    let rec_s = rec.display().to_string();
    let marker = marker(sb);
    let mut args = vec!["--talk", "--record", &rec_s, "--marker", &marker];
    args.extend_from_slice(extra);
    let mut stateless = args.clone();
    stateless.push("--stateless-only");
    let defs = serde_json::json!({
        "fx": {"command": fx, "args": args},
        "fxs": {"command": fx, "args": stateless, "protocol": "2026-07-28"},
    });
    let file = sb.path("servers.json");
    std::fs::write(&file, defs.to_string()).unwrap();
    (file.display().to_string(), rec)
}

/// `call SERVER TOOL ARGS…`, direct or through the supervisor (started,
/// with the server, first: starting a ready server changes nothing).
fn call(sb: &Sandbox, file: &str, direct: bool, server: &str, tool: &str, args: &[&str]) -> Run {
    let mut all = vec!["--file", file, "call", server, tool];
    if direct {
        all.push("--direct");
    } else {
        sb.run(&["--file", file, "start", server]).expect_code(0);
    }
    all.extend_from_slice(args);
    sb.run(&all)
}

/// What the fixture's command line carries, to find its processes.
fn marker(sb: &Sandbox) -> String {
    format!(
        "talkback-{}",
        sb.dir.path().file_name().unwrap().to_string_lossy()
    )
}

fn stop_supervisor(sb: &Sandbox, file: &str) {
    sb.run(&["--file", file, "supervisor", "stop"]);
}

/// No fixture process of this sandbox is left (a few seconds' grace).
#[track_caller]
fn no_orphans(sb: &Sandbox) {
    let marker = marker(sb);
    assert!(
        support::wait_until(support::within(5), || support::processes_with(&marker)
            .is_empty()),
        "left running: {:?}",
        support::processes_with(&marker)
    );
}

fn recorded(rec: &Path) -> String {
    std::fs::read_to_string(rec).unwrap_or_default()
}

const ERAS: [&str; 2] = ["fx", "fxs"];

#[test]
fn forms_are_answered_from_defaults_or_answers_without_a_tty() {
    let sb = Sandbox::new();
    let (file, _) = setup(&sb);
    std::fs::write(
        sb.path("answers.json"),
        r#"{"name": "Kay", "color": "blue", "count": 3}"#,
    )
    .unwrap();
    let at_file = format!("@{}", sb.path("answers.json").display());
    for server in ERAS {
        for direct in [true, false] {
            call(&sb, &file, direct, server, "ask", &["--accept-defaults"])
                .expect_code(0)
                .stdout_has(r#"accepted: {"name":"Ada","color":"green","confirm":true}"#)
                .stderr_has("elicitation (form) accepted");
            call(
                &sb,
                &file,
                direct,
                server,
                "ask",
                &["--answers", r#"{"name":"Lin","color":"red"}"#],
            )
            .expect_code(0)
            .stdout_has(r#""name":"Lin","color":"red""#);
            call(&sb, &file, direct, server, "ask", &["--answers", &at_file])
                .expect_code(0)
                .stdout_has(r#""name":"Kay","color":"blue","count":3"#);
            let json = call(
                &sb,
                &file,
                direct,
                server,
                "ask",
                &["--accept-defaults", "--json"],
            );
            json.expect_code(0);
            assert_eq!(json.json()["elicitations"][0]["action"], "accept", "{json}");
        }
    }
    stop_supervisor(&sb, &file);
}

#[test]
fn a_declined_question_fails_the_call_with_the_reason() {
    let sb = Sandbox::new();
    let (file, _) = setup(&sb);
    for server in ERAS {
        for direct in [true, false] {
            call(&sb, &file, direct, server, "ask", &[])
                .expect_code(1)
                .stderr_has("elicitation (form) declined: no terminal to ask on")
                .stdout_has("the user chose decline");
            call(
                &sb,
                &file,
                direct,
                server,
                "ask",
                &["--answers", r#"{"color": "purple"}"#],
            )
            .expect_code(1)
            .stderr_has(
                r#"declined: --answers: field `color`: "purple" is not one of red, green, blue"#,
            );
        }
    }
    sb.run(&["--file", &file, "call", "fx", "ask", "--answers", "{nope"])
        .expect_code(2)
        .stderr_has("--answers is not valid JSON");
    stop_supervisor(&sb, &file);
}

/// A loopback HTTP listener that records the first line of every request
/// it is sent (and answers 204), so a test can tell whether anything
/// fetched its URL.
struct Recorder {
    url: String,
    seen: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
}

impl Recorder {
    fn start() -> Recorder {
        use std::io::{BufRead, Write};
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}/approve?id=42", listener.local_addr().unwrap());
        let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let log = seen.clone();
        std::thread::spawn(move || {
            for mut stream in listener.incoming().flatten() {
                let mut line = String::new();
                let _ = std::io::BufReader::new(&stream).read_line(&mut line);
                log.lock().unwrap().push(line.trim_end().to_string());
                let _ = stream.write_all(b"HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n");
            }
        });
        Recorder { url, seen }
    }

    fn requests(&self) -> Vec<String> {
        self.seen.lock().unwrap().clone()
    }
}

#[test]
fn a_url_is_printed_and_opened_only_with_open_and_never_fetched() {
    let sb = Sandbox::new();
    let target = Recorder::start();
    let (file, _) = setup_with(&sb, &["--ask-url", &target.url]);
    let opened = sb.path("opened");
    let browser = sb.path("browser.sh");
    std::fs::write(
        &browser,
        format!("#!/bin/sh\necho \"$1\" >> {}\n", opened.display()),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&browser, std::fs::Permissions::from_mode(0o755)).unwrap();
    sb.run(&["--file", &file, "start", "fx", "fxs"])
        .expect_code(0);
    for server in ERAS {
        for direct in [true, false] {
            let mut args = vec!["--file", &file, "call", server, "ask_url"];
            if direct {
                args.push("--direct");
            }
            sb.run(&args)
                .expect_code(1)
                .stderr_has(&target.url)
                .stderr_has("elicitation (url) declined");
            args.push("--open");
            sb.run_with(&args, |c| {
                c.env("BROWSER", &browser);
            })
            .expect_code(0)
            .stdout_has("accepted");
        }
    }
    // The browser script is the only thing that saw the URL, once per --open.
    // mcpctl does not wait for the browser, so the last one may still be
    // writing when the call returns.
    let mut seen = String::new();
    support::wait_until(support::within(10), || {
        seen = std::fs::read_to_string(&opened).unwrap_or_default();
        seen.lines().count() >= 4
    });
    assert_eq!(seen.lines().count(), 4, "{seen}");
    assert!(seen.lines().all(|l| l == target.url), "{seen}");
    stop_supervisor(&sb, &file);
    // mcpctl itself never fetched it (the browser script does not either)…
    assert_eq!(target.requests(), Vec::<String>::new());
    // … and the recorder does see a GET when one is made.
    let mut probe =
        std::net::TcpStream::connect(target.url[7..].split('/').next().unwrap()).unwrap();
    std::io::Write::write_all(
        &mut probe,
        b"GET /approve?id=42 HTTP/1.1\r\nHost: x\r\n\r\n",
    )
    .unwrap();
    let mut reply = String::new();
    let _ = std::io::Read::read_to_string(&mut probe, &mut reply);
    assert_eq!(
        target.requests(),
        vec!["GET /approve?id=42 HTTP/1.1".to_string()]
    );
}

#[test]
fn two_rounds_echo_the_request_state_exactly() {
    let sb = Sandbox::new();
    let (file, rec) = setup(&sb);
    for server in ERAS {
        for direct in [true, false] {
            let _ = std::fs::remove_file(&rec);
            call(
                &sb,
                &file,
                direct,
                server,
                "rounds",
                &["--answers", r#"{"a": "x1", "b": "y2"}"#],
            )
            .expect_code(0)
            .stdout_has("a=x1 b=y2");
            if server == "fxs" {
                let rounds = recorded(&rec);
                assert!(
                    rounds.contains("round rounds round-1\nround rounds round-2:x1\n"),
                    "{rounds}"
                );
            }
        }
    }
    stop_supervisor(&sb, &file);
}

#[test]
fn parallel_stateless_calls_through_the_supervisor_keep_their_own_answers() {
    let sb = Sandbox::new();
    let (file, _) = setup(&sb);
    sb.run(&["--file", &file, "start", "fxs"]).expect_code(0);
    let children: Vec<_> = (0..4)
        .map(|i| {
            let answers = format!(r#"{{"a": "a{i}", "b": "b{i}"}}"#);
            let mut cmd = sb.command();
            cmd.args([
                "--file",
                &file,
                "call",
                "fxs",
                "rounds",
                "--answers",
                &answers,
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
            (i, cmd.spawn().unwrap())
        })
        .collect();
    for (i, child) in children {
        let run = support::to_run(child.wait_with_output().unwrap());
        run.expect_code(0).stdout_has(&format!("a=a{i} b=b{i}"));
    }
    stop_supervisor(&sb, &file);
}

/// The `progress` values of a call's `--progress json` lines, in order.
fn progress_seen(run: &Run) -> Vec<u64> {
    run.stderr
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter_map(|v| v["progress"].as_f64())
        .map(|p| p as u64)
        .collect()
}

/// The last progress of a call was once overtaken by its result between
/// rmcp's notification task and the call's reply (3 of 4 lines through
/// the supervisor): every step, in order, before the result, in every run,
/// four calls at a time, with no pause between the last step and the
/// result, in both eras and direct too.
#[test]
fn every_progress_step_arrives_in_order_before_the_result() {
    const STEPS: u64 = 40;
    let sb = Sandbox::new();
    let (file, _) = setup(&sb);
    for server in ERAS {
        sb.run(&["--file", &file, "start", server]).expect_code(0);
    }
    let steps = format!("steps={STEPS}");
    let want: Vec<u64> = (1..=STEPS).collect();
    for run in 0..20 {
        let server = ERAS[run % 2];
        let mut args = vec!["--file", &file, "call", server, "progress"];
        args.extend(["--arg", &steps, "--arg", "delay_ms=0", "--progress", "json"]);
        if run % 5 == 4 {
            args.push("--direct");
        }
        let calls: Vec<std::process::Child> = (0..4)
            .map(|_| {
                let mut cmd = sb.command();
                cmd.args(&args)
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped());
                cmd.spawn().unwrap()
            })
            .collect();
        for child in calls {
            let done = support::to_run(child.wait_with_output().unwrap());
            done.expect_code(0)
                .stdout_has(&format!("done after {STEPS} steps"));
            assert_eq!(
                progress_seen(&done),
                want,
                "run {run} of `{server}`: {done}"
            );
        }
    }
    stop_supervisor(&sb, &file);
    no_orphans(&sb);
}

#[test]
fn progress_goes_to_stderr_as_json_lines_and_never_to_stdout() {
    let sb = Sandbox::new();
    let (file, _) = setup(&sb);
    for server in ERAS {
        for direct in [true, false] {
            let run = call(
                &sb,
                &file,
                direct,
                server,
                "progress",
                &["--json", "--progress", "json"],
            );
            run.expect_code(0);
            assert_eq!(
                run.json()["result"]["content"][0]["text"],
                "done after 5 steps"
            );
            let lines: Vec<serde_json::Value> = run
                .stderr
                .lines()
                .filter_map(|l| serde_json::from_str(l).ok())
                .collect();
            assert_eq!(lines.len(), 5, "{run}");
            assert_eq!(
                lines[4],
                serde_json::json!({"progress": 5.0, "total": 5.0, "message": "step 5"})
            );
            // Without a terminal and without --progress json: nothing at all.
            let quiet = call(&sb, &file, direct, server, "progress", &[]);
            quiet.expect_code(0).stdout_has("done after 5 steps");
            assert!(!quiet.stderr.contains("step"), "{quiet}");
            assert!(!quiet.stdout.contains("step "), "{quiet}");
        }
    }
    stop_supervisor(&sb, &file);
}

#[test]
fn a_timeout_cancels_the_call_on_the_server() {
    let sb = Sandbox::new();
    let (file, rec) = setup(&sb);
    for server in ERAS {
        for direct in [true, false] {
            let _ = std::fs::remove_file(&rec);
            let started = Instant::now();
            call(&sb, &file, direct, server, "slow", &["--timeout", "1"]).expect_code(1);
            assert!(started.elapsed() < Duration::from_secs(15));
            assert!(
                support::wait_until(support::within(5), || recorded(&rec)
                    .contains("cancelled slow")),
                "{server} direct={direct}: the server never saw the cancellation: {:?}",
                recorded(&rec)
            );
        }
    }
    stop_supervisor(&sb, &file);
}

#[test]
fn ctrl_c_cancels_the_call_on_the_server_and_exits_130() {
    let sb = Sandbox::new();
    let (file, rec) = setup(&sb);
    sb.run(&["--file", &file, "start", "fx", "fxs"])
        .expect_code(0);
    for server in ERAS {
        for direct in [true, false] {
            let _ = std::fs::remove_file(&rec);
            let mut cmd = sb.command();
            cmd.args(["--file", &file, "call", server, "slow"])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped());
            if direct {
                cmd.arg("--direct");
            }
            let child = cmd.spawn().unwrap();
            std::thread::sleep(Duration::from_millis(1500));
            nix::sys::signal::kill(
                nix::unistd::Pid::from_raw(child.id() as i32),
                nix::sys::signal::Signal::SIGINT,
            )
            .unwrap();
            let run = support::to_run(child.wait_with_output().unwrap());
            run.expect_code(130).stderr_has("stopped by SIGINT");
            if direct {
                // Only the supervisor's two servers are left.
                assert_eq!(support::processes_with(&marker(&sb)).len(), 2);
            }
            assert!(
                support::wait_until(support::within(5), || recorded(&rec)
                    .contains("cancelled slow")),
                "{server} direct={direct}: the server never saw the cancellation\n{run}"
            );
        }
    }
    stop_supervisor(&sb, &file);
}

#[test]
fn hostile_questions_end_the_call_clearly_and_never_hang() {
    let sb = Sandbox::new();
    let (file, _) = setup(&sb);
    let cases: [(&str, &str, &str); 4] = [
        (
            "fx",
            "ask_many",
            "the server asked for 1000 fields in one elicitation; mcpctl asks at most 64",
        ),
        (
            "fxs",
            "ask_many",
            "the server asked for 1000 fields in one elicitation; mcpctl asks at most 64",
        ),
        (
            "fx",
            "ask_malformed",
            "malformed elicitation/create request",
        ),
        (
            "fxs",
            "ask_malformed",
            "`input_required` result is malformed",
        ),
    ];
    let forever: [(&str, &str); 2] = [
        (
            "fx",
            "the server asked 11 questions in one call; mcpctl answers at most 10",
        ),
        (
            "fxs",
            "answered `input_required` 10 times without a result; mcpctl stops after 10 rounds",
        ),
    ];
    for direct in [true, false] {
        let started = Instant::now();
        for (server, tool, message) in cases {
            call(&sb, &file, direct, server, tool, &["--accept-defaults"])
                .expect_code(1)
                .stderr_has(message);
        }
        for (server, message) in forever {
            call(
                &sb,
                &file,
                direct,
                server,
                "ask_forever",
                &["--answers", r#"{"again": "yes"}"#],
            )
            .expect_code(1)
            .stderr_has(message);
        }
        call(&sb, &file, direct, "fxs", "sample", &[])
            .expect_code(1)
            .stderr_has("mcpctl has no model");
        call(&sb, &file, direct, "fx", "sample", &[])
            .expect_code(1)
            .stdout_has("sampling declined: mcpctl has no model");
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "too slow: {:?}",
            started.elapsed()
        );
        if direct {
            no_orphans(&sb);
        }
    }
    stop_supervisor(&sb, &file);
    no_orphans(&sb);
}

#[test]
fn a_server_that_elicits_outside_a_call_is_declined_cleanly() {
    let sb = Sandbox::new();
    let rec = sb.path("rec");
    let fx = support::fixture().display().to_string();
    let defs =
        serde_json::json!({"e": {"command": fx, "args": ["--elicit-on-list", "--record", rec]}});
    let file = sb.path("servers.json");
    std::fs::write(&file, defs.to_string()).unwrap();
    sb.run(&["--file", file.to_str().unwrap(), "check", "e"])
        .expect_code(0);
    assert!(
        recorded(&rec).contains(r#"elicit-on-list ok: {"action":"decline"}"#),
        "{}",
        recorded(&rec)
    );
}

/// Runs `args` on a pseudo-terminal (util-linux `script`), typing each
/// answer once the text before it has appeared; returns the transcript.
fn on_a_terminal(sb: &Sandbox, args: &[&str], steps: &[(&str, &str)]) -> (bool, String) {
    on_a_terminal_then(sb, args, "", steps)
}

/// The keys of a step that sends SIGTERM to the mcpctl process instead.
const SIGTERM: &str = "<SIGTERM>";

/// [`on_a_terminal`], with shell commands `then` run on the same terminal
/// after mcpctl exits (`; stty -a`); a step whose keys are [`SIGTERM`]
/// sends that signal to mcpctl instead of typing.
fn on_a_terminal_then(
    sb: &Sandbox,
    args: &[&str],
    then: &str,
    steps: &[(&str, &str)],
) -> (bool, String) {
    use std::io::{Read, Write};
    let script = support::require("script", "apt-get install bsdutils (tests/run.sh does)");
    let quoted: Vec<String> = args
        .iter()
        .map(|a| shlex::try_quote(a).unwrap().into_owned())
        .collect();
    let exe = env!("CARGO_BIN_EXE_mcpctl");
    let cmd = format!("{exe} {}{then}", quoted.join(" "));
    let mut child = sb
        .wrapped(script)
        .args(["-qec", &cmd, "/dev/null"])
        .env_remove("CI")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("script");
    let mut stdout = child.stdout.take().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel::<Vec<u8>>();
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = stdout.read(&mut buf) {
            if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                return;
            }
        }
    });
    let mut transcript = Vec::new();
    let mut seen = 0;
    for (wait_for, keys) in steps {
        let found = support::wait_for(support::within(30), || {
            let text = String::from_utf8_lossy(&transcript[seen..]).into_owned();
            if let Some(at) = text.find(wait_for) {
                return Some(at);
            }
            if let Ok(chunk) = rx.recv_timeout(Duration::from_millis(200)) {
                transcript.extend(chunk);
            }
            None
        });
        let at = found.unwrap_or_else(|| {
            panic!(
                "no {wait_for:?} in {}",
                String::from_utf8_lossy(&transcript)
            )
        });
        seen += at + wait_for.len();
        std::thread::sleep(Duration::from_millis(150));
        if *keys == SIGTERM {
            let quoted = quoted.join(" ");
            let pid = support::processes_with(&quoted)
                .into_iter()
                .find(|(_, line)| {
                    line.split_once(' ')
                        .is_some_and(|(_, cmd)| cmd.starts_with(exe))
                })
                .map(|(pid, _)| pid)
                .expect("mcpctl's process");
            nix::sys::signal::kill(
                nix::unistd::Pid::from_raw(pid as i32),
                nix::sys::signal::Signal::SIGTERM,
            )
            .unwrap();
            continue;
        }
        stdin.write_all(keys.as_bytes()).unwrap();
        stdin.flush().unwrap();
    }
    let status = support::wait_for(support::within(30), || {
        while let Ok(chunk) = rx.try_recv() {
            transcript.extend(chunk);
        }
        child.try_wait().unwrap()
    });
    let status =
        status.unwrap_or_else(|| panic!("still running: {}", String::from_utf8_lossy(&transcript)));
    std::thread::sleep(Duration::from_millis(100));
    while let Ok(chunk) = rx.try_recv() {
        transcript.extend(chunk);
    }
    (
        status.success(),
        String::from_utf8_lossy(&transcript).into_owned(),
    )
}

#[test]
fn on_a_terminal_each_field_is_asked_with_its_default() {
    let sb = Sandbox::new();
    let (file, _) = setup(&sb);
    // name: type over the default; color: move down from green to blue;
    // count (optional): leave empty; confirm: take the default; then send.
    let steps = [
        ("Your name", "Zed\r"),
        ("color", "\x1b[B\r"),
        ("How many", "\r"),
        ("confirm", "\r"),
        ("Send these answers?", "\r"),
    ];
    sb.run(&["--file", &file, "start", "fx", "fxs"])
        .expect_code(0);
    for server in ERAS {
        for direct in [true, false] {
            let mut args = vec!["--file", file.as_str(), "call", server, "ask"];
            if direct {
                args.push("--direct");
            }
            let (ok, transcript) = on_a_terminal(&sb, &args, &steps);
            assert!(ok, "{transcript}");
            assert!(transcript.contains("Who is deploying?"), "{transcript}");
            assert!(
                transcript.contains(r#"accepted: {"name":"Zed","color":"blue","confirm":true}"#),
                "{transcript}"
            );
        }
    }
    // Progress on a terminal is a bar on stderr.
    let (ok, transcript) = on_a_terminal(
        &sb,
        &["--file", &file, "call", "fx", "progress", "--direct"],
        &[],
    );
    assert!(ok, "{transcript}");
    assert!(transcript.contains("5/5 step 5"), "{transcript}");
    // Declining at the end sends nothing and fails the call.
    let decline = [
        ("Your name", "\r"),
        ("color", "\r"),
        ("How many", "\r"),
        ("confirm", "\r"),
        ("Send these answers?", "\x1b[B\r"),
    ];
    let (ok, transcript) = on_a_terminal(&sb, &["--file", &file, "call", "fxs", "ask"], &decline);
    assert!(!ok, "{transcript}");
    assert!(
        transcript.contains("the user chose decline"),
        "{transcript}"
    );
    stop_supervisor(&sb, &file);
}

#[test]
fn a_hostile_default_is_shown_escaped_and_taken_as_sent() {
    let sb = Sandbox::new();
    let fx = support::fixture().display().to_string();
    let defs = serde_json::json!({"fxh": {"command": fx, "args": ["--talk", "--hostile", "--marker", marker(&sb)]}});
    let file = sb.path("servers.json");
    std::fs::write(&file, defs.to_string()).unwrap();
    let file = file.display().to_string();
    // Enter at every prompt: the name's default is the fixture's hostile
    // text (an OSC 8 link, an OSC 0 title, a screen clear, a bidi override …).
    let steps = [
        ("Your name", "\r"),
        ("color", "\r"),
        ("How many", "\r"),
        ("confirm", "\r"),
        ("Send these answers?", "\r"),
    ];
    let (ok, transcript) = on_a_terminal(
        &sb,
        &["--file", &file, "call", "fxh", "ask", "--direct"],
        &steps,
    );
    assert!(ok, "{transcript}");
    for raw in [
        "\u{1b}]0;pwned",
        "\u{1b}[2J",
        "\u{1b}]8;;https://evil",
        "\u{202e}",
        "\u{9b}",
    ] {
        assert!(
            !transcript.contains(raw),
            "{raw:?} reached the terminal: {transcript:?}"
        );
    }
    // Shown escaped in the prompt …
    assert!(
        transcript.contains("\\u{1b}]0;pwned\\u{7}"),
        "{transcript:?}"
    );
    // … and taking it sends the server's own value, not the escaped text.
    assert!(
        transcript.contains(r#"accepted: {"name":"\u001b]8;;https://evil.example/"#),
        "{transcript:?}"
    );
    no_orphans(&sb);
}

#[test]
fn a_signal_during_a_call_through_the_supervisor_restores_the_terminal() {
    let sb = Sandbox::new();
    let (file, _) = setup(&sb);
    sb.run(&["--file", &file, "start", "fx"]).expect_code(0);
    // SIGTERM while the colour is asked: the prompt has hidden the cursor
    // and put the terminal in raw mode. The shell then shows mcpctl's exit
    // status and the terminal's modes.
    let steps = [("Your name", "\r"), ("color", SIGTERM), ("exit=", "")];
    let (_, transcript) = on_a_terminal_then(
        &sb,
        &["--file", &file, "call", "fx", "ask"],
        "; echo exit=$?; stty -a",
        &steps,
    );
    assert!(transcript.contains("exit=143"), "{transcript:?}");
    assert!(transcript.contains("stopped by SIGTERM"), "{transcript:?}");
    let after = &transcript[transcript.find("color").unwrap()..];
    assert!(
        after.contains("\u{1b}[?25h"),
        "the cursor was left hidden: {after:?}"
    );
    let modes: Vec<&str> = after[after.find("exit=").unwrap()..]
        .split_whitespace()
        .collect();
    for mode in ["icanon", "echo", "isig"] {
        assert!(
            modes.contains(&mode) && !modes.contains(&format!("-{mode}").as_str()),
            "the terminal was left without {mode}: {after:?}"
        );
    }
    stop_supervisor(&sb, &file);
    no_orphans(&sb);
}

/// The interpreter of the venv `tests/run.sh` installs the Python SDK into.
fn python() -> String {
    support::python().display().to_string()
}

#[test]
fn the_python_sdk_is_found_in_the_checkouts_venv_without_the_variable() {
    let dir = tempfile::tempdir().unwrap();
    let venv = dir.path().join("python");
    // Neither: a failure naming tests/run.sh, not a bare panic about a variable.
    let why = support::python_from(None, &venv).unwrap_err();
    assert!(why.contains("tests/run.sh"), "{why}");
    std::fs::write(&venv, "").unwrap();
    assert_eq!(support::python_from(None, &venv).unwrap(), venv);
    assert_eq!(
        support::python_from(Some("/x/py".into()), &venv).unwrap(),
        PathBuf::from("/x/py")
    );
    // And the real one resolves with the variable unset (tests/run.sh's venv).
    assert!(support::python().exists());
}

#[test]
fn the_python_sdk_server_talks_back_in_2026_07_28() {
    let sb = Sandbox::new();
    let rec = sb.path("rec");
    let server = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/peers/mrtr_server.py");
    let defs = serde_json::json!({"py": {
        "command": python(),
        "args": [server, rec],
        "protocol": "2026-07-28",
    }});
    let file = sb.path("servers.json");
    std::fs::write(&file, defs.to_string()).unwrap();
    let file = file.display().to_string();
    for direct in [true, false] {
        let _ = std::fs::remove_file(&rec);
        call(&sb, &file, direct, "py", "ask", &["--accept-defaults"])
            .expect_code(0)
            .stdout_has("python: Grace likes blue");
        call(
            &sb,
            &file,
            direct,
            "py",
            "ask",
            &["--answers", r#"{"name": "Lin", "color": "red"}"#],
        )
        .expect_code(0)
        .stdout_has("python: Lin likes red");
        call(&sb, &file, direct, "py", "ask", &[])
            .expect_code(1)
            .stderr_has("declined: no terminal to ask on");
        call(
            &sb,
            &file,
            direct,
            "py",
            "rounds",
            &["--answers", r#"{"a": "p", "b": "q"}"#],
        )
        .expect_code(0)
        .stdout_has("python: a=p b=q");
        call(&sb, &file, direct, "py", "ask_url", &[])
            .expect_code(0)
            .stdout_has("python: url decline")
            .stderr_has("https://example.com/py-approve");
        let run = call(
            &sb,
            &file,
            direct,
            "py",
            "progress",
            &["--progress", "json"],
        );
        run.expect_code(0).stdout_has("python: done after 3 steps");
        assert_eq!(run.stderr.matches("py step").count(), 3, "{run}");
        call(&sb, &file, direct, "py", "slow", &["--timeout", "3"]).expect_code(1);
        assert!(
            support::wait_until(support::within(5), || recorded(&rec)
                .contains("cancelled slow")),
            "direct={direct}: {}",
            recorded(&rec)
        );
        let rounds = recorded(&rec);
        assert!(
            rounds.contains("round rounds py-1\nround rounds py-2:p\n"),
            "{rounds}"
        );
    }
    stop_supervisor(&sb, &file);
}

/// Issue 20 (F1): a server flooding progress (and log messages) during a
/// call whose caller reads slowly grew the supervisor without bound (54 MB
/// to 476 MB for 300,000 of them), queued for the caller. Now, with the
/// caller's output stalled until the server has sent all 50,000 of each
/// (2 KB apiece, 200 MB of JSON), the supervisor stays within 40 MiB of
/// where it started, the call still completes, and its last progress
/// arrives.
#[test]
fn a_flood_to_a_caller_that_stalls_keeps_the_supervisor_small() {
    const COUNT: u64 = 50_000;
    let sb = Sandbox::new();
    let (file, rec) = setup(&sb);
    sb.run(&["--file", &file, "start", "fx"]).expect_code(0);
    let pid = sb.json(&["--file", &file, "supervisor", "status"], 0)["pid"]
        .as_u64()
        .expect("a supervisor pid") as u32;
    let before = support::rss_kib(pid);
    let count = format!("count={COUNT}");
    let mut cmd = sb.command();
    cmd.args(["--file", &file, "call", "fx", "flood", "--arg", &count])
        .args(["--arg", "pad=2000", "--progress", "json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let caller = cmd.spawn().unwrap();
    // Nobody reads the caller's stderr yet: it stalls after a few lines.
    let mut peak = before;
    let sent = support::wait_until(support::within(240), || {
        peak = peak.max(support::rss_kib(pid));
        recorded(&rec).contains(&format!("flooded {COUNT}"))
    });
    assert!(sent, "the fixture never finished its flood");
    let settle = Instant::now();
    while settle.elapsed() < Duration::from_secs(2) {
        peak = peak.max(support::rss_kib(pid));
        std::thread::sleep(Duration::from_millis(50));
    }
    let done = support::to_run(caller.wait_with_output().unwrap());
    done.expect_code(0).stdout_has(&format!("flooded {COUNT}"));
    assert_eq!(progress_seen(&done).last(), Some(&COUNT), "the last step");
    let grown = peak.saturating_sub(before) / 1024;
    assert!(
        grown < 40,
        "the supervisor grew by {grown} MiB ({before} KiB before)"
    );
    stop_supervisor(&sb, &file);
    no_orphans(&sb);
}
