//! The limits every front (the command line, the Python binding, a program embedding the
//! crate) checks a plan's numbers against before it asks the door, so that they say the same.

/// The most worker threads a plan may ask for (`-t/--threads`, Python's `threads=`); 0 means
/// all cores.
pub const MAX_THREADS: usize = 1024;

/// `threads` as a plan's number of threads: 0 (all cores) to [`MAX_THREADS`], or why not.
///
/// ```
/// use dancelinks::engine::run::{MAX_THREADS, check_threads};
///
/// assert!(check_threads(0).is_ok() && check_threads(MAX_THREADS).is_ok());
/// assert_eq!(
///     check_threads(2000).unwrap_err(),
///     "threads must be 0 (all cores) to 1024, not 2000"
/// );
/// ```
pub fn check_threads(threads: usize) -> Result<usize, String> {
    if threads > MAX_THREADS {
        return Err(format!(
            "threads must be 0 (all cores) to {MAX_THREADS}, not {threads}"
        ));
    }
    Ok(threads)
}
