//! Timings of single phases of the n-queens code through the library (a plain `main`,
//! `harness = false`): what the listing, the heat map and the count by quadrants spend their
//! time on, for tuning them. Each experiment prints one line per measurement, wall time and
//! CPU time (the machine may be shared: CPU seconds are the steadier figure).
//!
//! `cargo bench --bench phases -- EXPERIMENT [--n N] [--threads T] [--step S] [--reps R]`:
//!
//! - `list`: `listing::list` of the whole n (default 16) in CSV into a counting sink, on T
//!   threads (default 1): rows, bytes, MB/s per wall and per CPU second.
//! - `enumerate`: the bitboard enumerator alone over the listing's tasks (no rows), one thread.
//! - `heatmap`: `heatmap::heatmap` for n = N-4..=N (default 12..=16), with and without
//!   `--unique`, on T threads.
//! - `quad-lists`: the count by quadrants of n (default 17) on every S-th unit (default: 300
//!   units in all): the average East and West list sizes, their distinct signatures, the
//!   solutions per unit, and the time of building the lists against that of counting pairs.
//! - `quad-units`: the same split as thread CPU time, best of R rounds (default 3), n = 19
//!   and S = 150 by default.
//! - `quad-block`: one transposed block of 512 signatures of 35 bits: the time of building its
//!   chunk tables, and of scanning one signature against it.
//!
//! With no experiment, `enumerate` (n = 14 unless `--n`) and `quad-block` run (seconds).

use std::hint::black_box;
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use dancelinks::io::ListFormat;
use dancelinks::queens::bits::quadrant_parts::{Block, Units};
use dancelinks::queens::count::Engine;
use dancelinks::queens::heatmap::heatmap;
use dancelinks::queens::listing;

/// CPU time of this process so far (user + system, from /proc/self/stat; 0 elsewhere).
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // The fields after the command name (in parentheses): utime and stime are the 12th and
    // 13th, in clock ticks (100 a second).
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    rest.split_whitespace()
        .skip(11)
        .take(2)
        .map(|x| x.parse::<f64>().unwrap_or(0.0))
        .sum::<f64>()
        / 100.0
}

/// CPU time of the calling thread (Linux `CLOCK_THREAD_CPUTIME_ID`; 0 elsewhere).
#[cfg(target_os = "linux")]
fn thread_cpu() -> f64 {
    #[repr(C)]
    struct Timespec {
        tv_sec: i64,
        tv_nsec: i64,
    }
    unsafe extern "C" {
        fn clock_gettime(clk: i32, ts: *mut Timespec) -> i32;
    }
    let mut ts = Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime with a valid pointer; clock 3 is CLOCK_THREAD_CPUTIME_ID.
    unsafe { clock_gettime(3, &mut ts) };
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

#[cfg(not(target_os = "linux"))]
fn thread_cpu() -> f64 {
    0.0
}

/// The options after the experiment's name.
struct Opts {
    n: Option<usize>,
    threads: usize,
    step: Option<usize>,
    reps: usize,
}

fn parse(args: &[String]) -> Opts {
    let mut o = Opts {
        n: None,
        threads: 1,
        step: None,
        reps: 3,
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || -> usize {
            it.next()
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("{a} needs a number"))
        };
        match a.as_str() {
            "--n" => o.n = Some(value()),
            "--threads" => o.threads = value(),
            "--step" => o.step = Some(value()),
            "--reps" => o.reps = value(),
            "--bench" => {}
            other => panic!("unknown option {other}"),
        }
    }
    o
}

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
}

/// Counts the bytes written to it.
struct Sink(u64);

impl Write for Sink {
    fn write(&mut self, b: &[u8]) -> io::Result<usize> {
        self.0 += b.len() as u64;
        Ok(b.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

fn list(o: &Opts) {
    let n = o.n.unwrap_or(16);
    let pool = pool(o.threads);
    let mut sink = Sink(0);
    let (t, cpu) = (Instant::now(), cpu_seconds());
    let rows = listing::list(
        n,
        false,
        None,
        ListFormat::Csv,
        Engine::Bits,
        Some(&pool),
        &mut sink,
    )
    .unwrap();
    let (s, cpu) = (t.elapsed().as_secs_f64(), cpu_seconds() - cpu);
    println!(
        "list n = {n}, {} thread(s): {rows} rows, {} bytes in {s:.2} s wall = {:.0} MB/s, \
         {cpu:.2} CPU-s = {:.0} MB per CPU-s",
        o.threads,
        sink.0,
        sink.0 as f64 / s / 1e6,
        sink.0 as f64 / cpu.max(1e-9) / 1e6
    );
}

fn enumerate(o: &Opts) {
    let n = o.n.unwrap_or(16);
    let (t, cpu) = (Instant::now(), cpu_seconds());
    let mut k = 0u64;
    for p in listing::tasks(n, 4096) {
        let _ = listing::for_each_solution_in::<()>(n, &p, false, |q, _| {
            black_box(q);
            k += 1;
            ControlFlow::Continue(())
        });
    }
    let (s, cpu) = (t.elapsed().as_secs_f64(), cpu_seconds() - cpu);
    println!("enumerate n = {n}: {k} solutions in {s:.2} s wall, {cpu:.2} CPU-s");
}

fn heatmaps(o: &Opts) {
    let top = o.n.unwrap_or(16);
    let pool = pool(o.threads);
    for n in top.saturating_sub(4).max(1)..=top {
        for unique in [false, true] {
            let (t, cpu) = (Instant::now(), cpu_seconds());
            let h = pool.install(|| heatmap(n, unique));
            println!(
                "heatmap n = {n}, unique = {unique}, {} thread(s): total {} in {:.2} s wall, \
                 {:.2} CPU-s",
                o.threads,
                h.total,
                t.elapsed().as_secs_f64(),
                cpu_seconds() - cpu
            );
        }
    }
}

fn quad_lists(o: &Opts) {
    let n = o.n.unwrap_or(17);
    let mut units = Units::new(n);
    let step = o.step.unwrap_or((units.len() / 300).max(1));
    let (mut se, mut sw, mut de, mut dw, mut pairs, mut sampled) =
        (0u64, 0u64, 0u64, 0u64, 0u128, 0u64);
    let (mut t_lists, mut t_pairs) = (Duration::ZERO, Duration::ZERO);
    let (mut east, mut west) = (Vec::new(), Vec::new());
    for i in (0..units.len()).step_by(step) {
        let t = Instant::now();
        units.lists(i, &mut east, &mut west);
        t_lists += t.elapsed();
        let t = Instant::now();
        pairs += u128::from(units.pairs(&east, &west));
        t_pairs += t.elapsed();
        se += east.len() as u64;
        sw += west.len() as u64;
        east.sort_unstable();
        east.dedup();
        west.sort_unstable();
        west.dedup();
        de += east.len() as u64;
        dw += west.len() as u64;
        sampled += 1;
    }
    let sampled = sampled.max(1);
    println!(
        "quad-lists n = {n}: units {} sampled {sampled}, average East {} West {}, distinct East \
         {} West {}, solutions per unit {}, lists {t_lists:?}, pairs {t_pairs:?}",
        units.len(),
        se / sampled,
        sw / sampled,
        de / sampled,
        dw / sampled,
        pairs / u128::from(sampled),
    );
}

fn quad_units(o: &Opts) {
    let n = o.n.unwrap_or(19);
    let mut units = Units::new(n);
    let step = o.step.unwrap_or(150);
    let idx: Vec<usize> = (0..units.len()).step_by(step).collect();
    let (mut best_lists, mut best_pairs) = (f64::MAX, f64::MAX);
    let mut found = 0u64;
    let (mut east, mut west) = (Vec::new(), Vec::new());
    for _ in 0..o.reps.max(1) {
        let (mut tl, mut tp) = (0.0, 0.0);
        found = 0;
        for &i in &idx {
            let t = thread_cpu();
            units.lists(i, &mut east, &mut west);
            let t2 = thread_cpu();
            found += units.pairs(&east, &west);
            tp += thread_cpu() - t2;
            tl += t2 - t;
        }
        best_lists = best_lists.min(tl);
        best_pairs = best_pairs.min(tp);
    }
    println!(
        "quad-units n = {n}: {} units, lists {best_lists:.3} s, pairs {best_pairs:.3} s \
         (thread CPU, best of {}), {found} pairs found",
        idx.len(),
        o.reps.max(1)
    );
}

fn quad_block(_: &Opts) {
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let v: Vec<u64> = (0..512)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x & x.rotate_left(7) & ((1u64 << 35) - 1)
        })
        .collect();
    let mut block = Block::new(7);
    let builds = 20_000;
    let t = Instant::now();
    for _ in 0..builds {
        block.build(black_box(&v));
    }
    let build = t.elapsed() / builds;
    let scans = 200;
    let t = Instant::now();
    let mut total = 0;
    for _ in 0..scans {
        total += block.scan(black_box(&v));
    }
    let scan = t.elapsed() / scans / v.len() as u32;
    println!("quad-block: build {build:?} per block, scan {scan:?} per signature ({total} pairs)");
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (name, rest) = match args.first() {
        Some(a) if !a.starts_with("--") => (a.as_str(), &args[1..]),
        _ => ("", &args[..]),
    };
    let o = parse(rest);
    match name {
        "list" => list(&o),
        "enumerate" => enumerate(&o),
        "heatmap" => heatmaps(&o),
        "quad-lists" => quad_lists(&o),
        "quad-units" => quad_units(&o),
        "quad-block" => quad_block(&o),
        "" => {
            let small = Opts {
                n: o.n.or(Some(14)),
                ..o
            };
            enumerate(&small);
            quad_block(&small);
        }
        other => panic!("unknown experiment {other}"),
    }
}
