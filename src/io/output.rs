//! Where data goes: stdout, or a file written atomically (a temporary file in the same
//! directory, renamed over the target only when everything was written), so an interrupted or
//! failed run never leaves a half-written file.

use std::fs::File;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};

use anyhow::Context;

/// An output sink: call [`Output::finish`] at the end; dropping it without `finish` discards a
/// file output (the temporary file is removed and the target is left untouched).
pub struct Output {
    inner: Sink,
}

enum Sink {
    Stdout(Box<dyn Write>),
    File {
        writer: BufWriter<tempfile::NamedTempFile>,
        target: PathBuf,
    },
}

impl Output {
    /// Stdout when `path` is `None` or `-`, else an atomic file.
    pub fn create(path: Option<&Path>) -> anyhow::Result<Output> {
        match path {
            None => Ok(Output::stdout()),
            Some(p) if p == Path::new("-") => Ok(Output::stdout()),
            Some(p) => {
                let dir = match p.parent() {
                    Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
                    _ => PathBuf::from("."),
                };
                let mut builder = tempfile::Builder::new();
                builder.prefix(".xcover-").suffix(".tmp");
                // An ordinary file's mode (0666 less the umask), not a temporary file's 0600.
                #[cfg(unix)]
                {
                    use std::os::unix::fs::PermissionsExt;
                    builder.permissions(std::fs::Permissions::from_mode(0o666));
                }
                let tmp = builder
                    .tempfile_in(&dir)
                    .with_context(|| format!("cannot create a file in {}", dir.display()))?;
                Ok(Output {
                    inner: Sink::File {
                        writer: BufWriter::with_capacity(1 << 16, tmp),
                        target: p.to_path_buf(),
                    },
                })
            }
        }
    }

    /// Stdout, line-buffered on a terminal and block-buffered in a pipe.
    pub fn stdout() -> Output {
        let out = io::stdout();
        let w: Box<dyn Write> = if out.is_terminal() {
            Box::new(io::LineWriter::new(out))
        } else {
            Box::new(BufWriter::with_capacity(1 << 16, out))
        };
        Output {
            inner: Sink::Stdout(w),
        }
    }

    /// Flushes, and for a file renames the temporary file over the target.
    pub fn finish(self) -> anyhow::Result<()> {
        match self.inner {
            Sink::Stdout(mut w) => w.flush().map_err(Into::into),
            Sink::File { writer, target } => {
                let tmp = writer
                    .into_inner()
                    .map_err(|e| e.into_error())
                    .with_context(|| format!("cannot write {}", target.display()))?;
                tmp.as_file()
                    .sync_all()
                    .with_context(|| format!("cannot write {}", target.display()))?;
                tmp.persist(&target)
                    .with_context(|| format!("cannot write {}", target.display()))?;
                Ok(())
            }
        }
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.inner {
            Sink::Stdout(w) => w.write(buf),
            Sink::File { writer, .. } => writer.write(buf),
        }
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match &mut self.inner {
            Sink::Stdout(w) => w.write_all(buf),
            Sink::File { writer, .. } => writer.write_all(buf),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        match &mut self.inner {
            Sink::Stdout(w) => w.flush(),
            Sink::File { writer, .. } => writer.flush(),
        }
    }
}

/// The largest input read: far beyond any real problem file, but a bound, so that reading
/// `/dev/zero` or a runaway pipe ends in an error instead of exhausting memory.
pub const MAX_INPUT_BYTES: u64 = 4 << 30;

/// Reads a whole input: a file, or stdin for `None` or `-`. Returns the bytes and the name to
/// use in messages.
pub fn read_input(path: Option<&Path>) -> anyhow::Result<(Vec<u8>, String)> {
    match path {
        None => read_limited(io::stdin().lock(), "<stdin>".to_string()),
        Some(p) if p == Path::new("-") => read_limited(io::stdin().lock(), "<stdin>".to_string()),
        Some(p) => {
            let f = File::open(p).with_context(|| format!("cannot read {}", p.display()))?;
            read_limited(f, p.display().to_string())
        }
    }
}

fn read_limited(input: impl io::Read, name: String) -> anyhow::Result<(Vec<u8>, String)> {
    use std::io::Read;
    let mut bytes = Vec::new();
    input
        .take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("cannot read {name}"))?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        anyhow::bail!("{name}: input larger than {} GiB", MAX_INPUT_BYTES >> 30);
    }
    Ok((bytes, name))
}
