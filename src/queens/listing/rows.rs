//! Rows formatted without their number by a worker ([`Rows`]), and numbered on the writing
//! thread ([`NumberedRows`]).

use std::io::{self, Write};
use std::ops::ControlFlow;

use crate::io::records::ListFormat;

use super::search::Emit;
use super::tasks::for_each_solution_in;

/// Rows formatted without their number (the tails of [`ListFormat`]), one task's worth.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rows {
    bytes: Vec<u8>,
    /// End offset of each row in `bytes`.
    ends: Vec<u32>,
}

impl Rows {
    /// The rows of `n`-queens solutions extending `prefix` (see [`for_each_solution_in`]) in
    /// `format`, at most `limit` of them.
    pub fn of_task(n: usize, prefix: &[u8], unique: bool, format: ListFormat, limit: u64) -> Rows {
        Rows::gather(format, limit, |emit| {
            for_each_solution_in(n, prefix, unique, emit)
        })
    }

    /// The rows of the solutions `each` reports (in its order), at most `limit` of them.
    pub(super) fn gather(
        format: ListFormat,
        limit: u64,
        each: impl FnOnce(&mut Emit<'_>) -> ControlFlow<()>,
    ) -> Rows {
        let mut rows = Rows::default();
        if limit == 0 {
            return rows;
        }
        let _ = each(&mut |q, class_size| {
            format.tail(&mut rows.bytes, q, class_size);
            rows.end_row();
            if rows.len() as u64 >= limit {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        rows
    }

    /// Ends the current row at the current end of the bytes.
    fn end_row(&mut self) {
        let end = u32::try_from(self.bytes.len()).expect("a task's rows exceed 4 GiB");
        self.ends.push(end);
    }

    /// The number of rows.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there are no rows.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The bytes of all rows, unnumbered.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The rows, unnumbered.
    pub fn iter(&self) -> impl Iterator<Item = &[u8]> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts
            .zip(self.ends.iter().copied())
            .map(|(a, b)| &self.bytes[a as usize..b as usize])
    }

    /// Appends the first `take` rows (all if fewer) to `out`, each after
    /// `format.head(out, index)` with the indices `first, first + 1, ...`. Returns the number
    /// of rows written.
    pub fn write_numbered(
        &self,
        format: ListFormat,
        first: u64,
        take: u64,
        out: &mut Vec<u8>,
    ) -> u64 {
        let k = (self.len() as u64).min(take) as usize;
        let end = if k == 0 { 0 } else { self.ends[k - 1] as usize };
        out.reserve(end + 12 * k);
        let mut start = 0usize;
        for (i, &e) in self.ends[..k].iter().enumerate() {
            format.head(out, first + i as u64);
            out.extend_from_slice(&self.bytes[start..e as usize]);
            start = e as usize;
        }
        k as u64
    }
}

/// Rows numbered on from `written` and formatted whole into a buffer written to `out` every
/// [`WRITE_BUFFER`] bytes, until `limit` rows are written in all: the sink of
/// [`list_in_turn`](super::list_in_turn) and [`stream_rest`](super::stream_rest).
pub(super) struct NumberedRows<'o> {
    out: &'o mut dyn Write,
    format: ListFormat,
    buf: Vec<u8>,
    written: u64,
    limit: u64,
    err: Option<io::Error>,
}

impl<'o> NumberedRows<'o> {
    pub(super) fn new(
        out: &'o mut dyn Write,
        format: ListFormat,
        written: u64,
        limit: u64,
    ) -> Self {
        NumberedRows {
            out,
            format,
            buf: Vec::with_capacity(WRITE_BUFFER + 4096),
            written,
            limit,
            err: None,
        }
    }

    /// Adds the row of `q`; `Break` once the limit is reached or a write failed.
    pub(super) fn push(&mut self, q: &[u8], class_size: Option<u8>) -> ControlFlow<()> {
        self.written += 1;
        self.format.row(&mut self.buf, self.written, q, class_size);
        if self.buf.len() >= WRITE_BUFFER {
            if let Err(e) = self.out.write_all(&self.buf) {
                self.err = Some(e);
                return ControlFlow::Break(());
            }
            self.buf.clear();
        }
        if self.written >= self.limit {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }

    /// Writes what is left; the number of rows written in all, or the first write error.
    pub(super) fn finish(self) -> io::Result<u64> {
        if let Some(e) = self.err {
            return Err(e);
        }
        self.out.write_all(&self.buf)?;
        Ok(self.written)
    }
}

/// The bytes [`list_in_turn`](super::list_in_turn) and [`stream_rest`](super::stream_rest) gather before a write.
const WRITE_BUFFER: usize = 1 << 20;

/// The most rows the tasks in flight in [`list`](super::list) hold together (about 16 MB of CSV for
/// n = 20): a task holds at most this over the window (4,096 to 32,768 rows); beyond, the
/// writer streams the task's rest.
pub(super) const WINDOW_ROWS: u64 = 1 << 18;
