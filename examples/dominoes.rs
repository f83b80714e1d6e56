//! Domino tilings as exact cover, built with the library API (`cargo run --example dominoes`).
//!
//! One primary item per cell of a rows×cols board, one option per domino (two neighbouring
//! cells). A solution covers every cell exactly once: a tiling. The 2×n board has F(n+1)
//! tilings (Fibonacci numbers: 1, 2, 3, 5, 8, ...), the 3×4 board 11.
//!
//! The example also visits solutions with a closure, stops at the first one of a kind, reads
//! the same problem from Knuth's DLX text, and uses colours on secondary items.

use std::ops::ControlFlow;

use dancelinks::engine::{Budget, Entry, OptionId, Problem, ProblemBuilder, Solver};
use dancelinks::io::dlx_format;

/// The tilings of a rows×cols board; horizontal dominoes cost 1, vertical ones 2.
fn dominoes(rows: usize, cols: usize) -> Problem {
    let mut b = ProblemBuilder::new();
    let mut cell = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            cell.push(b.primary(&format!("c{r}_{c}")).unwrap());
        }
    }
    let id = |r: usize, c: usize| cell[r * cols + c];
    for r in 0..rows {
        for c in 0..cols {
            if c + 1 < cols {
                let domino = [Entry::plain(id(r, c)), Entry::plain(id(r, c + 1))];
                b.add_option(domino, 1).unwrap();
            }
            if r + 1 < rows {
                let domino = [Entry::plain(id(r, c)), Entry::plain(id(r + 1, c))];
                b.add_option(domino, 2).unwrap();
            }
        }
    }
    b.build().unwrap()
}

fn main() {
    // 2×n: the Fibonacci numbers.
    let (mut a, mut b) = (1u64, 1u64); // F(n), F(n+1) for n = 1
    for n in 1..=12 {
        let problem = dominoes(2, n);
        let count = Solver::new(&problem)
            .count(&Budget::unlimited())
            .stats
            .solutions();
        println!("2x{n}: {count} tilings");
        assert_eq!(count, b, "2x{n} should have F({}) = {b} tilings", n + 1);
        (a, b) = (b, a + b);
    }

    // 3×4, with Knuth's statistics line.
    let problem = dominoes(3, 4);
    let mut solver = Solver::new(&problem);
    let outcome = solver.count(&Budget::unlimited());
    assert_eq!(outcome.stats.solutions(), 11);
    let bytes = dancelinks::engine::structure_bytes(&problem, outcome.stats.max_level());
    println!("3x4: {}", outcome.stats.knuth_line(bytes));

    // Visit the solutions (each is its options in the order chosen); stop at the first tiling
    // of horizontal dominoes only.
    let mut horizontal = None;
    solver.run(&Budget::unlimited(), &mut |s: &[OptionId]| {
        if s.iter().all(|&o| problem.cost(o) == 1) {
            horizontal = Some(
                s.iter()
                    .map(|&o| problem.format_option(o))
                    .collect::<Vec<_>>(),
            );
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    });
    let horizontal = horizontal.expect("3x4 has an all-horizontal tiling");
    assert_eq!(horizontal.len(), 6);
    println!("3x4, all horizontal: {}", horizontal.join(", "));
    let first = solver.first().expect("3x4 has a tiling");
    assert_eq!(first.len(), 6);

    // The same 2×3 problem read from DLX text: the reader gives the problem and each option's
    // input line.
    let text =
        "| 2x3 dominoes\na0 a1 a2 b0 b1 b2\na0 a1\na1 a2\nb0 b1\nb1 b2\na0 b0\na1 b1\na2 b2\n";
    let file = dlx_format::parse(text.as_bytes(), "2x3.dlx").unwrap();
    let count = Solver::new(&file.problem)
        .count(&Budget::unlimited())
        .stats
        .solutions();
    assert_eq!(count, 3);
    println!("2x3 from DLX text: {count} tilings");

    // Colours, by name: TAOCP 7.2.2.1's example has one solution.
    let mut b = ProblemBuilder::new();
    for name in ["p", "q", "r"] {
        b.primary(name).unwrap();
    }
    for name in ["x", "y"] {
        b.secondary(name).unwrap();
    }
    for option in ["p q x y:A", "p r x:A y", "p x:B", "q x:A", "r y:B"] {
        b.add_option_named(option, 0).unwrap();
    }
    let colours = b.build().unwrap();
    let solution = Solver::new(&colours).first().expect("one solution");
    let names: Vec<String> = solution.iter().map(|&o| colours.format_option(o)).collect();
    assert_eq!(names, ["q x:A", "p r x:A y"]);
    println!("TAOCP colour example: {}", names.join(" + "));
}
