//! Validation before save: names, launchers, version pins and URLs.
