//! One input to audit: its name in reports and where its bytes come from.

use std::fs;
use std::io;
use std::path::PathBuf;

use super::error::{Action, InputError};

/// Where an input's bytes come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    File(PathBuf),
    Stdin,
    /// An entry already read out of an archive (`src/input/archive.rs`).
    Bytes(Vec<u8>),
    /// The input cannot be read.
    Broken(InputError),
}

/// One input to audit, with the name reports use for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    pub name: String,
    pub source: Source,
}

impl Item {
    /// The input's size in bytes, when cheaply known (0 otherwise).
    pub fn size_hint(&self) -> u64 {
        match &self.source {
            Source::File(p) => fs::metadata(p).map_or(0, |m| m.len()),
            Source::Bytes(b) => b.len() as u64,
            _ => 0,
        }
    }

    /// Reads the input's bytes.
    pub fn read(&self) -> Result<Vec<u8>, InputError> {
        match &self.source {
            Source::File(p) => fs::read(p).map_err(|e| InputError::io(&e, Action::Read)),
            Source::Stdin => {
                let mut buf = Vec::new();
                io::Read::read_to_end(&mut io::stdin(), &mut buf)
                    .map_err(|e| InputError::io(&e, Action::ReadStdin))?;
                Ok(buf)
            }
            Source::Bytes(b) => Ok(b.clone()),
            Source::Broken(why) => Err(why.clone()),
        }
    }
}
