//! The one entry point for counting n-queens solutions: a [`Request`] (board, engine,
//! symmetry, shard, threads) gives a [`Counted`] result, whichever engine runs, and its
//! [`ShardRecord`] for `queens count` and `merge`.

use crate::engine::{Stop, estimate};
use crate::quote::quote;
use crate::records::{Hex64, Kind, Rule, Shard, ShardRecord, Status};

use super::bits;
pub use super::common::{Counted, MAX_N, RESIDUE_MODULUS, Work};
use super::model::{self, CountConfig, Queens, Reduction};

/// The counting engines.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Engine {
    /// Dancing links on the exact-cover model.
    Dlx,
    /// The word-parallel counter (bit masks, full symmetry, meet in the middle).
    Bits,
}

impl Engine {
    /// The engine's name on the command line and in records: `dlx` or `bits`.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Dlx => "dlx",
            Engine::Bits => "bits",
        }
    }

    /// The largest board the engine counts (both take [`MAX_N`]).
    pub fn max_n(self) -> usize {
        match self {
            Engine::Dlx | Engine::Bits => MAX_N,
        }
    }

    /// The symmetry reductions the engine can use (the first is its default).
    pub fn reductions(self) -> &'static [Reduction] {
        match self {
            Engine::Dlx => &[Reduction::Full, Reduction::Mirror, Reduction::None],
            Engine::Bits => &[Reduction::Full],
        }
    }

    /// The default engine for a count of n queens under `symmetry` (None: the engine's own):
    /// the word-parallel counter, far the faster on every n it takes (`--estimate` shows the
    /// two), unless the symmetry asked for is one only dancing links uses.
    pub fn fastest(n: usize, symmetry: Option<Reduction>) -> Engine {
        let bits_takes = symmetry.is_none_or(|r| Engine::Bits.reductions().contains(&r));
        if bits_takes && n <= Engine::Bits.max_n() {
            Engine::Bits
        } else {
            Engine::Dlx
        }
    }

    /// The engine of a name (`dlx`, `bits`), as the command line and the records spell it.
    pub fn parse(s: &str) -> Option<Engine> {
        [Engine::Dlx, Engine::Bits]
            .into_iter()
            .find(|e| e.name() == s)
    }
}

impl Reduction {
    /// The reduction's name on the command line and in records: `full`, `mirror` or `none`.
    pub fn name(self) -> &'static str {
        match self {
            Reduction::Full => "full",
            Reduction::Mirror => "mirror",
            Reduction::None => "none",
        }
    }

    fn parse(s: &str) -> Option<Reduction> {
        [Reduction::Full, Reduction::Mirror, Reduction::None]
            .into_iter()
            .find(|r| r.name() == s)
    }
}

/// What to count.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// The board size.
    pub n: usize,
    /// Also count the fundamental solutions.
    pub unique: bool,
    /// The counting engine.
    pub engine: Engine,
    /// The symmetry reduction; `None`: the engine's default.
    pub symmetry: Option<Reduction>,
    /// The part of the split to count ([`Shard::WHOLE`] for all of it).
    pub shard: Shard,
    /// Worker threads; `None`: all cores.
    pub threads: Option<usize>,
}

impl Request {
    /// A request for the whole count of an n×n board with the default engine and symmetry.
    pub fn new(n: usize) -> Request {
        Request {
            n,
            unique: false,
            engine: Engine::Dlx,
            symmetry: None,
            shard: Shard::WHOLE,
            threads: None,
        }
    }

    /// The symmetry reduction that runs.
    pub fn reduction(&self) -> Reduction {
        self.symmetry.unwrap_or(self.engine.reductions()[0])
    }

    /// Checks that the engine takes the board and the symmetry.
    pub fn validate(&self) -> Result<(), CountError> {
        let max = self.engine.max_n();
        if !(1..=max).contains(&self.n) {
            return Err(CountError::BadSize {
                n: self.n,
                engine: self.engine.name(),
                max,
            });
        }
        if !self.engine.reductions().contains(&self.reduction()) {
            return Err(CountError::Symmetry {
                engine: self.engine.name(),
                symmetry: self.reduction().name(),
            });
        }
        Ok(())
    }

    /// The fingerprint of what is counted: the same for every shard of one count.
    pub fn fingerprint(&self) -> Hex64 {
        fingerprint(self.n, self.engine, self.reduction(), self.unique)
    }
}

/// The fingerprint of a queens count: FNV-1a 64 of
/// `queens-count n={n} engine={engine} symmetry={symmetry} unique={true|false}`.
pub fn fingerprint(n: usize, engine: Engine, symmetry: Reduction, unique: bool) -> Hex64 {
    Hex64::of(
        format!(
            "queens-count n={n} engine={} symmetry={} unique={unique}",
            engine.name(),
            symmetry.name()
        )
        .as_bytes(),
    )
}

/// Why a count cannot run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CountError {
    /// The engine does not count boards of size `n`.
    #[error("the {engine} engine counts boards of 1 to {max}, not {n}")]
    BadSize {
        /// The board size asked for.
        n: usize,
        /// The engine's name.
        engine: &'static str,
        /// The largest board the engine counts.
        max: usize,
    },
    /// The engine does not take the symmetry reduction asked for.
    #[error(
        "--symmetry {symmetry} does not apply to the {engine} engine (it always uses the full symmetry)"
    )]
    Symmetry {
        /// The engine's name.
        engine: &'static str,
        /// The reduction's name.
        symmetry: &'static str,
    },
    /// The thread pool could not be built.
    #[error("cannot start the worker threads: {0}")]
    Threads(String),
    /// The check residue disagrees with the count: a bug, never the input.
    #[error("internal error: the solution count {solutions} disagrees with its residue {residue}")]
    Residue {
        /// The solutions counted.
        solutions: u128,
        /// Their residue, summed task by task.
        residue: u64,
    },
}

/// Counts as asked, on a pool of `request.threads` threads. `progress(done, total,
/// solutions_so_far)` is called from the workers after each task.
pub fn count(
    request: &Request,
    progress: &(dyn Fn(usize, usize, u128) + Sync),
) -> Result<Counted, CountError> {
    count_until(request, &Stop::new(), progress)
}

/// [`count`] stopped through `stop`: after a request the count is a lower bound, marked
/// [`Counted::interrupted`].
pub fn count_until(
    request: &Request,
    stop: &Stop,
    progress: &(dyn Fn(usize, usize, u128) + Sync),
) -> Result<Counted, CountError> {
    request.validate()?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(request.threads.unwrap_or(0))
        .build()
        .map_err(|e| CountError::Threads(e.to_string()))?;
    let n = request.n;
    let shard = request.shard.as_pair();
    let mut counted = match request.engine {
        Engine::Dlx => {
            let model = Queens::new(n).map_err(|_| CountError::BadSize {
                n,
                engine: "dlx",
                max: MAX_N,
            })?;
            let config = CountConfig {
                unique: request.unique,
                reduction: request.reduction(),
                shard: Some(shard),
            };
            pool.install(|| model::count_until(&model, &config, stop, progress))
                .expect("request validated")
        }
        Engine::Bits => {
            let c = pool.install(|| {
                bits::count_until(
                    n,
                    request.unique,
                    bits::Method::Auto,
                    Some(shard),
                    stop,
                    progress,
                )
            });
            let tasks_total = bits::task_count(n);
            Counted {
                solutions: c.solutions,
                unique: request.unique.then_some(c.unique),
                work: Work {
                    nodes: c.nodes,
                    updates: None,
                    mems: None,
                },
                tasks: (0..tasks_total).filter(|&k| request.shard.owns(k)).count(),
                tasks_total,
                residue: c.residue,
                interrupted: false,
            }
        }
    };
    counted.interrupted = stop.requested();
    if counted.solutions % u128::from(RESIDUE_MODULUS) != u128::from(counted.residue) {
        return Err(CountError::Residue {
            solutions: counted.solutions,
            residue: counted.residue,
        });
    }
    Ok(counted)
}

impl Counted {
    /// The sealed shard record of this count.
    pub fn record(&self, request: &Request, seconds: f64) -> ShardRecord {
        let mut r = ShardRecord::new(Kind::QueensCount, request.fingerprint(), request.shard);
        r.n = Some(request.n as u32);
        r.engine = Some(request.engine.name().into());
        r.symmetry = Some(request.reduction().name().into());
        r.solutions = self.solutions;
        r.unique = self.unique;
        r.nodes = self.work.nodes;
        r.updates = self.work.updates;
        r.tasks = self.tasks as u64;
        r.seconds = seconds;
        if self.interrupted {
            r.status = Status::Interrupted;
        }
        r.seal()
    }
}

/// The rule the merge checks `queens-count` records by ([`check_record`]).
pub fn record_rule() -> Rule {
    Rule {
        kind: Kind::QueensCount,
        check: check_record,
    }
}

/// The rules of a `queens-count` record, checked by [`crate::records::merge`] on each record
/// and on the total: n in the engine's range, a known engine and symmetry it takes, the
/// fingerprint of exactly these parameters, status complete, and for a whole count (1/1)
/// `unique <= solutions <= 8·unique` when both are counted.
pub fn check_record(r: &ShardRecord) -> Result<(), String> {
    let n = r.n.ok_or("a queens-count record without n")? as usize;
    let engine = r.engine.as_deref().and_then(Engine::parse).ok_or_else(|| {
        format!(
            "unknown engine '{}'",
            quote(r.engine.as_deref().unwrap_or(""))
        )
    })?;
    let symmetry = r
        .symmetry
        .as_deref()
        .and_then(Reduction::parse)
        .ok_or_else(|| {
            format!(
                "unknown symmetry '{}'",
                quote(r.symmetry.as_deref().unwrap_or(""))
            )
        })?;
    let request = Request {
        n,
        unique: r.unique.is_some(),
        engine,
        symmetry: Some(symmetry),
        shard: Shard::WHOLE,
        threads: None,
    };
    request.validate().map_err(|e| e.to_string())?;
    let want = request.fingerprint();
    if r.fingerprint != want {
        return Err(format!(
            "fingerprint {} is not that of n={n} engine={} symmetry={} unique={} ({want})",
            r.fingerprint,
            engine.name(),
            symmetry.name(),
            r.unique.is_some()
        ));
    }
    if r.status != Status::Complete {
        return Err(format!(
            "status {} (a count runs to the end)",
            r.status.name()
        ));
    }
    if let Some(u) = r.unique
        && r.shard == 1
        && r.shards == 1
        && !(u <= r.solutions && r.solutions <= u.saturating_mul(8))
    {
        return Err(format!(
            "unique={u} and solutions={} break unique <= solutions <= 8·unique",
            r.solutions
        ));
    }
    Ok(())
}

/// Random probes of [`estimate()`] (each costs one walk of at most n ranks).
pub const ESTIMATE_PROBES: u32 = 20_000;

/// Seconds per node of the plain rank-by-rank backtrack tree, on one thread of the machine
/// this was measured on (2 cores; `queens count` of n = 13 to 16 against the
/// estimated trees). The engines do not walk that tree (symmetry, MRV order), so this folds
/// their savings in; good to a factor of about 2 to 4, enough to tell
/// seconds from hours from years.
fn seconds_per_node(request: &Request) -> f64 {
    match (request.engine, request.reduction()) {
        (Engine::Bits, _) => 2.5e-9,
        (Engine::Dlx, Reduction::Full) => 2e-8,
        (Engine::Dlx, Reduction::Mirror) => 3.5e-8,
        (Engine::Dlx, Reduction::None) => 7e-8,
    }
}

/// Measured CPU-seconds of the bits engine's whole totals count (no `--unique`) where it does
/// not search the tree ([`bits::totals_method`]: meeting in the middle or quadrants), on one
/// thread of the 2-core development machine (docs/performance.md, docs/cluster.md).
/// The tree's size says nothing about these methods (n = 21: the tree would take about 11
/// hours on 2 threads, the quadrants took 17 minutes), so their estimate is this table.
/// n = 22 and 23 are extrapolated from n = 18..21 (the upper ends of docs/cluster.md).
fn totals_cpu_seconds(n: usize) -> Option<(f64, &'static str)> {
    let name = match bits::totals_method(n) {
        bits::Method::Mitm => "meeting in the middle",
        bits::Method::Quadrant => "quadrants",
        _ => return None,
    };
    let seconds = match n {
        ..=15 => 0.1,
        16 => 0.2,
        17 => 1.7,
        18 => 4.4,
        19 => 32.0,
        20 => 60.0,
        21 => 1_700.0,
        22 => 3_100.0,
        _ => 87_000.0,
    };
    Some((seconds, name))
}

/// What an [`Estimate`] rests on.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Basis {
    /// The plain backtrack tree's size (Knuth's probes) times a cost per node.
    Tree,
    /// The measured CPU time of the bits engine's totals method for this n, named.
    Measured(&'static str),
}

/// An estimate of a count's work, before running it.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Estimate {
    /// Estimated nodes of the plain backtrack tree (queens placed rank by rank), whole board.
    pub tree_nodes: f64,
    /// Estimated wall seconds of the request (its shard, its threads) on this machine.
    pub seconds: f64,
    /// Threads assumed.
    pub threads: usize,
    /// The `M` of the request's shard.
    pub shard_count: u64,
    /// Where `seconds` comes from.
    pub basis: Basis,
}

impl Estimate {
    /// The number of shards that brings one shard to about `target` seconds (at least 1).
    pub fn shards_for(&self, target: f64) -> u64 {
        let whole = self.seconds * self.shard_count as f64;
        ((whole / target).ceil() as u64).max(1)
    }
}

/// Estimates the work of a request. For the bits engine's totals by meeting in the middle or
/// by quadrants, from their measured CPU time ([`Basis::Measured`]); otherwise by Knuth's
/// random probes (TAOCP 7.2.2, (21)): a walk from the root that picks a random child at each
/// node, `d_k` children at depth k, estimates the tree size as `1 + d_1 + d_1·d_2 + ...`; the
/// mean of [`ESTIMATE_PROBES`] walks is unbiased. Costs milliseconds. Deterministic (fixed
/// seed).
pub fn estimate(request: &Request) -> Result<Estimate, CountError> {
    request.validate()?;
    let tree_nodes = tree_size(request.n, ESTIMATE_PROBES, 0x9e37_79b9_7f4a_7c15);
    let threads = request
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |p| p.get()))
        .max(1);
    let share = request.shard.count() as f64;
    let measured = match request.engine {
        Engine::Bits if !request.unique => totals_cpu_seconds(request.n),
        _ => None,
    };
    let (cpu, basis) = match measured {
        Some((cpu, name)) => (cpu, Basis::Measured(name)),
        None => (tree_nodes * seconds_per_node(request), Basis::Tree),
    };
    Ok(Estimate {
        tree_nodes,
        seconds: cpu / threads as f64 / share,
        threads,
        shard_count: request.shard.count(),
        basis,
    })
}

/// Knuth's estimate of the size of the plain n-queens backtrack tree (rank by rank, bit masks),
/// by the engine's estimator ([`estimate::estimate`]).
pub fn tree_size(n: usize, probes: u32, seed: u64) -> f64 {
    let full: u64 = if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
    let mut walk = RankWalk {
        n,
        full,
        rank: 0,
        cols: 0,
        ld: 0,
        rd: 0,
    };
    estimate::estimate(&mut walk, probes, seed).nodes
}

/// The plain n-queens backtrack tree as a [`estimate::Walk`]: queens placed rank by rank, the
/// open files of a rank its children.
struct RankWalk {
    n: usize,
    full: u64,
    rank: usize,
    cols: u64,
    ld: u64,
    rd: u64,
}

impl RankWalk {
    fn open(&self) -> u64 {
        if self.rank >= self.n {
            0
        } else {
            self.full & !(self.cols | self.ld | self.rd)
        }
    }
}

impl estimate::Walk for RankWalk {
    fn degree(&mut self) -> u32 {
        self.open().count_ones()
    }

    fn down(&mut self, k: u32) {
        // The k-th open file.
        let mut a = self.open();
        for _ in 0..k {
            a &= a - 1;
        }
        let bit = a & a.wrapping_neg();
        self.cols |= bit;
        self.ld = ((self.ld | bit) << 1) & self.full;
        self.rd = (self.rd | bit) >> 1;
        self.rank += 1;
    }

    fn reset(&mut self) {
        (self.rank, self.cols, self.ld, self.rd) = (0, 0, 0, 0);
    }
}
