//! `model NAME --marginals` and `model NAME --sample K`: a model's family of solutions
//! ([`crate::engine::family`]) built, then written through io's exporters
//! ([`crate::io::family`]: the marginals' table and records, samples as pictures), the
//! queens heat map's table, or the crate's picture of the marginals
//! ([`crate::models::pictures`]).

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use crate::cmd::{InputError, diag};
use crate::engine::family::{Family, FamilyError};
use crate::engine::zdd::ZddError;
use crate::io::dlx_format;
use crate::io::export::Format;
use crate::io::family::{text_pictures_svg, write_marginals};
use crate::io::output::Output;
use crate::models::Model;

/// The formats of `model NAME --sample` and `--marginals`.
const FORMATS: &[(Format, &str)] = &[
    (
        Format::Text,
        "--sample: each draw as --solve draws a solution; --marginals: a line per option (queens: the heat map's table)",
    ),
    (
        Format::Svg,
        "--sample: the draws drawn one under the other; --marginals: the heat map (queens), a heat map per mark of the picture (the other grid models)",
    ),
    (
        Format::Csv,
        "--marginals: `option,line,text,solutions,share`, one row per option",
    ),
    (
        Format::Json,
        "--marginals: JSON Lines, the fields of the CSV",
    ),
];

/// The options of `xcover model NAME` that ask the model's family of solutions.
#[derive(clap::Args, Debug)]
pub struct FamilyArgs {
    /// Draw K solutions (1 to 1,000) exactly uniformly, with replacement, from the model's
    /// solutions (as a ZDD), each drawn as --solve draws a solution.
    #[arg(long, value_name = "K", conflicts_with = "marginals",
          value_parser = clap::value_parser!(u64).range(1..=1000))]
    pub sample: Option<u64>,
    /// The seed of --sample: the same seed, the same draws (edge-matching, whose --seed makes
    /// the puzzle: --sample-seed).
    #[arg(
        id = "sample_seed",
        long = "seed",
        value_name = "S",
        default_value_t = 0,
        requires = "sample"
    )]
    pub seed: u64,
    /// For each option, the number of solutions that take it: a table (text, CSV, JSON
    /// Lines) or a heat map (SVG: queens as `queens heatmap` draws it, the other models drawn
    /// as a grid one panel per mark; queens also in text).
    #[arg(long)]
    pub marginals: bool,
    /// The format of --sample or --marginals.
    #[arg(long, value_parser = Format::parser(FORMATS), default_value = "text")]
    pub format: Format,
    /// The memory the diagram of --sample or --marginals may use, e.g. `64M`, `2G`; beyond
    /// it the command stops and writes nothing.
    #[arg(long, value_name = "SIZE", value_parser = super::parse_size, default_value = "256M")]
    pub memo_mem: u64,
}

impl FamilyArgs {
    /// Whether --sample or --marginals was asked.
    pub fn wanted(&self) -> bool {
        self.sample.is_some() || self.marginals
    }
}

/// `model NAME --sample K` or `--marginals`: the model's family built, then what was asked
/// written to `output` (stdout when `None`). `board`: the side of the square board whose
/// square (r, c) is option r·n + c (queens), whose marginals are a heat map.
pub fn run_model(
    model: &dyn Model,
    args: &FamilyArgs,
    output: Option<&Path>,
    board: Option<usize>,
) -> anyhow::Result<ExitCode> {
    let flag = if args.marginals {
        "--marginals"
    } else {
        "--sample"
    };
    if args.sample.is_some() && args.format.is_records() {
        return Err(InputError(format!(
            "--sample draws the solutions as pictures (--format text or svg); for records of \
             samples write the model and use `xcover solve --sample K --format {}`",
            args.format.name()
        ))
        .into());
    }
    let family = match Family::build(model.problem(), args.memo_mem, &mut || false) {
        Ok(f) => f,
        Err(FamilyError::Build(e @ ZddError::Multiplicities)) => {
            return Err(InputError(format!("{flag}: {e}")).into());
        }
        Err(e @ FamilyError::Build(ZddError::Memory { .. })) => {
            anyhow::bail!("{flag}: {e}: nothing written (a larger --memo-mem may do)")
        }
        Err(e) => anyhow::bail!("{flag}: {e}"),
    };
    let mut out = Output::create(output)?;
    if let Some(k) = args.sample {
        let draws = family
            .sample(k as usize, args.seed)
            .map_err(|e| anyhow::anyhow!("--sample: {e}"))?;
        if draws.is_empty() {
            diag::notice("no solution to sample from");
        }
        let pictures: Vec<String> = draws.iter().map(|s| model.decode(s)).collect();
        if args.format == Format::Svg {
            let title = format!(
                "{}: {} uniform sample{} (seed {})",
                model.title(),
                draws.len(),
                if draws.len() == 1 { "" } else { "s" },
                args.seed
            );
            text_pictures_svg(&mut out, &pictures, &title)?;
        } else {
            for p in &pictures {
                writeln!(out, "{p}")?;
            }
        }
    } else if args.format == Format::Svg {
        let (total, counts) = marginals(&family)?;
        // The crate's picture, drawn whole first: a model without a grid refuses before any
        // output.
        let Some(svg) = crate::models::pictures::marginals(model, board, total, &counts) else {
            return Err(InputError(
                "--marginals --format svg: this model's picture is not a grid of cells, so it \
                 has no heat map; --format csv or json gives the table"
                    .into(),
            )
            .into());
        };
        out.write_all(svg.as_bytes())?;
    } else if let (Some(n), Format::Text) = (board, args.format) {
        let (total, counts) = marginals(&family)?;
        crate::io::records::write_heatmap_text(&mut out, n, &counts, total, false)?;
    } else {
        // The options' lines in the DLX text the model writes.
        let text = dlx_format::to_string(model.problem(), &model.title())?;
        let dlx = dlx_format::parse(text.as_bytes(), "model")?;
        let (total, counts) = marginals(&family)?;
        write_marginals(&mut out, args.format, total, &counts, |o| {
            (dlx.line_of(o), model.problem().format_option(o))
        })?;
    }
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}

/// A family's count and marginals, or its error as the command's.
pub fn marginals(family: &Family) -> anyhow::Result<(u128, Vec<u128>)> {
    let err = |e: FamilyError| anyhow::anyhow!("--marginals: {e}");
    Ok((
        family.count().map_err(err)?,
        family.marginals().map_err(err)?,
    ))
}
