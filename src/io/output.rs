//! Where data goes: stdout, or `-o FILE`, which never does more than the shell's `>` would.
//!
//! - A regular file (or a new path) is replaced atomically: a temporary file `.xcover-*.tmp`
//!   in the same directory, renamed over the target only when everything was written, so an
//!   interrupted or failed run leaves the old content. The new file keeps the old one's
//!   permission bits, and its owner and group where the process may set them.
//! - A symlink is followed: its target is replaced, the link stays.
//! - A character device, a FIFO, a socket, or a path under `/dev` or `/proc` (`/dev/stdout`,
//!   `/proc/self/fd/1`) is opened and written as `>` would: nothing is renamed over it.
//! - An existing file that could not be opened for writing is refused, and so is a file with
//!   no write permission bit at all (0444), even for root, whose `>` would overwrite it.
//! - On SIGINT, SIGTERM and SIGHUP the temporary files are removed and the process exits with
//!   128 + the signal's number — except in a command that stops gracefully
//!   ([`stop_gracefully_on_interrupt`]): there the first SIGINT or SIGTERM asks the searches to
//!   stop (through the command's [`crate::engine::Stop`]) and the command writes what it found,
//!   complete files included, then exits 128 + the signal; a second signal exits at once as above.
//!
//! docs/failures.md tells the whole story.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::{Mutex, MutexGuard, Once};

use anyhow::Context;

/// An output sink: call [`Output::finish`] at the end; dropping it without `finish` discards a
/// replaced file's new content (the temporary file is removed and the target is left
/// untouched).
pub struct Output {
    inner: Sink,
    /// What write errors name: `stdout` or the target's path.
    label: String,
}

enum Sink {
    Stdout(Box<dyn Write>),
    /// A regular file (or a new path), replaced at `finish`.
    Replace {
        // Declared before `_registered`: the temporary file goes before its registration.
        writer: BufWriter<tempfile::NamedTempFile>,
        target: PathBuf,
        _registered: Registered,
    },
    /// A device, FIFO or `/dev/stdout`-like target, written in place as `>` would.
    Direct(BufWriter<File>),
}

static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);

/// Tells the library that the process started with its stdout closed (`>&-`): writing data to
/// stdout then fails instead of going nowhere. The binary finds it out before Rust's runtime
/// points a closed descriptor 1 at `/dev/null`.
pub fn set_stdout_closed() {
    STDOUT_CLOSED.store(true, Ordering::Relaxed);
}

impl Output {
    /// Stdout when `path` is `None` or `-`, else the file, as the module documentation says.
    pub fn create(path: Option<&Path>) -> anyhow::Result<Output> {
        match path {
            None => Ok(Output::stdout()),
            Some(p) if p == Path::new("-") => Ok(Output::stdout()),
            Some(p) => create_file(p),
        }
    }

    /// Stdout, line-buffered on a terminal and block-buffered in a pipe.
    pub fn stdout() -> Output {
        let out = io::stdout();
        let w: Box<dyn Write> = if STDOUT_CLOSED.load(Ordering::Relaxed) {
            Box::new(Closed)
        } else if out.is_terminal() {
            Box::new(io::LineWriter::new(out))
        } else {
            Box::new(BufWriter::with_capacity(1 << 16, out))
        };
        Output {
            inner: Sink::Stdout(w),
            label: "stdout".to_string(),
        }
    }

    /// Flushes, and for a replaced file renames the temporary file over the target.
    pub fn finish(self) -> anyhow::Result<()> {
        let label = self.label;
        let context = || format!("cannot write {label}");
        match self.inner {
            Sink::Stdout(mut w) => w.flush().with_context(context),
            // Flushed only, as `>` leaves it (a device or FIFO has nothing to sync).
            Sink::Direct(w) => w
                .into_inner()
                .map(drop)
                .map_err(|e| e.into_error())
                .with_context(context),
            Sink::Replace {
                writer,
                target,
                _registered,
            } => {
                let tmp = writer
                    .into_inner()
                    .map_err(|e| e.into_error())
                    .with_context(context)?;
                tmp.as_file().sync_all().with_context(context)?;
                // Under the lock: a signal either removes the temporary file before the
                // rename, or finds it renamed.
                let _guard = temp_files();
                tmp.persist(&target).with_context(context)?;
                Ok(())
            }
        }
    }
}

/// Stdout that was closed when the process started.
struct Closed;

impl Write for Closed {
    fn write(&mut self, _: &[u8]) -> io::Result<usize> {
        Err(io::Error::from_raw_os_error(libc::EBADF))
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Output {
    /// A write error that names the output; its kind is kept (a broken pipe stays one).
    fn label(&self, e: io::Error) -> io::Error {
        io::Error::new(e.kind(), format!("cannot write {}: {e}", self.label))
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let r = match &mut self.inner {
            Sink::Stdout(w) => w.write(buf),
            Sink::Replace { writer, .. } => writer.write(buf),
            Sink::Direct(w) => w.write(buf),
        };
        r.map_err(|e| self.label(e))
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        let r = match &mut self.inner {
            Sink::Stdout(w) => w.write_all(buf),
            Sink::Replace { writer, .. } => writer.write_all(buf),
            Sink::Direct(w) => w.write_all(buf),
        };
        r.map_err(|e| self.label(e))
    }
    fn flush(&mut self) -> io::Result<()> {
        let r = match &mut self.inner {
            Sink::Stdout(w) => w.flush(),
            Sink::Replace { writer, .. } => writer.flush(),
            Sink::Direct(w) => w.flush(),
        };
        r.map_err(|e| self.label(e))
    }
}

/// Opens `-o FILE`.
fn create_file(p: &Path) -> anyhow::Result<Output> {
    let shown = p.display().to_string();
    let cannot = || format!("cannot write {shown}");
    let sink = match fs::metadata(p) {
        Ok(meta) if meta.is_dir() => anyhow::bail!("cannot write {shown}: it is a directory"),
        Ok(meta) if meta.is_file() && !is_system_path(p) => replace_existing(p, &meta)?,
        // A device, FIFO, socket or /dev/stdout-like path: as `>` would.
        Ok(_) => Sink::Direct(direct(p).with_context(cannot)?),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            // A new file, or the missing target of a symlink (created, as `>` would).
            let target = follow_links(p).with_context(cannot)?;
            replace(&target, None)
                .with_context(|| format!("cannot create a file in {}", dir_of(&target).display()))?
        }
        Err(e) => return Err(e).with_context(cannot),
    };
    Ok(Output {
        inner: sink,
        label: shown,
    })
}

/// Paths whose files are not ours to rename: `/dev/stdout` may name a regular file (stdout
/// redirected to one), and `>` writes into it.
fn is_system_path(p: &Path) -> bool {
    let system = |q: &Path| q.starts_with("/dev") || q.starts_with("/proc");
    system(p)
        || std::path::absolute(p).is_ok_and(|a| system(&a))
        || fs::canonicalize(p).map_or(true, |c| system(&c))
}

fn direct(p: &Path) -> io::Result<BufWriter<File>> {
    let f = OpenOptions::new().write(true).truncate(true).open(p)?;
    Ok(BufWriter::with_capacity(1 << 16, f))
}

/// A regular file (perhaps behind symlinks) that exists: checked, then replaced with its
/// permission bits and owner.
fn replace_existing(p: &Path, meta: &fs::Metadata) -> anyhow::Result<Sink> {
    use std::os::unix::fs::PermissionsExt;
    let shown = p.display();
    let target = fs::canonicalize(p).with_context(|| format!("cannot write {shown}"))?;
    let mode = meta.permissions().mode() & 0o777;
    if mode & 0o222 == 0 {
        anyhow::bail!(
            "cannot write {shown}: the file is read-only (mode {mode:04o}); \
             make it writable or remove it first"
        );
    }
    // The shell's `>` would open it for writing: refuse what it would refuse (another user's
    // file, a read-only file system). Opened without truncating: nothing is changed yet.
    OpenOptions::new()
        .write(true)
        .open(&target)
        .with_context(|| format!("cannot write {shown}"))?;
    match replace(&target, Some(meta)) {
        Ok(sink) => Ok(sink),
        // The file may be written but its directory not: write in place, as `>` would.
        Err(e) if e.kind() == io::ErrorKind::PermissionDenied => Ok(Sink::Direct(
            direct(&target).with_context(|| format!("cannot write {shown}"))?,
        )),
        Err(e) => {
            Err(e).with_context(|| format!("cannot create a file in {}", dir_of(&target).display()))
        }
    }
}

/// The directory of a file, for its temporary file.
fn dir_of(target: &Path) -> PathBuf {
    match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// A temporary file beside `target`, registered for removal on a signal; with the old file's
/// metadata, it gets its permission bits, owner and group.
fn replace(target: &Path, old: Option<&fs::Metadata>) -> io::Result<Sink> {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    install_signal_handler();
    let dir = dir_of(target);
    let mut builder = tempfile::Builder::new();
    builder.prefix(".xcover-").suffix(".tmp");
    // An ordinary new file's mode (0666 less the umask), not a temporary file's 0600.
    builder.permissions(fs::Permissions::from_mode(0o666));
    // Created and registered under the lock: a signal cannot come between.
    let mut files = temp_files();
    let tmp = builder.tempfile_in(&dir)?;
    if let Some(old) = old {
        let f = tmp.as_file();
        // The owner and group when permitted (root, or a group of ours); chown first, as it
        // may clear mode bits.
        if old.uid() != f.metadata()?.uid() || old.gid() != f.metadata()?.gid() {
            let _ = std::os::unix::fs::fchown(f, Some(old.uid()), Some(old.gid()))
                .or_else(|_| std::os::unix::fs::fchown(f, None, Some(old.gid())));
        }
        f.set_permissions(fs::Permissions::from_mode(old.mode() & 0o777))?;
    }
    files.push(tmp.path().to_path_buf());
    let registered = Registered(tmp.path().to_path_buf());
    drop(files);
    Ok(Sink::Replace {
        writer: BufWriter::with_capacity(1 << 16, tmp),
        target: target.to_path_buf(),
        _registered: registered,
    })
}

/// Where a path that does not exist leads: itself, or the missing target of its symlinks.
fn follow_links(p: &Path) -> io::Result<PathBuf> {
    let mut at = p.to_path_buf();
    for _ in 0..40 {
        match fs::symlink_metadata(&at) {
            Ok(m) if m.file_type().is_symlink() => {
                let next = fs::read_link(&at)?;
                at = match at.parent() {
                    Some(dir) if next.is_relative() => dir.join(next),
                    _ => next,
                };
            }
            Ok(_) => return Ok(at),
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(at),
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::from_raw_os_error(libc::ELOOP))
}

/// The temporary files alive now, removed by the signal handler.
static TEMP_FILES: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn temp_files() -> MutexGuard<'static, Vec<PathBuf>> {
    TEMP_FILES.lock().unwrap_or_else(|e| e.into_inner())
}

/// A temporary file's place in [`TEMP_FILES`], given up when the file is renamed or removed.
struct Registered(PathBuf);

impl Drop for Registered {
    fn drop(&mut self) {
        let mut files = temp_files();
        if let Some(k) = files.iter().position(|f| *f == self.0) {
            files.swap_remove(k);
        }
    }
}

/// The signal that asked for a graceful stop (0: none yet).
static INTERRUPTED_BY: AtomicI32 = AtomicI32::new(0);

/// The handle the first SIGINT or SIGTERM requests a stop through, set by a command that stops
/// gracefully ([`stop_gracefully_on_interrupt`]). The signal thread is the process's one, so it
/// finds the command's handle here; the engine itself has no process-wide state.
static GRACEFUL_STOP: Mutex<Option<crate::engine::Stop>> = Mutex::new(None);

/// Makes the first SIGINT or SIGTERM a request to stop through `stop` ([`Stop::request`]) for
/// a command that then writes what it has and exits with [`interrupt_exit_code`].
///
/// [`Stop::request`]: crate::engine::Stop::request
pub fn stop_gracefully_on_interrupt(stop: &crate::engine::Stop) {
    *GRACEFUL_STOP.lock().unwrap_or_else(|e| e.into_inner()) = Some(stop.clone());
    install_signal_handler();
}

/// The exit code after a graceful stop, 128 + the signal (130 for SIGINT, 143 for SIGTERM);
/// `None` when no signal came.
pub fn interrupt_exit_code() -> Option<std::process::ExitCode> {
    let signal = INTERRUPTED_BY.load(Ordering::Relaxed);
    (signal != 0).then(|| std::process::ExitCode::from((128 + signal) as u8))
}

/// On SIGINT, SIGTERM or SIGHUP: remove the temporary files, exit with 128 + the signal (the
/// first SIGINT or SIGTERM of a graceful command only asks for a stop). A thread of
/// signal-hook's does it (a signal handler itself could not take the lock).
fn install_signal_handler() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
            return;
        };
        std::thread::spawn(move || {
            for signal in signals.forever() {
                let graceful = GRACEFUL_STOP
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .clone();
                if signal != SIGHUP
                    && let Some(stop) = graceful
                    && INTERRUPTED_BY
                        .compare_exchange(0, signal, Ordering::Relaxed, Ordering::Relaxed)
                        .is_ok()
                {
                    stop.request();
                    eprintln!(
                        "xcover: interrupted: stopping the search and writing what it found \
                         (interrupt again to quit at once)"
                    );
                    continue;
                }
                let files = temp_files();
                for f in files.iter() {
                    let _ = fs::remove_file(f);
                }
                std::process::exit(128 + signal);
            }
        });
    });
}

/// Reads a whole input (a file, or stdin for `None` or `-`) through the bounded line reader,
/// with `\n` line ends: returns the bytes and the name to use in messages. Prefer
/// [`crate::io::input::open`], which keeps only one line at a time.
pub fn read_input(path: Option<&Path>) -> anyhow::Result<(Vec<u8>, String)> {
    let mut input = crate::io::input::open(path)?;
    let name = input.name().to_string();
    let mut bytes = Vec::new();
    while let Some((_, line)) = input.next_line()? {
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
    }
    Ok((bytes, name))
}
