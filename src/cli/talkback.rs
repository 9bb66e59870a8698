//! The caller's side of a call that talks back (`mcpctl call`): answering
//! a server's elicitation and showing its progress.
//!
//! A form is asked field by field on a terminal with dialoguer (defaults
//! pre-filled, enums as a choice, required fields insisted on), then sent,
//! declined or cancelled. A URL is printed (and opened with `$BROWSER`
//! under `--open`), never fetched. Without a terminal nothing is asked:
//! `--answers` supplies the values, `--accept-defaults` accepts a form
//! whose every required field has a default, and otherwise the question is
//! declined. Every outcome is reported on stderr (and in `--json`).
//!
//! Progress goes to stderr only: a bar (or a spinner without a total) when
//! stderr is a terminal, JSON lines with `--progress json`, nothing
//! otherwise. The same code serves `--direct` and the supervisor's relay.

use std::io::IsTerminal;
use std::sync::Mutex;

use serde_json::{Map, Value, json};

use crate::error::{Result, UsageError};
use crate::mcp::talk::{self, FieldKind};
use crate::output;

/// How progress is shown (`--progress`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ProgressMode {
    /// A bar on stderr when it is a terminal, else nothing.
    Auto,
    /// One JSON object per notification on stderr.
    Json,
    /// Nothing.
    None,
}

/// Shows a call's progress notifications.
pub struct Progress {
    mode: ProgressMode,
    bar: Mutex<Option<indicatif::ProgressBar>>,
    /// True while a prompt runs with the bar suspended (and indicatif's
    /// own lock held): [`Progress::clear_for_exit`] must not wait on it.
    prompting: std::sync::atomic::AtomicBool,
}

impl Progress {
    /// Progress shown as `mode` says (a bar only when stderr is a terminal).
    pub fn new(mode: ProgressMode) -> Progress {
        let mode = match mode {
            ProgressMode::Auto if !std::io::stderr().is_terminal() => ProgressMode::None,
            other => other,
        };
        Progress {
            mode,
            bar: Mutex::new(None),
            prompting: std::sync::atomic::AtomicBool::new(false),
        }
    }

    /// Show one `notifications/progress` params object.
    pub fn show(&self, p: &Value) {
        let progress = p.get("progress").and_then(Value::as_f64).unwrap_or(0.0);
        let total = p.get("total").and_then(Value::as_f64);
        let message = p.get("message").and_then(Value::as_str);
        match self.mode {
            ProgressMode::None => {}
            ProgressMode::Json => {
                let line = json!({"progress": progress, "total": total, "message": message});
                eprintln!("{line}");
            }
            ProgressMode::Auto => {
                let mut bar = self.bar.lock().unwrap_or_else(|e| e.into_inner());
                let bar = bar.get_or_insert_with(|| new_bar(total));
                if let Some(total) = total {
                    bar.set_length(total.max(0.0).ceil() as u64);
                }
                bar.set_position(progress.max(0.0) as u64);
                if let Some(message) = message {
                    bar.set_message(output::sanitize(message).into_owned());
                }
            }
        }
    }

    /// Run `f` (a prompt) with the bar out of the way.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        use std::sync::atomic::Ordering;
        let bar = self.bar.lock().unwrap_or_else(|e| e.into_inner()).clone();
        self.prompting.store(true, Ordering::SeqCst);
        let result = match bar {
            Some(bar) => bar.suspend(f),
            None => f(),
        };
        self.prompting.store(false, Ordering::SeqCst);
        result
    }

    /// Clear the bar from another thread just before the process exits
    /// (a signal): never blocks, and leaves alone a bar a prompt has
    /// already taken off the screen.
    pub fn clear_for_exit(&self) {
        if self.prompting.load(std::sync::atomic::Ordering::SeqCst) {
            return;
        }
        if let Ok(mut bar) = self.bar.try_lock()
            && let Some(bar) = bar.take()
        {
            bar.finish_and_clear();
        }
    }

    /// Remove the bar at the end of the call.
    pub fn finish(&self) {
        if let Some(bar) = self.bar.lock().unwrap_or_else(|e| e.into_inner()).take() {
            bar.finish_and_clear();
        }
    }
}

fn new_bar(total: Option<f64>) -> indicatif::ProgressBar {
    let bar = match total {
        Some(total) => indicatif::ProgressBar::new(total.max(0.0).ceil() as u64).with_style(
            indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} {msg}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        ),
        None => {
            let spinner = indicatif::ProgressBar::new_spinner();
            spinner.enable_steady_tick(std::time::Duration::from_millis(120));
            spinner
        }
    };
    bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
    bar
}

/// Where answers to a form come from.
enum Source {
    /// Ask on the terminal.
    Terminal,
    /// `--answers`: values by field name.
    Given(Map<String, Value>),
    /// `--accept-defaults`.
    Defaults,
    /// Nobody to ask.
    Nobody,
}

/// Answers a server's questions for one `call`.
pub struct Answerer {
    source: Source,
    open: bool,
    progress: std::sync::Arc<Progress>,
    outcomes: Mutex<Vec<Value>>,
}

impl Answerer {
    /// From `call`'s flags: `--answers` (JSON or `@FILE`), else
    /// `--accept-defaults`, else a terminal when there is one.
    pub fn new(
        answers: Option<&str>,
        accept_defaults: bool,
        open: bool,
        progress: std::sync::Arc<Progress>,
    ) -> Result<Answerer> {
        let source = match answers {
            Some(text) => Source::Given(parse_answers(text)?),
            None if accept_defaults => Source::Defaults,
            None if output::interactive() => Source::Terminal,
            None => Source::Nobody,
        };
        Ok(Answerer {
            source,
            open,
            progress,
            outcomes: Mutex::new(Vec::new()),
        })
    }

    /// Answer one `elicitation/create` (its params); blocking. Returns the
    /// `ElicitResult` as JSON and reports the outcome on stderr.
    pub fn answer(&self, params: &Value) -> Value {
        let mode = params.get("mode").and_then(Value::as_str).unwrap_or("form");
        let message = params.get("message").and_then(Value::as_str).unwrap_or("");
        let (result, reason) = match talk::check_question(params) {
            Err(why) => (talk::decline(), Some(why)),
            Ok(()) if mode == "url" => self.url(params, message),
            Ok(()) => self.form(params, message),
        };
        let action = result
            .get("action")
            .and_then(Value::as_str)
            .unwrap_or("decline")
            .to_string();
        let done = match action.as_str() {
            "accept" => "accepted",
            "cancel" => "cancelled",
            _ => "declined",
        };
        output::note(match &reason {
            Some(why) => format!("elicitation ({mode}) {done}: {why}"),
            None => format!("elicitation ({mode}) {done}"),
        });
        self.outcomes
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(json!({"mode": mode, "message": message, "action": action, "reason": reason}));
        result
    }

    /// Every question's outcome so far (for `--json`).
    pub fn outcomes(&self) -> Vec<Value> {
        self.outcomes
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    fn url(&self, params: &Value, message: &str) -> (Value, Option<String>) {
        let url = params.get("url").and_then(Value::as_str).unwrap_or("");
        output::note(format!(
            "the server asks you to open {}\n  {}",
            output::sanitize(url),
            output::sanitize(message)
        ));
        let mut opened = false;
        if self.open {
            match crate::auth::browser::refusal(url) {
                Some(why) => output::warn(&format!("not opening the URL: {why}"), None),
                None => match crate::auth::browser::open(url) {
                    Ok(_) => opened = true,
                    Err(why) => output::warn(&format!("could not open the URL: {why}"), None),
                },
            }
        }
        match &self.source {
            Source::Terminal => self.progress.suspend(|| {
                let choice = dialoguer::Select::new()
                    .with_prompt("When you are done in the browser")
                    .items(["accept (done)", "decline", "cancel"])
                    .default(0)
                    .interact();
                (action(choice.ok()), None)
            }),
            // Opened for the user: accepting says they may go on there.
            _ if opened => (json!({"action": "accept"}), None),
            _ => (
                talk::decline(),
                Some("no terminal to ask on and the URL was not opened (pass --open)".into()),
            ),
        }
    }

    fn form(&self, params: &Value, message: &str) -> (Value, Option<String>) {
        let schema = &params["requestedSchema"];
        let empty = Map::new();
        let props = schema["properties"].as_object().unwrap_or(&empty);
        let required: Vec<&str> = schema["required"]
            .as_array()
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        match &self.source {
            Source::Terminal => self
                .progress
                .suspend(|| ask_form(message, props, &required)),
            Source::Given(given) => match fill(props, &required, |name| given.get(name).cloned()) {
                Ok(content) => (json!({"action": "accept", "content": content}), None),
                Err(why) => (talk::decline(), Some(format!("--answers: {why}"))),
            },
            Source::Defaults => match fill(props, &required, |_| None) {
                Ok(content) => (json!({"action": "accept", "content": content}), None),
                Err(why) => (talk::decline(), Some(format!("--accept-defaults: {why}"))),
            },
            Source::Nobody => (
                talk::decline(),
                Some("no terminal to ask on (pass --answers or --accept-defaults)".into()),
            ),
        }
    }
}

/// `--answers`: a JSON object, or `@FILE` holding one.
fn parse_answers(text: &str) -> Result<Map<String, Value>> {
    let (text, from) = match text.strip_prefix('@') {
        Some(path) => (
            std::fs::read_to_string(path).map_err(|e| {
                UsageError::new(
                    format!("cannot read --answers file {path}: {e}"),
                    "write --answers @FILE with a JSON object in FILE",
                )
            })?,
            format!("--answers file {path}"),
        ),
        None => (text.to_string(), "--answers".to_string()),
    };
    match serde_json::from_str::<Value>(&text) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(UsageError::new(
            format!("{from} must be a JSON object of field names to values"),
            "e.g. --answers '{\"name\": \"Ada\"}'",
        )
        .into()),
        Err(e) => Err(UsageError::new(
            format!("{from} is not valid JSON: {e}"),
            "e.g. --answers '{\"name\": \"Ada\"}'",
        )
        .into()),
    }
}

/// The form's content from `given` values and defaults; `Err` names a
/// required field with neither, or a value of the wrong kind.
fn fill(
    props: &Map<String, Value>,
    required: &[&str],
    given: impl Fn(&str) -> Option<Value>,
) -> std::result::Result<Map<String, Value>, String> {
    let mut content = Map::new();
    for (name, field) in props {
        let shown = output::sanitize(name);
        let value = match given(name).or_else(|| field.get("default").cloned()) {
            Some(value) => value,
            None if required.contains(&name.as_str()) => {
                return Err(format!(
                    "the required field `{shown}` has no value and no default"
                ));
            }
            None => continue,
        };
        let kind = talk::field_kind(field).map_err(|why| format!("field `{shown}` {why}"))?;
        check_value(&kind, &value).map_err(|why| format!("field `{shown}`: {why}"))?;
        content.insert(name.clone(), value);
    }
    Ok(content)
}

fn check_value(kind: &FieldKind, value: &Value) -> std::result::Result<(), String> {
    let ok = match kind {
        FieldKind::Text => value.is_string(),
        FieldKind::Number { integer: true } => value.is_i64() || value.is_u64(),
        FieldKind::Number { integer: false } => value.is_number(),
        FieldKind::Boolean => value.is_boolean(),
        FieldKind::Choice(options) => value
            .as_str()
            .is_some_and(|v| options.iter().any(|o| o == v)),
        FieldKind::Many(options) => value.as_array().is_some_and(|vs| {
            vs.iter()
                .all(|v| v.as_str().is_some_and(|v| options.iter().any(|o| o == v)))
        }),
    };
    if ok {
        return Ok(());
    }
    // The value may be the server's default and the options are its own:
    // both are escaped like every other server string.
    let value = output::sanitize(&value.to_string()).into_owned();
    Err(match kind {
        FieldKind::Choice(options) | FieldKind::Many(options) => {
            let options: Vec<_> = options.iter().map(|o| output::sanitize(o)).collect();
            format!("{value} is not one of {}", options.join(", "))
        }
        other => format!("{value} is not {}", describe(other)),
    })
}

fn describe(kind: &FieldKind) -> &'static str {
    match kind {
        FieldKind::Text => "a string",
        FieldKind::Number { integer: true } => "an integer",
        FieldKind::Number { integer: false } => "a number",
        FieldKind::Boolean => "true or false",
        FieldKind::Choice(_) | FieldKind::Many(_) => "a choice",
    }
}

fn action(choice: Option<usize>) -> Value {
    match choice {
        Some(0) => json!({"action": "accept"}),
        Some(1) => json!({"action": "decline"}),
        _ => json!({"action": "cancel"}),
    }
}

/// Ask each field on the terminal, then whether to send, decline or cancel.
fn ask_form(
    message: &str,
    props: &Map<String, Value>,
    required: &[&str],
) -> (Value, Option<String>) {
    eprintln!("{}", output::sanitize_block(message));
    let mut content = Map::new();
    for (name, field) in props {
        let is_required = required.contains(&name.as_str());
        match ask_field(name, field, is_required) {
            Ok(Some(value)) => {
                content.insert(name.clone(), value);
            }
            Ok(None) => {}
            Err(_) => {
                return (
                    json!({"action": "cancel"}),
                    Some("the prompt was interrupted".into()),
                );
            }
        }
    }
    let choice = dialoguer::Select::new()
        .with_prompt("Send these answers?")
        .items(["accept (send)", "decline", "cancel"])
        .default(0)
        .interact()
        .ok();
    let mut result = action(choice);
    if choice == Some(0) {
        result["content"] = Value::Object(content);
    }
    (result, None)
}

/// Ask one field of a form in the way its schema calls for: a yes/no, a
/// choice, several choices, or text (a number checked as typed).
fn ask_field(
    name: &str,
    field: &Value,
    required: bool,
) -> std::result::Result<Option<Value>, dialoguer::Error> {
    let label = field_label(name, field, required);
    let default = field.get("default");
    let kind = talk::field_kind(field).unwrap_or(FieldKind::Text);
    Ok(match kind {
        FieldKind::Boolean => Some(Value::Bool(
            dialoguer::Confirm::new()
                .with_prompt(label)
                .default(default.and_then(Value::as_bool).unwrap_or(false))
                .interact()?,
        )),
        FieldKind::Choice(options) => ask_choice(label, &options, default, required)?,
        FieldKind::Many(options) => Some(ask_many(label, &options, default)?),
        FieldKind::Text | FieldKind::Number { .. } => ask_text(label, &kind, default, required)?,
    })
}

/// The field's title (or name), its description, and `[optional]`,
/// escaped: all of it is the server's text.
fn field_label(name: &str, field: &Value, required: bool) -> String {
    let title = field.get("title").and_then(Value::as_str).unwrap_or(name);
    let mut label = output::sanitize(title).into_owned();
    if let Some(description) = field.get("description").and_then(Value::as_str) {
        label.push_str(&format!(" ({})", output::sanitize(description)));
    }
    if !required {
        label.push_str(" [optional]");
    }
    label
}

/// One of `options` (or, when optional, none).
fn ask_choice(
    label: String,
    options: &[String],
    default: Option<&Value>,
    required: bool,
) -> std::result::Result<Option<Value>, dialoguer::Error> {
    let mut items: Vec<String> = options
        .iter()
        .map(|o| output::sanitize(o).into_owned())
        .collect();
    if !required {
        items.push("(leave empty)".into());
    }
    let at = default
        .and_then(Value::as_str)
        .and_then(|d| options.iter().position(|o| o == d))
        .unwrap_or(0);
    let picked = dialoguer::Select::new()
        .with_prompt(label)
        .items(&items)
        .default(at)
        .interact()?;
    Ok(options.get(picked).map(|o| Value::String(o.clone())))
}

/// Any of `options`, the default ones ticked.
fn ask_many(
    label: String,
    options: &[String],
    default: Option<&Value>,
) -> std::result::Result<Value, dialoguer::Error> {
    let chosen: Vec<bool> = options
        .iter()
        .map(|o| {
            default
                .and_then(Value::as_array)
                .is_some_and(|d| d.iter().any(|v| v.as_str() == Some(o)))
        })
        .collect();
    let items: Vec<String> = options
        .iter()
        .map(|o| output::sanitize(o).into_owned())
        .collect();
    let picked = dialoguer::MultiSelect::new()
        .with_prompt(label)
        .items(&items)
        .defaults(&chosen)
        .interact()?;
    Ok(Value::Array(
        picked
            .into_iter()
            .map(|i| Value::String(options[i].clone()))
            .collect(),
    ))
}

/// Text, or a number (an integer when the schema says so) checked as typed.
fn ask_text(
    label: String,
    kind: &FieldKind,
    default: Option<&Value>,
    required: bool,
) -> std::result::Result<Option<Value>, dialoguer::Error> {
    let number = matches!(kind, FieldKind::Number { .. });
    let integer = *kind == FieldKind::Number { integer: true };
    let mut input = dialoguer::Input::<String>::new()
        .with_prompt(label)
        .allow_empty(!required)
        .validate_with(move |text: &String| -> std::result::Result<(), String> {
            if text.is_empty() || !number {
                return Ok(());
            }
            match (integer, text.parse::<i64>(), text.parse::<f64>()) {
                (true, Ok(_), _) | (false, _, Ok(_)) => Ok(()),
                (true, ..) => Err("an integer, please".into()),
                (false, ..) => Err("a number, please".into()),
            }
        });
    // The default is the server's text: it is shown escaped, and
    // taking it (Enter) answers the server's own value.
    let given = default.map(|d| d.as_str().map_or_else(|| d.to_string(), str::to_string));
    let shown = given.as_deref().map(|d| output::sanitize(d).into_owned());
    if let Some(shown) = &shown {
        input = input.default(shown.clone());
    }
    let mut text = input.interact_text()?;
    if shown.as_ref() == Some(&text)
        && let Some(given) = given
    {
        text = given;
    }
    Ok(if text.is_empty() {
        None
    } else if number {
        serde_json::from_str(&text).ok()
    } else {
        Some(Value::String(text))
    })
}
