//! VS Code's prompted inputs: the `inputs` a file declares, the variable
//! that supplies each `${input:ID}` (`MCPCTL_INPUT_<ID>`), and the question
//! asked on a terminal when nothing does. `vars` expands the references;
//! this module only knows the inputs.

/// The environment variable that supplies VS Code's `${input:ID}`:
/// `MCPCTL_INPUT_` and the ID upper-cased, anything but letters and digits
/// turned into `_` (`perplexity-key` → `MCPCTL_INPUT_PERPLEXITY_KEY`).
pub fn input_variable(id: &str) -> String {
    format!("{INPUT_PREFIX}{}", crate::text::env_style(id))
}

/// The prefix of the variables that supply `${input:ID}` values.
pub const INPUT_PREFIX: &str = "MCPCTL_INPUT_";

/// A VS Code `inputs` entry: what to say when asking for `${input:ID}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputSpec {
    /// The input's `id`.
    pub id: String,
    /// Its `description`, shown as the prompt.
    pub description: Option<String>,
    /// Its `password` flag: the answer is not echoed.
    pub password: bool,
}

/// The inputs declared by the files this process read, so a prompt can use
/// the file's own description and `password` flag.
static INPUTS: std::sync::Mutex<Vec<InputSpec>> = std::sync::Mutex::new(Vec::new());

/// Remember the `inputs` a file declares (the latest declaration of an ID wins).
pub fn declare_inputs(inputs: Vec<InputSpec>) {
    if inputs.is_empty() {
        return;
    }
    let mut known = INPUTS.lock().unwrap_or_else(|e| e.into_inner());
    for input in inputs {
        known.retain(|k| k.id != input.id);
        known.push(input);
    }
}

/// Ask for the value of the input behind `variable` on the terminal, when
/// there is one (never without a TTY). The caller keeps the answer for this
/// process only ([`crate::defs::vars::provide`]); it is never written.
pub fn ask_input(variable: &str) -> Option<String> {
    use std::io::IsTerminal;
    if !std::io::stdin().is_terminal() || !std::io::stderr().is_terminal() {
        return None;
    }
    let spec = {
        let known = INPUTS.lock().unwrap_or_else(|e| e.into_inner());
        known
            .iter()
            .find(|input| input_variable(&input.id) == variable)
            .cloned()
    }?;
    let prompt = match &spec.description {
        Some(description) => format!(
            "{} (input `{}`)",
            crate::text::sanitize(description),
            crate::text::sanitize(&spec.id)
        ),
        None => format!("value for input `{}`", crate::text::sanitize(&spec.id)),
    };
    let term = console::Term::stderr();
    let answer = if spec.password {
        term.write_str(&format!("{prompt} (hidden): ")).ok()?;
        term.read_secure_line().ok()?
    } else {
        dialoguer::Input::<String>::new()
            .with_prompt(prompt)
            .allow_empty(true)
            .interact_text_on(&term)
            .ok()?
    };
    Some(answer)
}
