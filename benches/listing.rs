//! `queens list` at the speed of the output, side by side in one run, harness = false.
//!
//! Runs the binaries as the user does, output to /dev/null, under `/usr/bin/time` (wall, user +
//! system CPU, peak RSS), interleaved (every variant once per round), `--reps R` rounds
//! (default 3), and prints per variant the best and median wall time, the CPU time, MB/s of CSV
//! and the peak RSS, then the ratios:
//!
//! 1. `queens list 16 --engine bits --format csv`, this build `-t 1` and `-t 2` (and an earlier
//!    build, `XCOVER_PREV`): one thread at least 100 MB/s, two threads at least
//!    1.7× one.
//! 2. `queens list 14 --format csv`: an old binary without `--engine` (`XCOVER_OLD`,
//!    dancing links), an earlier build (`XCOVER_PREV`, `--engine dlx`) and this build (`--engine dlx`), on
//!    1 and 2 threads: this build at least 2× faster than the old one on two threads.
//! 3. Peak memory (`--memory`): this build's `queens list N --format csv`, whole for N = 12..=16
//!    (bits; 12..=15 dlx; `--big` adds the whole 17), and with `--limit 1000000` beyond (bits
//!    17, 18, 20, 22; dlx 16, 18), both engines, `-t 1`, `-t 2` and `-t 8`: at most 50 MB whatever n and the thread count.
//!
//! Options (after `--`): `--reps R`; `--only list16|list14|memory`; `--memory` adds part 3;
//! `--big` (with it) the whole n = 17.
//! The machine is shared, so each table notes the load average (`/proc/loadavg`) before and
//! after; CPU seconds are the steadier figure, and the ratios of wall times are only meaningful
//! when the load is below the number of cores.
//!
//! Run: `cargo bench --bench listing` (`-- --reps 5`, `-- --memory`).

use std::path::Path;
use std::process::{Command, Stdio};

/// The binary of this build.
const NEW: &str = env!("CARGO_BIN_EXE_xcover");

/// One measured run.
#[derive(Clone, Copy, Debug)]
struct Run {
    wall: f64,
    cpu: f64,
    rss_kb: u64,
}

/// Runs `bin args` with stdout to /dev/null under `/usr/bin/time`.
fn run(bin: &str, args: &[&str]) -> Run {
    let report = std::env::temp_dir().join(format!("xcover-bench-listing-{}", std::process::id()));
    let status = Command::new("/usr/bin/time")
        .arg("-f")
        .arg("%e %U %S %M")
        .arg("-o")
        .arg(&report)
        .arg(bin)
        .args(args)
        .stdout(Stdio::null())
        .status()
        .expect("cannot run /usr/bin/time");
    assert!(status.success(), "{bin} {args:?} failed");
    let text = std::fs::read_to_string(&report).expect("the report of /usr/bin/time");
    let _ = std::fs::remove_file(&report);
    let line = text.lines().last().unwrap_or_default();
    let f: Vec<f64> = line
        .split_whitespace()
        .map(|x| x.parse().unwrap_or(0.0))
        .collect();
    assert_eq!(f.len(), 4, "unexpected /usr/bin/time output {text:?}");
    Run {
        wall: f[0],
        cpu: f[1] + f[2],
        rss_kb: f[3] as u64,
    }
}

/// The bytes and the hash (FNV-1a) of `bin args`' output, read through a pipe.
fn output_of(bin: &str, args: &[&str]) -> (u64, u64) {
    use std::io::Read;
    let mut child = Command::new(bin)
        .args(args)
        .stdout(Stdio::piped())
        .spawn()
        .expect("cannot run the binary");
    let mut out = child.stdout.take().unwrap();
    let mut buf = vec![0u8; 1 << 20];
    let (mut bytes, mut h) = (0u64, 0xcbf2_9ce4_8422_2325u64);
    loop {
        let k = out.read(&mut buf).unwrap();
        if k == 0 {
            break;
        }
        bytes += k as u64;
        for &b in &buf[..k] {
            h = (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    assert!(child.wait().unwrap().success());
    (bytes, h)
}

fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "?".into())
}

/// A variant: a name, a binary, its arguments.
struct Variant {
    name: String,
    bin: String,
    args: Vec<String>,
}

impl Variant {
    fn new(name: &str, bin: &str, args: &str) -> Variant {
        Variant {
            name: name.into(),
            bin: bin.into(),
            args: args.split_whitespace().map(String::from).collect(),
        }
    }
    fn argv(&self) -> Vec<&str> {
        self.args.iter().map(String::as_str).collect()
    }
}

/// The summary of a variant's runs.
struct Summary {
    best: f64,
    median: f64,
    cpu: f64,
    rss_mb: f64,
}

fn summarise(runs: &[Run]) -> Summary {
    let mut w: Vec<f64> = runs.iter().map(|r| r.wall).collect();
    w.sort_by(f64::total_cmp);
    let mut c: Vec<f64> = runs.iter().map(|r| r.cpu).collect();
    c.sort_by(f64::total_cmp);
    Summary {
        best: w[0],
        median: w[w.len() / 2],
        cpu: c[c.len() / 2],
        rss_mb: runs.iter().map(|r| r.rss_kb).max().unwrap_or(0) as f64 / 1024.0,
    }
}

/// Runs the variants interleaved `reps` times and prints a table; returns the summaries.
fn table(title: &str, variants: &[Variant], bytes: u64, reps: usize) -> Vec<Summary> {
    println!(
        "\n{title}  ({bytes} bytes of output; load before: {})",
        loadavg()
    );
    let mut runs: Vec<Vec<Run>> = vec![Vec::new(); variants.len()];
    for _ in 0..reps {
        for (v, r) in variants.iter().zip(runs.iter_mut()) {
            r.push(run(&v.bin, &v.argv()));
        }
    }
    println!(
        "{:<34} {:>8} {:>8} {:>7} {:>9} {:>10} {:>7}",
        "variant", "best s", "median s", "CPU s", "MB/s", "MB/CPU-s", "RSS MB"
    );
    let sums: Vec<Summary> = runs.iter().map(|r| summarise(r)).collect();
    for (v, s) in variants.iter().zip(&sums) {
        println!(
            "{:<34} {:>8.3} {:>8.3} {:>7.2} {:>9.1} {:>10.1} {:>7.1}",
            v.name,
            s.best,
            s.median,
            s.cpu,
            bytes as f64 / s.best / 1e6,
            bytes as f64 / s.cpu / 1e6,
            s.rss_mb
        );
    }
    println!("load after: {}", loadavg());
    sums
}

/// Prints `slow / fast` (best and median wall, CPU) and whether the best meets `target`.
fn ratio(name: &str, slow: &Summary, fast: &Summary, target: Option<f64>) {
    let best = slow.best / fast.best;
    let median = slow.median / fast.median;
    let cpu = slow.cpu / fast.cpu;
    let verdict = match target {
        Some(t) if best >= t => format!("; target {t}x: met"),
        Some(t) => format!("; target {t}x: NOT met"),
        None => String::new(),
    };
    println!("  {name}: {best:.2}x (best), {median:.2}x (median), {cpu:.2}x in CPU{verdict}");
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let value = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let reps: usize = value("--reps")
        .and_then(|v| v.parse().ok())
        .unwrap_or(3)
        .max(1);
    let only = value("--only");
    let want = |part: &str| only.as_deref().is_none_or(|o| o == part);
    // Earlier binaries to compare with: unset (or missing) skips their rows.
    let old = std::env::var("XCOVER_OLD").unwrap_or_default();
    let prev = std::env::var("XCOVER_PREV").unwrap_or_default();
    let have = |p: &str| Path::new(p).exists();
    println!(
        "queens list benchmark: new = {NEW}\n  old = {old}{}\n  prev (main) = {prev}{}",
        if have(&old) {
            ""
        } else {
            " (missing: skipped)"
        },
        if have(&prev) {
            ""
        } else {
            " (missing: skipped)"
        }
    );

    if want("list16") {
        let a = "queens list 16 --engine bits --format csv";
        let (bytes, hash) = output_of(NEW, &format!("{a} -t 1").split(' ').collect::<Vec<_>>());
        assert_eq!(
            output_of(NEW, &format!("{a} -t 2").split(' ').collect::<Vec<_>>()),
            (bytes, hash),
            "1 and 2 threads differ"
        );
        let mut v = vec![
            Variant::new("new bits -t 1", NEW, &format!("{a} -t 1")),
            Variant::new("new bits -t 2", NEW, &format!("{a} -t 2")),
        ];
        if have(&prev) {
            v.push(Variant::new("prev bits -t 1", &prev, &format!("{a} -t 1")));
            v.push(Variant::new("prev bits -t 2", &prev, &format!("{a} -t 2")));
        }
        let s = table(a, &v, bytes, reps);
        println!(
            "  new -t 1: {:.1} MB/s (best wall), {:.1} MB per CPU-s; target 100 MB/s: {}",
            bytes as f64 / s[0].best / 1e6,
            bytes as f64 / s[0].cpu / 1e6,
            if bytes as f64 / s[0].best / 1e6 >= 100.0 {
                "met"
            } else {
                "NOT met"
            }
        );
        ratio("new -t 2 over new -t 1", &s[0], &s[1], Some(1.7));
        if s.len() == 4 {
            ratio("prev -t 2 over prev -t 1", &s[2], &s[3], None);
        }
    }

    if want("list14") {
        let a = "queens list 14 --format csv";
        let (bytes, hash) = output_of(
            NEW,
            &format!("{a} --engine dlx -t 2")
                .split(' ')
                .collect::<Vec<_>>(),
        );
        let bits = output_of(
            NEW,
            &format!("{a} --engine bits -t 1")
                .split(' ')
                .collect::<Vec<_>>(),
        );
        assert_eq!(bits, (bytes, hash), "the engines differ");
        let mut v = Vec::new();
        if have(&old) {
            v.push(Variant::new("old (dlx) -t 1", &old, &format!("{a} -t 1")));
            v.push(Variant::new("old (dlx) -t 2", &old, &format!("{a} -t 2")));
        }
        if have(&prev) {
            v.push(Variant::new(
                "prev --engine dlx -t 1",
                &prev,
                &format!("{a} --engine dlx -t 1"),
            ));
            v.push(Variant::new(
                "prev --engine dlx -t 2",
                &prev,
                &format!("{a} --engine dlx -t 2"),
            ));
        }
        v.push(Variant::new(
            "new --engine dlx -t 1",
            NEW,
            &format!("{a} --engine dlx -t 1"),
        ));
        v.push(Variant::new(
            "new --engine dlx -t 2",
            NEW,
            &format!("{a} --engine dlx -t 2"),
        ));
        v.push(Variant::new(
            "new --engine bits -t 2",
            NEW,
            &format!("{a} --engine bits -t 2"),
        ));
        let s = table(a, &v, bytes, reps);
        let k = s.len();
        let (new1, new2) = (&s[k - 3], &s[k - 2]);
        ratio("new dlx -t 2 over new dlx -t 1", new1, new2, None);
        let mut at = 0;
        if have(&old) {
            ratio("old -t 2 over new dlx -t 2", &s[1], new2, Some(2.0));
            ratio("old -t 1 over new dlx -t 1", &s[0], new1, None);
            at = 2;
        }
        if have(&prev) {
            ratio("prev dlx -t 2 over new dlx -t 2", &s[at + 1], new2, None);
        }
    }

    if args.iter().any(|a| a == "--memory") || only.as_deref() == Some("memory") {
        println!(
            "\nPeak RSS of this build's `queens list N --format csv` (MB; load before: {})",
            loadavg()
        );
        println!("{:<28} {:>8} {:>8} {:>8}", "case", "-t 1", "-t 2", "-t 8");
        let mut worst: f64 = 0.0;
        // Whole listings up to n = 16 (bits; the mirror's store is nearly full there) and 15
        // (dlx), beyond with a limit; `--big` adds the whole n = 17 (bits, about 5 GB of CSV).
        let big = args.iter().any(|a| a == "--big");
        let limited = |ns: &[usize]| {
            ns.iter()
                .map(|&n| (n, Some(2_000_000u64)))
                .collect::<Vec<_>>()
        };
        let mut bits: Vec<(usize, Option<u64>)> = (12..=16).map(|n| (n, None)).collect();
        if big {
            bits.push((17, None));
        }
        bits.extend(limited(&[17, 18, 20, 22]));
        let mut dlx: Vec<(usize, Option<u64>)> = (12..=15).map(|n| (n, None)).collect();
        dlx.extend(limited(&[16, 18]));
        for (engine, cases) in [("bits", bits), ("dlx", dlx)] {
            for &(n, limit) in &cases {
                let mut a = format!("queens list {n} --format csv --engine {engine}");
                if let Some(l) = limit {
                    a += &format!(" --limit {l}");
                }
                let rss: Vec<f64> = [1, 2, 8]
                    .iter()
                    .map(|t| {
                        let args = format!("{a} -t {t}");
                        run(NEW, &args.split(' ').collect::<Vec<_>>()).rss_kb as f64 / 1024.0
                    })
                    .collect();
                worst = rss.iter().copied().fold(worst, f64::max);
                let name = format!(
                    "{engine} n = {n}{}",
                    limit.map_or(String::new(), |l| format!(" --limit {l}"))
                );
                println!(
                    "{:<28} {:>8.1} {:>8.1} {:>8.1}",
                    name, rss[0], rss[1], rss[2]
                );
            }
        }
        println!(
            "  largest peak RSS {worst:.1} MB; target at most 50 MB: {}",
            if worst <= 50.0 { "met" } else { "NOT met" }
        );
        println!("load after: {}", loadavg());
    }
}
