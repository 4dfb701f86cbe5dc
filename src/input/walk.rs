//! The lazy walk over the inputs named on the command line.

use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};

use super::archive;
use super::error::{Action, InputError};
use super::item::{Item, Source};

fn display(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

fn is_sgf(p: &Path) -> bool {
    p.extension()
        .is_some_and(|e| e.to_string_lossy().eq_ignore_ascii_case("sgf"))
}

/// Identity of a directory, to detect symlink loops.
fn dir_id(p: &Path) -> Option<(u64, u64)> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        fs::metadata(p).ok().map(|m| (m.dev(), m.ino()))
    }
    #[cfg(not(unix))]
    {
        use std::hash::{Hash, Hasher};
        let c = fs::canonicalize(p).ok()?;
        let mut h = std::collections::hash_map::DefaultHasher::new();
        c.hash(&mut h);
        Some((0, h.finish()))
    }
}

/// A directory being walked: its remaining entries (reversed, so `pop` yields
/// them in order) and its identity.
struct Frame {
    entries: Vec<PathBuf>,
    id: Option<(u64, u64)>,
}

/// The lazy walk over all inputs.
pub struct Walk {
    roots: std::vec::IntoIter<String>,
    stack: Vec<Frame>,
    pending: Vec<Item>,
    /// The entries of the archive being read, before the walk goes on.
    archive: Option<std::sync::mpsc::IntoIter<Item>>,
    active: HashSet<(u64, u64)>,
}

impl Walk {
    /// Walks the given path arguments (`-` is standard input) in order.
    pub fn new(args: Vec<String>) -> Walk {
        Walk {
            roots: args.into_iter(),
            stack: Vec::new(),
            pending: Vec::new(),
            archive: None,
            active: HashSet::new(),
        }
    }

    fn enter_dir(&mut self, dir: &Path) {
        let id = dir_id(dir);
        if let Some(id) = id {
            if self.active.contains(&id) {
                self.pending.push(Item {
                    name: display(dir),
                    source: Source::Broken(InputError::SymlinkLoop),
                });
                return;
            }
        }
        match fs::read_dir(dir) {
            Ok(rd) => {
                let mut entries: Vec<PathBuf> = Vec::new();
                for e in rd {
                    match e {
                        Ok(e) => entries.push(e.path()),
                        Err(e) => self.pending.push(Item {
                            name: display(dir),
                            source: Source::Broken(InputError::io(&e, Action::ListDirectory)),
                        }),
                    }
                }
                entries.sort_by(|a, b| a.as_os_str().cmp(b.as_os_str()));
                entries.reverse();
                if let Some(id) = id {
                    self.active.insert(id);
                }
                self.stack.push(Frame { entries, id });
            }
            Err(e) => self.pending.push(Item {
                name: display(dir),
                source: Source::Broken(InputError::io(&e, Action::ListDirectory)),
            }),
        }
    }

    fn open_archive(&mut self, path: PathBuf, name: String) {
        if let Some(kind) = archive::kind_of(&path) {
            self.archive = Some(archive::entries(path, name, kind).into_iter());
        }
    }

    fn root(&mut self, arg: String) {
        if arg == "-" {
            self.pending.push(Item {
                name: "-".into(),
                source: Source::Stdin,
            });
            return;
        }
        let path = PathBuf::from(&arg);
        match fs::metadata(&path) {
            Ok(m) if m.is_dir() => self.enter_dir(&path),
            Ok(_) if archive::kind_of(&path).is_some() => self.open_archive(path, arg),
            // A file named explicitly is audited whatever its extension.
            Ok(_) => self.pending.push(Item {
                name: arg,
                source: Source::File(path),
            }),
            Err(e) => {
                let why = if fs::symlink_metadata(&path).is_ok() {
                    InputError::BrokenLink(e.to_string())
                } else {
                    InputError::io(&e, Action::Open)
                };
                self.pending.push(Item {
                    name: arg,
                    source: Source::Broken(why),
                })
            }
        }
    }
}

impl Iterator for Walk {
    type Item = Item;

    fn next(&mut self) -> Option<Item> {
        loop {
            if let Some(item) = self.pending.pop() {
                return Some(item);
            }
            if let Some(entries) = self.archive.as_mut() {
                match entries.next() {
                    Some(item) => return Some(item),
                    None => self.archive = None,
                }
            }
            if let Some(frame) = self.stack.last_mut() {
                let Some(path) = frame.entries.pop() else {
                    if let Some(id) = frame.id {
                        self.active.remove(&id);
                    }
                    self.stack.pop();
                    continue;
                };
                match fs::metadata(&path) {
                    Ok(m) if m.is_dir() => self.enter_dir(&path),
                    Ok(_) if is_sgf(&path) => {
                        return Some(Item {
                            name: display(&path),
                            source: Source::File(path),
                        })
                    }
                    Ok(_) if archive::kind_of(&path).is_some() => {
                        let name = display(&path);
                        self.open_archive(path, name);
                    }
                    Ok(_) => {}
                    Err(e) if is_sgf(&path) => {
                        return Some(Item {
                            name: display(&path),
                            source: Source::Broken(InputError::io(&e, Action::Open)),
                        })
                    }
                    Err(e) => {
                        // A dangling link or loop in a directory: report it only
                        // when it could have been a game file or a directory.
                        if fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink()) {
                            let why = InputError::BrokenLink(e.to_string());
                            return Some(Item {
                                name: display(&path),
                                source: Source::Broken(why),
                            });
                        }
                    }
                }
                continue;
            }
            let arg = self.roots.next()?;
            self.root(arg);
        }
    }
}
