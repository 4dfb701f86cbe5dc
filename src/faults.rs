//! Panics turned into reports: the message a panic carries, and the test
//! hook that injects one. Shared by the per-game audit (`audit.rs`) and the
//! archive reader's thread (`input/archive.rs`).

use std::any::Any;

/// Test hook, not an option: when the environment variable
/// `SGFAUDIT_INJECT_FAULT` holds a text, whatever is named with it panics
/// (the audit of a file's games, the archive reader on reaching an entry), so
/// tests can prove that a panic costs that item only and the run goes on
/// (tests/cli.rs, tests/archives.rs).
pub(crate) fn fault_injected(name: &str) -> bool {
    static PATTERN: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    PATTERN
        .get_or_init(|| {
            std::env::var("SGFAUDIT_INJECT_FAULT")
                .ok()
                .filter(|p| !p.is_empty())
        })
        .as_deref()
        .is_some_and(|p| name.contains(p))
}

/// The text a panic was raised with.
pub(crate) fn panic_message(payload: &Box<dyn Any + Send>) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic".to_string()
    }
}
