//! Bytes on their way from one thread to another, held to a limit: the
//! sending thread waits while the receiving one is that far behind. Shared
//! by an archive's reader (`input::archive`) and the threads that write
//! report files (`report::background`).

use std::sync::{Condvar, Mutex};

pub(crate) struct Budget {
    limit: u64,
    held: Mutex<u64>,
    freed: Condvar,
}

impl Budget {
    pub(crate) fn new(limit: u64) -> Budget {
        Budget {
            limit,
            held: Mutex::new(0),
            freed: Condvar::new(),
        }
    }

    /// Waits until `n` more bytes fit under the limit, or none are held (so
    /// one item always goes, however large), then holds them.
    pub(crate) fn take(&self, n: u64) {
        let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        while *held > 0 && held.saturating_add(n) > self.limit {
            held = self.freed.wait(held).unwrap_or_else(|e| e.into_inner());
        }
        *held += n;
    }

    /// Gives back `n` bytes (all of them, when fewer are held).
    pub(crate) fn give_back(&self, n: u64) {
        let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        *held = held.saturating_sub(n);
        self.freed.notify_all();
    }
}
