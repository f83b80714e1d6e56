//! The family of a problem's solutions (`dancelinks::engine::family::Family`), bound: built
//! from a problem (on the worker thread that Ctrl-C stops) or loaded from the ZDD text, and
//! asked what the crate answers. The Python class `dancelinks.Family` wraps it.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use pyo3::exceptions::{PyOSError, PyOverflowError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use dancelinks::engine::family::{Cursor, Direction, Family, FamilyError};
use dancelinks::engine::{DEFAULT_MEMO_BYTES, OptionId};
use dancelinks::io::zdd_text;
use dancelinks::models::Model;

use crate::NativeProblem;
use crate::models::NativeModel;
use crate::worker::{Stop, run_polled};

/// A family's error as Python's: an overflow is `OverflowError`, the rest `ValueError`.
fn family_error(e: FamilyError) -> PyErr {
    match e {
        FamilyError::Overflow | FamilyError::ValueOverflow => {
            PyOverflowError::new_err(e.to_string())
        }
        _ => PyValueError::new_err(e.to_string()),
    }
}

fn ids(options: &[u32]) -> Vec<OptionId> {
    options.iter().map(|&o| OptionId(o)).collect()
}

fn indices(s: &[OptionId]) -> Vec<u32> {
    s.iter().map(|o| o.0).collect()
}

/// An option named by a loaded file: (index, input line, text).
type Label = (u32, usize, String);

/// The marginals: the int64 array's bytes when every count fits, else the counts.
type Marginals<'py> = (Option<Bound<'py, PyBytes>>, Option<Vec<u128>>);

/// NativeFamily: see `dancelinks.Family`.
#[pyclass(module = "dancelinks._native", frozen)]
pub(crate) struct NativeFamily {
    family: Arc<Family>,
}

#[pymethods]
impl NativeFamily {
    /// build(problem, memory) -> NativeFamily, or None when Ctrl-C stopped it (the caller
    /// raises Interrupted). `memory` None: the default budget of the memo (`--memo-mem`).
    #[staticmethod]
    #[pyo3(signature = (problem, memory=None))]
    fn build(
        py: Python<'_>,
        problem: &NativeProblem,
        memory: Option<u64>,
    ) -> PyResult<Option<Self>> {
        let memory = memory.unwrap_or(DEFAULT_MEMO_BYTES);
        let p = Arc::clone(&problem.problem);
        let stop = Stop::new();
        let flag = stop.engine().clone();
        let (built, _) = run_polled(py, &stop, None, move || {
            Family::build(&p, memory, &mut || flag.requested())
        })?;
        match built {
            None | Some(Err(FamilyError::Build(dancelinks::engine::zdd::ZddError::Stopped))) => {
                Ok(None)
            }
            Some(r) => Ok(Some(NativeFamily {
                family: Arc::new(r.map_err(family_error)?),
            })),
        }
    }

    /// load(path, memory) -> (NativeFamily, [(index, line, text)]): the ZDD text of `xcover
    /// solve --zdd`; a mistake is `FILE:LINE: message`.
    #[staticmethod]
    #[pyo3(signature = (path, memory=None))]
    fn load(py: Python<'_>, path: PathBuf, memory: Option<u64>) -> PyResult<(Self, Vec<Label>)> {
        let memory = memory.unwrap_or(DEFAULT_MEMO_BYTES);
        let shown = path.display().to_string();
        let file = std::fs::File::open(&path)
            .map_err(|e| PyOSError::new_err(format!("cannot read {shown}: {e}")))?;
        let read = py.detach(|| zdd_text::read(std::io::BufReader::new(file), memory));
        let z = read.map_err(|e| PyValueError::new_err(format!("{shown}:{e}")))?;
        let labels = z
            .labels
            .into_iter()
            .map(|l| (l.option.0, l.line, l.text))
            .collect();
        Ok((
            NativeFamily {
                family: Arc::new(z.family),
            },
            labels,
        ))
    }

    /// save(path, texts, lines): the ZDD text, each option with its text and input line
    /// (0 when it has none).
    fn save(&self, path: PathBuf, texts: Vec<String>, lines: Vec<usize>) -> PyResult<()> {
        let shown = path.display().to_string();
        let io = |e: std::io::Error| PyOSError::new_err(format!("cannot write {shown}: {e}"));
        let file = std::fs::File::create(&path).map_err(io)?;
        let mut out = std::io::BufWriter::new(file);
        zdd_text::write_family(&mut out, &self.family, |o| {
            let i = o.0 as usize;
            (
                lines.get(i).copied().unwrap_or(0),
                texts.get(i).cloned().unwrap_or_default(),
            )
        })
        .map_err(io)?;
        std::io::Write::flush(&mut out).map_err(io)
    }

    /// The number of solutions (OverflowError beyond 2^128 - 1).
    fn count(&self) -> PyResult<u128> {
        self.family.count().map_err(family_error)
    }

    /// The number of options (the length of the marginals).
    fn option_count(&self) -> usize {
        self.family.option_count()
    }

    /// The number of nodes.
    fn nodes(&self) -> usize {
        self.family.len()
    }

    /// The bytes the family keeps.
    fn bytes(&self) -> u64 {
        self.family.bytes()
    }

    /// marginals() -> (bytes of int64 or None, list of ints or None): the int64 array when
    /// every count fits, else the counts.
    fn marginals<'py>(&self, py: Python<'py>) -> PyResult<Marginals<'py>> {
        let f = Arc::clone(&self.family);
        let m = py.detach(move || f.marginals()).map_err(family_error)?;
        if m.iter().all(|&c| c <= i64::MAX as u128) {
            let bytes: Vec<u8> = m.iter().flat_map(|&c| (c as i64).to_ne_bytes()).collect();
            Ok((Some(PyBytes::new(py, &bytes)), None))
        } else {
            Ok((None, Some(m)))
        }
    }

    /// including(options) -> NativeFamily: the solutions taking every one of them.
    fn including(&self, py: Python<'_>, options: Vec<u32>) -> PyResult<Self> {
        let f = Arc::clone(&self.family);
        let g = py
            .detach(move || f.including(&ids(&options)))
            .map_err(family_error)?;
        Ok(NativeFamily {
            family: Arc::new(g),
        })
    }

    /// excluding(options) -> NativeFamily: the solutions taking none of them.
    fn excluding(&self, py: Python<'_>, options: Vec<u32>) -> PyResult<Self> {
        let f = Arc::clone(&self.family);
        let g = py
            .detach(move || f.excluding(&ids(&options)))
            .map_err(family_error)?;
        Ok(NativeFamily {
            family: Arc::new(g),
        })
    }

    /// best(weights, k, maximize) -> [(value, [option])]: the k best solutions, equal values
    /// in iteration order.
    fn best(
        &self,
        py: Python<'_>,
        weights: Vec<i64>,
        k: usize,
        maximize: bool,
    ) -> PyResult<Vec<(i64, Vec<u32>)>> {
        let f = Arc::clone(&self.family);
        let direction = if maximize {
            Direction::Maximize
        } else {
            Direction::Minimize
        };
        let best = py
            .detach(move || f.best(&weights, k, direction))
            .map_err(family_error)?;
        Ok(best.into_iter().map(|(v, s)| (v, indices(&s))).collect())
    }

    /// sample(k, seed) -> [[option]]: k uniform draws, with replacement (none without a
    /// solution); the draws of `xcover solve --sample K --seed S`.
    fn sample(&self, py: Python<'_>, k: usize, seed: u64) -> PyResult<Vec<Vec<u32>>> {
        let f = Arc::clone(&self.family);
        let draws = py.detach(move || f.sample(k, seed)).map_err(family_error)?;
        Ok(draws.iter().map(|s| indices(s)).collect())
    }

    /// solution(rank) -> [option] or None: the solution of that rank in iteration order.
    fn solution(&self, rank: u128) -> PyResult<Option<Vec<u32>>> {
        Ok(self
            .family
            .solution(rank)
            .map_err(family_error)?
            .map(|s| indices(&s)))
    }

    /// The solutions in iteration order, one at a time.
    fn __iter__(&self) -> FamilyIter {
        FamilyIter {
            cursor: Mutex::new(Cursor::new(&self.family)),
            family: Arc::clone(&self.family),
        }
    }

    /// heatmap_svg(model) -> str or None: the marginals drawn as `xcover model NAME
    /// --marginals --format svg` draws them (queens: the heat map of `queens heatmap`; a model
    /// whose picture is a grid: a heat map per mark), None for a model without a grid.
    fn heatmap_svg(&self, model: &NativeModel) -> PyResult<Option<String>> {
        let total = self.family.count().map_err(family_error)?;
        let counts = self.family.marginals().map_err(family_error)?;
        let model = model.model();
        if counts.len() != model.problem().option_count() {
            return Err(PyValueError::new_err(
                "the family is not of this model's problem",
            ));
        }
        Ok(model.marginals_svg(total, &counts))
    }
}

/// The iterator of a family's solutions.
#[pyclass(module = "dancelinks._native", frozen)]
pub(crate) struct FamilyIter {
    family: Arc<Family>,
    cursor: Mutex<Cursor>,
}

#[pymethods]
impl FamilyIter {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self) -> Option<Vec<u32>> {
        let mut c = self.cursor.lock().unwrap_or_else(|e| e.into_inner());
        c.next(&self.family).map(|s| indices(&s))
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<NativeFamily>()?;
    m.add_class::<FamilyIter>()?;
    Ok(())
}
