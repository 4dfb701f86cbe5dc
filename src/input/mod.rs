//! Input discovery: files, directories (recursive, `.sgf` in any letter case,
//! sorted by name at every level so the order is deterministic), archives
//! (`.zip`, `.tar`, `.tar.gz`, `.tgz`, `.tar.bz2`: their `*.sgf` entries, in the
//! archive's order, see [`archive`]), `-` for standard input, and path
//! lists. Lazy: directories are read as the walk reaches them, and archives
//! entry by entry, so memory does not grow with the size of the archive. Problems (a missing path, a
//! symlink loop, an unreadable directory) become items that report them.

pub mod archive;
mod error;
mod file_list;
mod item;
mod walk;

pub use error::{Action, InputError};
pub use file_list::read_file_list;
pub use item::{Item, Source};
pub use walk::Walk;
