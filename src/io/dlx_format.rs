//! Knuth's DLX text format, as read by DLX1/DLX2 (and DLX5's option costs).
//!
//! ```text
//! | TAOCP 7.2.2.1 colour example       <- a comment: first non-blank character is '|'
//! p q r | x y                          <- the items: primary, then '|', then secondary
//! p q x y:A                            <- one option per line; x:A gives x colour A
//! p r x:A y |3                         <- '|3' at the end: the option costs 3 (DLX5)
//! ```
//!
//! The rules, exactly as DLX1/DLX2 read them:
//! - Lines whose first non-whitespace character is `|` are comments; blank lines are skipped.
//! - The first other line names the items, separated by whitespace: primary items first, then
//!   `|`, then the secondary items (the `|` and the secondary items may be left out).
//! - Every further line is one option: item names separated by whitespace. A secondary item
//!   may carry a colour, `item:colour`. Primary items carry none.
//! - An option without a primary item can never be chosen: it is ignored with a warning
//!   (returned in [`DlxFile::warnings`]; the CLI prints them on stderr, as DLX1 does).
//!
//! Extensions (a superset of Knuth's format; every file DLX1/DLX2 accept is read the same way):
//! - Names may be longer than Knuth's 8 bytes and colours longer than one character. A name or
//!   colour is any non-empty run of non-whitespace characters without `:` and `|`. Whitespace is
//!   Unicode whitespace (which includes C's `isspace` set).
//! - DLX5's costs: a token `|n` (n a decimal integer, no sign) at the end of an option adds n to
//!   the option's cost; several add up. Costs are nonnegative, as in DLX5, whose bounds rely on
//!   it; the sum must fit in an `i64`. Only further costs may follow a cost.
//! - `|` in the item line may be glued to the next name (`a b |c d`), as DLX1 allows.
//! - A UTF-8 byte-order mark at the start of the file is skipped.
//!
//! Limits: the file must be UTF-8 without NUL bytes; a line may hold at most
//! [`Limits::max_line_bytes`] bytes (16 MiB by default, [`crate::io::input::MAX_LINE_BYTES`];
//! Knuth's buffer is 900,003 bytes); the input is read as a stream of lines, and a line that
//! breaks these rules fails at once (`/dev/zero` fails on its first byte); the problem may have at most
//! [`Limits::max_nodes`] nodes (items + entries + options), which the engine's `u32` links
//! bound by [`MAX_NODES`].
//!
//! Errors carry the file name, the 1-based line and the 1-based column (counted in characters;
//! for invalid UTF-8, the characters before the bad byte + 1) and display as
//! `FILE:LINE:COL: message`. A name or a line quoted in a message is shortened and escaped by
//! [`crate::io::quote`].

use std::fmt;
use std::io::BufRead;

use crate::io::input::{InputErrorKind, LineReader, MAX_LINE_BYTES};
use crate::io::quote;

use crate::engine::{
    BuildError, Colour, Entry, ItemId, MAX_NODES, OptionId, Problem, ProblemBuilder,
};

/// Limits on what the reader accepts.
#[derive(Copy, Clone, Debug)]
pub struct Limits {
    /// The longest line, in bytes, without its line terminator.
    pub max_line_bytes: usize,
    /// The most nodes (items + entries + options) a problem may have.
    pub max_nodes: u64,
    /// The most memory the problem may take once read and made ready for the search,
    /// estimated at [`BYTES_PER_NODE`] a node.
    pub max_bytes: u64,
}

/// What a node of a problem costs at the peak of reading and searching it, in bytes: the
/// reader's arrays (an entry, an option's start, line and cost), then the engine's node
/// array beside them. Measured at about 31 bytes a node on `yes 'a b c'`-like input (125
/// bytes a line of four nodes); 40 leaves room for the arrays' growth.
pub const BYTES_PER_NODE: u64 = 40;

impl Default for Limits {
    /// The largest lines and problems the engine takes, within three quarters of the memory
    /// this process may take ([`crate::io::input::available_memory`], read once here).
    fn default() -> Self {
        let memory = crate::io::input::available_memory().unwrap_or(u64::MAX);
        Limits {
            max_line_bytes: MAX_LINE_BYTES,
            max_nodes: MAX_NODES,
            max_bytes: memory / 4 * 3,
        }
    }
}

/// What is wrong, without the position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ErrorKind {
    /// Bytes that are not UTF-8.
    #[error("invalid UTF-8")]
    InvalidUtf8,
    /// A NUL byte (binary input).
    #[error("NUL byte (\\0): this is not a text input")]
    NulByte,
    /// The input could not be read.
    #[error("cannot read: {0}")]
    Read(String),
    /// A line longer than the limit ([`Limits::max_line_bytes`]).
    #[error("line too long (more than {0} bytes)")]
    LineTooLong(usize),
    /// No item line: only blank lines and comments.
    #[error("no items: the first line that is not blank or a comment must name the items")]
    NoItems,
    /// `|` twice in the item line.
    #[error("'|' appears twice in the item line")]
    BarTwice,
    /// An item name containing `:` or `|`.
    #[error("invalid item name '{}' (names cannot contain ':' or '|')", quote(.0))]
    InvalidItemName(String),
    /// A multiplicity (DLX3's `u:v|name`) on a secondary item.
    #[error(
        "item '{}' has a multiplicity, but only primary items can have one \
         (secondary items are covered at most once)",
        quote(.0)
    )]
    Multiplicity(String),
    /// A multiplicity that is out of range: `v` = 0, `u` > `v`, or a number too large.
    #[error(
        "bad multiplicity '{}' (in 'u:v|name' or 'v|name', 0 <= u <= v, 1 <= v <= {})",
        quote(.0),
        u32::MAX
    )]
    BadMultiplicity(String),
    /// An item name before `:` is empty.
    #[error("empty item name before ':'")]
    EmptyItemName,
    /// An item declared twice.
    #[error("duplicate item name '{}'", quote(.0))]
    DuplicateItem(String),
    /// An option names an undeclared item.
    #[error("unknown item '{}'", quote(.0))]
    UnknownItem(String),
    /// An option names an item twice.
    #[error("item '{}' appears twice in one option", quote(.0))]
    ItemTwiceInOption(String),
    /// An option gives a primary item a colour.
    #[error("primary item '{}' cannot have a colour", quote(.0))]
    ColourOnPrimary(String),
    /// Nothing after `item:`.
    #[error("empty colour after '{}:'", quote(.0))]
    EmptyColour(String),
    /// A colour containing `:` or `|`.
    #[error("invalid colour '{}' (colours cannot contain ':' or '|')", quote(.0))]
    InvalidColour(String),
    /// A cost that is not `|` and a nonnegative decimal integer.
    #[error("invalid cost '{}' (a cost is '|' followed by a nonnegative decimal integer)", quote(.0))]
    InvalidCost(String),
    /// An option's costs add up to more than `i64::MAX`.
    #[error("the costs of this option add up to more than {}", i64::MAX)]
    CostOverflow,
    /// An item after a cost in an option line.
    #[error("item '{}' after a cost (costs come at the end of an option)", quote(.0))]
    ItemAfterCost(String),
    /// More nodes than the limit ([`Limits::max_nodes`]).
    #[error("too many nodes (more than {0})")]
    TooManyNodes(u64),
    /// More nodes than the memory limit holds ([`Limits::max_bytes`]).
    #[error(
        "the problem outgrows the memory this process may use: {nodes} nodes at about {} bytes \
         each would take more than {} (three quarters of the memory available, or of what \
         `ulimit -v` leaves)",
        BYTES_PER_NODE,
        human_bytes(*.max_bytes)
    )]
    TooBigForMemory {
        /// The nodes read so far.
        nodes: u64,
        /// The limit, in bytes.
        max_bytes: u64,
    },
    /// Another error of the problem builder.
    #[error(transparent)]
    Build(BuildError),
}

/// An error in a DLX file, with its position: displays as `FILE:LINE:COL: message`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}:{column}: {kind}")]
pub struct DlxError {
    /// The input's name.
    pub file: String,
    /// 1-based line number.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// What is wrong.
    pub kind: ErrorKind,
}

/// A warning: the input was read, but something in it is ignored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    /// The input's name.
    pub file: String,
    /// 1-based line number.
    pub line: usize,
    /// What is ignored, and why.
    pub message: String,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: warning: {}", self.file, self.line, self.message)
    }
}

/// A DLX file read into a problem.
#[derive(Debug, Clone)]
pub struct DlxFile {
    /// The problem read.
    pub problem: Problem,
    /// The 1-based line of each option of the problem (indexed by `OptionId`).
    pub option_lines: Vec<usize>,
    /// Options ignored because they have no primary item, in file order.
    pub warnings: Vec<Warning>,
}

impl DlxFile {
    /// The input line of an option.
    pub fn line_of(&self, option: OptionId) -> usize {
        self.option_lines[option.0 as usize]
    }
}

/// Reads a DLX file from bytes with the default [`Limits`]. `file` names the input in messages.
pub fn parse(bytes: &[u8], file: &str) -> Result<DlxFile, DlxError> {
    parse_with(bytes, file, &Limits::default())
}

/// Reads a DLX file from bytes. Never panics, whatever the bytes.
pub fn parse_with(bytes: &[u8], file: &str, limits: &Limits) -> Result<DlxFile, DlxError> {
    read_with(LineReader::new(bytes, file), limits)
}

/// Reads a DLX file from a stream of lines (a [`LineReader`], which wraps any `BufRead`) with
/// the default [`Limits`]: memory grows with the problem, not with the input's size.
pub fn read<R: BufRead>(input: LineReader<R>) -> Result<DlxFile, DlxError> {
    read_with(input, &Limits::default())
}

/// Reads a DLX file from a stream of lines; `limits.max_line_bytes` replaces the reader's own
/// line limit. Never panics, whatever the bytes.
pub fn read_with<R: BufRead>(
    mut input: LineReader<R>,
    limits: &Limits,
) -> Result<DlxFile, DlxError> {
    input.set_max_line_bytes(limits.max_line_bytes);
    let file = input.name().to_string();
    Reader {
        file: &file,
        limits,
        builder: ProblemBuilder::new(),
        stamp: Vec::new(),
        primary: Vec::new(),
        option_lines: Vec::new(),
        warnings: Vec::new(),
        nodes: 0,
    }
    .read(input)
}

struct Reader<'a> {
    file: &'a str,
    limits: &'a Limits,
    builder: ProblemBuilder,
    /// For each item, the last option line (1-based) that used it: finds an item twice in one
    /// option before the builder sees it, so the error has a column.
    stamp: Vec<usize>,
    /// Whether each item (by `ItemId`) is primary.
    primary: Vec<bool>,
    option_lines: Vec<usize>,
    warnings: Vec<Warning>,
    nodes: u64,
}

/// A line being read: its number and text, for error positions.
struct Line<'t> {
    number: usize,
    text: &'t str,
}

impl Line<'_> {
    /// The 1-based character column of byte offset `at`.
    fn column(&self, at: usize) -> usize {
        self.text
            .get(..at)
            .map_or(at, |prefix| prefix.chars().count())
            + 1
    }
}

/// The whitespace-separated tokens of a line, with their byte offsets.
fn tokens(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut rest = text.char_indices().peekable();
    std::iter::from_fn(move || {
        while let Some(&(_, c)) = rest.peek() {
            if c.is_whitespace() {
                rest.next();
            } else {
                break;
            }
        }
        let &(start, _) = rest.peek()?;
        let mut end = text.len();
        while let Some(&(i, c)) = rest.peek() {
            if c.is_whitespace() {
                end = i;
                break;
            }
            rest.next();
        }
        Some((start, &text[start..end]))
    })
}

/// An item of the item line written with a multiplicity, as in Knuth's DLX3 (MCC):
/// `u:v|name` or `v|name` (short for `v:v|name`), u and v decimal numbers. Gives the bounds
/// (`None` when a number does not fit in a `u32`), the name, and the name's byte offset.
#[allow(clippy::type_complexity)]
fn multiplicity(token: &str) -> Option<(Option<(u32, u32)>, &str, usize)> {
    let (bounds, name) = token.split_once('|')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let (u, v) = match bounds.split_once(':') {
        Some((u, v)) => (u, v),
        None => (bounds, bounds),
    };
    if !(digits(u) && digits(v)) || name.is_empty() {
        return None;
    }
    let parsed = u.parse().ok().zip(v.parse().ok());
    Some((parsed, name, bounds.len() + 1))
}

/// An item's multiplicity `(u, v)`: covered at least `u` and at most `v` times.
pub type Bounds = (u32, u32);

/// An item of the item line, `name`, `v|name` or `u:v|name` (DLX3's multiplicities), as this
/// reader takes it: the name and its bounds (`None`: no multiplicity), or
/// [`ErrorKind::BadMultiplicity`] (`v` = 0, `u` > `v`, a number beyond `u32`). Only the
/// bounds are checked here; the name is the builder's to check
/// ([`crate::engine::ProblemBuilder::primary`]).
pub fn item_spec(token: &str) -> Result<(&str, Option<Bounds>), ErrorKind> {
    match multiplicity(token) {
        Some((Some((u, v)), name, _)) if v >= 1 && u <= v => Ok((name, Some((u, v)))),
        Some(_) => Err(ErrorKind::BadMultiplicity(token.into())),
        None => Ok((token, None)),
    }
}

fn valid_name(s: &str) -> bool {
    !s.is_empty() && !s.contains([':', '|'])
}

impl Reader<'_> {
    fn error(&self, line: &Line<'_>, at: usize, kind: ErrorKind) -> DlxError {
        DlxError {
            file: self.file.to_string(),
            line: line.number,
            column: line.column(at),
            kind,
        }
    }

    fn read<R: BufRead>(mut self, mut input: LineReader<R>) -> Result<DlxFile, DlxError> {
        let mut have_items = false;
        loop {
            let (number, text) = match input.next_line() {
                Ok(Some(line)) => line,
                Ok(None) => break,
                Err(e) => {
                    return Err(DlxError {
                        file: self.file.to_string(),
                        line: e.line,
                        column: e.column,
                        kind: match e.kind {
                            InputErrorKind::Read(m) => ErrorKind::Read(m),
                            InputErrorKind::LineTooLong(n) => ErrorKind::LineTooLong(n),
                            InputErrorKind::Nul => ErrorKind::NulByte,
                            InputErrorKind::InvalidUtf8 => ErrorKind::InvalidUtf8,
                        },
                    });
                }
            };
            let line = Line { number, text };
            let trimmed = text.trim_start();
            if trimmed.is_empty() || trimmed.starts_with('|') {
                continue;
            }
            if have_items {
                self.option(&line)?;
            } else {
                self.items(&line)?;
                have_items = true;
            }
        }
        // The last line: the final line terminator ends it, it does not start another.
        let last_line = input.lines_read().max(1);
        if !have_items {
            return Err(DlxError {
                file: self.file.to_string(),
                line: last_line,
                column: 1,
                kind: ErrorKind::NoItems,
            });
        }
        let problem = self.builder.build().map_err(|_| DlxError {
            file: self.file.to_string(),
            line: last_line,
            column: 1,
            kind: ErrorKind::NoItems,
        })?;
        Ok(DlxFile {
            problem,
            option_lines: self.option_lines,
            warnings: self.warnings,
        })
    }

    /// The item line: primary items, `|`, secondary items.
    fn items(&mut self, line: &Line<'_>) -> Result<(), DlxError> {
        let mut primary = true;
        for (at, token) in tokens(line.text) {
            let (at, name) = match token.strip_prefix('|') {
                Some(rest) => {
                    if !primary {
                        return Err(self.error(line, at, ErrorKind::BarTwice));
                    }
                    primary = false;
                    if rest.is_empty() {
                        continue;
                    }
                    (at + 1, rest)
                }
                None => (at, token),
            };
            if !primary && multiplicity(name).is_some() {
                return Err(self.error(line, at, ErrorKind::Multiplicity(name.into())));
            }
            let (item, bounds) = item_spec(name).map_err(|k| self.error(line, at, k))?;
            let (at, name) = (at + (name.len() - item.len()), item);
            if !valid_name(name) {
                return Err(self.error(line, at, ErrorKind::InvalidItemName(name.into())));
            }
            self.count_nodes(line, at, 1)?;
            let declared = match bounds {
                Some((u, v)) => self.builder.primary_with_bounds(name, u, v),
                None if primary => self.builder.primary(name),
                None => self.builder.secondary(name),
            };
            match declared {
                Ok(_) => {
                    self.stamp.push(0);
                    self.primary.push(primary);
                }
                Err(BuildError::DuplicateItem(n)) => {
                    return Err(self.error(line, at, ErrorKind::DuplicateItem(n)));
                }
                Err(_) => {
                    return Err(self.error(line, at, ErrorKind::InvalidItemName(name.into())));
                }
            }
        }
        if self.stamp.is_empty() {
            return Err(self.error(line, 0, ErrorKind::NoItems));
        }
        Ok(())
    }

    fn count_nodes(&mut self, line: &Line<'_>, at: usize, n: u64) -> Result<(), DlxError> {
        self.nodes += n;
        let limit = self.limits.max_nodes.min(MAX_NODES);
        if self.nodes > limit {
            return Err(self.error(line, at, ErrorKind::TooManyNodes(limit)));
        }
        if self.nodes.saturating_mul(BYTES_PER_NODE) > self.limits.max_bytes {
            let kind = ErrorKind::TooBigForMemory {
                nodes: self.nodes,
                max_bytes: self.limits.max_bytes,
            };
            return Err(self.error(line, at, kind));
        }
        Ok(())
    }

    /// One option line.
    fn option(&mut self, line: &Line<'_>) -> Result<(), DlxError> {
        let mut entries = Vec::new();
        let mut cost: Option<i64> = None;
        let mut has_primary = false;
        for (at, token) in tokens(line.text) {
            if let Some(digits) = token.strip_prefix('|') {
                if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(self.error(line, at, ErrorKind::InvalidCost(token.into())));
                }
                let value: i64 = digits
                    .parse()
                    .map_err(|_| self.error(line, at, ErrorKind::CostOverflow))?;
                let sum = cost
                    .unwrap_or(0)
                    .checked_add(value)
                    .ok_or_else(|| self.error(line, at, ErrorKind::CostOverflow))?;
                cost = Some(sum);
                continue;
            }
            let (name, colour) = entry_token(token);
            if cost.is_some() {
                return Err(self.error(line, at, ErrorKind::ItemAfterCost(name.into())));
            }
            if name.is_empty() {
                return Err(self.error(line, at, ErrorKind::EmptyItemName));
            }
            let Some(item) = self.builder.item_id(name) else {
                return Err(self.error(line, at, ErrorKind::UnknownItem(name.into())));
            };
            let ItemId(k) = item;
            if self.stamp[k as usize] == line.number {
                return Err(self.error(line, at, ErrorKind::ItemTwiceInOption(name.into())));
            }
            self.stamp[k as usize] = line.number;
            let is_primary = self.primary[k as usize];
            let colour = match colour {
                None => Colour::NONE,
                Some(c) => {
                    let colour_at = at + name.len() + 1;
                    if is_primary {
                        return Err(self.error(line, at, ErrorKind::ColourOnPrimary(name.into())));
                    }
                    if c.is_empty() {
                        return Err(self.error(
                            line,
                            colour_at,
                            ErrorKind::EmptyColour(name.into()),
                        ));
                    }
                    if !valid_name(c) {
                        return Err(self.error(
                            line,
                            colour_at,
                            ErrorKind::InvalidColour(c.into()),
                        ));
                    }
                    self.builder.colour(c).map_err(|_| {
                        self.error(line, colour_at, ErrorKind::InvalidColour(c.into()))
                    })?
                }
            };
            has_primary |= is_primary;
            entries.push(Entry { item, colour });
        }
        if !has_primary {
            self.warnings.push(Warning {
                file: self.file.to_string(),
                line: line.number,
                message: format!(
                    "option ignored (no primary items): {}",
                    quote(line.text.trim())
                ),
            });
            return Ok(());
        }
        self.count_nodes(line, 0, entries.len() as u64 + 1)?;
        match self.builder.add_option(entries, cost.unwrap_or(0)) {
            Ok(_) => {
                self.option_lines.push(line.number);
                Ok(())
            }
            Err(BuildError::TooLarge(n)) => Err(self.error(line, 0, ErrorKind::TooManyNodes(n))),
            Err(e) => {
                // Everything the builder checks was checked above; keep a clean error anyway.
                Err(self.error(line, 0, ErrorKind::Build(e)))
            }
        }
    }
}

/// An entry of an option line, `name` or `name:colour`: the item's name and its colour.
pub fn entry_token(token: &str) -> (&str, Option<&str>) {
    match token.split_once(':') {
        Some((name, colour)) => (name, Some(colour)),
        None => (token, None),
    }
}

/// What is wrong with a problem given as tokens ([`from_tokens`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TokensError {
    /// A multiplicity out of range, or one on a secondary item.
    #[error(transparent)]
    Item(ErrorKind),
    /// An item the builder refuses (its name, a duplicate).
    #[error("item '{spec}': {error}")]
    Declare {
        /// The item as given.
        spec: String,
        /// What the builder said.
        error: BuildError,
    },
    /// Not one cost an option.
    #[error("{costs} costs for {options} options")]
    Costs {
        /// The costs given.
        costs: usize,
        /// The options given.
        options: usize,
    },
    /// An option the builder refuses (an unknown item, a colour, an item twice).
    #[error("option {index} ({text}): {error}")]
    Option {
        /// The option's index, from 0.
        index: usize,
        /// Its tokens, joined by spaces.
        text: String,
        /// What the builder said.
        error: BuildError,
    },
    /// The problem as a whole (no items).
    #[error(transparent)]
    Build(BuildError),
}

/// A problem given as the tokens of a DLX file rather than its text (a program's items and
/// options): primary items as the item line takes them (`name`, `v|name`, `u:v|name`),
/// secondary items by name, each option's entries as an option line takes them (`name`,
/// `name:colour`), and each option's cost (`None`: all 0). The names, multiplicities and
/// colours are read by this reader's rules; unlike a file, an option without a primary item
/// is an error, not a warning.
pub fn from_tokens<S: AsRef<str>>(
    primary: &[S],
    secondary: &[S],
    options: &[Vec<S>],
    costs: Option<&[i64]>,
) -> Result<Problem, TokensError> {
    let mut b = ProblemBuilder::new();
    let declare = |spec: &str, error| TokensError::Declare {
        spec: spec.to_string(),
        error,
    };
    for spec in primary {
        let spec = spec.as_ref();
        let (name, bounds) = item_spec(spec).map_err(TokensError::Item)?;
        match bounds {
            Some((u, v)) => b.primary_with_bounds(name, u, v),
            None => b.primary(name),
        }
        .map_err(|e| declare(spec, e))?;
    }
    for name in secondary {
        let name = name.as_ref();
        if multiplicity(name).is_some() {
            return Err(TokensError::Item(ErrorKind::Multiplicity(name.into())));
        }
        b.secondary(name).map_err(|e| declare(name, e))?;
    }
    if let Some(c) = costs
        && c.len() != options.len()
    {
        return Err(TokensError::Costs {
            costs: c.len(),
            options: options.len(),
        });
    }
    for (index, option) in options.iter().enumerate() {
        let fail = |error| TokensError::Option {
            index,
            text: option
                .iter()
                .map(AsRef::as_ref)
                .collect::<Vec<&str>>()
                .join(" "),
            error,
        };
        let mut entries = Vec::with_capacity(option.len());
        for token in option {
            let (name, colour) = entry_token(token.as_ref());
            let item = b
                .item_id(name)
                .ok_or_else(|| fail(BuildError::UnknownItem(name.to_string())))?;
            entries.push(match colour {
                None => Entry::plain(item),
                Some(c) => Entry::coloured(item, b.colour(c).map_err(fail)?),
            });
        }
        b.add_option(entries, costs.map_or(0, |c| c[index]))
            .map_err(fail)?;
    }
    b.build().map_err(TokensError::Build)
}

/// Item `i` as the item line writes it (and [`item_spec`] reads it back): its name, with a
/// multiplicity other than 1 as `v|name` or `u:v|name`.
pub fn item_token(problem: &Problem, i: ItemId) -> String {
    let name = problem.item_name(i);
    match problem.bounds(i) {
        (1, 1) => name.to_string(),
        (u, v) if u == v => format!("{v}|{name}"),
        (u, v) => format!("{u}:{v}|{name}"),
    }
}

/// Writes `problem` in the format this module reads, so that reading it back gives the same
/// problem (the same items in the same order within each kind, the same options in the same
/// order, the same colours and costs):
/// - each line of `comment` as a comment line `| ...`;
/// - the item line: the primary items in declaration order, an item with a multiplicity as
///   `u:v|name` (`v|name` when `u = v`), then ` | ` and the secondary items;
/// - one line per option, as [`Problem::format_option`] writes it, with ` |n` for a cost `n`
///   other than 0.
///
/// A negative cost, which the format cannot hold, is an `InvalidInput` error.
pub fn write<W: std::io::Write>(
    problem: &Problem,
    comment: &str,
    w: &mut W,
) -> std::io::Result<()> {
    for line in comment.lines() {
        writeln!(w, "| {line}")?;
    }
    let mut first = true;
    let mut item = |w: &mut W, text: &str| -> std::io::Result<()> {
        if !first {
            w.write_all(b" ")?;
        }
        first = false;
        w.write_all(text.as_bytes())
    };
    for i in problem.items().filter(|&i| problem.is_primary(i)) {
        item(w, &item_token(problem, i))?;
    }
    if problem.secondary_count() > 0 {
        item(w, "|")?;
        for i in problem.items().filter(|&i| !problem.is_primary(i)) {
            item(w, problem.item_name(i))?;
        }
    }
    w.write_all(b"\n")?;
    let mut line = String::new();
    for o in problem.options() {
        line.clear();
        line.push_str(&problem.format_option(o));
        match problem.cost(o) {
            0 => {}
            c if c > 0 => {
                line.push_str(" |");
                line.push_str(&c.to_string());
            }
            c => {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidInput,
                    format!(
                        "option {} has cost {c}: the DLX format holds no negative costs",
                        o.0
                    ),
                ));
            }
        }
        line.push('\n');
        w.write_all(line.as_bytes())?;
    }
    Ok(())
}

/// [`write()`] into a `String`.
pub fn to_string(problem: &Problem, comment: &str) -> std::io::Result<String> {
    let mut bytes = Vec::new();
    write(problem, comment, &mut bytes)?;
    // Names, colours and the comment are `&str`: the bytes are UTF-8.
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// A size in bytes as a person reads it: `3.1 GB`, `512.0 MB`, `900 bytes`.
fn human_bytes(bytes: u64) -> String {
    const UNITS: [(u64, &str); 3] = [(1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")];
    for (size, unit) in UNITS {
        if bytes >= size {
            return format!("{:.1} {unit}", bytes as f64 / size as f64);
        }
    }
    format!("{bytes} bytes")
}

#[cfg(test)]
mod writer_tests {
    use super::*;

    #[test]
    fn written_problems_read_back_the_same() {
        let text = "| a comment\n2|a 0:3|b c | x y\na b x:A |3\nb c y\na x:B y:A\nc b |7\n";
        let read = parse(text.as_bytes(), "t").unwrap().problem;
        let written = to_string(&read, "one\ntwo").unwrap();
        assert!(
            written.starts_with("| one\n| two\n2|a 0:3|b c | x y\n"),
            "{written}"
        );
        let again = parse(written.as_bytes(), "w").unwrap().problem;
        assert_eq!(read.fingerprint(), again.fingerprint());
        for i in read.items() {
            assert_eq!(read.bounds(i), again.bounds(i));
        }
        assert_eq!(to_string(&again, "one\ntwo").unwrap(), written);
    }

    #[test]
    fn primary_items_come_first_whatever_the_declaration_order() {
        let mut b = ProblemBuilder::new();
        b.secondary("s").unwrap();
        b.primary("p").unwrap();
        b.add_option_named("s p", 0).unwrap();
        let p = b.build().unwrap();
        assert_eq!(to_string(&p, "").unwrap(), "p | s\ns p\n");
    }

    #[test]
    fn a_negative_cost_is_refused() {
        let mut b = ProblemBuilder::new();
        b.primary("p").unwrap();
        b.add_option_named("p", -1).unwrap();
        let p = b.build().unwrap();
        assert!(to_string(&p, "").is_err());
    }

    #[test]
    fn tokens_build_what_the_file_reads() {
        let text = "0:2|a 2|b c | x\na b x:R\nb c |4\na x:G\n";
        let read = parse(text.as_bytes(), "t").unwrap().problem;
        let options = [vec!["a", "b", "x:R"], vec!["b", "c"], vec!["a", "x:G"]];
        let built = from_tokens(&["0:2|a", "2|b", "c"], &["x"], &options, Some(&[0, 4, 0]));
        assert_eq!(
            to_string(&built.unwrap(), "").unwrap(),
            to_string(&read, "").unwrap()
        );
    }

    #[test]
    fn tokens_are_refused_as_the_file_refuses_them() {
        let none: [Vec<&str>; 0] = [];
        let refused = |primary: &[&str], secondary: &[&str]| {
            from_tokens(primary, secondary, &none, None)
                .unwrap_err()
                .to_string()
        };
        // A sign is not a digit: no multiplicity, and `|` is no part of a name.
        assert!(refused(&["+1|a"], &[]).contains("invalid item name"));
        assert!(refused(&["0|a"], &[]).contains("bad multiplicity '0|a'"));
        assert!(refused(&["a"], &["2|x"]).contains("only primary items"));
        let options = [vec!["a", "b"]];
        let e = from_tokens(&["a"], &[], &options, None).unwrap_err();
        assert_eq!(e.to_string(), "option 0 (a b): unknown item 'b'");
        let e = from_tokens(&["a"], &[], &options, Some(&[])).unwrap_err();
        assert_eq!(e.to_string(), "0 costs for 1 options");
    }
}
