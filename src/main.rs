//! The `xcover` binary: parse the command line, run the subcommand, map errors to exit codes:
//! 0 success (a broken pipe too), 2 an error (one line on stderr, `error: ...` in clap's
//! style), 128 + n stopped by signal n (after writing what was found, for the commands that
//! stop gracefully; see docs/failures.md).

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches};

/// Whether stdin or stdout was closed (`<&-`, `>&-`) when the process started. Rust's
/// runtime then points the descriptor at `/dev/null` before `main`, where reads would find an
/// empty input and writes would vanish; this check runs earlier, from `.init_array`, as the C
/// library starts the program.
#[cfg(any(target_os = "linux", target_os = "android"))]
mod closed_stdio {
    use std::sync::atomic::{AtomicBool, Ordering};

    static STDIN: AtomicBool = AtomicBool::new(false);
    static STDOUT: AtomicBool = AtomicBool::new(false);

    extern "C" fn check() {
        // SAFETY: F_GETFD only asks whether a descriptor is open.
        if unsafe { libc::fcntl(0, libc::F_GETFD) } == -1 {
            STDIN.store(true, Ordering::Relaxed);
        }
        // SAFETY: as above.
        if unsafe { libc::fcntl(1, libc::F_GETFD) } == -1 {
            STDOUT.store(true, Ordering::Relaxed);
        }
    }

    #[used]
    #[unsafe(link_section = ".init_array")]
    static CHECK: extern "C" fn() = check;

    pub fn stdin_was_closed() -> bool {
        STDIN.load(Ordering::Relaxed)
    }

    pub fn stdout_was_closed() -> bool {
        STDOUT.load(Ordering::Relaxed)
    }
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
mod closed_stdio {
    pub fn stdin_was_closed() -> bool {
        false
    }

    pub fn stdout_was_closed() -> bool {
        false
    }
}

fn main() -> ExitCode {
    if closed_stdio::stdout_was_closed() {
        dancelinks::io::output::set_stdout_closed();
    }
    if closed_stdio::stdin_was_closed() {
        dancelinks::io::input::set_stdin_closed();
    }
    // The parser's tree of every subcommand's arguments is left to the process's end: freeing
    // it is a sixth of the instructions of `xcover --version` (175,000 of 870,000), paid by
    // every run however short.
    let mut command = dancelinks::cmd::Cli::command();
    // As `Parser::try_parse` does it.
    let parsed = match command.try_get_matches_from_mut(std::env::args_os()) {
        Ok(mut matches) => dancelinks::cmd::Cli::from_arg_matches_mut(&mut matches)
            .map_err(|e| e.format(&mut command)),
        Err(e) => Err(e),
    };
    std::mem::forget(command);
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) if e.use_stderr() => {
            // A usage error.
            let _ = e.print();
            return ExitCode::from(2);
        }
        Err(e) => {
            // Help and version go to stdout with exit 0, if they could be written.
            return match print_help(&e) {
                Ok(()) => ExitCode::SUCCESS,
                Err(err) => fail(err),
            };
        }
    };
    match dancelinks::cmd::run(cli) {
        Ok(code) => code,
        Err(e) => fail(e),
    }
}

/// Help or version text: clap's colours on a terminal; elsewhere plain text, with the write
/// checked (`--help > /dev/full` is an error).
fn print_help(e: &clap::Error) -> anyhow::Result<()> {
    if std::io::stdout().is_terminal() && !closed_stdio::stdout_was_closed() {
        e.print()?;
        return Ok(());
    }
    let mut out = dancelinks::io::output::Output::stdout();
    out.write_all(e.render().to_string().as_bytes())?;
    out.finish()
}

/// Exit 2 with one line on stderr, `error: ...` as clap prints its usage errors (the word in
/// bold red on a terminal, unless `NO_COLOR` is set); a broken pipe is no error.
fn fail(e: anyhow::Error) -> ExitCode {
    if is_broken_pipe(&e) {
        return ExitCode::SUCCESS;
    }
    dancelinks::cmd::diag::error(&format!("{e:#}"));
    ExitCode::from(2)
}

/// A closed pipe (`xcover ... | head`) is not an error.
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    }) || e.chain().any(|c| {
        c.downcast_ref::<csv::Error>().is_some_and(|ce| {
            matches!(ce.kind(), csv::ErrorKind::Io(io) if io.kind() == std::io::ErrorKind::BrokenPipe)
        })
    })
}
