//! The flags of `xcover solve` ([`Args`], clap's derive) and the decisions they make, each
//! taken once (ripgrep's `hiargs`): what the search does ([`Task`]), the engine's [`Plan`]
//! (threads, shard, memo, budget), what `--zdd`, `--sample` and `--marginals` ask
//! ([`solve_zdd::Request`]).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use super::solve_zdd;
use crate::cmd::InputError;
use crate::engine::optimize::{Keep, Sense};
use crate::engine::run::Plan;
use crate::engine::{Budget, MemoMode, Stop};
use crate::io::export::Format;
use crate::records::Shard;

/// The formats of `xcover solve`.
const FORMATS: &[(Format, &str)] = &[
    (
        Format::Text,
        "DLX1's layout: `N:` then the options, one per line",
    ),
    (
        Format::Csv,
        "A header row, then one record per (solution, option)",
    ),
    (
        Format::Json,
        "JSON Lines: one object per solution (and a summary with --stats)",
    ),
];

/// `--memo`: when a count remembers sub-problem counts.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemoArg {
    /// Run the plain and the memoised search in turns (a portfolio with a guarantee).
    Auto,
    /// Always.
    On,
    /// Never.
    Off,
}

impl MemoArg {
    fn mode(self) -> MemoMode {
        match self {
            MemoArg::Auto => MemoMode::Auto,
            MemoArg::On => MemoMode::On,
            MemoArg::Off => MemoMode::Off,
        }
    }
}

#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("memoised").multiple(true).args(["count", "zdd", "sample", "marginals"])))]
pub struct Args {
    /// The DLX file to read; `-` or nothing reads standard input.
    #[arg(value_name = "FILE|-")]
    pub input: Option<PathBuf>,

    /// Print only the number of solutions.
    #[arg(long)]
    pub count: bool,

    /// Print only an estimate of a count's work, in milliseconds to a second: the search
    /// tree's nodes by Knuth's random probes, and the time that means on this machine (the
    /// count's own engine timed for a quarter of a second).
    #[arg(long, conflicts_with_all = ["count", "minimize", "maximize", "limit", "zdd", "sample", "shard", "top"])]
    pub estimate: bool,

    /// Stop after N solutions (on one thread).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: Option<u64>,

    /// Output format.
    #[arg(long, value_parser = Format::parser(FORMATS), default_value = "text")]
    pub format: Format,

    /// Write the output to FILE (atomically: a temporary file renamed at the end) instead
    /// of stdout.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Print Knuth's statistics line on stderr (and a summary record with --format json).
    #[arg(long)]
    pub stats: bool,

    /// Stop when the search has visited N nodes (on one thread).
    #[arg(long, value_name = "N")]
    pub nodes: Option<u64>,

    /// Stop when the search has spent N mems (on one thread).
    #[arg(long, value_name = "N")]
    pub mems: Option<u64>,

    /// Stop after SECONDS of search (a decimal number).
    #[arg(long, value_name = "SECONDS", value_parser = super::parse_seconds)]
    pub time_limit: Option<Duration>,

    /// Find a solution of least total cost (DLX5's `|n` cost entries), by branch and bound.
    #[arg(long, conflicts_with_all = ["maximize", "count"])]
    pub minimize: bool,

    /// Find a solution of greatest total cost, by branch and bound.
    #[arg(long, conflicts_with = "count")]
    pub maximize: bool,

    /// With --minimize/--maximize: the K best solutions instead of one.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..))]
    pub top: Option<u64>,

    // With --limit, --nodes or --mems the search runs on one thread (said at those options).
    #[command(flatten)]
    pub threads: super::Threads,

    /// With --count: remember the counts of sub-problems met before (the same items left
    /// and colours set): `auto` runs the plain search and two memoised dances (one branching
    /// in frontier order, one on the item of fewest options) in turns, each resuming where it
    /// stopped, at most 128 times the best of them; `on` always (the memoised dance of fewest
    /// options first), `off` never. With `auto` on threads the plain search's parts go to the
    /// threads and the dances take their turns on the calling thread; with `on` each thread
    /// keeps a table of its own for its sub-problems. A shard counts without it (`on` is
    /// refused with --shard).
    #[arg(long, value_enum, default_value_t = MemoArg::Auto, value_name = "WHEN", requires = "count")]
    pub memo: MemoArg,

    /// Search exactly DLX2's tree, so that nodes, updates and mems are Knuth's figures for
    /// the same input: no memo.
    #[arg(long, conflicts_with = "memo")]
    pub knuth: bool,

    /// With --count: the memory the memo may use, e.g. `64M`, `2G` (bytes without a suffix;
    /// K, M, G, T are powers of 1024), at least 4K. When it is full, old counts are
    /// forgotten. With --zdd or --sample: the memory the diagram may use; beyond it the
    /// command stops and writes nothing.
    #[arg(long, value_name = "SIZE", value_parser = parse_memo_size, default_value = "256M", requires = "memoised")]
    pub memo_mem: u64,

    /// Before the search, remove the options that can be in no solution (choosing one would
    /// leave some primary item no compatible option), round after round, within a work limit.
    /// The same solutions, written as without it, but perhaps in another order. Not with
    /// --shard or multiplicities.
    #[arg(long)]
    pub preprocess: bool,

    /// Run only part I of M of the deterministic split (for clusters), e.g. `--shard 3/10`.
    /// With --count or --minimize/--maximize the output is the shard's record (text: a
    /// key=value line), for `xcover merge`; a listing lists the shard's solutions.
    #[arg(long, value_name = "I/M")]
    pub shard: Option<Shard>,

    /// Write the solutions as a ZDD to FILE (`-`: stdout), in the text docs/engine.md
    /// describes, built by the memoised search within --memo-mem on one thread.
    #[arg(long, value_name = "FILE", conflicts_with_all = ZDD_CONFLICTS)]
    pub zdd: Option<PathBuf>,

    /// Draw K solutions (0 to 1,000,000) exactly uniformly, with replacement, from the
    /// ZDD's counts, listed as a listing lists them (numbered in the order drawn).
    #[arg(long, value_name = "K", conflicts_with_all = ZDD_CONFLICTS,
          value_parser = clap::value_parser!(u64).range(0..=1_000_000))]
    pub sample: Option<u64>,

    /// The seed of --sample: the same seed, the same draws.
    #[arg(long, value_name = "S", default_value_t = 0, requires = "sample")]
    pub seed: u64,

    /// For each option, the number of solutions that take it (option, line, text,
    /// solutions, share), counted on the ZDD (see --zdd).
    #[arg(long, conflicts_with_all = ZDD_CONFLICTS, conflicts_with = "sample")]
    pub marginals: bool,
}

/// What --zdd and --sample do not combine with.
const ZDD_CONFLICTS: [&str; 10] = [
    "count",
    "limit",
    "nodes",
    "mems",
    "minimize",
    "maximize",
    "top",
    "shard",
    "preprocess",
    "knuth",
];

/// The smallest `--memo-mem`: a table of one probe sequence of the longest keys is about
/// this size, and a smaller budget would not be kept.
const MIN_MEMO_BYTES: u64 = 4 << 10;

/// `--memo-mem`: a size ([`super::parse_size`]) of at least [`MIN_MEMO_BYTES`].
fn parse_memo_size(s: &str) -> Result<u64, String> {
    let bytes = super::parse_size(s)?;
    if bytes < MIN_MEMO_BYTES {
        return Err(format!(
            "'{}' is below the memo's smallest table, 4K (--memo off counts without a memo)",
            crate::quote::quote(s)
        ));
    }
    Ok(bytes)
}

/// What a search of `solve` does, decided once from the flags.
#[derive(Clone, Copy, Debug)]
pub enum Task {
    /// Every solution, written as it is found.
    List,
    /// The number of solutions (`--count`).
    Count,
    /// The best solution, or the `--top K` best, in a sense (`--minimize`, `--maximize`).
    Optimise(Sense, Keep),
}

impl Args {
    /// What the search does.
    pub fn task(&self) -> Task {
        if self.minimize || self.maximize {
            let sense = if self.maximize {
                Sense::Maximize
            } else {
                Sense::Minimize
            };
            let keep = match self.top {
                Some(k) => Keep::Top(usize::try_from(k).unwrap_or(usize::MAX)),
                None => Keep::Best,
            };
            Task::Optimise(sense, keep)
        } else if self.count {
            Task::Count
        } else {
            Task::List
        }
    }

    /// What `--zdd`, `--sample` and `--marginals` ask ([`solve_zdd::Request::wanted`] says
    /// whether any of them was given).
    pub fn zdd_request(&self) -> solve_zdd::Request {
        solve_zdd::Request {
            zdd: self.zdd.clone(),
            sample: self.sample,
            seed: self.seed,
            marginals: self.marginals,
            format: self.format,
            output: self.output.clone(),
            stats: self.stats,
            time_limit: self.time_limit,
            memo_mem: self.memo_mem,
        }
    }

    /// The budget of the limits asked for, with the command's stop handle.
    pub fn budget(&self) -> Budget {
        Budget {
            solutions: self.limit,
            nodes: self.nodes,
            mems: self.mems,
            // A limit beyond what an Instant can hold is no limit.
            deadline: self.time_limit.and_then(|t| Instant::now().checked_add(t)),
            stop: Stop::new(),
        }
    }

    /// The plan of the search asked for: one thread when the budget is not one threads can
    /// keep (an error for a shard).
    pub fn plan(&self, budget: Budget) -> anyhow::Result<Plan> {
        let plan = Plan {
            threads: self.threads.get(),
            shard: self.shard.map(Shard::as_pair),
            knuth: self.knuth,
            // Knuth's tree is the plain search's: its counts are DLX2's.
            memo: if self.knuth {
                MemoMode::Off
            } else {
                self.memo.mode()
            },
            memo_bytes: self.memo_mem,
            budget,
        };
        if self.shard.is_some() && !plan.keeps_budget() {
            return Err(InputError(
                "--shard cannot be combined with --limit, --nodes or --mems (they would apply \
                 to each sub-problem); --time-limit can"
                    .into(),
            )
            .into());
        }
        Ok(plan.on_threads_that_keep_the_budget())
    }
}
