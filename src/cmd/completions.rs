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

/// The whole manual as one roff page, as `man -l -` shows it: xcover's own sections (name,
/// synopsis, description, options, commands, examples), then one section per command, depth
/// first (`XCOVER SOLVE`, `XCOVER QUEENS COUNT`, ...), each with its synopsis, description,
/// options and examples.
pub fn man_page() -> std::io::Result<Vec<u8>> {
    let mut top = super::Cli::command();
    top.build();
    let mut page = Vec::new();
    let man = clap_mangen::Man::new(top.clone());
    man.render_title(&mut page)?;
    man.render_name_section(&mut page)?;
    page.extend(synopsis_section(&top).as_bytes());
    page.extend(without_preamble(&section(|w| {
        man.render_description_section(w)
    })?));
    page.extend(without_preamble(&section(|w| {
        man.render_options_section(w)
    })?));
    page.extend(command_list(&top).as_bytes());
    page.extend(examples(&man, &top, ".SH EXAMPLES")?);
    for cmd in commands(&top) {
        let man = clap_mangen::Man::new(cmd.clone());
        let name = cmd.get_bin_name().unwrap_or(cmd.get_name());
        page.extend(format!(".SH \"{}\"\n", roff_escape(&name.to_uppercase())).as_bytes());
        page.extend(synopsis_line(cmd).as_bytes());
        page.extend(without_heading(&section(|w| {
            man.render_description_section(w)
        })?));
        let options = section(|w| man.render_options_section(w))?;
        page.extend(demoted(&options, "Options"));
        page.extend(examples(&man, cmd, ".SS Examples")?);
    }
    man.render_version_section(&mut page)?;
    Ok(page)
}

/// The COMMANDS section of the one-page manual: every command with its one-line description;
/// each has a section of its own below.
fn command_list(top: &clap::Command) -> String {
    let mut roff = String::from(".SH COMMANDS\n");
    for cmd in commands(top) {
        let name = cmd.get_bin_name().unwrap_or(cmd.get_name());
        let about = cmd.get_about().map(|a| a.to_string()).unwrap_or_default();
        roff += &format!(
            ".TP\n\\fB{}\\fR\n{}\n",
            roff_escape(name),
            roff_escape(&about)
        );
    }
    roff
}

/// Every command below `top`, depth first, in the order of `--help` (`help` left out).
fn commands(top: &clap::Command) -> Vec<&clap::Command> {
    let mut all = Vec::new();
    let shown = top
        .get_subcommands()
        .filter(|c| !c.is_hide_set() && c.get_name() != "help");
    for cmd in shown {
        all.push(cmd);
        all.extend(commands(cmd));
    }
    all
}

/// What one of clap_mangen's `render_*` methods writes.
fn section(render: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> std::io::Result<Vec<u8>> {
    let mut buf = Vec::new();
    render(&mut buf)?;
    Ok(buf)
}

/// Roff without the two lines that define the quote string (`.ie`/`.el`), which every
/// rendered piece repeats; the page's title keeps the first.
fn without_preamble(roff: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(roff);
    let kept: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with(".ie ") && !l.starts_with(".el "))
        .collect();
    if kept.is_empty() {
        return Vec::new();
    }
    (kept.join("\n") + "\n").into_bytes()
}

/// A piece without its preamble and its `.SH` heading (a command's description, under the
/// command's own heading).
fn without_heading(roff: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(&without_preamble(roff)).into_owned();
    let kept: Vec<&str> = text.lines().filter(|l| !l.starts_with(".SH")).collect();
    if kept.is_empty() {
        return Vec::new();
    }
    (kept.join("\n") + "\n").into_bytes()
}

/// A piece as a subsection titled `title` of a command's section (clap_mangen writes whole
/// sections).
fn demoted(roff: &[u8], title: &str) -> Vec<u8> {
    let body = without_heading(roff);
    if body.is_empty() {
        return body;
    }
    let mut out = format!(".SS {title}\n").into_bytes();
    out.extend(body);
    out
}

/// The examples a command's `--help` ends with, under `heading`, one per line as written.
fn examples(
    man: &clap_mangen::Man,
    cmd: &clap::Command,
    heading: &str,
) -> std::io::Result<Vec<u8>> {
    if cmd.get_after_help().is_none() && cmd.get_after_long_help().is_none() {
        return Ok(Vec::new());
    }
    let body = without_heading(&section(|w| man.render_extra_section(w))?);
    let mut out = format!("{heading}\n").into_bytes();
    out.extend(body);
    Ok(out)
}

/// `text` with roff's special characters escaped (backslash, hyphen; a leading dot or quote).
fn roff_escape(text: &str) -> String {
    let escaped = text.replace('\\', "\\e").replace('-', "\\-");
    if escaped.starts_with('.') || escaped.starts_with('\'') {
        format!("\\&{escaped}")
    } else {
        escaped
    }
}

/// A command's SYNOPSIS section.
fn synopsis_section(cmd: &clap::Command) -> String {
    format!(".SH SYNOPSIS\n{}", synopsis_line(cmd))
}

/// A command's synopsis as one roff text line: its name in bold, every option with its value
/// names (`[\-o|\-\-output FILE]`, required ones in `<...>`), the positionals, and the
/// subcommand placeholder.
fn synopsis_line(cmd: &clap::Command) -> String {
    let bold = |s: &str| format!("\\fB{}\\fR", roff_escape(s));
    let italic = |s: &str| format!("\\fI{}\\fR", roff_escape(s));
    let value_names = |arg: &clap::Arg| -> String {
        match arg.get_value_names() {
            Some(names) => names
                .iter()
                .map(|n| italic(n))
                .collect::<Vec<_>>()
                .join(" "),
            None => italic(&arg.get_id().as_str().to_uppercase()),
        }
    };
    let name = cmd.get_bin_name().unwrap_or(cmd.get_name());
    let mut words = vec![bold(name)];
    let visible: Vec<&clap::Arg> = cmd.get_arguments().filter(|a| !a.is_hide_set()).collect();
    for arg in visible.iter().filter(|a| !a.is_positional()) {
        let flag = match (arg.get_short(), arg.get_long()) {
            (Some(s), Some(l)) => format!("{}|{}", bold(&format!("-{s}")), bold(&format!("--{l}"))),
            (Some(s), None) => bold(&format!("-{s}")),
            (None, Some(l)) => bold(&format!("--{l}")),
            (None, None) => continue,
        };
        let takes_value = arg.get_num_args().is_some_and(|r| r.takes_values())
            && !matches!(
                arg.get_action(),
                clap::ArgAction::SetTrue
                    | clap::ArgAction::SetFalse
                    | clap::ArgAction::Count
                    | clap::ArgAction::Help
                    | clap::ArgAction::HelpShort
                    | clap::ArgAction::HelpLong
                    | clap::ArgAction::Version
            );
        let word = if takes_value {
            format!("{flag} {}", value_names(arg))
        } else {
            flag
        };
        words.push(if arg.is_required_set() {
            format!("<{word}>")
        } else {
            format!("[{word}]")
        });
    }
    for arg in visible.iter().filter(|a| a.is_positional()) {
        let word = value_names(arg);
        words.push(if arg.is_required_set() {
            format!("<{word}>")
        } else {
            format!("[{word}]")
        });
    }
    if cmd.has_subcommands() {
        words.push(format!("<{}>", italic("COMMAND")));
    }
    words.join(" ") + "\n"
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
    let mut top = super::Cli::command();
    top.build();
    let mut all = commands(&top);
    all.push(&top);
    let mut pages = Vec::new();
    for entry in std::fs::read_dir(tmp.path())? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let mut page = String::from_utf8(std::fs::read(entry.path())?)?;
        // clap_mangen's SYNOPSIS leaves out the options' value names: put ours in its place.
        let command = all
            .iter()
            .find(|c| format!("{}.1", c.get_bin_name().unwrap_or("").replace(' ', "-")) == name);
        if let (Some(cmd), Some(at)) = (command, page.find(".SH SYNOPSIS\n")) {
            let start = at + ".SH SYNOPSIS\n".len();
            let end = page[start..]
                .find('\n')
                .map_or(page.len(), |e| start + e + 1);
            page.replace_range(start..end, &synopsis_line(cmd));
        }
        pages.push((name, page.into_bytes()));
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
