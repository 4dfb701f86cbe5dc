//! A large entry of a tar stream handed to the walk as it is unpacked: the
//! archive's reader thread pumps the entry's bytes through a short bounded
//! channel, and the walk cuts them into parts as they come
//! (`src/input/parts.rs`), so at most a few chunks of the entry are held
//! between the two, not the whole entry.

use std::io::{self, Read};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};

use crate::input::error::InputError;

/// Bytes in one chunk of the pipe.
const CHUNK: usize = 64 << 10;
/// Chunks the reader may run ahead of the walk.
const CHUNKS_AHEAD: usize = 4;

/// What goes through the pipe: a chunk of the entry (an empty one closes
/// it), or the error that stopped the unpacking.
type Message = io::Result<Vec<u8>>;

/// The walk's end of the pipe: the entry's bytes in order, then its end,
/// or the error that stopped it.
#[derive(Debug)]
pub struct Pipe {
    rx: Receiver<Message>,
    chunk: Vec<u8>,
    at: usize,
    ended: bool,
}

impl Read for Pipe {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.at == self.chunk.len() {
            if self.ended {
                return Ok(0);
            }
            match self.rx.recv() {
                Ok(Ok(chunk)) if chunk.is_empty() => self.ended = true,
                Ok(Ok(chunk)) => (self.chunk, self.at) = (chunk, 0),
                Ok(Err(e)) => return Err(e),
                // The reader stopped without closing the entry (it panicked):
                // what came so far is not the whole entry.
                Err(_) => {
                    return Err(InputError::Unpack(
                        "the archive's reader stopped inside this entry".into(),
                    )
                    .into_io())
                }
            }
        }
        let n = buf.len().min(self.chunk.len() - self.at);
        buf[..n].copy_from_slice(&self.chunk[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// The reader's end of the pipe.
pub struct Pump(SyncSender<Message>);

/// A new pipe: the reader's end and the walk's.
pub fn pipe() -> (Pump, Pipe) {
    let (tx, rx) = sync_channel(CHUNKS_AHEAD);
    let pipe = Pipe {
        rx,
        chunk: Vec::new(),
        at: 0,
        ended: false,
    };
    (Pump(tx), pipe)
}

impl Pump {
    /// Sends the bytes of `r` down the pipe to their end, or up to the error
    /// that stops them (an unpacking error, unless it is already one of
    /// [`InputError`]'s), or until the walk drops
    /// its end (it has read what it needs): the rest of the entry is then
    /// left to the archive reader to pass over.
    pub fn pump(self, r: impl Read) {
        self.pump_after(Vec::new(), r);
    }

    /// Sends `head`, then the bytes of `r`, as [`Pump::pump`] does. The
    /// head goes as one chunk, freed once the walk has read past it.
    pub fn pump_after(self, head: Vec<u8>, mut r: impl Read) {
        if !head.is_empty() && self.0.send(Ok(head)).is_err() {
            return;
        }
        let mut buf = vec![0u8; CHUNK];
        loop {
            let message = match r.read(&mut buf) {
                Ok(0) => {
                    let _ = self.0.send(Ok(Vec::new()));
                    return;
                }
                Ok(n) => Ok(buf[..n].to_vec()),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                // An error the entry's own checks made says what it is.
                Err(e) if e.get_ref().is_some_and(|x| x.is::<InputError>()) => Err(e),
                Err(e) => Err(InputError::Unpack(e.to_string()).into_io_like(&e)),
            };
            let failed = message.is_err();
            if self.0.send(message).is_err() || failed {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bytes_arrive_whole_and_in_order_then_the_end() {
        let bytes: Vec<u8> = (0..300_000u32).map(|i| (i % 251) as u8).collect();
        let (pump, mut walk_end) = pipe();
        let sent = bytes.clone();
        let t = std::thread::spawn(move || pump.pump(io::Cursor::new(sent)));
        let mut got = Vec::new();
        walk_end.read_to_end(&mut got).unwrap();
        t.join().unwrap();
        assert_eq!(got, bytes);
    }

    #[test]
    fn a_head_arrives_before_the_rest_and_is_not_kept() {
        let (pump, mut walk_end) = pipe();
        let t = std::thread::spawn(move || {
            pump.pump_after(b"(;GM[1]".to_vec(), io::Cursor::new(b";B[aa])".to_vec()))
        });
        let mut got = Vec::new();
        walk_end.read_to_end(&mut got).unwrap();
        t.join().unwrap();
        assert_eq!(got, b"(;GM[1];B[aa])");
        // The head went as a chunk of its own, dropped for the next.
        assert_eq!(walk_end.chunk, b";B[aa])");
    }

    #[test]
    fn an_error_or_a_reader_gone_ends_the_entry_with_an_error() {
        struct Fails(bool);
        impl Read for Fails {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                if std::mem::replace(&mut self.0, true) {
                    Err(io::Error::other("bad block"))
                } else {
                    buf[0] = b'(';
                    Ok(1)
                }
            }
        }
        let (pump, mut walk_end) = pipe();
        let t = std::thread::spawn(move || pump.pump(Fails(false)));
        let mut got = Vec::new();
        let e = walk_end.read_to_end(&mut got).unwrap_err();
        t.join().unwrap();
        assert_eq!(got, b"(");
        assert!(
            InputError::io(&e, crate::input::error::Action::Read)
                .to_string()
                .contains("bad block"),
            "{e}"
        );
        // A pump dropped before the end (its thread panicked) is no end.
        let (pump, mut walk_end) = pipe();
        drop(pump);
        assert!(walk_end.read_to_end(&mut Vec::new()).is_err());
    }
}
