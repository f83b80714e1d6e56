//! `xcover queens max`: for each board, the maximum sum under n non-attacking queens.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;

use super::InputError;
use crate::engine::optimize::Keep;
use crate::engine::{Budget, Stop};
use crate::io::export::Format;
use crate::io::max::{self, MaxWriter, TextView};
use crate::io::output::Output;
use crate::io::shard;
use crate::io::svg;
use crate::io::weights::{self, Boards};
use crate::queens::weighted::{
    self, BoardResult, BoundKind, Method, PartRequest, Request, WeightedQueens,
    stack::{self, BoardClock},
};
use crate::records::{Shard, Status};

/// The widest `--width`.
pub const MAX_WIDTH: u64 = 1024;

/// The formats of `queens max`.
const FORMATS: &[(Format, &str)] = &[
    (Format::Text, ""),
    (Format::Csv, ""),
    (Format::Json, ""),
    (Format::Svg, ""),
];

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum MethodArg {
    /// Enumerate for n <= 10, branch and bound (Lagrangian bound) above.
    Auto,
    /// Score every solution of the n-queens problem (small n only).
    Enumerate,
    /// Branch and bound with the assignment (Hungarian) bound.
    Assignment,
    /// Branch and bound with the assignment bound tightened by Lagrangian penalties on the
    /// diagonals.
    Lagrangian,
    /// Branch and bound with the rank/file maxima bound.
    Maxima,
    /// Branch and bound with the engine's generic bound.
    Generic,
}

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Boards in the classic format: k, then k boards of n×n integers (`-` or none: stdin).
    #[arg(value_name = "FILE", conflicts_with = "weights")]
    pub input: Option<PathBuf>,
    /// One board as a CSV matrix instead.
    #[arg(long, value_name = "FILE.csv")]
    pub weights: Option<PathBuf>,
    /// The board size (otherwise inferred from the count of numbers), 1 to the largest board
    /// the model takes.
    #[arg(short = 'n', value_name = "N", value_parser = parse_board_size)]
    pub n: Option<usize>,
    /// Right-justify each number in W columns (0 to 1024).
    #[arg(long, value_name = "W", default_value_t = 0,
          value_parser = clap::value_parser!(u64).range(0..=MAX_WIDTH))]
    pub width: u64,
    /// Also print the optimal layout: n lines of `X` and `.` separated by spaces.
    #[arg(long)]
    pub board: bool,
    /// List every optimal layout (and count them).
    #[arg(long, conflicts_with = "top")]
    pub all_optimal: bool,
    /// With --all-optimal: list at most K layouts per board, K >= 1 (all are counted).
    #[arg(long, value_name = "K", requires = "all_optimal",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: Option<u64>,
    /// The K best layouts with their scores.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..))]
    pub top: Option<u64>,
    /// Output format.
    #[arg(long, value_parser = Format::parser(FORMATS), default_value = "text")]
    pub format: Format,
    /// Write to FILE (atomically) instead of stdout.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Stop each board's search after this many seconds; the best layout found is reported
    /// with its bound and the status "feasible".
    #[arg(long, value_name = "SECONDS", value_parser = super::parse_seconds)]
    pub time_limit: Option<Duration>,
    /// How to solve.
    #[arg(long, value_enum, default_value = "auto")]
    pub method: MethodArg,
    /// Subgradient steps per node for --method lagrangian (0 to 10000).
    #[arg(
        long,
        value_name = "K",
        default_value_t = crate::queens::weighted::DEFAULT_LAGRANGE_STEPS,
        value_parser = clap::value_parser!(u32).range(0..=i64::from(weighted::MAX_LAGRANGE_STEPS))
    )]
    pub lagrange_steps: u32,
    /// Run only part I of M of the deterministic split of the board's search (for clusters),
    /// e.g. `--shard 3/10`; the input holds exactly one board. The output is the shard's
    /// record (text: a key=value line) for `xcover merge`.
    #[arg(long, value_name = "I/M", conflicts_with_all = ["top", "all_optimal", "board"])]
    pub shard: Option<Shard>,
    /// Look only for layouts scoring at least F (e.g. the value an earlier run with
    /// --time-limit found): when none does, the status is `below-floor` and the bound F - 1.
    #[arg(long, value_name = "F", allow_hyphen_values = true,
          conflicts_with_all = ["top", "all_optimal"], value_parser = parse_floor)]
    pub floor: Option<i128>,
    #[command(flatten)]
    pub threads: super::Threads,
    /// Print search statistics per board on stderr.
    #[arg(long)]
    pub stats: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let boards = read_boards(&args)?;
    let size = |k: u64| usize::try_from(k).unwrap_or(usize::MAX);
    // `--top 0` and the conflicts are refused by the parser already.
    let keep = stack::keep(
        args.top.map(size),
        args.all_optimal,
        args.limit.map(size),
        args.floor,
    )
    .map_err(|e| InputError(e.to_string()))?;
    let count = keep == Keep::Best && args.format.is_records();
    let method = match args.method {
        MethodArg::Auto => Method::Auto,
        MethodArg::Enumerate => Method::Enumerate,
        MethodArg::Assignment => Method::BranchBound(BoundKind::Assignment),
        MethodArg::Lagrangian => Method::BranchBound(BoundKind::Lagrangian(args.lagrange_steps)),
        MethodArg::Maxima => Method::BranchBound(BoundKind::RankFileMax),
        MethodArg::Generic => Method::BranchBound(BoundKind::Generic),
    };
    if method == Method::Enumerate && boards.n > 14 {
        return Err(InputError(format!(
            "--method enumerate is for n <= 14, not {}",
            boards.n
        ))
        .into());
    }
    let n = boards.n;
    if n > 0 {
        weighted::check_size(n).map_err(|e| InputError(e.to_string()))?;
        // Refused before the model is built, rather than aborted by the allocator.
        if let Some(limit) = address_space_limit() {
            weighted::check_memory(n, threads(&args, n), limit)
                .map_err(|e| InputError(e.to_string()))?;
        }
    }
    if let Some(shard) = args.shard {
        return run_shard(&args, &boards, method, shard);
    }
    let mut out = Output::create(args.output.as_deref())?;
    // Ctrl-C stops the search: the boards done and the current one's best layout and bound
    // are written, status `interrupted`.
    let stop = Stop::new();
    crate::io::output::stop_gracefully_on_interrupt(&stop);
    // The first board's time limit covers building the model too.
    let mut clock = BoardClock::start(args.time_limit);
    let mut model = (n > 0).then(|| WeightedQueens::new(n));
    if args.format == Format::Svg && boards.count() as u64 > svg::MAX_BOARDS {
        return Err(InputError(format!(
            "{} boards are more than one SVG picture holds ({}): use --format csv",
            boards.count(),
            svg::MAX_BOARDS
        ))
        .into());
    }
    // The writer, chosen once: records (the CSV header even without boards), one SVG
    // picture, or text.
    let text = TextView {
        width: args.width as usize,
        top: args.top.is_some(),
        board: args.board,
        all_optimal: args.all_optimal,
    };
    let mut writer = MaxWriter::new(&mut out, args.format, n, boards.count(), text)?;
    // The board searched now, its best score, bound and gap, and a bar of how much of the
    // board's first gap is closed: on stderr whenever it is a terminal (the results on stdout
    // are written with the bar out of the way).
    let pb = super::progress(
        "{spinner} [{bar:20}] {msg} {elapsed}",
        Some(GAP_BAR),
        false,
        args.output.as_deref(),
    );
    let current = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(1));
    let total = boards.count();
    let _watch = pb.as_ref().map(|pb| {
        let (current, bar) = (current.clone(), pb.clone());
        // The board and its first gap seen.
        let first = std::sync::Mutex::new((0usize, None::<f64>));
        super::watch_progress(pb, &stop, move |p, _| {
            let k = current.load(std::sync::atomic::Ordering::Relaxed);
            let gap = gap(p);
            let mut f = first.lock().unwrap_or_else(|e| e.into_inner());
            if f.0 != k {
                *f = (k, None);
            }
            if f.1.is_none() {
                f.1 = gap;
            }
            bar.set_position(closed(f.1, gap));
            max_progress_line(k, total, n, p)
        })
    });
    for k in 0..boards.count() {
        current.store(k + 1, std::sync::atomic::Ordering::Relaxed);
        stop.progress().reset();
        let board = boards.board(k);
        let req = Request {
            keep,
            budget: clock.next_budget().with_stop(&stop),
            method,
            threads: threads(&args, n),
        };
        let model = model.as_mut().expect("n > 0 when there are boards");
        let started = std::time::Instant::now();
        let (res, below_floor) = if count {
            model.solve_counted(board, &req, args.floor)
        } else {
            model.solve_from(board, &req, args.floor)
        };
        let stopped_by = Status::stopped(&stop, Status::Time);
        let result = written(k + 1, board, &res, below_floor, stopped_by);
        if args.stats {
            let seconds = started.elapsed().as_secs_f64();
            eprintln!("{}", max::stats_line(&result, seconds));
        }
        // The results on stdout are written with the bar out of the way.
        match &pb {
            Some(pb) => pb.suspend(|| writer.board(&result))?,
            None => writer.board(&result)?,
        }
        // Interrupted: the boards done and this one's best layout and bound are written.
        if stop.requested() {
            break;
        }
    }
    if let Some(pb) = &pb {
        pb.finish_and_clear();
    }
    writer.end()?;
    out.finish()?;
    Ok(interrupted_or_success())
}

/// The length of the progress bar of `queens max`: the share of the board's first gap closed,
/// in thousandths.
const GAP_BAR: u64 = 1000;

/// The gap between the best score and the bound, relative to the bound (`None` before both
/// are known, or with a bound of 0).
fn gap(p: &crate::engine::ProgressSnapshot) -> Option<f64> {
    match (p.best, p.bound) {
        (Some(v), Some(b)) if b != 0 => Some(((b - v) as f64 / (b as f64).abs()).max(0.0)),
        _ => None,
    }
}

/// The bar's position: how much of the `first` gap the gap `now` has closed.
fn closed(first: Option<f64>, now: Option<f64>) -> u64 {
    match (first, now) {
        (Some(f), Some(g)) if f > 0.0 => ((1.0 - g / f).clamp(0.0, 1.0) * GAP_BAR as f64) as u64,
        _ => 0,
    }
}

/// The progress line of board `k` of `total`: `board 2/5: n=40, best 3198, bound 3704 (gap
/// 15.8%), 1.2M nodes`.
fn max_progress_line(
    k: usize,
    total: usize,
    n: usize,
    p: &crate::engine::ProgressSnapshot,
) -> String {
    let mut s = format!("board {k}/{total}: n={n}");
    match (p.best, p.bound) {
        (Some(v), Some(b)) => {
            s += &format!(", best {v}, bound {b}");
            if let Some(g) = gap(p) {
                s += &format!(" (gap {:.1}%)", 100.0 * g);
            }
        }
        (Some(v), None) => s += &format!(", best {v}"),
        (None, Some(b)) => s += &format!(", bound {b}"),
        (None, None) => s += ", searching",
    }
    if p.nodes > 0 {
        s += &format!(", {} nodes", super::short_count(p.nodes));
    }
    s
}

/// 128 + the signal after an interrupt (130 for Ctrl-C), else success.
fn interrupted_or_success() -> ExitCode {
    crate::io::output::interrupt_exit_code().unwrap_or(ExitCode::SUCCESS)
}

/// A board's result as io's exporter writes it: board `number` (from 1) with its `weights`.
fn written<'a>(
    number: usize,
    weights: &'a [i64],
    res: &'a BoardResult,
    below_floor: bool,
    stopped_by: Status,
) -> max::Board<'a> {
    max::Board {
        number,
        n: res.n,
        weights,
        ending: res.status,
        below_floor,
        stopped_by,
        layouts: res
            .layouts
            .iter()
            .map(|l| (l.score, l.queens.as_slice()))
            .collect(),
        optimal_count: res.optimal_count,
        bound: res.bound,
        nodes: res.nodes,
    }
}

/// Threads for a board: all cores by default, but one thread for boards too small for the
/// split to pay (the layouts reported are the same on any number of threads).
fn threads(args: &Args, n: usize) -> usize {
    stack::threads(n, args.threads.threads.map(|t| t as usize))
}

/// `--shard I/M`: part I of M of the split of the one board's search, written as a shard
/// record (kind `queens-max`) for `xcover merge`.
fn run_shard(
    args: &Args,
    boards: &Boards,
    method: Method,
    shard: Shard,
) -> anyhow::Result<ExitCode> {
    if boards.count() != 1 {
        return Err(InputError(format!(
            "--shard splits the search of one board, but the input has {} boards: give each \
             board its own file",
            boards.count()
        ))
        .into());
    }
    if method == Method::Enumerate {
        return Err(InputError(
            "--shard splits the branch and bound: it does not take --method enumerate".into(),
        )
        .into());
    }
    let format = match args.format {
        Format::Svg => {
            return Err(InputError(
                "--shard writes a shard record: --format text, csv or json, not svg".into(),
            )
            .into());
        }
        f => f,
    };
    let mut out = Output::create(args.output.as_deref())?;
    // The time limit covers building the model too.
    let started = std::time::Instant::now();
    let stop = Stop::new();
    let mut budget = Budget::unlimited().with_stop(&stop);
    if let Some(t) = args.time_limit {
        budget.deadline = started.checked_add(t);
    }
    let n = boards.n;
    let board = boards.board(0);
    let mut model = WeightedQueens::new(n);
    let req = Request {
        keep: Keep::Best,
        budget,
        method,
        threads: threads(args, n),
    };
    let part = PartRequest {
        shard: Some(shard.as_pair()),
        floor: args.floor,
    };
    crate::io::output::stop_gracefully_on_interrupt(&stop);
    let p = model.solve_part(board, &req, &part);
    let seconds = started.elapsed().as_secs_f64();
    let record = p.record(board, shard, seconds);
    shard::write_records(&mut out, [&record], format)?;
    out.finish()?;
    if args.stats {
        let s = p.split.unwrap_or_default();
        eprintln!(
            "shard {shard}: n={n} status={} nodes={} value={} bound={} depth={} parts={}/{} \
             searched={} seconds={seconds:.3}",
            record.status.name(),
            record.nodes,
            opt(record.value),
            opt(record.bound),
            s.depth,
            s.mine,
            s.parts,
            s.searched,
        );
    }
    Ok(interrupted_or_success())
}

/// The address-space limit of the process (`ulimit -v`, `RLIMIT_AS`), if there is one.
fn address_space_limit() -> Option<u64> {
    let mut r = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes only the struct it is given.
    if unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut r) } != 0 || r.rlim_cur == libc::RLIM_INFINITY
    {
        return None;
    }
    // `rlim_t` is `u64` here, not on every platform.
    #[allow(clippy::unnecessary_cast)]
    Some(r.rlim_cur as u64)
}

/// `--floor F`: a score, any integer of 128 bits.
fn parse_floor(s: &str) -> Result<i128, String> {
    s.trim()
        .parse()
        .map_err(|_| format!("'{s}' is not an integer score"))
}

fn read_boards(args: &Args) -> anyhow::Result<Boards> {
    if let Some(path) = &args.weights {
        let input = crate::io::input::open(Some(path))?;
        let name = input.name().to_string();
        let b = weights::read_csv(input).map_err(|e| InputError(e.0))?;
        if let Some(n) = args.n
            && n != b.n
        {
            return Err(InputError(format!("{name}: a {0}×{0} board, but -n {n}", b.n)).into());
        }
        return Ok(b);
    }
    weights::read_classic(
        super::open_input(args.input.as_deref(), "weight boards")?,
        args.n,
    )
    .map_err(|e| InputError(e.0))
    .context("bad board input")
    .map_err(|e| {
        // Keep the message one line: the parser's message says it all.
        anyhow::anyhow!("{}", e.root_cause())
    })
}

/// `-n`: a board size the model takes (1 to [`weighted::MAX_N`]).
fn parse_board_size(s: &str) -> Result<usize, String> {
    let n: u64 = s.parse().map_err(|e| format!("{e}"))?;
    match usize::try_from(n) {
        Ok(n) if (1..=weighted::MAX_N).contains(&n) => Ok(n),
        _ => Err(format!(
            "the board size is 1 to {} (the largest board queens max takes), not {s}",
            weighted::MAX_N
        )),
    }
}

fn opt(v: Option<i128>) -> String {
    v.map_or_else(|| "none".to_string(), |v| v.to_string())
}
