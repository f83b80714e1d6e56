//! The subcommands of the `xcover` binary, one module each (xsv style): each has an `Args`
//! struct (clap derive) and a `run` function that parses nothing itself, turns the flags into
//! the library's requests once, calls the library and hands the results to io's exporters
//! ([`crate::io`]). `solve` is four files: its flags and their decisions (`solve_args`), the
//! search and its results (`solve`), Knuth's estimate and the progress line
//! (`solve_estimate`), the ZDD and what is drawn from it (`solve_zdd`).

use std::process::ExitCode;
use std::time::Duration;

use crate::engine::Stop;

use clap::{Parser, Subcommand};

pub mod completions;
pub mod family_out;
pub mod merge;
pub mod model;
pub mod queens_count;
pub mod queens_heatmap;
pub mod queens_list;
pub mod queens_max;
pub mod queens_random;
pub mod solve;
pub mod solve_args;
pub mod solve_estimate;
pub mod solve_zdd;

/// Exact cover by dancing links, and the N-queens problems on it.
#[derive(Parser, Debug)]
#[command(
    name = "xcover",
    version,
    about,
    propagate_version = true,
    after_help = TOP_EXAMPLES
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Solve an exact-cover problem in Knuth's DLX format.
    #[command(after_help = SOLVE_EXAMPLES)]
    Solve(solve::Args),
    /// Merge shard records (of `queens count --shard`, `solve --shard`, `queens max --shard`)
    /// into the total, after checking that they cover the split exactly once, intact.
    #[command(after_help = MERGE_EXAMPLES)]
    Merge(merge::Args),
    /// N-queens: count, list, weighted maximum, random boards, shard merging.
    #[command(subcommand, after_help = QUEENS_EXAMPLES)]
    Queens(QueensCommand),
    /// Write a classic exact-cover model in Knuth's DLX format, for `xcover solve`.
    #[command(subcommand, after_help = MODEL_EXAMPLES)]
    Model(model::ModelCommand),
    /// Print a shell's completion script for xcover on stdout.
    #[command(after_help = COMPLETIONS_EXAMPLES)]
    Completions(completions::Args),
    /// Print xcover's whole manual as one man page (roff) on stdout, or one page per command
    /// into a directory.
    #[command(after_help = MAN_EXAMPLES)]
    Man(completions::ManArgs),
}

#[derive(Subcommand, Debug)]
pub enum QueensCommand {
    /// Count the solutions of the n-queens problem.
    #[command(after_help = COUNT_EXAMPLES)]
    Count(queens_count::Args),
    /// List the solutions of the n-queens problem.
    List(queens_list::Args),
    /// Where the queens stand: for each square, the number of solutions with a queen on it.
    Heatmap(queens_heatmap::Args),
    /// Weighted n-queens: the maximum sum under n non-attacking queens, for each board.
    ///
    /// The layout shown does not depend on the threads (`-t`): of several optimal layouts, the
    /// lexicographically smallest (files rank by rank) is shown. Only the `nodes` statistic
    /// may vary with the threads.
    #[command(after_help = MAX_EXAMPLES)]
    Max(queens_max::Args),
    /// Generate random weight boards in the classic format.
    #[command(after_help = RANDOM_EXAMPLES)]
    Random(queens_random::Args),
    /// Merge the records of `--shard` runs (`queens count`, `queens max`, `solve`) into the
    /// total: the same command as `xcover merge`.
    #[command(after_help = MERGE_EXAMPLES)]
    Merge(merge::Args),
}

// The examples at the end of each subcommand's `--help` (as ripgrep's and fd's).
const TOP_EXAMPLES: &str = "\
Examples:
  xcover queens count 8                     # 92
  xcover queens list 8 --limit 3 --format csv
  xcover queens random 8 --boards 3 --seed 1 | xcover queens max --board
  xcover model pentominoes | xcover solve --count     # 9356
  xcover solve problem.dlx --limit 10
  xcover man | man -l -                     # the whole manual";
const SOLVE_EXAMPLES: &str = "\
Examples:
  xcover solve problem.dlx                  # every solution, as DLX1 prints them
  xcover solve problem.dlx --count --stats  # the count, then Knuth's \"Altogether ...\" line
  xcover solve costs.dlx --minimize --top 3 --format csv -o best.csv";
const MERGE_EXAMPLES: &str = "\
Examples:
  xcover merge shard-*.json                 # the total of all shards, checked
  xcover merge --format json -o total.json shard-*.txt";
const QUEENS_EXAMPLES: &str = "\
Examples:
  xcover queens count 12 --unique
  xcover queens random 8 --boards 3 --seed 1 | xcover queens max --board";
const MODEL_EXAMPLES: &str = "\
Examples:
  xcover model langford 7 | xcover solve --count        # 52
  xcover model pentominoes 3x20 -o p.dlx && xcover solve --count p.dlx
  xcover model sudoku --file puzzles.txt --solve        # one solution per line";
const COMPLETIONS_EXAMPLES: &str = "\
Examples:
  xcover completions bash > ~/.local/share/bash-completion/completions/xcover
  xcover completions zsh > ~/.zfunc/_xcover       # with fpath+=~/.zfunc in ~/.zshrc
  xcover completions fish > ~/.config/fish/completions/xcover.fish";
const MAN_EXAMPLES: &str = "\
Examples:
  xcover man | man -l -
  xcover man -o ~/.local/share/man/man1/xcover.1
  xcover man --dir ~/.local/share/man/man1       # xcover.1, xcover-solve.1, ...";
const COUNT_EXAMPLES: &str = "\
Examples:
  xcover queens count 12 --unique            # 1787 classes under the square's symmetries
  xcover queens count 16 --engine bits -t 2
  xcover queens count 20 --shard 3/10 --format json -o shard-3.json";
const MAX_EXAMPLES: &str = "\
Examples:
  xcover queens random 8 --boards 3 --seed 1 | xcover queens max --board
  xcover queens max boards.txt --all-optimal --format csv -o max.csv
  xcover queens max --weights board.csv --time-limit 60 --stats";
const RANDOM_EXAMPLES: &str = "\
Examples:
  xcover queens random 8 --boards 3 --seed 1
  xcover queens random 40 --min -50 --max 50 -o boards.txt";

/// Runs the parsed command line.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Solve(a) => solve::run(a),
        Command::Merge(a) => merge::run(a),
        Command::Queens(q) => match q {
            QueensCommand::Count(a) => queens_count::run(a),
            QueensCommand::List(a) => queens_list::run(a),
            QueensCommand::Heatmap(a) => queens_heatmap::run(a),
            QueensCommand::Max(a) => queens_max::run(a),
            QueensCommand::Random(a) => queens_random::run(a),
            QueensCommand::Merge(a) => merge::run(a),
        },
        Command::Model(m) => model::run(m),
        Command::Completions(a) => completions::run(a),
        Command::Man(a) => completions::run_man(a),
    }
}

/// An error in the user's input (file contents or arguments): exit code 2 with the message.
/// Other errors (I/O) also exit 2; a broken pipe exits 0 quietly.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct InputError(pub String);

/// A size in bytes: a whole number with an optional suffix K, M, G or T (powers of 1024,
/// an optional `B` or `iB` after it: `64M`, `2GiB`).
pub fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let t = t
        .strip_suffix("iB")
        .or_else(|| t.strip_suffix('B'))
        .unwrap_or(t);
    let (digits, shift) = match t.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() => {
            let shift = match c.to_ascii_uppercase() {
                'K' => 10,
                'M' => 20,
                'G' => 30,
                'T' => 40,
                _ => return Err(format!("'{s}': the size suffix must be K, M, G or T")),
            };
            (&t[..i], shift)
        }
        _ => (t, 0),
    };
    let n: u64 = digits.parse().map_err(|_| {
        format!("'{s}' is not a size (a whole number of bytes, or with K, M, G, T)")
    })?;
    n.checked_mul(1 << shift)
        .ok_or_else(|| format!("'{s}' is too large a size"))
}

/// A clap value parser for a duration given as a nonnegative decimal number of seconds.
/// A value beyond what a `Duration` holds (`1e20`, `inf`, `18446744073709551616`) saturates
/// to `Duration::MAX`: the callers add it to the clock with `checked_add`, so it means no limit.
pub fn parse_seconds(s: &str) -> Result<Duration, String> {
    let secs: f64 = s
        .parse()
        .map_err(|_| format!("'{s}' is not a number of seconds"))?;
    if secs.is_nan() || secs < 0.0 {
        return Err(format!("'{s}' is not a nonnegative number of seconds"));
    }
    Ok(Duration::try_from_secs_f64(secs).unwrap_or(Duration::MAX))
}

/// Opens a command's input FILE (stdin for none or `-`, with [`diag::stdin_hint`] on a terminal)
/// as the bounded line reader; `what` names the input in the hint.
pub fn open_input(
    path: Option<&std::path::Path>,
    what: &str,
) -> anyhow::Result<crate::io::input::LineReader> {
    diag::stdin_hint(path, what);
    crate::io::input::open(path)
}

/// The board size argument of the n-queens commands that take one.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct BoardSize {
    /// Board size (1 to 32).
    #[arg(
        value_parser = clap::value_parser!(u32).range(1..=crate::queens::count::MAX_N as i64),
        allow_negative_numbers = true
    )]
    pub n: u32,
}

/// The most worker threads `-t/--threads` takes.
pub const MAX_THREADS: u32 = crate::engine::run::MAX_THREADS as u32;

/// `-t/--threads T` (or `-j T`, as make and cargo users type it), the same on every subcommand
/// that computes (`solve`, `queens count`, `queens list`, `queens max`): 0 means all cores, 1 to
/// [`MAX_THREADS`] that many threads. The default is all cores.
#[derive(clap::Args, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Threads {
    /// Worker threads: 0 for all cores, or 1 to 1024 [default: all cores]
    #[arg(
        long = "threads",
        short = 't',
        visible_short_alias = 'j',
        value_name = "T",
        value_parser = clap::value_parser!(u32).range(0..=MAX_THREADS as i64)
    )]
    pub threads: Option<u32>,
}

impl Threads {
    /// The number of threads to run: `--threads`, all cores for 0 or when not given.
    pub fn get(self) -> usize {
        self.get_or(0)
    }

    /// The number of threads to run: `--threads`, or `default` when not given; 0 (given or
    /// as the default) means all cores.
    pub fn get_or(self, default: usize) -> usize {
        match self.threads.map_or(default, |t| t as usize) {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            t => t,
        }
    }
}

/// A progress line on stderr with indicatif's `template`, redrawn at least every 200 ms (so
/// the elapsed time moves during a long search), when stderr is a terminal and the output
/// does not go to the same terminal as it is written (`streams`: the command writes records
/// while it works, to `output`); else `None`, and nothing is printed. Finish it with
/// `finish_and_clear`.
pub fn progress(
    template: &str,
    length: Option<u64>,
    streams: bool,
    output: Option<&std::path::Path>,
) -> Option<indicatif::ProgressBar> {
    use std::io::IsTerminal;
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let to_terminal = output.is_none_or(|p| p == std::path::Path::new("-"));
    if streams && to_terminal && std::io::stdout().is_terminal() {
        return None;
    }
    let style = indicatif::ProgressStyle::with_template(template).ok()?;
    let pb = match length {
        Some(n) => indicatif::ProgressBar::new(n),
        None => indicatif::ProgressBar::new_spinner(),
    };
    pb.set_style(style);
    pb.enable_steady_tick(Duration::from_millis(200));
    Some(pb)
}

/// Shows the progress board of the searches stopped through `search` ([`Stop::progress`]) as
/// the message of `pb`, four times a second, until the returned guard is dropped. `line`
/// formats a reading and the time since the watch began.
pub fn watch_progress(
    pb: &indicatif::ProgressBar,
    search: &Stop,
    line: impl Fn(&crate::engine::ProgressSnapshot, Duration) -> String + Send + 'static,
) -> ProgressWatch {
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let (pb, flag, search) = (pb.clone(), stop.clone(), search.clone());
    let started = std::time::Instant::now();
    let thread = std::thread::spawn(move || {
        while !flag.load(std::sync::atomic::Ordering::Relaxed) {
            pb.set_message(line(&search.progress().snapshot(), started.elapsed()));
            std::thread::park_timeout(Duration::from_millis(250));
        }
    });
    ProgressWatch {
        stop,
        thread: Some(thread),
    }
}

/// The guard of [`watch_progress`]: dropping it ends the watch.
pub struct ProgressWatch {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Drop for ProgressWatch {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            t.thread().unpark();
            let _ = t.join();
        }
    }
}

/// `1.2M`-style counts for progress lines.
pub fn short_count(x: u64) -> String {
    match x {
        0..=9_999 => x.to_string(),
        10_000..=9_999_999 => format!("{:.1}k", x as f64 / 1e3),
        10_000_000..=9_999_999_999 => format!("{:.1}M", x as f64 / 1e6),
        _ => format!("{:.1}G", x as f64 / 1e9),
    }
}

/// A count's progress: with Knuth's estimate of its tree (`tree`, nodes) and the nodes its
/// search has posted, `1.2M of ~3.4M nodes (estimate), about T left` — the time left from
/// the share of the estimated tree searched so far, refined as the count goes — else the
/// sub-problems of [`parts_line`]. A count past its estimate says so (the tree was larger
/// than the probes saw) and estimates nothing.
pub fn count_line(
    p: &crate::engine::ProgressSnapshot,
    elapsed: Duration,
    tree: Option<f64>,
) -> String {
    let parts = parts_line(p, Duration::ZERO);
    let with_parts = |s: String| {
        if parts.is_empty() {
            s
        } else {
            format!("{s}, {parts}")
        }
    };
    match tree {
        Some(t) if p.nodes > 0 && (p.nodes as f64) < t => {
            let done = p.nodes as f64 / t;
            let left = elapsed.as_secs_f64() * (1.0 - done) / done;
            with_parts(format!(
                "{} of ~{} nodes (estimate), about {} left",
                short_count(p.nodes),
                short_count(t as u64),
                queens_count::human(left)
            ))
        }
        Some(t) if p.nodes > 0 => with_parts(format!(
            "{} nodes, past the estimate of ~{}",
            short_count(p.nodes),
            short_count(t as u64)
        )),
        _ => parts_line(p, elapsed),
    }
}

/// `done/total sub-problems, about T left` for a split search's progress line (empty before
/// the split is made; without the time left for a zero `elapsed`).
pub fn parts_line(p: &crate::engine::ProgressSnapshot, elapsed: Duration) -> String {
    if p.parts_total == 0 {
        return String::new();
    }
    let mut s = format!("{}/{} sub-problems", p.parts_done, p.parts_total);
    if p.parts_done > 0 && p.parts_done < p.parts_total && !elapsed.is_zero() {
        let left =
            elapsed.as_secs_f64() * (p.parts_total - p.parts_done) as f64 / p.parts_done as f64;
        s += &format!(", about {} left", queens_count::human(left));
    }
    s
}

/// Diagnostics on stderr, in one style (clap's): `error: ...` and `warning: ...` with the
/// word in bold colour when stderr is a terminal and `NO_COLOR` is unset; notices (how a
/// search ended, a partial count, an estimate) are plain lines without a prefix, as Knuth's
/// programs print theirs.
pub mod diag {
    use std::io::IsTerminal;

    use clap::builder::styling::{AnsiColor, Style};

    /// Whether stderr gets colours: a terminal, and `NO_COLOR` unset or empty.
    pub fn colour() -> bool {
        std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
    }

    fn prefixed(word: &str, colour: AnsiColor, message: &str) {
        if self::colour() {
            let s = Style::new().bold().fg_color(Some(colour.into()));
            eprintln!("{s}{word}:{s:#} {message}");
        } else {
            eprintln!("{word}: {message}");
        }
    }

    /// `error: MESSAGE` (what the binary prints before exit 2).
    pub fn error(message: &str) {
        prefixed("error", AnsiColor::Red, message);
    }

    /// `warning: MESSAGE`: the input was read, but something in it is ignored.
    pub fn warning(message: &str) {
        prefixed("warning", AnsiColor::Yellow, message);
    }

    /// A notice: one plain line.
    pub fn notice(message: &str) {
        eprintln!("{message}");
    }

    /// Before reading stdin (no FILE, or `-`) from a terminal, says so: otherwise the command
    /// seems to hang. `what` names the input, e.g. "a DLX problem". [`super::open_input`] calls
    /// it; `merge`, which reads stdin its own way, calls it directly.
    pub fn stdin_hint(path: Option<&std::path::Path>, what: &str) {
        let from_stdin = path.is_none_or(|p| p == std::path::Path::new("-"));
        if from_stdin && std::io::stdin().is_terminal() {
            notice(&format!(
                "reading {what} from stdin (end it with Ctrl-D; or give a FILE, see --help)"
            ));
        }
    }
}
