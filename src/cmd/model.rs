//! `xcover model NAME ARGS`: write a classic exact-cover model in Knuth's DLX format (stdout,
//! or `-o FILE` written atomically), for `xcover solve`. The models are built by the crate's
//! list of them (`crate::models::registry`, as the Python package builds them); this layer
//! reads the arguments and input files into a `Spec` and writes the text. With `--solve` a
//! model is solved in-process instead and each solution drawn by the model's decoder; `model
//! sudoku --solve` solves every puzzle of its file, each solution drawn as a grid (or, with
//! `--line`, as one 81-character line).
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::cmd::{InputError, diag};
use crate::io::dlx_format;
use crate::io::output::Output;
use crate::models::registry::{Built, Spec};
use crate::models::{self, Model, ModelError};

#[derive(clap::Subcommand, Debug)]
pub enum ModelCommand {
    /// Langford pairs: two of each number 1..N in a row, k places between the two k's.
    #[command(after_help = LANGFORD_EXAMPLES)]
    Langford(LangfordArgs),
    /// The twelve pentominoes on a board (default 6x10), in all rotations and reflections.
    #[command(after_help = PENTOMINOES_EXAMPLES)]
    Pentominoes(PentominoArgs),
    /// A sudoku puzzle (81 characters, `.` or `0` for blanks), or a file of them with --solve.
    #[command(after_help = SUDOKU_EXAMPLES)]
    Sudoku(SudokuArgs),
    /// Perfect matchings of the complete graph K_N.
    #[command(after_help = MATCHINGS_EXAMPLES)]
    Matchings(SizeArgs),
    /// N queens on an NxN board (diagonals are secondary items).
    #[command(after_help = QUEENS_EXAMPLES)]
    Queens(QueensArgs),
    /// Double word squares from a word list (an exact cover with colours).
    #[command(after_help = WORD_SQUARES_EXAMPLES)]
    WordSquares(WordSquareArgs),
    /// Domino tilings of a rectangle, with the number of horizontal and vertical dominoes
    /// bounded (items with multiplicities, `u:v|h`).
    #[command(after_help = DOMINOES_EXAMPLES)]
    Dominoes(DominoArgs),
    /// MacMahon's coloured squares (every square whose edges are coloured from C colours, one
    /// per colouring up to rotation) on a board, the border of one colour (colours).
    #[command(name = "macmahon", after_help = MACMAHON_EXAMPLES)]
    MacMahon(MacMahonArgs),
    /// A random edge-matching puzzle made from a seed: a solved grid of coloured edges cut into
    /// its tiles and shuffled (colours).
    #[command(after_help = EDGE_MATCHING_EXAMPLES,
              mut_arg("sample_seed", |a| a.long("sample-seed")))]
    EdgeMatching(EdgeMatchingArgs),
}

const LANGFORD_EXAMPLES: &str = "Examples:\n  xcover model langford 7 | xcover solve --count            # 52\n  xcover model langford 12 -o langford12.dlx";
const PENTOMINOES_EXAMPLES: &str = "Examples:\n  xcover model pentominoes 3x20 | xcover solve --count       # 8\n  xcover model pentominoes 8x8-minus-centre | xcover solve --count\n  xcover model pentominoes 3x20 --solve --limit 2   # two tilings, drawn";
const SUDOKU_EXAMPLES: &str = "Examples:\n  xcover model sudoku 53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79 --solve\n  xcover model sudoku --file puzzles.txt --solve --line -o solutions.txt";
const MATCHINGS_EXAMPLES: &str = "Examples:\n  xcover model matchings 10 | xcover solve --count          # 945\n  xcover model matchings 18 | xcover solve --count --memo on";
const QUEENS_EXAMPLES: &str = "Examples:\n  xcover model queens 8 | xcover solve --count             # 92\n  xcover model queens 13 -o queens13.dlx";
const WORD_SQUARES_EXAMPLES: &str = "Examples:\n  xcover model word-squares examples/data/words3.txt | xcover solve --count\n  xcover model word-squares examples/data/words3.txt | xcover solve --limit 1";
const MACMAHON_EXAMPLES: &str = "Examples:\n  xcover model macmahon 2x3 --colours 2 --border none | xcover solve --count   # 416\n  xcover model macmahon 4x6 --solve                # one tiling, drawn\n  xcover model macmahon 4x6 -o macmahon.dlx";
const EDGE_MATCHING_EXAMPLES: &str = "Examples:\n  xcover model edge-matching 7x7 --colours 7 --seed 1 -o em7.dlx\n  xcover model edge-matching 4x4 --colours 3 --solve --limit 4";
const DOMINOES_EXAMPLES: &str = "Examples:\n  xcover model dominoes 6 6 | xcover solve --count          # 6728\n  xcover model dominoes 4 5 --horizontal 2:4 | xcover solve --count";

/// What every model writes, and where.
#[derive(clap::Args, Debug)]
pub struct Out {
    /// Write to FILE (atomically) instead of stdout.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Solve the model here instead of writing its DLX text: each solution as a picture
    /// followed by a blank line (sudoku: the grid; with --line one 81-character line).
    #[arg(long)]
    pub solve: bool,
    /// With --solve: at most N solutions (of each puzzle, for sudoku).
    #[arg(long, value_name = "N", default_value_t = 1, requires = "solve",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: u64,
    #[command(flatten)]
    pub family: super::family_out::FamilyArgs,
}

#[derive(clap::Args, Debug)]
pub struct LangfordArgs {
    /// The largest number (1 to 200).
    #[arg(value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..=models::langford::MAX_N as i64))]
    pub n: u32,
    #[command(flatten)]
    pub out: Out,
}

#[derive(clap::Args, Debug)]
pub struct SizeArgs {
    /// The number of vertices (1 to 1000).
    #[arg(value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..=models::matchings::MAX_N as i64))]
    pub n: u32,
    #[command(flatten)]
    pub out: Out,
}

#[derive(clap::Args, Debug)]
pub struct QueensArgs {
    /// Board size (1 to 32).
    #[arg(value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..=crate::queens::model::MAX_N as i64))]
    pub n: u32,
    #[command(flatten)]
    pub out: Out,
}

#[derive(clap::Args, Debug)]
pub struct PentominoArgs {
    /// A built-in board: RxC (6x10, 5x12, 4x15, 3x20, ...) or 8x8-minus-centre.
    #[arg(value_name = "BOARD", default_value = "6x10", conflicts_with = "board")]
    pub name: String,
    /// A board drawn in FILE (`-` for stdin): `.` a cell, `#` a hole, one line per row.
    #[arg(long, value_name = "FILE")]
    pub board: Option<PathBuf>,
    #[command(flatten)]
    pub out: Out,
}

#[derive(clap::Args, Debug)]
pub struct SudokuArgs {
    /// The puzzle: 81 characters row by row, `1`-`9` for clues, `.` or `0` for blanks.
    #[arg(
        value_name = "PUZZLE",
        required_unless_present = "file",
        conflicts_with = "file"
    )]
    pub puzzle: Option<String>,
    /// Read puzzles from FILE (`-` for stdin), one per line (blank lines and lines starting
    /// with `#` are skipped); without --solve it must hold one.
    #[arg(long, value_name = "FILE")]
    pub file: Option<PathBuf>,
    /// With --solve: each solution as one 81-character line (no blank line), as the
    /// puzzles are given, instead of the grid.
    #[arg(long, requires = "solve")]
    pub line: bool,
    // With --solve: the puzzles are solved in parallel.
    #[command(flatten)]
    pub threads: super::Threads,
    #[command(flatten)]
    pub out: Out,
}

#[derive(clap::Args, Debug)]
pub struct WordSquareArgs {
    /// The word list (`-` for stdin): one word per line, all of one length, letters and digits.
    #[arg(value_name = "WORDS")]
    pub words: PathBuf,
    #[command(flatten)]
    pub out: Out,
}

#[derive(clap::Args, Debug)]
pub struct DominoArgs {
    /// The number of rows (1 to 256).
    #[arg(value_name = "ROWS",
          value_parser = clap::value_parser!(u32).range(1..=models::dominoes::MAX_SIDE as i64))]
    pub rows: u32,
    /// The number of columns (1 to 256).
    #[arg(value_name = "COLS",
          value_parser = clap::value_parser!(u32).range(1..=models::dominoes::MAX_SIDE as i64))]
    pub cols: u32,
    /// Between U and V horizontal dominoes (`V` alone: exactly V) [default: any number].
    #[arg(long, value_name = "U:V", value_parser = parse_range)]
    pub horizontal: Option<(u32, u32)>,
    /// Between U and V vertical dominoes (`V` alone: exactly V) [default: any number].
    #[arg(long, value_name = "U:V", value_parser = parse_range)]
    pub vertical: Option<(u32, u32)>,
    #[command(flatten)]
    pub out: Out,
}

#[derive(clap::Args, Debug)]
pub struct MacMahonArgs {
    /// The board, RxC, with as many cells as there are squares (3 colours: 24, such as 4x6 or
    /// 3x8; 2 colours: 6; 4 colours: 70).
    #[arg(value_name = "BOARD", default_value = "4x6", value_parser = parse_size)]
    pub board: (usize, usize),
    /// The number of colours, 2 to 4.
    #[arg(long, value_name = "C", default_value_t = 3,
          value_parser = clap::value_parser!(u32).range(2..=4))]
    pub colours: u32,
    /// The colour of every edge on the border (0 to C-1), or `none` for any border.
    #[arg(long, value_name = "COLOUR", default_value = "0", value_parser = parse_border)]
    pub border: BorderColour,
    #[command(flatten)]
    pub out: Out,
}

#[derive(clap::Args, Debug)]
pub struct EdgeMatchingArgs {
    /// The grid, RxC (sides 1 to 16).
    #[arg(value_name = "SIZE", value_parser = parse_size)]
    pub size: (usize, usize),
    /// The number of colours of the inner edges, 1 to 35 (the border is the frame colour 0).
    #[arg(long, value_name = "K", default_value_t = 7,
          value_parser = clap::value_parser!(u32).range(1..=models::edge_matching::MAX_COLOURS as i64))]
    pub colours: u32,
    /// The seed of the puzzle: the same seed, size and colours make the same puzzle.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Keep the tiles upright: no tile is turned, in the puzzle or by the solver (by default
    /// each tile is turned at random and may be placed in any of its four turns).
    #[arg(long)]
    pub no_rotations: bool,
    #[command(flatten)]
    pub out: Out,
}

/// `RxC`, two whole numbers.
fn parse_size(s: &str) -> Result<(usize, usize), String> {
    s.split_once('x')
        .and_then(|(r, c)| Some((r.parse().ok()?, c.parse().ok()?)))
        .ok_or_else(|| format!("'{s}' is not a size RxC (such as 4x6)"))
}

/// `--border`: a colour number, or `None` for `none`.
#[derive(Clone, Copy, Debug)]
pub struct BorderColour(pub Option<u8>);

/// A colour number, or `none`.
fn parse_border(s: &str) -> Result<BorderColour, String> {
    if s == "none" {
        return Ok(BorderColour(None));
    }
    s.parse::<u8>()
        .map(|c| BorderColour(Some(c)))
        .map_err(|_| format!("'{s}' is not a colour number (0, 1, ...) or 'none'"))
}

/// `U:V` or `V` (for `V:V`), as DLX3 writes multiplicities.
fn parse_range(s: &str) -> Result<(u32, u32), String> {
    let number = |t: &str| {
        t.parse::<u32>()
            .map_err(|_| format!("'{s}' is not a range U:V (or a number V) of whole numbers"))
    };
    let (u, v) = match s.split_once(':') {
        Some((u, v)) => (number(u)?, number(v)?),
        None => {
            let v = number(s)?;
            (v, v)
        }
    };
    if v == 0 || u > v {
        return Err(format!("'{s}': need U <= V and V >= 1"));
    }
    Ok((u, v))
}

/// A model's error as the user's input error; `file` names the input of a positioned one.
fn input_error(e: ModelError, file: &str) -> anyhow::Error {
    match e {
        ModelError::At {
            line,
            column,
            message,
        } => InputError(format!("{file}:{line}:{column}: {message}")).into(),
        other => InputError(other.to_string()).into(),
    }
}

/// The whole text of an input file (or stdin), read through the bounded line reader, and its
/// name for messages.
fn read_text(path: &Path, what: &str) -> anyhow::Result<(String, String)> {
    let mut input = super::open_input(Some(path), what)?;
    let name = input.name().to_string();
    let mut text = String::new();
    while let Some((_, line)) = input.next_line()? {
        text.push_str(line);
        text.push('\n');
    }
    Ok((text, name))
}

/// Writes a model's DLX text to `-o FILE` or stdout; with `--solve`, its first `--limit`
/// solutions as pictures instead; with `--sample` or `--marginals`, what its family of
/// solutions answers.
fn write_model(model: &Built, out: &Out) -> anyhow::Result<ExitCode> {
    if out.family.wanted() {
        if out.solve {
            return Err(InputError(
                "--solve cannot be combined with --sample or --marginals".into(),
            )
            .into());
        }
        return super::family_out::run_model(
            model,
            &out.family,
            out.output.as_deref(),
            model.heat_board(),
        );
    }
    let mut o = Output::create(out.output.as_deref())?;
    if out.solve {
        let mut result = Ok(());
        let mut found = 0u64;
        models::for_each_solution(
            model.problem(),
            &crate::engine::Budget::solutions(out.limit),
            |s| {
                found += 1;
                result = writeln!(o, "{}", model.decode(s));
                if result.is_ok() {
                    std::ops::ControlFlow::Continue(())
                } else {
                    std::ops::ControlFlow::Break(())
                }
            },
        );
        result?;
        if found == 0 {
            diag::notice("no solution");
        }
    } else {
        dlx_format::write(model.problem(), &model.title(), &mut o)?;
    }
    o.finish()?;
    Ok(ExitCode::SUCCESS)
}

/// The model of the registry that `spec` builds, a refusal as the user's input error.
fn build(spec: Spec) -> anyhow::Result<Built> {
    spec.build().map_err(|e| input_error(e, ""))
}

pub fn run(command: ModelCommand) -> anyhow::Result<ExitCode> {
    let (spec, out) = match command {
        ModelCommand::Langford(a) => (Spec::Langford(a.n as usize), a.out),
        ModelCommand::Matchings(a) => (Spec::Matchings(a.n as usize), a.out),
        ModelCommand::Queens(a) => (Spec::Queens(a.n as usize), a.out),
        ModelCommand::Pentominoes(a) => {
            use models::polyomino::Board;
            // A board from a file: every error names the file (the cell count too).
            let (board, name) = match &a.board {
                Some(path) => {
                    let (text, name) = read_text(path, "a board picture")?;
                    (
                        Board::parse(&text).map_err(|e| input_error(e, &name))?,
                        Some(name),
                    )
                }
                None => (
                    Board::named(&a.name).map_err(|e| match e {
                        ModelError::Invalid(m) => {
                            InputError(format!("{m}; or draw one in a file: --board FILE")).into()
                        }
                        other => input_error(other, ""),
                    })?,
                    None,
                ),
            };
            let spec = Spec::Polyomino {
                board,
                pieces: None,
            };
            let tiling = spec.build().map_err(|e| match &name {
                Some(name) => InputError(format!("{name}: {e}")).into(),
                None => input_error(e, ""),
            })?;
            return write_model(&tiling, &a.out);
        }
        ModelCommand::WordSquares(a) => {
            let (text, name) = read_text(&a.words, "a word list")?;
            let words =
                models::word_squares::parse_words(&text).map_err(|e| input_error(e, &name))?;
            (Spec::WordSquares(words), a.out)
        }
        ModelCommand::Dominoes(a) => (
            Spec::Dominoes {
                rows: a.rows as usize,
                cols: a.cols as usize,
                horizontal: a.horizontal,
                vertical: a.vertical,
            },
            a.out,
        ),
        ModelCommand::MacMahon(a) => (
            Spec::MacMahon {
                rows: a.board.0,
                cols: a.board.1,
                colours: a.colours as usize,
                border: a.border.0,
            },
            a.out,
        ),
        ModelCommand::EdgeMatching(a) => (
            Spec::EdgeMatching {
                rows: a.size.0,
                cols: a.size.1,
                colours: a.colours as usize,
                seed: a.seed,
                rotations: !a.no_rotations,
            },
            a.out,
        ),
        ModelCommand::Sudoku(a) => return sudoku(a),
    };
    write_model(&build(spec)?, &out)
}

/// Puzzles solved per batch: enough to keep the threads busy, few enough to stream.
const BATCH: usize = 4096;

fn sudoku(a: SudokuArgs) -> anyhow::Result<ExitCode> {
    use models::sudoku::{Grid, Puzzle, line, picture, solve_batch};
    // A solution as --line or the grid asks, with its line break(s).
    let solution = |g: &Grid| {
        if a.line {
            line(g) + "\n"
        } else {
            picture(g) + "\n"
        }
    };
    let at_line = |e: ModelError, file: &str, number: usize| match e {
        ModelError::At {
            column, message, ..
        } => input_error(
            ModelError::At {
                line: number,
                column,
                message,
            },
            file,
        ),
        other => input_error(other, file),
    };
    // The puzzle given as the argument: one line, named "argument".
    let Some(path) = &a.file else {
        let text = a.puzzle.as_deref().unwrap_or_default();
        let puzzle = Puzzle::parse(text).map_err(|e| at_line(e, "argument", 1))?;
        if !a.out.solve {
            return write_model(&build(Spec::Sudoku(puzzle))?, &a.out);
        }
        let mut out = Output::create(a.out.output.as_deref())?;
        let grids = &solve_batch(&[puzzle], a.out.limit)[0];
        if grids.is_empty() {
            diag::notice("the puzzle has no solution");
        }
        for g in grids {
            out.write_all(solution(g).as_bytes())?;
        }
        out.finish()?;
        return Ok(ExitCode::SUCCESS);
    };
    let mut input = super::open_input(Some(path), "sudoku puzzles")?;
    let name = input.name().to_string();
    if !a.out.solve {
        let mut first: Option<Puzzle> = None;
        while let Some((number, text)) = input.next_line()? {
            if text.trim().is_empty() || text.trim_start().starts_with('#') {
                continue;
            }
            if first.is_some() {
                return Err(InputError(format!(
                    "{name}:{number}:1: a second puzzle: a DLX file holds one problem (add \
                     --solve to solve every puzzle of the file)"
                ))
                .into());
            }
            first = Some(Puzzle::parse(text).map_err(|e| at_line(e, &name, number))?);
        }
        let Some(puzzle) = first else {
            return Err(InputError(format!("{name}: no puzzle in the file")).into());
        };
        return write_model(&build(Spec::Sudoku(puzzle))?, &a.out);
    }
    let pool = super::queens_count::thread_pool(a.threads.threads)?;
    let mut out = Output::create(a.out.output.as_deref())?;
    let mut batch = Vec::with_capacity(BATCH);
    let mut lines = Vec::with_capacity(BATCH);
    let flush =
        |batch: &mut Vec<Puzzle>, lines: &mut Vec<usize>, out: &mut Output| -> anyhow::Result<()> {
            let answers = pool.install(|| solve_batch(batch, a.out.limit));
            let mut text = String::new();
            for (grids, number) in answers.iter().zip(lines.iter()) {
                if grids.is_empty() {
                    diag::notice(&format!("{name}:{number}: no solution"));
                }
                for g in grids {
                    text.push_str(&solution(g));
                }
            }
            out.write_all(text.as_bytes())?;
            batch.clear();
            lines.clear();
            Ok(())
        };
    let mut any = false;
    while let Some((number, text)) = input.next_line()? {
        if text.trim().is_empty() || text.trim_start().starts_with('#') {
            continue;
        }
        any = true;
        batch.push(Puzzle::parse(text).map_err(|e| at_line(e, &name, number))?);
        lines.push(number);
        if batch.len() == BATCH {
            flush(&mut batch, &mut lines, &mut out)?;
        }
    }
    if !any {
        return Err(InputError(format!("{name}: no puzzle in the file")).into());
    }
    flush(&mut batch, &mut lines, &mut out)?;
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use clap::Subcommand;

    use super::ModelCommand;
    use crate::models::registry::MODELS;

    #[test]
    fn the_subcommands_are_the_registry_s_models() {
        let cmd = ModelCommand::augment_subcommands(clap::Command::new("model"));
        let names: Vec<&str> = cmd.get_subcommands().map(|c| c.get_name()).collect();
        let models: Vec<&str> = MODELS.iter().map(|m| m.command).collect();
        assert_eq!(names, models);
    }
}
