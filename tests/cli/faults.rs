//! Tests: faults of the command line as a whole (issue 11, sections 3-5; docs/failures.md).
//! What `-o` does with each kind of target, signals, a closed stdout, and bounded input. Every
//! target is made here in a temporary directory (FIFOs with mkfifo(3), symlinks, chmod-ed
//! files): no test touches /dev.

use std::ffi::CString;
use std::io::{Read, Write};
use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::instances;

const BIN: &str = env!("CARGO_BIN_EXE_xcover");

fn xcover() -> Command {
    Command::new(BIN)
}

/// Runs with `stdin` written by a thread (errors ignored: the binary may stop reading early).
fn run(cmd: &mut Command, stdin: Vec<u8>) -> (i32, String, String) {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawns");
    let mut input = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&stdin);
    });
    let out = child.wait_with_output().expect("runs");
    let _ = writer.join();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The temporary files `-o` left in `dir`.
fn temp_files(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.starts_with(".xcover-") && name.ends_with(".tmp")
        })
        .collect()
}

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

const COUNT5: &str = "10\n";

// ---- Section 3: `-o FILE` does no more than `>` --------------------------------------------

#[test]
fn o_replaces_a_regular_file_keeping_its_mode() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.txt");
    for mode in [0o600, 0o640, 0o664] {
        std::fs::write(&out, "old").unwrap();
        std::fs::set_permissions(&out, PermissionsExt::from_mode(mode)).unwrap();
        let (code, _, err) = run(
            xcover().args(["queens", "count", "5", "-o"]).arg(&out),
            vec![],
        );
        assert_eq!(code, 0, "{err}");
        assert_eq!(std::fs::read_to_string(&out).unwrap(), COUNT5);
        let meta = std::fs::metadata(&out).unwrap();
        assert_eq!(meta.mode() & 0o777, mode, "mode {mode:o} kept");
    }
    // The setuid, setgid and sticky bits are not carried over (docs/failures.md).
    std::fs::set_permissions(&out, PermissionsExt::from_mode(0o4755)).unwrap();
    let (code, _, err) = run(
        xcover().args(["queens", "count", "5", "-o"]).arg(&out),
        vec![],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::metadata(&out).unwrap().mode() & 0o7777, 0o755);
    // A new file gets an ordinary file's mode (0666 less the umask), not 0600.
    let new = dir.path().join("new.txt");
    let (code, _, _) = run(
        xcover().args(["queens", "count", "5", "-o"]).arg(&new),
        vec![],
    );
    assert_eq!(code, 0);
    assert_eq!(std::fs::read_to_string(&new).unwrap(), COUNT5);
    assert!(temp_files(dir.path()).is_empty());
}

#[test]
fn o_refuses_a_read_only_file_even_as_root() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("ro.txt");
    std::fs::write(&out, "old").unwrap();
    std::fs::set_permissions(&out, PermissionsExt::from_mode(0o444)).unwrap();
    let (code, stdout, err) = run(
        xcover().args(["queens", "count", "5", "-o"]).arg(&out),
        vec![],
    );
    assert_eq!(code, 2, "{err}");
    assert!(stdout.is_empty());
    assert!(err.contains("ro.txt") && err.contains("read-only"), "{err}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "old");
    assert_eq!(std::fs::metadata(&out).unwrap().mode() & 0o777, 0o444);
    assert!(temp_files(dir.path()).is_empty());
}

#[test]
fn o_refuses_another_users_file_and_keeps_the_owner_for_root() {
    if !is_root() {
        return; // making another user's file needs root
    }
    let dir = tempfile::tempdir().unwrap();
    // A directory anyone may write (so the old rename would have succeeded).
    std::fs::set_permissions(dir.path(), PermissionsExt::from_mode(0o777)).unwrap();
    let out = dir.path().join("roots.txt");
    std::fs::write(&out, "old").unwrap();
    std::fs::set_permissions(&out, PermissionsExt::from_mode(0o644)).unwrap();
    let nobody = 65534;
    let spawned = xcover()
        .args(["queens", "count", "5", "-o"])
        .arg(&out)
        .uid(nobody)
        .gid(nobody)
        .output();
    let Ok(o) = spawned else {
        return; // the binary is not reachable by that user here
    };
    let err = String::from_utf8_lossy(&o.stderr);
    if o.status.code() == Some(2) && err.contains("roots.txt") {
        assert!(err.contains("ermission denied"), "{err}");
    } else {
        // Not runnable as that user (e.g. the build directory is private): nothing to judge.
        assert_ne!(o.status.code(), Some(0), "{err}");
    }
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "old");
    assert!(temp_files(dir.path()).is_empty());

    // Root replaces another user's file: owner, group and mode stay.
    let theirs = dir.path().join("theirs.txt");
    std::fs::write(&theirs, "old").unwrap();
    std::os::unix::fs::chown(&theirs, Some(nobody), Some(nobody)).unwrap();
    std::fs::set_permissions(&theirs, PermissionsExt::from_mode(0o620)).unwrap();
    let (code, _, err) = run(
        xcover().args(["queens", "count", "5", "-o"]).arg(&theirs),
        vec![],
    );
    assert_eq!(code, 0, "{err}");
    let meta = std::fs::metadata(&theirs).unwrap();
    assert_eq!(std::fs::read_to_string(&theirs).unwrap(), COUNT5);
    assert_eq!(
        (meta.uid(), meta.gid(), meta.mode() & 0o777),
        (nobody, nobody, 0o620)
    );
}

#[test]
fn o_follows_a_symlink_and_keeps_it() {
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join("data");
    std::fs::create_dir(&sub).unwrap();
    let real = sub.join("real.txt");
    std::fs::write(&real, "old").unwrap();
    std::fs::set_permissions(&real, PermissionsExt::from_mode(0o600)).unwrap();
    let link = dir.path().join("link.txt");
    std::os::unix::fs::symlink("data/real.txt", &link).unwrap();
    let (code, _, err) = run(
        xcover().args(["queens", "count", "5", "-o"]).arg(&link),
        vec![],
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(
        std::fs::read_link(&link).unwrap(),
        Path::new("data/real.txt")
    );
    assert_eq!(std::fs::read_to_string(&real).unwrap(), COUNT5);
    assert_eq!(std::fs::metadata(&real).unwrap().mode() & 0o777, 0o600);
    assert!(temp_files(dir.path()).is_empty() && temp_files(&sub).is_empty());

    // A dangling symlink: its target is created, as `>` would.
    let dangling = dir.path().join("dangling.txt");
    std::os::unix::fs::symlink("data/made.txt", &dangling).unwrap();
    let (code, _, err) = run(
        xcover().args(["queens", "count", "5", "-o"]).arg(&dangling),
        vec![],
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        std::fs::symlink_metadata(&dangling)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(
        std::fs::read_to_string(sub.join("made.txt")).unwrap(),
        COUNT5
    );
}

#[test]
fn o_writes_into_a_fifo_without_replacing_it() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe");
    let c = CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let reader_path = fifo.clone();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        std::fs::File::open(reader_path)
            .unwrap()
            .read_to_string(&mut s)
            .unwrap();
        s
    });
    let (code, _, err) = run(
        xcover().args(["queens", "count", "5", "-o"]).arg(&fifo),
        vec![],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(reader.join().unwrap(), COUNT5);
    assert!(
        std::fs::symlink_metadata(&fifo)
            .unwrap()
            .file_type()
            .is_fifo()
    );
    assert!(temp_files(dir.path()).is_empty());
}

#[test]
fn o_refuses_a_directory() {
    let dir = tempfile::tempdir().unwrap();
    let (code, _, err) = run(
        xcover()
            .args(["queens", "count", "5", "-o"])
            .arg(dir.path()),
        vec![],
    );
    assert_eq!(code, 2);
    assert!(err.contains("directory"), "{err}");
    assert!(temp_files(dir.path()).is_empty());
}

// ---- Section 4: no litter, no silent loss --------------------------------------------------

/// Starts `args` writing `-o out.csv` over old content, waits for its temporary file, sends
/// `signals` (a command that stops gracefully takes the first as a request to stop and exits
/// at once on the second): the exit code is 128 + one of them, the temporary file is gone,
/// the old content stays.
fn interrupted(args: &[&str], stdin: Vec<u8>, signals: &[i32]) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.csv");
    std::fs::write(&out, "old content\n").unwrap();
    let mut child = xcover()
        .args(args)
        .arg("-o")
        .arg(&out)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let _ = input.write_all(&stdin);
    drop(input);
    let start = Instant::now();
    while temp_files(dir.path()).is_empty() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "{args:?}: no temporary file"
        );
        assert!(child.try_wait().unwrap().is_none(), "{args:?} ended early");
        std::thread::sleep(Duration::from_millis(10));
    }
    for &signal in signals {
        // SAFETY: kill with our own child's pid.
        assert_eq!(unsafe { libc::kill(child.id() as i32, signal) }, 0);
    }
    // Pending signals come in the kernel's order (by number), not in the order sent.
    let code = child.wait().unwrap().code();
    assert!(
        signals.iter().any(|s| code == Some(128 + s)),
        "{args:?} signals {signals:?}: exit {code:?}"
    );
    assert!(temp_files(dir.path()).is_empty(), "{args:?} left litter");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "old content\n");
}

#[test]
fn signals_remove_the_temporary_file() {
    for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        interrupted(
            &["queens", "list", "14", "--format", "csv"],
            vec![],
            &[signal],
        );
    }
    // solve and queens max stop gracefully on the first signal; SIGHUP is never graceful.
    let dlx = instances::queens(14, true).into_bytes();
    interrupted(&["solve", "-"], dlx.clone(), &[libc::SIGTERM, libc::SIGINT]);
    interrupted(&["solve", "-"], dlx, &[libc::SIGHUP]);
    let boards = xcover()
        .args(["queens", "random", "30", "--seed", "7"])
        .output()
        .unwrap()
        .stdout;
    interrupted(
        &["queens", "max", "--time-limit", "60"],
        boards,
        &[libc::SIGINT, libc::SIGTERM],
    );
}

/// Runs `xcover ARGS` from a shell that first closes a descriptor (`redirect`: `<&-` or
/// `>&-`); returns the exit code, stdout and stderr.
fn with_closed(redirect: &str, args: &str) -> (Option<i32>, Vec<u8>, String) {
    let o = Command::new("sh")
        .arg("-c")
        .arg(format!("exec {redirect}; exec \"$0\" {args}"))
        .arg(BIN)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    (o.status.code(), o.stdout, err)
}

#[test]
fn a_closed_stdin_is_an_error_not_an_empty_input() {
    for args in ["solve", "solve -", "queens max", "merge -"] {
        let (code, out, err) = with_closed("<&-", args);
        assert_eq!(code, Some(2), "{args}: {err}");
        assert!(
            err.contains("cannot read stdin: Bad file descriptor"),
            "{args}: {err}"
        );
        assert!(out.is_empty(), "{args}");
    }
}

#[test]
fn a_closed_stdout_is_an_error() {
    for args in ["queens list 8", "queens count 8", "--help", "--version"] {
        let (code, _, err) = with_closed(">&-", args);
        assert_eq!(code, Some(2), "{args}: {err}");
        assert!(
            err.contains("stdout") && err.contains("Bad file descriptor"),
            "{err}"
        );
    }
    // With -o, a closed stdout does not matter.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("q.txt");
    let o = Command::new("sh")
        .arg("-c")
        .arg("exec >&-; exec \"$0\" queens count 5 -o \"$1\"")
        .arg(BIN)
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), COUNT5);
}

#[test]
fn a_broken_pipe_stays_quiet() {
    let mut child = xcover()
        .args(["queens", "list", "12", "--format", "csv"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 10];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert!(
        o.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

// ---- Section 5: bounded memory, short escaped messages -------------------------------------

/// A bad input fails fast, exit 2, with a short message (no echo of the input).
fn rejected(args: &[&str], stdin: Vec<u8>, wanted: &[&str]) -> String {
    let start = Instant::now();
    let (code, stdout, err) = run(xcover().args(args), stdin);
    assert_eq!(code, 2, "{args:?}: {err}");
    assert!(stdout.is_empty());
    assert!(err.len() < 300, "{args:?}: {} bytes on stderr", err.len());
    for w in wanted {
        assert!(err.contains(w), "{args:?}: {err:?} lacks {w:?}");
    }
    assert!(start.elapsed() < Duration::from_secs(20), "{args:?} slow");
    err
}

#[test]
fn nul_bytes_fail_at_once() {
    let zeros = vec![0u8; 20 << 20];
    for args in [
        &["solve"][..],
        &["queens", "max"],
        &["queens", "max", "--weights", "-"],
        &["queens", "merge", "-"],
    ] {
        rejected(args, zeros.clone(), &["<stdin>", "1", "NUL byte (\\0)"]);
    }
}

#[test]
fn an_endless_line_fails_after_the_limit() {
    let token = vec![b'x'; 20 << 20];
    rejected(&["solve"], token.clone(), &["line too long"]);
    rejected(&["queens", "max"], token.clone(), &["line too long"]);
    rejected(&["queens", "merge", "-"], token, &["line too long"]);
}

#[test]
fn long_and_strange_tokens_are_quoted_short_and_escaped() {
    let long = "y".repeat(1 << 20);
    let err = rejected(
        &["solve"],
        format!("a b\na {long}\n").into_bytes(),
        &["<stdin>:2:3: unknown item 'yyyy", "…'"],
    );
    assert!(!err.contains(&"y".repeat(61)));
    let err = rejected(
        &["queens", "max"],
        format!("1\n1 2\n3 {long}\n").into_bytes(),
        &["<stdin>:3:3: board 1: `yyy", "…` is not an integer"],
    );
    assert!(!err.contains(&"y".repeat(61)));
    rejected(
        &["queens", "max", "--weights", "-"],
        format!("1,2\n3,{long}\n").into_bytes(),
        &["<stdin>:2:3: `yyy", "…` is not an integer"],
    );
    // Control characters and an inner byte-order mark are escaped, never sent raw.
    let err = rejected(
        &["solve"],
        b"a b\na b\x01\xEF\xBB\xBF\x1b[31m\n".to_vec(),
        &["unknown item 'b\\u{1}\\u{feff}\\u{1b}[31m'"],
    );
    assert!(!err.contains('\u{1b}') && !err.contains('\u{feff}'));
    rejected(
        &["queens", "max"],
        b"1\n1 2\n3 4\x07\n".to_vec(),
        &["`4\\u{7}` is not an integer"],
    );
    // Invalid UTF-8 is named by position, not echoed.
    rejected(
        &["solve"],
        b"a b\na \xff\xfe\n".to_vec(),
        &["<stdin>:2:3: invalid UTF-8"],
    );
}

#[test]
fn a_byte_order_mark_is_skipped_in_every_format() {
    let bom = "\u{feff}";
    let (code, out, err) = run(
        xcover().args(["solve", "--count"]),
        format!("{bom}a b\na\nb\n").into_bytes(),
    );
    assert_eq!((code, out.trim()), (0, "1"), "{err}");
    let (code, out, err) = run(
        xcover().args(["queens", "max"]),
        format!("{bom}1\n1 2 3 4\n5 6 7 8\n9 1 2 3\n4 5 6 7\n").into_bytes(),
    );
    assert_eq!(code, 0, "{err}");
    assert!(!out.is_empty());
    let (code, _, err) = run(
        xcover().args(["queens", "max", "--weights", "-"]),
        format!("{bom}1,2,3,4\n5,6,7,8\n9,1,2,3\n4,5,6,7\n").into_bytes(),
    );
    assert_eq!(code, 0, "{err}");
    for format in ["csv", "json"] {
        let record = xcover()
            .args(["queens", "count", "6", "--shard", "1/1", "--format", format])
            .output()
            .unwrap()
            .stdout;
        let mut input = bom.as_bytes().to_vec();
        input.extend(record);
        let (code, out, err) = run(xcover().args(["queens", "merge", "-"]), input);
        assert_eq!((code, out.trim()), (0, "4"), "{format}: {err}");
    }
}
