//! `xcover solve --zdd FILE` and `xcover solve --sample K [--seed S]`: the solutions as a
//! ZDD ([`crate::engine::zdd`]), written in the text of [`crate::io::zdd_text`], and K
//! solutions drawn exactly uniformly from it, with replacement (each draw independent of
//! the others, so a solution may come twice), listed as `solve` lists solutions (text, CSV
//! or JSON Lines, numbered 1 to K in the order drawn).
//!
//! The diagram is built on one thread within `--memo-mem` (refused, nothing written, exit 2
//! when it would outgrow it), and only then are the files written: `--zdd FILE` as `-o` is
//! (atomically; `-` is stdout), the samples to stdout or `-o FILE`. `--time-limit` or an
//! interrupt before the diagram is complete writes nothing either. Items with
//! multiplicities are refused (the memo's keys do not describe their sub-problems); costs
//! are carried along (an option is written as in the input) but play no part.
//!
//! `--marginals` writes, from the same diagram, the number of solutions taking each option
//! ([`crate::io::family::write_marginals`]) to stdout or `-o FILE`.
//!
//! `solve` turns its flags into a [`Request`] once and hands it over.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use crate::cmd::{InputError, diag};
use crate::engine::family::Family;
use crate::engine::zdd::{Sampler, Zdd, ZddError};
use crate::engine::{OptionId, Solver, Stop};
use crate::io::dlx_format::DlxFile;
use crate::io::export::Format;
use crate::io::family::write_marginals;
use crate::io::output::Output;
use crate::io::solve::{SolutionWriter, zdd_line};
use crate::random::SplitMix64;

/// What `solve --zdd`, `--sample` or `--marginals` asks: `solve`'s flags, decided.
#[derive(Debug)]
pub struct Request {
    /// `--zdd FILE`: where the diagram goes (`-`: stdout).
    pub zdd: Option<PathBuf>,
    /// `--sample K`: the draws.
    pub sample: Option<u64>,
    /// `--seed S` of the draws.
    pub seed: u64,
    /// `--marginals`.
    pub marginals: bool,
    /// The format of the samples and marginals.
    pub format: Format,
    /// `-o FILE`: where the samples or marginals go (stdout when `None`).
    pub output: Option<PathBuf>,
    /// `--stats`: the diagram's line on stderr.
    pub stats: bool,
    /// `--time-limit`: for the build of the diagram.
    pub time_limit: Option<Duration>,
    /// `--memo-mem`: the memory the diagram may use.
    pub memo_mem: u64,
}

impl Request {
    /// Whether the diagram is wanted at all (then [`run`] does the work).
    pub fn wanted(&self) -> bool {
        self.zdd.is_some() || self.sample.is_some() || self.marginals
    }

    /// The flag that asked for the diagram, for messages.
    fn flag(&self) -> &'static str {
        if self.zdd.is_some() {
            "--zdd"
        } else if self.marginals {
            "--marginals"
        } else {
            "--sample"
        }
    }
}

/// Builds the diagram of `dlx`'s problem and writes what `args` ask for.
pub fn run(args: &Request, dlx: &DlxFile) -> anyhow::Result<ExitCode> {
    if dlx.problem.has_multiplicities() {
        return Err(InputError(format!("{}: {}", args.flag(), ZddError::Multiplicities)).into());
    }
    let to_stdout = |p: &std::path::Path| p == std::path::Path::new("-");
    if args.sample.is_some()
        && args.zdd.as_deref().is_some_and(to_stdout)
        && args.output.as_deref().is_none_or(to_stdout)
    {
        return Err(InputError(
            "--zdd - and --sample would both write to stdout: give --zdd a file, or -o FILE".into(),
        )
        .into());
    }
    if args.marginals
        && args.zdd.as_deref().is_some_and(to_stdout)
        && args.output.as_deref().is_none_or(to_stdout)
    {
        return Err(InputError(
            "--zdd - and --marginals would both write to stdout: give --zdd a file, or -o FILE"
                .into(),
        )
        .into());
    }
    if args.sample.is_none() && !args.marginals && args.output.is_some() {
        return Err(InputError(
            "-o writes the samples of --sample: --zdd takes its own FILE".into(),
        )
        .into());
    }
    let deadline = args.time_limit.and_then(|t| Instant::now().checked_add(t));
    // Ctrl-C stops the build; nothing is written then.
    let interrupt = Stop::new();
    crate::io::output::stop_gracefully_on_interrupt(&interrupt);
    let start = Instant::now();
    let mut stop = || interrupt.requested() || deadline.is_some_and(|d| Instant::now() >= d);
    let built = Zdd::build(&mut Solver::new(&dlx.problem), args.memo_mem, &mut stop);
    let zdd = match built {
        Ok(zdd) => zdd,
        Err(ZddError::Stopped) if interrupt.requested() => {
            diag::notice("interrupted before the ZDD was complete: nothing written");
            return Ok(crate::io::output::interrupt_exit_code().unwrap_or(ExitCode::FAILURE));
        }
        Err(ZddError::Stopped) => {
            anyhow::bail!("--time-limit ran out before the ZDD was complete: nothing written")
        }
        Err(e @ ZddError::Memory { .. }) => {
            anyhow::bail!("{e}: nothing written (a larger --memo-mem may do)")
        }
        Err(e) => anyhow::bail!("{e}"),
    };
    let count = zdd.count();
    if args.stats {
        let seconds = start.elapsed().as_secs_f64();
        diag::notice(&zdd_line(&zdd, count.as_ref().ok().copied(), seconds));
    }
    if let Some(path) = &args.zdd {
        let mut out = Output::create(Some(path))?;
        crate::io::zdd_text::write(&mut out, &zdd, count.as_ref().ok().copied(), |o| {
            (dlx.line_of(o), dlx.problem.format_option(o))
        })?;
        out.finish()?;
    }
    if let Some(k) = args.sample {
        let sampler = Sampler::new(&zdd).map_err(|e| anyhow::anyhow!("--sample: {e}"))?;
        let mut out = Output::create(args.output.as_deref())?;
        write_samples(&mut out, args, dlx, &sampler, k)?;
        out.finish()?;
        if sampler.count() == 0 {
            diag::notice("no solution to sample from");
        }
    }
    if args.marginals {
        let family = Family::from_zdd(zdd, dlx.problem.option_count(), args.memo_mem);
        let mut out = Output::create(args.output.as_deref())?;
        let (total, counts) = super::family_out::marginals(&family)?;
        write_marginals(&mut out, args.format, total, &counts, |o| {
            (dlx.line_of(o), dlx.problem.format_option(o))
        })?;
        out.finish()?;
    }
    Ok(ExitCode::SUCCESS)
}

/// K draws (none when there is no solution), in `args.format`.
fn write_samples(
    out: &mut Output,
    args: &Request,
    dlx: &DlxFile,
    sampler: &Sampler<'_>,
    k: u64,
) -> anyhow::Result<()> {
    let mut rng = SplitMix64::new(args.seed);
    let mut options: Vec<OptionId> = Vec::new();
    let draws = if sampler.count() == 0 { 0 } else { k };
    let mut w = SolutionWriter::new(&mut *out, args.format, dlx, false)?;
    for number in 1..=draws {
        sampler.draw(&mut rng, &mut options);
        w.write(number, None, &options)?;
    }
    w.end()?;
    if !args.format.is_records() {
        out.flush()?;
    }
    Ok(())
}
