use xcover::engine::*;
fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .map(|s| s.parse().unwrap())
        .unwrap_or(13);
    let organ = std::env::args()
        .nth(2)
        .map(|s| s == "organ")
        .unwrap_or(true);
    let mut b = ProblemBuilder::new();
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
    if organ {
        for &i in &order {
            b.primary(&format!("r{i}")).unwrap();
            b.primary(&format!("c{i}")).unwrap();
        }
    } else {
        for &i in &order {
            b.primary(&format!("r{i}")).unwrap();
        }
        for &i in &order {
            b.primary(&format!("c{i}")).unwrap();
        }
    }
    if !organ {}
    let lo = if organ { 1 } else { 0 };
    let hi = if organ { 2 * n - 3 } else { 2 * n - 2 };
    if organ {
        for k in lo..=hi {
            b.secondary(&format!("a{k}")).unwrap();
            b.secondary(&format!("b{k}")).unwrap();
        }
    } else {
        for k in lo..=hi {
            b.secondary(&format!("a{k}")).unwrap();
        }
        for k in lo..=hi {
            b.secondary(&format!("b{k}")).unwrap();
        }
    }
    for i in 0..n {
        for j in 0..n {
            let a = i + j;
            let bb = n - 1 - i + j;
            let mut s = format!("r{i} c{j}");
            if a >= lo && a <= hi {
                s += &format!(" a{a}");
            }
            if bb >= lo && bb <= hi {
                s += &format!(" b{bb}");
            }
            b.add_option_named(&s, 0).unwrap();
        }
    }
    let p = b.build().unwrap();
    let t = std::time::Instant::now();
    let o = Solver::new(&p).count(&Budget::unlimited());
    eprintln!("{} {:?} {:?}", o.stats.knuth_line(), o.end, t.elapsed());
}
