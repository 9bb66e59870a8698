//! Everything a command prints: tables, `--json`, warnings, redaction.
