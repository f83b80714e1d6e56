use std::ops::ControlFlow;
use xcover::engine::*;
fn queens(n: usize) -> Problem {
    let mut b = ProblemBuilder::new();
    let m = n / 2;
    let mut order = vec![m];
    for d in 1..=n {
        if m >= d {
            order.push(m - d);
        }
        if m + d < n {
            order.push(m + d);
        }
    }
    order.truncate(n);
    for &i in &order {
        b.primary(&format!("r{i}")).unwrap();
        b.primary(&format!("c{i}")).unwrap();
    }
    for k in 1..=2 * n - 3 {
        b.secondary(&format!("a{k}")).unwrap();
        b.secondary(&format!("b{k}")).unwrap();
    }
    for i in 0..n {
        for j in 0..n {
            let a = i + j;
            let bb = n - 1 - i + j;
            let mut s = format!("r{i} c{j}");
            if a >= 1 && a <= 2 * n - 3 {
                s += &format!(" a{a}");
            }
            if bb >= 1 && bb <= 2 * n - 3 {
                s += &format!(" b{bb}");
            }
            b.add_option_named(&s, 0).unwrap();
        }
    }
    b.build().unwrap()
}
fn main() {
    let mut b = ProblemBuilder::new();
    for n in ["p", "q", "r"] {
        b.primary(n).unwrap();
    }
    for n in ["x", "y"] {
        b.secondary(n).unwrap();
    }
    for o in ["p q x y:A", "p r x:A y", "p x:B", "q x:A", "r y:B"] {
        b.add_option_named(o, 0).unwrap();
    }
    let p = b.build().unwrap();
    let mut s = Solver::new(&p);
    let mut sols = vec![];
    let o = s.run(&Budget::unlimited(), &mut |x: &[OptionId]| {
        sols.push(x.iter().map(|&o| p.format_option(o)).collect::<Vec<_>>());
        ControlFlow::Continue(())
    });
    println!("colour: {:?} {}", sols, o.stats.knuth_line());
    let q = queens(8);
    let mut s = Solver::new(&q);
    let full = s.count(&Budget::unlimited()).stats;
    let mut seq = vec![];
    s.run(&Budget::unlimited(), &mut |x: &[OptionId]| {
        seq.push(x.to_vec());
        ControlFlow::Continue(())
    });
    for d in 0..5 {
        let sp = s.split(d);
        let mut total = sp.stats;
        let mut order = vec![];
        for part in &sp.parts {
            match part {
                Part::Solution(x) => {
                    order.push(x.clone());
                }
                Part::Subproblem(pre) => {
                    let mut s2 = Solver::new(&q);
                    let st = s2
                        .run_subproblem(pre, &Budget::unlimited(), &mut |x: &[OptionId]| {
                            order.push(x.to_vec());
                            ControlFlow::Continue(())
                        })
                        .stats;
                    total += st;
                }
            }
        }
        let par = count_parallel(&sp, None, || Solver::new(&q));
        println!(
            "depth {d}: parts {} sols {} nodes {} (full {} {}) upd {} vs {} order_same {} par {} {}",
            sp.parts.len(),
            total.solutions(),
            total.nodes(),
            full.solutions(),
            full.nodes(),
            total.updates(),
            full.updates(),
            order == seq,
            par.solutions(),
            par.nodes()
        );
    }
    // budget stop, then reuse
    let o = s.count(&Budget {
        nodes: Some(100),
        ..Budget::unlimited()
    });
    let again = s.count(&Budget::unlimited());
    println!(
        "budget {:?} {} ; again {}",
        o.end,
        o.stats.nodes(),
        again.stats.knuth_line()
    );
    let o = s.count(&Budget::solutions(5));
    let again = s.count(&Budget::unlimited());
    println!(
        "limit {:?} {} ; again {}",
        o.end,
        o.stats.solutions(),
        again.stats.knuth_line()
    );
    println!(
        "first {:?}",
        s.first()
            .map(|v| v.iter().map(|&o| q.format_option(o)).collect::<Vec<_>>())
    );
    println!("full {}", full.knuth_line());
}
