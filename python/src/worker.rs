//! The one place where the binding waits for the crate and where Ctrl-C stops it: a call runs
//! its work on a worker thread while the calling thread, without the interpreter lock, waits
//! for it and every [`POLL`] asks Python whether a signal came
//! ([`Python::check_signals`]). On Ctrl-C the call's stop handle (the engine's
//! [`dancelinks::engine::Stop`], which the call's budgets carry) is requested; the searches stop
//! at their next stopping point, and the call returns what it has with `interrupted = True`.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use pyo3::exceptions::{PyOSError, PyRuntimeError};
use pyo3::prelude::*;

/// How often the waiting thread looks for signals and reports progress.
const POLL: Duration = Duration::from_millis(50);

/// Layouts (or solutions) per chunk a streaming worker hands to the iterator.
pub(crate) const CHUNK: usize = 4096;

/// Chunks a streaming worker may hold ahead of the iterator.
const CHUNKS_AHEAD: usize = 4;

/// The stop handle of one call: the engine's, put in every budget of the call's searches;
/// requested by Ctrl-C (or a failed progress callback, or a dropped stream), watched by the
/// searches and by the call's worker between solutions, boards or tasks.
#[derive(Clone, Default)]
pub(crate) struct Stop(dancelinks::engine::Stop);

impl Stop {
    pub(crate) fn new() -> Stop {
        Stop::default()
    }

    pub(crate) fn set(&self) {
        self.0.request();
    }

    pub(crate) fn is_set(&self) -> bool {
        self.0.requested()
    }

    /// The engine's handle, for the budgets of the call's searches.
    pub(crate) fn engine(&self) -> &dancelinks::engine::Stop {
        &self.0
    }
}

/// A progress report for the Python callback: `(done, total, found)`, posted by the work.
#[derive(Default)]
pub(crate) struct Progress {
    pub(crate) done: AtomicUsize,
    pub(crate) total: AtomicUsize,
    pub(crate) found: AtomicU64,
}

impl Progress {
    /// The reader of the posted values, for [`run_polled`].
    pub(crate) fn reader(self: Arc<Self>) -> Report {
        Box::new(move || {
            (
                self.done.load(Ordering::Relaxed) as u64,
                self.total.load(Ordering::Relaxed) as u64,
                u128::from(self.found.load(Ordering::Relaxed)),
            )
        })
    }
}

/// What the progress callback is called with, read when it is called: `(done, total, found)`
/// (total 0: not known).
pub(crate) type Report = Box<dyn Fn() -> (u64, u64, u128) + Send>;

/// The reader of the engine's progress board of a call's searches: the parts of a split done
/// and in all (0 and 0 without a split), and `found` read from the board by `found`; once the
/// work has posted its end to the returned [`Ended`] (the whole `found` of its result), that
/// instead, so that the last report is the answer.
pub(crate) fn engine_report(
    stop: &Stop,
    found: impl Fn(&dancelinks::engine::ProgressSnapshot) -> u128 + Send + 'static,
) -> (Report, Ended) {
    let stop = stop.clone();
    let ended = Ended::default();
    let end = ended.clone();
    let report = Box::new(move || {
        let p = stop.engine().progress().snapshot();
        let total = p.parts_total.max(p.parts_done);
        match *end.0.lock().unwrap_or_else(|e| e.into_inner()) {
            Some(all) => (total, total, all),
            None => (p.parts_done, p.parts_total, found(&p)),
        }
    });
    (report, ended)
}

/// The end of a call's work for [`engine_report`]: its whole `found`.
#[derive(Clone, Default)]
pub(crate) struct Ended(Arc<Mutex<Option<u128>>>);

impl Ended {
    pub(crate) fn set(&self, found: u128) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = Some(found);
    }
}

/// Runs `work` on a worker thread while the calling thread, without the interpreter lock,
/// waits for it. Every [`POLL`] the waiting thread checks for signals and calls `progress` with
/// the lock held. A first `KeyboardInterrupt` sets `stop` (the worker ends at its next stopping
/// point, and its result is returned); a second one abandons the worker (`None`: it runs on in
/// the background until its next stopping point, and its result is dropped). Returns the
/// worker's result and whether a signal interrupted it. An exception raised by `progress`
/// stops the worker and is returned once it ends.
pub(crate) fn run_polled<T: Send + 'static>(
    py: Python<'_>,
    stop: &Stop,
    progress: Option<(&Bound<'_, PyAny>, Report)>,
    work: impl FnOnce() -> T + Send + 'static,
) -> PyResult<(Option<T>, bool)> {
    let report = progress.map(|(f, p)| (f.clone().unbind(), p));
    let (tx, rx) = sync_channel(1);
    let worker = std::thread::Builder::new()
        .name("dancelinks".into())
        .spawn(move || {
            let _ = tx.send(work());
        })
        .map_err(|e| PyOSError::new_err(format!("cannot start a worker thread: {e}")))?;
    let (result, signals, failure) = py.detach(move || {
        let mut failure: Option<PyErr> = None;
        let mut signals = 0u32;
        loop {
            match rx.recv_timeout(POLL) {
                Ok(r) => {
                    // The last report: the end of the work, as the callback should show it.
                    if let Some((f, p)) = &report
                        && failure.is_none()
                    {
                        failure = Python::attach(|py| f.call1(py, p()).err());
                    }
                    return (Ok(Some(r)), signals, failure);
                }
                Err(RecvTimeoutError::Disconnected) => {
                    let why = match worker.join() {
                        Err(p) => p
                            .downcast_ref::<&str>()
                            .map(|s| s.to_string())
                            .or_else(|| p.downcast_ref::<String>().cloned())
                            .unwrap_or_else(|| "a panic".into()),
                        Ok(()) => "no result".into(),
                    };
                    let e = PyRuntimeError::new_err(format!(
                        "internal error in the dancelinks worker thread: {why}"
                    ));
                    return (Err(e), signals, failure);
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
            let abandon = Python::attach(|py| {
                if py.check_signals().is_err() {
                    signals += 1;
                    stop.set();
                    return signals >= 2;
                }
                if let Some((f, p)) = &report
                    && failure.is_none()
                    && let Err(e) = f.call1(py, p())
                {
                    failure = Some(e);
                    stop.set();
                }
                false
            });
            if abandon {
                return (Ok(None), signals, failure);
            }
        }
    });
    let result = result?;
    match failure {
        Some(e) => Err(e),
        None => Ok((result, signals > 0)),
    }
}

/// An iterator over chunks produced by a worker thread: each `next()` waits (without the
/// interpreter lock, looking for signals) for the next chunk. Dropping it stops the worker.
pub(crate) struct Stream<T> {
    rx: Mutex<Option<Receiver<T>>>,
    stop: Stop,
    worker: Mutex<Option<std::thread::JoinHandle<()>>>,
}

impl<T: Send + 'static> Stream<T> {
    /// Starts `work(send)`; `send` returns false once the iterator is gone (stop then).
    pub(crate) fn start(work: impl FnOnce(&dyn Fn(T) -> bool, &Stop) + Send + 'static) -> Self {
        let (tx, rx): (SyncSender<T>, Receiver<T>) = sync_channel(CHUNKS_AHEAD);
        let stop = Stop::new();
        let flag = stop.clone();
        let worker = std::thread::spawn(move || {
            let send = |t: T| !flag.is_set() && tx.send(t).is_ok();
            work(&send, &flag);
        });
        Stream {
            rx: Mutex::new(Some(rx)),
            stop,
            worker: Mutex::new(Some(worker)),
        }
    }

    /// The next chunk, `None` at the end. A `KeyboardInterrupt` while waiting stops the worker
    /// and is raised.
    pub(crate) fn next(&self, py: Python<'_>) -> PyResult<Option<T>> {
        let mut guard = self.rx.lock().expect("one reader at a time");
        let Some(mut rx) = guard.take() else {
            return Ok(None);
        };
        loop {
            let (back, got) = py.detach(move || {
                let got = rx.recv_timeout(POLL);
                (rx, got)
            });
            rx = back;
            match got {
                Ok(t) => {
                    *guard = Some(rx);
                    return Ok(Some(t));
                }
                Err(RecvTimeoutError::Disconnected) => return Ok(None),
                Err(RecvTimeoutError::Timeout) => {
                    if let Err(e) = py.check_signals() {
                        self.stop.set();
                        return Err(e);
                    }
                }
            }
        }
    }
}

impl<T> Drop for Stream<T> {
    fn drop(&mut self) {
        self.stop.set();
        if let Ok(mut rx) = self.rx.lock() {
            rx.take();
        }
        if let Ok(mut w) = self.worker.lock()
            && let Some(w) = w.take()
        {
            let _ = w.join();
        }
    }
}
