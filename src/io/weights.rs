//! Weight boards for weighted N-queens.
//!
//! Two formats:
//! - The classic one: the number of boards k, then k boards of n×n integers, row by row,
//!   separated by any whitespace (spaces, tabs, newlines, CRLF). n follows from the count of
//!   numbers (k·n²) unless it is given. Read in one pass.
//! - A CSV matrix (`--weights FILE.csv`): one board, one CSV record per rank (per line), n
//!   fields each.
//!
//! Both are read as streams of bounded lines ([`crate::io::input::LineReader`]; a byte-order
//! mark at the start is skipped). Errors read `NAME:LINE:COLUMN: problem` (1-based) and name
//! the board where it is known; a token is quoted short and escaped ([`crate::io::quote`]).

use std::io::BufRead;

use crate::io::input::{InputError, LineReader};
use crate::io::{quote, quote_bytes};

/// A bad weight input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct WeightsError(pub String);

/// Boards of n×n numbers, row by row, concatenated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Boards {
    /// The board size.
    pub n: usize,
    /// n² numbers per board, row by row.
    pub numbers: Vec<i64>,
}

impl Boards {
    /// The number of boards.
    pub fn count(&self) -> usize {
        if self.n == 0 {
            0
        } else {
            self.numbers.len() / (self.n * self.n)
        }
    }
    /// Board `k` (0-based).
    pub fn board(&self, k: usize) -> &[i64] {
        let s = self.n * self.n;
        &self.numbers[k * s..(k + 1) * s]
    }
}

/// A token that is not an integer, or one out of range.
struct BadToken {
    index: usize,
    line: usize,
    col: usize,
    text: String,
    too_big: bool,
}

/// Parses the classic format from bytes. `name` is used in messages; `n` states the board size.
pub fn parse_classic(bytes: &[u8], name: &str, n: Option<usize>) -> Result<Boards, WeightsError> {
    read_classic(LineReader::new(bytes, name), n)
}

/// A line reader's error in the one location form: `NAME:LINE:COLUMN: problem`.
fn input_error(e: InputError) -> WeightsError {
    at(&e.name, e.line, e.column, e.kind)
}

/// An error at a place in the input: `NAME:LINE:COLUMN: problem` (1-based), the form every
/// reader of the crate uses.
fn at(name: &str, line: usize, column: usize, problem: impl std::fmt::Display) -> WeightsError {
    WeightsError(format!("{name}:{line}:{column}: {problem}"))
}

/// The largest board side the reader keeps numbers for when n is not stated: the weighted
/// model's limit (`queens::weighted::MAX_N`; a test keeps the two equal). Without it, an endless
/// input would grow memory until the allocator aborts.
pub const MAX_BOARD_N: usize = 1000;

/// Reads the classic format as a stream of lines (a [`LineReader`], which wraps any `BufRead`);
/// `n` states the board size. Memory grows with the numbers read, at most k boards of n×n (of
/// [`MAX_BOARD_N`]² without `n`); with `n` given, a bad or extra number fails at once; without
/// it, a bad number is reported when the input ends, once n is known and the message can name
/// its board.
pub fn read_classic<R: BufRead>(
    mut input: LineReader<R>,
    n: Option<usize>,
) -> Result<Boards, WeightsError> {
    let name = input.name().to_string();
    let err_at = |line: usize, col: usize, msg: String| at(&name, line, col, msg);
    let mut numbers: Vec<i64> = Vec::new();
    let mut bad: Option<BadToken> = None;
    let mut tokens = 0usize;
    let mut k_pos = None;
    // With n given: how many numbers follow k, once k is read.
    let mut want: Option<u64> = None;
    loop {
        let (line, text) = match input.next_line() {
            Ok(Some(l)) => l,
            Ok(None) => break,
            Err(e) => {
                // A bad number earlier in the input is the first problem.
                if let Some(b) = &bad {
                    return Err(bad_message(&name, b, None));
                }
                return Err(input_error(e));
            }
        };
        // Columns count characters, found incrementally from the previous token so that a long
        // line costs linear time, not quadratic.
        let (mut seen, mut col) = (0usize, 1usize);
        for (start, tok) in ascii_tokens(text) {
            col += text[seen..start].chars().count();
            seen = start;
            if tokens == 0 {
                k_pos = Some((line, col));
            }
            match parse_i64(tok.as_bytes()) {
                Ok(v) => {
                    if bad.is_none() {
                        numbers.push(v);
                    }
                }
                Err(too_big) => {
                    if bad.is_none() {
                        bad = Some(BadToken {
                            index: tokens,
                            line,
                            col,
                            text: quote(tok),
                            too_big,
                        });
                    }
                }
            }
            tokens += 1;
            if let Some(b) = &bad {
                if b.index == 0 {
                    return Err(k_message(&name, b));
                }
                if let Some(n) = n.filter(|&n| n > 0) {
                    return Err(bad_message(&name, b, Some(n)));
                }
            }
            if tokens == 1 && bad.is_none() && numbers[0] >= 0 {
                // Without n, k boards of the largest size bound what is kept.
                let side = n.unwrap_or(MAX_BOARD_N) as u64;
                want = Some((numbers[0] as u64).saturating_mul(side.pow(2)));
            }
            if let Some(w) = want
                && (tokens - 1) as u64 > w
            {
                let k = numbers[0];
                let Some(n) = n else {
                    let m = MAX_BOARD_N;
                    return Err(err_at(
                        line,
                        col,
                        format!(
                            "more numbers than {k} board(s) of the largest size, {m}×{m}: k is \
                             too small or the input is not boards"
                        ),
                    ));
                };
                return Err(err_at(
                    line,
                    col,
                    format!(
                        "more numbers than {k} board(s) of {n}×{n}: board {k} has too many \
                         numbers or k is too small"
                    ),
                ));
            }
        }
    }
    let line = (input.lines_read() + input.ended_with_newline() as usize).max(1);
    // A problem of the whole input is named at its last line.
    let last = input.lines_read().max(1);
    let err = |msg: String| WeightsError(format!("{name}:{last}: {msg}"));
    if tokens == 0 {
        return Err(err(
            "the number of boards is missing (empty input)".to_string()
        ));
    }
    let count_numbers = tokens - 1;
    let (kl, kc) = k_pos.unwrap_or((1, 1));
    if let Some(b) = &bad
        && b.index == 0
    {
        return Err(k_message(&name, b));
    }
    let k = numbers[0];
    if k < 0 {
        return Err(err_at(
            kl,
            kc,
            format!("the number of boards must be non-negative, not {k}"),
        ));
    }
    let k = k as u64;
    // n: stated, or inferred from the count.
    let inferred = || -> Option<usize> {
        if k == 0 {
            return if count_numbers == 0 { Some(0) } else { None };
        }
        if !(count_numbers as u64).is_multiple_of(k) {
            return None;
        }
        let sq = (count_numbers as u64 / k) as usize;
        let r = (sq as f64).sqrt().round() as usize;
        (r.saturating_sub(1)..=r + 1).find(|&x| x * x == sq && x > 0)
    };
    let n = match n {
        Some(n) => n,
        None => match inferred() {
            Some(n) => n,
            None => {
                if let Some(b) = &bad {
                    return Err(bad_message(&name, b, None));
                }
                // The classic format starts with the number of boards: a file that is only a
                // board has its first weight read as that count.
                let all = count_numbers as u64 + 1;
                let side = all.isqrt();
                let hint = if side * side == all {
                    format!(
                        "; the {all} numbers would be one {side}×{side} board: is the first line, \
                         the number of boards, missing?"
                    )
                } else {
                    " (a board has too few or too many numbers; give -n N to find which)".into()
                };
                return Err(err(format!(
                    "cannot infer n: the first number, {k} (line {kl}), is read as the number \
                     of boards, and the {count_numbers} numbers after it are not {k} boards of \
                     n×n{hint}"
                )));
            }
        },
    };
    if let Some(b) = &bad {
        return Err(bad_message(&name, b, Some(n)));
    }
    let per = (n as u64).saturating_mul(n as u64);
    let want = k.saturating_mul(per);
    let have = count_numbers as u64;
    if have < want {
        let board = have.checked_div(per).map_or(1, |b| b + 1);
        let inside = if per == 0 { 0 } else { have % per };
        return Err(WeightsError(format!(
            "{name}:{line}: board {board} has too few numbers: the input ends after {inside} of \
             its {per}; expected {k} board(s) of {n}×{n}"
        )));
    }
    if have > want {
        // Found in the loop when n is stated; an inferred n fits the count.
        return Err(err(format!(
            "more numbers than {k} board(s) of {n}×{n}: board {k} has too many numbers or k is too \
             small"
        )));
    }
    numbers.remove(0);
    if n == 0 {
        numbers.clear();
    }
    Ok(Boards { n, numbers })
}

/// The tokens of a line separated by ASCII whitespace, with their byte offsets.
fn ascii_tokens(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let bytes = text.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        if i == bytes.len() {
            return None;
        }
        let start = i;
        while i < bytes.len() && !bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        Some((start, &text[start..i]))
    })
}

fn k_message(name: &str, b: &BadToken) -> WeightsError {
    // A CSV file of weights (`row,col,weight` or a grid of comma-separated numbers) has commas
    // where the classic format has its count.
    let hint = if b.text.contains(',') {
        " (a CSV file? read it with --weights FILE)"
    } else {
        ""
    };
    let problem = format!(
        "the number of boards must be a non-negative integer, not `{}`{hint}",
        b.text
    );
    at(name, b.line, b.col, problem)
}

fn bad_message(name: &str, b: &BadToken, n: Option<usize>) -> WeightsError {
    let board = match n {
        Some(n) if n > 0 => format!("board {}: ", (b.index - 1) / (n * n) + 1),
        _ => String::new(),
    };
    let what = if b.too_big {
        "does not fit in 64 bits"
    } else {
        "is not an integer"
    };
    at(name, b.line, b.col, format!("{board}`{}` {what}", b.text))
}

/// An optional sign and decimal digits. `Err(true)` when it is an integer that does not fit.
fn parse_i64(tok: &[u8]) -> Result<i64, bool> {
    let (neg, digits) = match tok.first() {
        Some(b'-') => (true, &tok[1..]),
        Some(b'+') => (false, &tok[1..]),
        _ => (false, tok),
    };
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return Err(false);
    }
    let mut v: i128 = 0;
    for &d in digits {
        v = v * 10 + (d - b'0') as i128;
        if v > 1 << 64 {
            return Err(true);
        }
    }
    let v = if neg { -v } else { v };
    i64::try_from(v).map_err(|_| true)
}

/// Parses one board as a CSV matrix from bytes: n records of n integer fields (surrounding
/// spaces allowed).
pub fn parse_csv(bytes: &[u8], name: &str) -> Result<Boards, WeightsError> {
    read_csv(LineReader::new(bytes, name))
}

/// Reads one board as a CSV matrix, one record per line, as a stream of lines.
///
/// What pandas writes is accepted as it comes: `DataFrame(w).to_csv(path)` (a header row that
/// starts with an empty cell, then an index column), `to_csv(path, index=False)` (a header row
/// `0,1,...,n-1`), `to_csv(path, header=False)` (an index column `0..n-1`), and a header of
/// names. A header row is one whose first cell is empty or that holds no integer; the header
/// `0,1,...,n-1` and the index column `0..n-1` are dropped only where the numbers would
/// otherwise not be square, so a square board of numbers is always read as it is.
pub fn read_csv<R: BufRead>(mut input: LineReader<R>) -> Result<Boards, WeightsError> {
    let name = input.name().to_string();
    let err_at = |line: usize, col: usize, msg: String| at(&name, line, col, msg);
    let mut numbers = Vec::new();
    let mut n = None;
    let mut rows = 0usize;
    // The header row and the index column pandas writes by default.
    let mut first = true;
    let mut index_column = false;
    while let Some((line, text)) = input.next_line().map_err(input_error)? {
        if text.trim().is_empty() {
            continue; // blank line
        }
        let mut rdr = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .trim(csv::Trim::All)
            .from_reader(text.as_bytes());
        let columns = field_columns(text);
        for rec in rdr.byte_records() {
            let rec = rec.map_err(|e| err_at(line, 1, e.to_string()))?;
            if std::mem::take(&mut first) {
                let empty_first = rec.get(0).is_some_and(<[u8]>::is_empty);
                if empty_first || rec.iter().all(|f| parse_i64(f).is_err()) {
                    index_column = empty_first;
                    n = Some(rec.len() - usize::from(empty_first));
                    continue;
                }
            }
            let skip = usize::from(index_column);
            let fields = rec.len().saturating_sub(skip);
            let width = *n.get_or_insert(fields);
            if fields != width {
                return Err(err_at(
                    line,
                    1,
                    format!("{fields} fields, but the first row has {width}"),
                ));
            }
            for (j, f) in rec.iter().enumerate().skip(skip) {
                let v = parse_i64(f).map_err(|too_big| {
                    let what = if too_big {
                        "does not fit in 64 bits"
                    } else {
                        "is not an integer"
                    };
                    let col = columns.get(j).copied().unwrap_or(1);
                    err_at(line, col, format!("`{}` {what}", quote_bytes(f)))
                })?;
                numbers.push(v);
            }
            rows += 1;
            // One row more than square is allowed while it may be pandas' `0,1,...` header.
            if rows > width + 1 || (rows == width + 1 && !is_ramp(&numbers[..width], width)) {
                return Err(err_at(
                    line,
                    1,
                    format!("more than {width} rows of {width} numbers: a board must be square"),
                ));
            }
        }
    }
    // A problem of the whole input is named at its last line.
    let last = input.lines_read().max(1);
    let err = |msg: String| WeightsError(format!("{name}:{last}: {msg}"));
    let Some(mut width) = n else {
        return Err(err("empty board".to_string()));
    };
    if rows == width + 1 {
        // pandas' `to_csv(index=False)`: the header `0,1,...,n-1` was read as a row.
        numbers.drain(..width);
        rows -= 1;
    } else if rows + 1 == width && (0..rows).all(|r| numbers[r * width] == r as i64) {
        // pandas' `to_csv(header=False)`: an index column `0..n-1`.
        let mut r = 0;
        numbers.retain(|_| {
            r += 1;
            (r - 1) % width != 0
        });
        width -= 1;
    }
    if rows != width {
        return Err(err(format!(
            "{rows} rows of {width} numbers: a board must be square"
        )));
    }
    Ok(Boards { n: width, numbers })
}

/// True when `row` is `0, 1, ..., width - 1`.
fn is_ramp(row: &[i64], width: usize) -> bool {
    row.len() == width && row.iter().enumerate().all(|(j, &v)| v == j as i64)
}

/// The 1-based character column where each field of a CSV line starts (commas inside double
/// quotes do not separate fields).
fn field_columns(text: &str) -> Vec<usize> {
    let mut columns = vec![1];
    let mut quoted = false;
    for (col, c) in text.chars().enumerate() {
        match c {
            '"' => quoted = !quoted,
            ',' if !quoted => columns.push(col + 2),
            _ => {}
        }
    }
    columns
}

/// Writes `boards` boards of side `n` in the classic format as [`write_classic`] does, board
/// by board with the numbers `next` gives (rank-major), so that many boards need no memory.
pub fn write_classic_stream(
    out: &mut impl std::io::Write,
    n: usize,
    boards: u64,
    mut next: impl FnMut() -> i64,
) -> std::io::Result<()> {
    writeln!(out, "{boards}")?;
    let mut line = String::new();
    for k in 0..boards {
        if k > 0 {
            writeln!(out)?;
        }
        for _ in 0..n {
            line.clear();
            for c in 0..n {
                if c > 0 {
                    line.push(' ');
                }
                line.push_str(&next().to_string());
            }
            line.push('\n');
            out.write_all(line.as_bytes())?;
        }
    }
    Ok(())
}

/// Writes boards in the classic format: k, then each board as n lines of n numbers, a blank
/// line between boards.
pub fn write_classic(
    out: &mut impl std::io::Write,
    n: usize,
    boards: &[Vec<i64>],
) -> std::io::Result<()> {
    writeln!(out, "{}", boards.len())?;
    for (k, b) in boards.iter().enumerate() {
        if k > 0 {
            writeln!(out)?;
        }
        for r in 0..n {
            let row: Vec<String> = b[r * n..(r + 1) * n]
                .iter()
                .map(|v| v.to_string())
                .collect();
            writeln!(out, "{}", row.join(" "))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn infers_n_and_reads_crlf_tabs() {
        let b = parse_classic(b"1\r\n1\t2\r\n3 4\r\n", "x", None).unwrap();
        assert_eq!(b.n, 2);
        assert_eq!(b.numbers, vec![1, 2, 3, 4]);
    }

    #[test]
    fn names_board_line_column() {
        let e = parse_classic(b"2\n1 2\n3 4\n5 x\n7 8\n", "in", None).unwrap_err();
        assert_eq!(e.0, "in:4:3: board 2: `x` is not an integer");
    }

    #[test]
    fn reads_what_pandas_writes() {
        let board = |text: &str| {
            let b = parse_csv(text.as_bytes(), "w.csv").unwrap();
            (b.n, b.numbers)
        };
        let want = (2, vec![1, 2, 3, 4]);
        // DataFrame(w).to_csv(): a header row with an empty first cell, then an index column.
        assert_eq!(board(",0,1\n0,1,2\n1,3,4\n"), want);
        // to_csv(index=False): the header 0,1,...,n-1.
        assert_eq!(board("0,1\n1,2\n3,4\n"), want);
        // to_csv(header=False): the index column 0..n-1.
        assert_eq!(board("0,1,2\n1,3,4\n"), want);
        // Named columns.
        assert_eq!(board("a,b\n1,2\n3,4\n"), want);
        assert_eq!(board(",0\n0,5\n"), (1, vec![5]));
        // A square board of numbers is read as it is, even one that starts 0, 1, ...
        assert_eq!(board("0,1\n2,3\n"), (2, vec![0, 1, 2, 3]));
        assert_eq!(
            board("0,1,2\n1,3,4\n2,5,6\n").1,
            vec![0, 1, 2, 1, 3, 4, 2, 5, 6]
        );
        // Neither form: still not square.
        let e = parse_csv(b"5,1\n1,2\n3,4\n", "w.csv").unwrap_err();
        assert_eq!(
            e.0,
            "w.csv:3:1: more than 2 rows of 2 numbers: a board must be square"
        );
        let e = parse_csv(b",0,1\n0,1,x\n", "w.csv").unwrap_err();
        assert_eq!(e.0, "w.csv:2:5: `x` is not an integer");
    }

    #[test]
    fn extremes() {
        assert_eq!(parse_i64(b"-9223372036854775808"), Ok(i64::MIN));
        assert_eq!(parse_i64(b"9223372036854775807"), Ok(i64::MAX));
        assert_eq!(parse_i64(b"9223372036854775808"), Err(true));
        assert_eq!(parse_i64(b"-"), Err(false));
        assert_eq!(parse_i64(b"1e3"), Err(false));
    }
}
