//! The parallel pipeline: inputs are taken in batches, audited in parallel on a
//! rayon pool, and handed to the sink in input order. Memory is bounded by the
//! batch size (never the whole archive); output is byte-identical for any thread
//! count because order comes from the input, not from the threads.

use std::cell::RefCell;

use rayon::prelude::*;

use crate::audit::{audit_bytes, AuditOptions, FileReport};
use crate::core::replay::Replayer;
use crate::input::Item;

/// Input bytes in flight per thread: with the file count (64 per thread), this
/// bounds memory whatever the size of files or the number of games in them.
const BATCH_BYTES_PER_THREAD: u64 = 1 << 20;

thread_local! {
    static REPLAYER: RefCell<Replayer> = RefCell::new(Replayer::new());
}

/// Audits one input with this thread's replayer.
pub fn audit_item(item: &Item, opts: &AuditOptions) -> FileReport {
    match item.read() {
        Ok(bytes) => REPLAYER.with(|r| audit_bytes(&item.name, &bytes, opts, &mut r.borrow_mut())),
        Err(why) => FileReport::unreadable(item.name.clone(), why),
    }
}

/// Runs the audit over `inputs` on `jobs` threads (0 = all cores), calling `sink`
/// with each file's report in input order. Stops early, returning the sink's
/// error, if the sink fails (e.g. a closed pipe).
pub fn run<I, S, E>(inputs: I, opts: &AuditOptions, jobs: usize, mut sink: S) -> Result<(), E>
where
    I: Iterator<Item = Item>,
    S: FnMut(FileReport) -> Result<(), E>,
{
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .thread_name(|i| format!("sgfaudit-{i}"))
        .build();
    let pool = match pool {
        Ok(p) => p,
        Err(_) => {
            // No threads to be had: audit on this thread.
            for item in inputs {
                sink(audit_item(&item, opts))?;
            }
            return Ok(());
        }
    };
    let threads = pool.current_num_threads().max(1) as u64;
    let batch_files = 64 * threads as usize;
    let batch_bytes = BATCH_BYTES_PER_THREAD * threads;
    let mut inputs = inputs.peekable();
    let mut batch: Vec<Item> = Vec::with_capacity(batch_files);
    while inputs.peek().is_some() {
        batch.clear();
        let mut bytes = 0;
        while batch.len() < batch_files && bytes < batch_bytes {
            let Some(item) = inputs.next() else { break };
            bytes += item.size_hint();
            batch.push(item);
        }
        let reports: Vec<FileReport> = pool.install(|| {
            batch
                .par_iter()
                .map(|item| audit_item(item, opts))
                .collect()
        });
        for r in reports {
            sink(r)?;
        }
    }
    Ok(())
}
