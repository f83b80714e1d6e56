//! The one entry point for counting n-queens solutions: a [`Request`] (board, engine,
//! symmetry, shard, threads) gives a [`Counted`] result, whichever engine runs, and its
//! [`ShardRecord`] for `queens count` and `merge`.

use crate::io::shard::{Hex64, Kind, Shard, ShardRecord};

use super::bits;
use super::model::{self, CountConfig, Queens, Reduction};

/// The modulus of the check residue both engines keep: `solutions mod P`, accumulated task by
/// task independently of the sum, and compared with it at the end of a count.
pub const RESIDUE_MODULUS: u64 = 1_000_000_007;

/// The counting engines.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Engine {
    /// Dancing links on the exact-cover model.
    Dlx,
    /// The word-parallel counter (bit masks, full symmetry, meet in the middle).
    Bits,
}

impl Engine {
    pub fn name(self) -> &'static str {
        match self {
            Engine::Dlx => "dlx",
            Engine::Bits => "bits",
        }
    }

    /// The largest board the engine counts.
    pub fn max_n(self) -> usize {
        match self {
            Engine::Dlx => model::MAX_N,
            Engine::Bits => bits::MAX_N,
        }
    }

    /// The symmetry reductions the engine can use (the first is its default).
    pub fn reductions(self) -> &'static [Reduction] {
        match self {
            Engine::Dlx => &[Reduction::Full, Reduction::Mirror, Reduction::None],
            Engine::Bits => &[Reduction::Full],
        }
    }

    fn parse(s: &str) -> Option<Engine> {
        [Engine::Dlx, Engine::Bits]
            .into_iter()
            .find(|e| e.name() == s)
    }
}

/// The largest board any engine counts (the command line's limit).
pub const MAX_N: usize = if model::MAX_N > bits::MAX_N {
    model::MAX_N
} else {
    bits::MAX_N
};

impl Reduction {
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
    pub n: usize,
    /// Also count the fundamental solutions.
    pub unique: bool,
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
    #[error("the {engine} engine counts boards of 1 to {max}, not {n}")]
    BadSize {
        n: usize,
        engine: &'static str,
        max: usize,
    },
    #[error(
        "--symmetry {symmetry} does not apply to the {engine} engine (it always uses the full symmetry)"
    )]
    Symmetry {
        engine: &'static str,
        symmetry: &'static str,
    },
    #[error("cannot start the worker threads: {0}")]
    Threads(String),
    #[error("internal error: the solution count {solutions} disagrees with its residue {residue}")]
    Residue { solutions: u128, residue: u64 },
}

/// Engine work. `updates` and `mems` are counted by the dlx engine only.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Work {
    pub nodes: u64,
    pub updates: Option<u64>,
    pub mems: Option<u64>,
}

/// The result of a count (of one shard, or the whole).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Counted {
    pub solutions: u128,
    /// Fundamental solutions, when asked for.
    pub unique: Option<u128>,
    pub work: Work,
    /// Tasks counted (in this shard).
    pub tasks: usize,
    /// Tasks of the whole split.
    pub tasks_total: usize,
    /// `solutions mod RESIDUE_MODULUS`, summed task by task (equal to it: [`count`] checks).
    pub residue: u64,
}

/// Counts as asked, on a pool of `request.threads` threads. `progress(done, total,
/// solutions_so_far)` is called from the workers after each task.
pub fn count(
    request: &Request,
    progress: &(dyn Fn(usize, usize, u128) + Sync),
) -> Result<Counted, CountError> {
    request.validate()?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(request.threads.unwrap_or(0))
        .build()
        .map_err(|e| CountError::Threads(e.to_string()))?;
    let n = request.n;
    let shard = request.shard.as_pair();
    let counted = match request.engine {
        Engine::Dlx => {
            let model = Queens::new(n).map_err(|_| CountError::BadSize {
                n,
                engine: "dlx",
                max: model::MAX_N,
            })?;
            let config = CountConfig {
                unique: request.unique,
                reduction: request.reduction(),
                shard: Some(shard),
            };
            let c = pool
                .install(|| model::count(&model, &config, progress))
                .expect("request validated");
            Counted {
                solutions: c.solutions,
                unique: c.unique,
                work: Work {
                    nodes: c.work.nodes,
                    updates: Some(c.work.updates),
                    mems: Some(c.work.mems),
                },
                tasks: c.tasks,
                tasks_total: c.tasks_total,
                residue: c.residue,
            }
        }
        Engine::Bits => {
            let c = pool.install(|| bits::count(n, request.unique, Some(shard), progress));
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
            }
        }
    };
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
        r.seal()
    }
}

/// The rules of a `queens-count` record, checked by [`crate::io::shard::merge`] on each record
/// and on the total: n in the engine's range, a known engine and symmetry it takes, the
/// fingerprint of exactly these parameters, status complete, and for a whole count (1/1)
/// `unique <= solutions <= 8·unique` when both are counted.
pub fn check_record(r: &ShardRecord) -> Result<(), String> {
    let n = r.n.ok_or("a queens-count record without n")? as usize;
    let engine = r
        .engine
        .as_deref()
        .and_then(Engine::parse)
        .ok_or_else(|| format!("unknown engine {:?}", r.engine.as_deref().unwrap_or("")))?;
    let symmetry = r
        .symmetry
        .as_deref()
        .and_then(Reduction::parse)
        .ok_or_else(|| format!("unknown symmetry {:?}", r.symmetry.as_deref().unwrap_or("")))?;
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
    if r.status != crate::io::shard::Status::Complete {
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
