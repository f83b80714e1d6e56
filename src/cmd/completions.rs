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
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
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

pub fn run_man(args: ManArgs) -> anyhow::Result<ExitCode> {
    let page = man_page()?;
    let mut out = Output::create(args.output.as_deref())?;
    out.write_all(&page)?;
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}
