//! `xcover completions SHELL` and `xcover man`: a shell's completion script and the man page,
//! both generated from the clap definition of the command line ([`super::Cli`]), so they
//! cannot fall behind it.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::CommandFactory;

use crate::io::output::Output;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
    /// Write to FILE (atomically) instead of stdout.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
}

#[derive(clap::Args, Debug)]
pub struct ManArgs {
    /// Write to FILE (atomically) instead of stdout.
    #[arg(
        short = 'o',
        long = "output",
        value_name = "FILE",
        conflicts_with = "dir"
    )]
    pub output: Option<PathBuf>,
    /// Write one page per command into DIR instead: xcover.1, xcover-solve.1,
    /// xcover-queens-count.1, ... (each replaced atomically; DIR must exist).
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

/// The completion script of `shell`, as bytes.
pub fn completion_script(shell: clap_complete::Shell) -> Vec<u8> {
    let mut cmd = super::Cli::command();
    let mut buf = Vec::new();
    // Into memory: clap_complete panics on a failed write (a closed pipe); `Output` does not.
    clap_complete::generate(shell, &mut cmd, "xcover", &mut buf);
    buf
}

/// The man page (roff): the command, then a section per subcommand.
pub fn man_page() -> std::io::Result<Vec<u8>> {
    let cmd = super::Cli::command();
    let mut buf = Vec::new();
    clap_mangen::Man::new(cmd).render(&mut buf)?;
    Ok(buf)
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let script = completion_script(args.shell);
    let mut out = Output::create(args.output.as_deref())?;
    out.write_all(&script)?;
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}

/// Every page, `xcover.1` and one per subcommand (`xcover-queens-count.1`), as (file name,
/// roff) pairs, rendered by clap_mangen into a temporary directory.
pub fn man_pages() -> anyhow::Result<Vec<(String, Vec<u8>)>> {
    let tmp = tempfile::tempdir()?;
    clap_mangen::generate_to(super::Cli::command(), tmp.path())?;
    let mut pages = Vec::new();
    for entry in std::fs::read_dir(tmp.path())? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        pages.push((name, std::fs::read(entry.path())?));
    }
    pages.sort();
    Ok(pages)
}

pub fn run_man(args: ManArgs) -> anyhow::Result<ExitCode> {
    if let Some(dir) = &args.dir {
        if !dir.is_dir() {
            return Err(
                super::InputError(format!("--dir {}: not a directory", dir.display())).into(),
            );
        }
        for (name, page) in man_pages()? {
            let mut out = Output::create(Some(&dir.join(&name)))?;
            out.write_all(&page)?;
            out.finish()?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    let page = man_page()?;
    let mut out = Output::create(args.output.as_deref())?;
    out.write_all(&page)?;
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}
