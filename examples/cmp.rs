use std::time::Instant;
use xcover::engine::*;
fn queens(n: usize, organ: bool) -> String {
    let mut s = String::new();
    let order: Vec<usize> = if organ {
        let m = n / 2;
        let mut v = vec![m];
        for d in 1..=n {
            if m >= d {
                v.push(m - d);
            }
            if m + d < n {
                v.push(m + d);
            }
        }
        v.truncate(n);
        v
    } else {
        (0..n).collect()
    };
    let (lo, hi) = if organ {
        (1, 2 * n - 3)
    } else {
        (0, 2 * n - 2)
    };
    if organ {
        for &i in &order {
            s += &format!("r{i} c{i} ");
        }
        s += "|";
        for k in lo..=hi {
            s += &format!(" a{k} b{k}");
        }
    } else {
        for &i in &order {
            s += &format!("r{i} ");
        }
        for &i in &order {
            s += &format!("c{i} ");
        }
        s += "|";
        for k in lo..=hi {
            s += &format!(" a{k}");
        }
        for k in lo..=hi {
            s += &format!(" b{k}");
        }
    }
    s += "\n";
    for i in 0..n {
        for j in 0..n {
            let a = i + j;
            let b = n - 1 - i + j;
            s += &format!("r{i} c{j}");
            if a >= lo && a <= hi {
                s += &format!(" a{a}");
            }
            if b >= lo && b <= hi {
                s += &format!(" b{b}");
            }
            s += "\n";
        }
    }
    s
}
fn main() {
    let n: usize = std::env::args().nth(1).unwrap().parse().unwrap();
    let organ = std::env::args().nth(2).unwrap() == "organ";
    let text = queens(n, organ);
    let mut lines = text.lines();
    let items = lines.next().unwrap();
    let mut b = ProblemBuilder::new();
    let mut sec = false;
    for t in items.split_whitespace() {
        if t == "|" {
            sec = true;
            continue;
        }
        if sec {
            b.secondary(t).unwrap();
        } else {
            b.primary(t).unwrap();
        }
    }
    for l in lines {
        b.add_option_named(l, 0).unwrap();
    }
    let p = b.build().unwrap();
    let which = std::env::args().nth(3).unwrap_or_default();
    for _ in 0..std::env::var("REPS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(5)
    {
        let t = Instant::now();
        if which == "dlx" {}
        let o = if which != "dlx" {
            Solver::new(&p).count(&Budget::unlimited())
        } else {
            Solver::new(&p).count(&Budget {
                nodes: Some(0),
                ..Budget::unlimited()
            })
        };
        let a = t.elapsed();
        use dlx::choose::{mrv_chooser, no_tiebreak, prefer_any};
        let spec = dlx::Spec::new(&text, false).unwrap();
        let mut problem = dlx::x::Problem::from_spec(&spec, dlx::OptOrder::Seq).unwrap();
        let mut solver = dlx::Solver::new(&mut problem);
        let mut chooser = mrv_chooser(prefer_any(), no_tiebreak());
        let t = Instant::now();
        let mut sols = 0u64;
        if which != "xcover" {
            while solver.next_solution(&mut chooser) {
                sols += 1;
            }
        }
        let bt = t.elapsed();
        let nodes = solver.get_profile().iter().sum::<usize>() as u64 + sols;
        println!(
            "xcover {} nodes {} upd {} {:?} | dlx {} nodes {} upd {} {:?} ratio {:.3}",
            o.stats.solutions(),
            o.stats.nodes(),
            o.stats.updates(),
            a,
            sols,
            nodes,
            solver.get_updates(),
            bt,
            a.as_secs_f64() / bt.as_secs_f64()
        );
    }
}
