//! The `sgfaudit` binary: the command line of `src/cli/` over the library.

use std::process::ExitCode;

mod cli;

/// sgf-parse allocates a String per property identifier and value; the system
/// allocator spent about a third of the single-thread profile on those small
/// allocations (perf, real corpus). mimalloc handles them much faster.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    cli::main()
}
