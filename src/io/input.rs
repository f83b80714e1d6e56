//! Where data comes from: every input (DLX text, weight boards, merge records) is read as a
//! stream of bounded lines, so memory grows with the problem, never with bytes that cannot be
//! part of a valid input.
//!
//! [`LineReader`] gives one line at a time, without its `\n` or `\r\n`, with a UTF-8
//! byte-order mark skipped at the start of the input. It fails at once, naming the line and
//! column, on a line longer than its limit ([`MAX_LINE_BYTES`] by default), on a NUL byte (no
//! text format we read has one: `/dev/zero` or a binary file fails on its first byte), and on
//! invalid UTF-8. [`crate::quote`] is how every parser shows an offending token in a message.

#[cfg(feature = "cli")]
use std::fs::File;
#[cfg(any(feature = "cli", test))]
use std::io::BufReader;
use std::io::{self, BufRead};
#[cfg(feature = "cli")]
use std::path::Path;

#[cfg(feature = "cli")]
use anyhow::Context;

/// The default longest line, in bytes, without its terminator: 16 MiB. Far more than any real
/// line of ours (Knuth's DLX1 reads lines of at most 900,003 bytes; a DLX item line of 16 MiB
/// names about 1.5 million items; a weight row or a merge record is a few kilobytes), but a
/// bound: a runaway line fails after 16 MiB instead of exhausting memory.
pub const MAX_LINE_BYTES: usize = 16 << 20;

/// The memory this process may still take, in bytes: the smaller of the memory the system
/// has available (`MemAvailable` of /proc/meminfo) and what the address-space limit
/// (`ulimit -v`, /proc/self/limits) leaves beside the process's present size (`VmSize`).
/// `None` where neither can be read (not Linux). A reader that keeps what it reads bounds
/// itself by a share of this, so that an endless input ends in an error naming its line, not
/// in an aborted allocation.
pub fn available_memory() -> Option<u64> {
    // The value of `key` in a /proc file of `key: value kB` or `key  soft hard unit` lines.
    fn field(file: &str, key: &str) -> Option<String> {
        let text = std::fs::read_to_string(file).ok()?;
        let line = text.lines().find(|l| l.starts_with(key))?;
        Some(line[key.len()..].trim_start_matches(':').trim().to_string())
    }
    fn kib(value: Option<String>) -> Option<u64> {
        let v = value?;
        let number = v.split_whitespace().next()?.parse::<u64>().ok()?;
        number.checked_mul(1024)
    }
    let available = kib(field("/proc/meminfo", "MemAvailable"));
    let address_space = field("/proc/self/limits", "Max address space").and_then(|v| {
        let soft = v.split_whitespace().next()?.parse::<u64>().ok()?;
        let used = kib(field("/proc/self/status", "VmSize")).unwrap_or(0);
        Some(soft.saturating_sub(used))
    });
    match (available, address_space) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// What is wrong with the input stream itself.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InputErrorKind {
    /// The stream could not be read (the I/O error's message).
    #[error("cannot read: {0}")]
    Read(String),
    /// A line longer than the limit, in bytes.
    #[error("line too long (more than {0} bytes)")]
    LineTooLong(usize),
    /// A NUL byte: binary input.
    #[error("NUL byte (\\0): this is not a text input")]
    Nul,
    /// Bytes that are not UTF-8.
    #[error("invalid UTF-8")]
    InvalidUtf8,
}

/// An input stream error with its position: displays as `NAME:LINE:COLUMN: problem`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{name}:{line}:{column}: {kind}")]
pub struct InputError {
    /// The input's name: a path or `<stdin>`.
    pub name: String,
    /// 1-based line number.
    pub line: usize,
    /// 1-based column, in characters (of the valid UTF-8 before the problem).
    pub column: usize,
    /// What is wrong.
    pub kind: InputErrorKind,
}

/// Lines of an input, bounded in length. Not an `Iterator`: each line borrows the reader's
/// buffer.
pub struct LineReader<R = Box<dyn BufRead>> {
    inner: R,
    name: String,
    max_line: usize,
    buf: Vec<u8>,
    /// Lines returned so far (the number of the last one).
    lines: usize,
    ended_with_newline: bool,
    done: bool,
}

static STDIN_CLOSED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Tells the library that the process started with its stdin closed (`<&-`): reading stdin
/// then fails instead of reading an empty input. The binary finds it out before Rust's runtime
/// points a closed descriptor 0 at `/dev/null`.
pub fn set_stdin_closed() {
    STDIN_CLOSED.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// An error when stdin was closed at the start ([`set_stdin_closed`]).
#[cfg(feature = "cli")]
pub fn check_stdin() -> anyhow::Result<()> {
    if STDIN_CLOSED.load(std::sync::atomic::Ordering::Relaxed) {
        anyhow::bail!("cannot read stdin: Bad file descriptor (stdin is closed)");
    }
    Ok(())
}

/// Opens a file, or stdin for `None` or `-`, named in messages by its path or `<stdin>`.
#[cfg(feature = "cli")]
pub fn open(path: Option<&Path>) -> anyhow::Result<LineReader> {
    if path.is_none_or(|p| p == Path::new("-")) {
        check_stdin()?;
    }
    match path {
        Some(p) if p != Path::new("-") => {
            let f = File::open(p).with_context(|| format!("cannot read {}", p.display()))?;
            if f.metadata().is_ok_and(|m| m.is_dir()) {
                anyhow::bail!("cannot read {}: it is a directory", p.display());
            }
            let r: Box<dyn BufRead> = Box::new(BufReader::with_capacity(1 << 16, f));
            Ok(LineReader::new(r, p.display().to_string()))
        }
        _ => {
            let r: Box<dyn BufRead> = Box::new(BufReader::with_capacity(1 << 16, io::stdin()));
            Ok(LineReader::new(r, "<stdin>"))
        }
    }
}

impl<R: BufRead> LineReader<R> {
    /// Reads `inner`, named `name` in messages, with lines of at most [`MAX_LINE_BYTES`].
    pub fn new(inner: R, name: impl Into<String>) -> Self {
        LineReader {
            inner,
            name: name.into(),
            max_line: MAX_LINE_BYTES,
            buf: Vec::new(),
            lines: 0,
            ended_with_newline: false,
            done: false,
        }
    }

    /// Sets the longest line, in bytes, without its terminator.
    pub fn set_max_line_bytes(&mut self, max: usize) {
        self.max_line = max;
    }

    /// The input's name for messages.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The number of lines returned so far, which is the 1-based number of the last one.
    pub fn lines_read(&self) -> usize {
        self.lines
    }

    /// Whether the input ended with a line terminator (meaningful after the last line).
    pub fn ended_with_newline(&self) -> bool {
        self.ended_with_newline
    }

    /// An error at `column` of the line being read.
    pub fn error(&self, line: usize, column: usize, kind: InputErrorKind) -> InputError {
        InputError {
            name: self.name.clone(),
            line,
            column,
            kind,
        }
    }

    /// The next line, without its terminator (`\n` or `\r\n`) and, on line 1, without a
    /// byte-order mark; `None` at the end. After an error the reader gives no more lines.
    pub fn next_line(&mut self) -> Result<Option<(usize, &str)>, InputError> {
        match self.fill_line() {
            Ok(true) => {}
            Ok(false) => return Ok(None),
            Err(e) => {
                self.done = true;
                return Err(e);
            }
        }
        let number = self.lines;
        match std::str::from_utf8(&self.buf) {
            Ok(text) => Ok(Some((number, text))),
            Err(e) => {
                self.done = true;
                let column = chars_in_valid_prefix(&self.buf[..e.valid_up_to()]) + 1;
                Err(self.error(number, column, InputErrorKind::InvalidUtf8))
            }
        }
    }

    /// Reads the next line into `buf`; false at the end of the input.
    fn fill_line(&mut self) -> Result<bool, InputError> {
        self.buf.clear();
        if self.done {
            return Ok(false);
        }
        let number = self.lines + 1;
        let mut got_any = false;
        loop {
            let avail = match self.inner.fill_buf() {
                Ok(a) => a,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    let column = chars_in_valid_prefix(&self.buf) + 1;
                    return Err(self.error(number, column, InputErrorKind::Read(e.to_string())));
                }
            };
            if avail.is_empty() {
                self.done = true;
                if !got_any {
                    return Ok(false);
                }
                self.ended_with_newline = false;
                break;
            }
            got_any = true;
            let newline = avail.iter().position(|&b| b == b'\n');
            let end = newline.unwrap_or(avail.len());
            // One byte more than the limit may be a '\r' before the '\n'.
            let room = (self.max_line + 1).saturating_sub(self.buf.len());
            let take = end.min(room);
            let start = self.buf.len();
            if self.buf.capacity() < start + take {
                // Grow by doubling, but never past the limit.
                let want = (start + take)
                    .max(self.buf.capacity() * 2)
                    .min(self.max_line + 1);
                self.buf.reserve_exact(want - start);
            }
            self.buf.extend_from_slice(&avail[..take]);
            let consumed = if take == end && newline.is_some() {
                take + 1
            } else {
                take
            };
            self.inner.consume(consumed);
            if let Some(at) = self.buf[start..].iter().position(|&b| b == 0) {
                let column = chars_in_valid_prefix(&self.buf[..start + at]) + 1;
                return Err(self.error(number, column, InputErrorKind::Nul));
            }
            if take < end {
                return Err(self.too_long(number));
            }
            if newline.is_some() {
                self.ended_with_newline = true;
                break;
            }
        }
        self.lines = number;
        if self.buf.last() == Some(&b'\r') {
            self.buf.pop();
        }
        if self.buf.len() > self.max_line {
            self.done = true;
            return Err(self.too_long(number));
        }
        if number == 1 && self.buf.starts_with(b"\xEF\xBB\xBF") {
            self.buf.drain(..3);
        }
        Ok(true)
    }

    fn too_long(&self, number: usize) -> InputError {
        let cut = self.max_line.min(self.buf.len());
        let column = chars_in_valid_prefix(&self.buf[..cut]) + 1;
        self.error(number, column, InputErrorKind::LineTooLong(self.max_line))
    }
}

/// The number of characters in the longest UTF-8 prefix of `bytes`.
pub(crate) fn chars_in_valid_prefix(bytes: &[u8]) -> usize {
    let valid = match std::str::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or_default(),
    };
    valid.chars().count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], max: usize) -> Result<Vec<(usize, String)>, InputError> {
        let mut r = LineReader::new(input, "t");
        r.set_max_line_bytes(max);
        let mut out = Vec::new();
        while let Some((n, t)) = r.next_line()? {
            out.push((n, t.to_string()));
        }
        Ok(out)
    }

    #[test]
    fn splits_lines_strips_crlf_and_bom() {
        let got = lines(b"\xEF\xBB\xBFa b\r\n\nc", 100).unwrap();
        assert_eq!(
            got,
            [(1, "a b".into()), (2, String::new()), (3, "c".into())]
        );
        assert!(lines(b"", 100).unwrap().is_empty());
        // The limit does not count the '\r' of a CRLF.
        assert_eq!(lines(b"abcd\r\n", 4).unwrap(), [(1, "abcd".into())]);
    }

    #[test]
    fn fails_at_once() {
        let e = lines(b"ok\nabcdefghijk\n", 10).unwrap_err();
        assert_eq!((e.line, e.column), (2, 11));
        assert_eq!(e.kind, InputErrorKind::LineTooLong(10));
        let e = lines(b"ok\nab\0c\n", 100).unwrap_err();
        assert_eq!((e.line, e.column, e.kind), (2, 3, InputErrorKind::Nul));
        let e = lines(b"a\n\xc3\xa4\xc3\n", 100).unwrap_err();
        assert_eq!(
            (e.line, e.column, e.kind),
            (2, 2, InputErrorKind::InvalidUtf8)
        );
        // An endless line: stops after the limit, whatever follows.
        let endless = io::Read::take(io::repeat(b'x'), u64::MAX);
        let mut r = LineReader::new(BufReader::new(endless), "zero");
        r.set_max_line_bytes(1000);
        assert!(r.next_line().is_err());
        let zeros = io::Read::take(io::repeat(0), u64::MAX);
        let mut r = LineReader::new(BufReader::new(zeros), "zero");
        assert_eq!(r.next_line().unwrap_err().kind, InputErrorKind::Nul);
    }
}
