//! Why a server's sandbox could not be set up: the server is then not
//! started (fail closed), and the message names what is missing.

/// What the operator writes to run a server unconfined, knowingly.
pub const OFF_HINT: &str = "set \"sandbox\": \"off\" on the entry to run it unconfined, knowingly";

/// A sandbox that cannot be set up; the server is never started without it.
#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    /// The kernel lacks a feature the policy needs.
    #[error("the kernel does not offer {what}, which the sandbox needs")]
    Unsupported {
        /// The feature, e.g. `Landlock (ABI >= 1)`.
        what: String,
    },
    /// The policy, once expanded at launch, is refused.
    #[error(transparent)]
    Policy(#[from] PolicyError),
    /// A step of the setup failed.
    #[error("{step}: {detail}")]
    Setup {
        /// The step (a path rule, the private directories…).
        step: String,
        /// The operating system's or Landlock's reason.
        detail: String,
    },
}

impl SandboxError {
    /// What to do about it.
    pub fn hint(&self) -> String {
        match self {
            SandboxError::Policy(policy) => policy.hint.clone(),
            SandboxError::Setup { .. } => format!(
                "fix what is named (a profile's path must exist; `mcpctl sandbox NAME` shows the rules), or {OFF_HINT}"
            ),
            _ => {
                format!("run on a kernel with Landlock and user namespaces enabled, or {OFF_HINT}")
            }
        }
    }
}

/// Why a `sandbox` value was refused, with what to write instead.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`sandbox`: {message} (hint: {hint})")]
pub struct PolicyError {
    /// What is wrong, naming the key or value.
    pub message: String,
    /// What to write instead.
    pub hint: String,
}
