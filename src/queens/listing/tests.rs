//! The listing's tests.

use super::*;
use crate::queens::model::Queens;

/// The known counts ([`solutions_known`]) are the bits counter's for n <= 13.
#[test]
fn known_counts_are_counted_ones() {
    for n in 1..=13 {
        let c = crate::queens::bits::count(n, false, None, &|_, _, _| {});
        assert_eq!(solutions_known(n), Some(c.solutions), "n = {n}");
    }
    assert_eq!(solutions_known(0), None);
    assert_eq!(solutions_known(28), None);
}

/// A000170 for n = 1..=12.
const SOLUTIONS: [usize; 12] = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200];

fn all_in_order(n: usize, unique: bool, min_tasks: usize) -> Vec<(Vec<u8>, Option<u8>)> {
    let mut out = Vec::new();
    for t in tasks(n, min_tasks) {
        let _ = for_each_solution_in::<()>(n, &t, unique, |q, s| {
            out.push((q.to_vec(), s));
            ControlFlow::Continue(())
        });
    }
    out
}

fn dlx(n: usize, unique: bool) -> Vec<(Vec<u8>, Option<u8>)> {
    let mut out = Vec::new();
    let flow = for_each_solution(n, unique, Engine::Dlx, |q, s| {
        out.push((q.to_vec(), s));
        ControlFlow::Continue(())
    });
    assert!(flow.unwrap().is_continue());
    out
}

/// Every permutation `q` of `0..n` in lexicographic order with no two queens on a
/// diagonal; with `unique` only the class representatives, with their class sizes.
fn brute_force(n: usize, unique: bool) -> Vec<(Vec<u8>, Option<u8>)> {
    fn extend(n: usize, q: &mut Vec<u8>, unique: bool, out: &mut Vec<(Vec<u8>, Option<u8>)>) {
        if q.len() == n {
            let diagonal_free =
                (0..n).all(|i| (i + 1..n).all(|j| usize::from(q[i].abs_diff(q[j])) != j - i));
            if diagonal_free {
                if !unique {
                    out.push((q.clone(), None));
                } else if let Some(size) = symmetry::representative_class(q) {
                    out.push((q.clone(), Some(size)));
                }
            }
            return;
        }
        for c in 0..n as u8 {
            if !q.contains(&c) {
                q.push(c);
                extend(n, q, unique, out);
                q.pop();
            }
        }
    }
    let mut out = Vec::new();
    extend(n, &mut Vec::new(), unique, &mut out);
    out
}

#[test]
fn both_engines_list_the_brute_force_solutions_in_lexicographic_order() {
    for n in 1..=8 {
        for unique in [false, true] {
            let want = brute_force(n, unique);
            for engine in [Engine::Bits, Engine::Dlx] {
                let mut got = Vec::new();
                let flow = for_each_solution(n, unique, engine, |q, s| {
                    got.push((q.to_vec(), s));
                    ControlFlow::Continue(())
                });
                assert!(flow.unwrap().is_continue());
                assert_eq!(got, want, "n = {n} unique = {unique} {engine:?}");
            }
        }
    }
    for engine in [Engine::Bits, Engine::Dlx] {
        assert_eq!(
            for_each_solution(33, false, engine, |_, _| ControlFlow::Continue(())),
            Err(QueensError::BadSize(33))
        );
    }
}

/// A002562 for n = 1..=12.
const CLASSES: [usize; 12] = [1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787];

/// Whether `q` is a permutation with no two queens on a diagonal.
fn is_solution(q: &[u8]) -> bool {
    let n = q.len();
    let mut files = vec![false; n];
    q.iter()
        .all(|&c| usize::from(c) < n && !std::mem::replace(&mut files[usize::from(c)], true))
        && (0..n).all(|i| (i + 1..n).all(|j| usize::from(q[i].abs_diff(q[j])) != j - i))
}

#[test]
fn the_search_order_lists_every_solution_once() {
    for n in 1..=11 {
        for unique in [false, true] {
            let mut got = Vec::new();
            let flow = for_each_solution_in_search_order(n, unique, |q, s| {
                got.push((q.to_vec(), s));
                ControlFlow::Continue(())
            });
            assert!(flow.unwrap().is_continue());
            assert!(got.iter().all(|(q, _)| is_solution(q)), "n = {n}");
            let want = if unique { CLASSES } else { SOLUTIONS };
            assert_eq!(got.len(), want[n - 1], "n = {n} unique = {unique}");
            // The same solutions (and class sizes) as the lexicographic listing, each once.
            let lex = all_in_order(n, unique, 1);
            let mut sorted = got.clone();
            sorted.sort();
            assert_eq!(sorted, lex, "n = {n} unique = {unique}");
            // The same order on every run.
            let mut again = Vec::new();
            let _ = for_each_solution_in_search_order(n, unique, |q, s| {
                again.push((q.to_vec(), s));
                ControlFlow::Continue(())
            });
            assert_eq!(again, got);
        }
    }
    assert_eq!(
        for_each_solution_in_search_order(0, false, |_, _| ControlFlow::Continue(())),
        Err(QueensError::BadSize(0))
    );
}

#[test]
fn the_search_order_finds_first_solutions_of_large_boards() {
    for n in 20..=MAX_N {
        for unique in [false, true] {
            let mut got = Vec::new();
            let flow = for_each_solution_in_search_order(n, unique, |q, s| {
                assert!(is_solution(q), "n = {n}: {q:?}");
                assert_eq!(s.is_some(), unique);
                if let Some(size) = s {
                    assert_eq!(symmetry::representative_class(q), Some(size));
                }
                got.push(q.to_vec());
                if got.len() == 20 {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            });
            assert!(flow.unwrap().is_break());
            got.sort();
            got.dedup();
            assert_eq!(got.len(), 20, "n = {n}: distinct");
        }
    }
}

#[test]
fn the_search_order_rows_are_numbered_and_limited() {
    let (n, unique) = (9, true);
    let mut want = Vec::new();
    let _ = for_each_solution_in_search_order(n, unique, |q, s| {
        let index = 1 + want.iter().filter(|&&b| b == b'\n').count() as u64;
        ListFormat::Csv.row(&mut want, index, q, s);
        ControlFlow::Continue(())
    });
    let lines: Vec<&[u8]> = want.split_inclusive(|&b| b == b'\n').collect();
    assert_eq!(lines.len(), CLASSES[n - 1]);
    for limit in [None, Some(0), Some(1), Some(7), Some(1000)] {
        let mut out = Vec::new();
        let k = list_in_search_order(n, unique, limit, ListFormat::Csv, &mut out).unwrap();
        let take = limit.map_or(lines.len(), |l| (l as usize).min(lines.len()));
        assert_eq!(k, take as u64);
        assert_eq!(out, lines[..take].concat());
    }
}

#[test]
fn the_bitboard_tasks_list_what_the_dancing_links_search_lists() {
    for n in 1..=10 {
        for unique in [false, true] {
            let want = dlx(n, unique);
            for min_tasks in [1, 7, 1000] {
                assert_eq!(
                    all_in_order(n, unique, min_tasks),
                    want,
                    "n = {n}, unique = {unique}, min_tasks = {min_tasks}"
                );
            }
        }
    }
}

#[test]
fn counts_match_a000170_and_tasks_are_in_order() {
    for n in 1..=12 {
        let all = all_in_order(n, false, 50);
        assert_eq!(all.len(), SOLUTIONS[n - 1], "n = {n}");
        assert!(all.windows(2).all(|w| w[0].0 < w[1].0));
        let t = tasks(n, 50);
        assert!(t.windows(2).all(|w| w[0] < w[1]));
        assert!(t.len() >= 50 || t.first().is_none_or(|p| p.len() == n));
    }
}

#[test]
fn bad_prefixes_have_no_solutions() {
    let none = |p: &[u8]| {
        for_each_solution_in::<()>(8, p, false, |_, _| panic!("no solution expected")).is_continue()
    };
    assert!(none(&[0, 1]));
    assert!(none(&[0, 0]));
    assert!(none(&[9]));
    assert!(none(&[0, 4, 7, 5, 2, 6, 1, 4]));
    let mut seen = 0;
    let _ = for_each_solution_in::<()>(8, &[0, 4, 7, 5, 2, 6, 1, 3], false, |q, _| {
        assert_eq!(q, [0, 4, 7, 5, 2, 6, 1, 3]);
        seen += 1;
        ControlFlow::Continue(())
    });
    assert_eq!(seen, 1);
}

/// The rows the `queens list` command prints, formatted the slow way.
fn reference(n: usize, unique: bool, format: ListFormat) -> String {
    let mut s = String::new();
    for (i, (q, class)) in dlx(n, unique).into_iter().enumerate() {
        let index = i + 1;
        match format {
            ListFormat::Csv => {
                s += &format!("{index},{n}");
                for c in &q {
                    s += &format!(",{c}");
                }
                if let Some(c) = class {
                    s += &format!(",{c}");
                }
                s.push('\n');
            }
            ListFormat::Json => {
                s += &format!("{{\"solution\":{index},\"n\":{n}");
                for (r, c) in q.iter().enumerate() {
                    s += &format!(",\"q{r}\":{c}");
                }
                if let Some(c) = class {
                    s += &format!(",\"class_size\":{c}");
                }
                s += "}\n";
            }
            ListFormat::Board => {
                if index > 1 {
                    s.push('\n');
                }
                s += &format!("Solution {index}:");
                for c in &q {
                    s += &format!(" {c}");
                }
                if let Some(c) = class {
                    s += &format!(" (class of {c})");
                }
                s.push('\n');
                for &c in &q {
                    let line: Vec<&str> = (0..n)
                        .map(|f| if f == c as usize { "X" } else { "." })
                        .collect();
                    s += &line.join(" ");
                    s.push('\n');
                }
            }
        }
    }
    s
}

#[test]
fn list_is_byte_identical_to_the_reference_formats_for_any_thread_count() {
    let pool1 = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let pool3 = rayon::ThreadPoolBuilder::new()
        .num_threads(3)
        .build()
        .unwrap();
    for n in [1, 2, 3, 4, 5, 6, 8, 10, 11] {
        for unique in [false, true] {
            for format in [ListFormat::Csv, ListFormat::Json, ListFormat::Board] {
                let want = reference(n, unique, format);
                let rows = dlx(n, unique).len() as u64;
                for pool in [&pool1, &pool3] {
                    for engine in [Engine::Bits, Engine::Dlx] {
                        let mut out = Vec::new();
                        let k =
                            list(n, unique, None, format, engine, Some(pool), &mut out).unwrap();
                        assert_eq!(
                            String::from_utf8(out).unwrap(),
                            want,
                            "n = {n} {format:?} {engine:?}"
                        );
                        assert_eq!(k, rows);
                    }
                }
            }
        }
    }
}

/// Task `i`'s rows through `mirror`, searched by the bitboard enumerator.
fn mirror_rows(mirror: &Mirror, n: usize, all: &[Vec<u8>], i: usize, f: ListFormat) -> Rows {
    let mut s = BitsSearch { n, unique: false };
    Rows::gather(f, u64::MAX, |emit| mirror.each(n, all, i, &mut s, emit))
}

#[test]
fn mirror_tasks_are_the_same_with_or_without_their_partner() {
    for n in [1, 4, 5, 6, 8, 9, 10, 11] {
        let all = tasks(n, 20);
        let kept = Mirror::new(all.len());
        let none = Mirror::new(all.len());
        for (i, p) in all.iter().enumerate() {
            let want = Rows::of_task(n, p, false, ListFormat::Csv, u64::MAX);
            assert_eq!(mirror_rows(&kept, n, &all, i, ListFormat::Csv), want);
            if 2 * usize::from(p[0]) > n - 1 {
                assert_eq!(mirror_rows(&none, n, &all, i, ListFormat::Csv), want);
            }
        }
        assert!(kept.slots.iter().all(|s| s.lock().unwrap().is_none()));
    }
    // n > 16: a byte per number. A few tasks of n = 17 and their mirrors.
    let n = 17;
    let all = tasks(n, 20_000);
    let kept = Mirror::new(all.len());
    let mut tried = 0;
    for i in (0..all.len()).step_by(997) {
        if 2 * usize::from(all[i][0]) >= n - 1 {
            break;
        }
        let left = mirror_rows(&kept, n, &all, i, ListFormat::Json);
        assert_eq!(
            left,
            Rows::of_task(n, &all[i], false, ListFormat::Json, u64::MAX)
        );
        let j = all.len() - 1 - i;
        let want = Rows::of_task(n, &all[j], false, ListFormat::Json, u64::MAX);
        assert_eq!(mirror_rows(&kept, n, &all, j, ListFormat::Json), want);
        assert_eq!(want.len(), left.len());
        tried += usize::from(!want.is_empty());
    }
    assert!(tried > 0);
}

#[test]
fn dancing_links_sub_problems_cut_deeper_give_the_same_solutions() {
    let model = Queens::new(9).unwrap();
    for unique in [false, true] {
        for free_ranks in [9, 6, 3, 0] {
            let mut s = DlxSearch::new(&model, unique);
            s.free_ranks = free_ranks;
            for prefix in [&[][..], &[1], &[4, 0]] {
                let mut got = Vec::new();
                let _ = s.each(prefix, &mut |q, c| {
                    got.push((q.to_vec(), c));
                    ControlFlow::Continue(())
                });
                let mut want = Vec::new();
                let _ = for_each_solution_in::<()>(9, prefix, unique, |q, c| {
                    want.push((q.to_vec(), c));
                    ControlFlow::Continue(())
                });
                assert_eq!(
                    got, want,
                    "{prefix:?} unique = {unique} free = {free_ranks}"
                );
            }
        }
    }
}

#[test]
fn the_writer_streams_the_rest_of_a_capped_task_numbered_on() {
    let n = 10;
    let model = Queens::new(n).unwrap();
    let prefix = [2u8];
    let mut whole = Vec::new();
    let _ = for_each_solution_in::<()>(n, &prefix, false, |q, c| {
        let k = 1 + whole.iter().filter(|&&b| b == b'\n').count() as u64;
        ListFormat::Csv.row(&mut whole, 100 + k, q, c);
        ControlFlow::Continue(())
    });
    let rows = whole.iter().filter(|&&b| b == b'\n').count() as u64;
    assert!(rows > 10);
    let mut bits = BitsSearch { n, unique: false };
    let mut dlx = DlxSearch::new(&model, false);
    for s in [&mut bits as &mut dyn TaskSearch, &mut dlx] {
        for (skip, limit) in [(3u64, u64::MAX), (3, 105), (0, 100 + rows)] {
            let mut out = Vec::new();
            let w = stream_rest(
                &prefix,
                s,
                ListFormat::Csv,
                skip,
                100 + skip,
                limit,
                &mut out,
            )
            .unwrap();
            let want: Vec<u8> = whole
                .split_inclusive(|&b| b == b'\n')
                .skip(skip as usize)
                .take((limit.min(100 + rows) - 100 - skip) as usize)
                .flatten()
                .copied()
                .collect();
            assert_eq!(
                String::from_utf8(out).unwrap(),
                String::from_utf8(want).unwrap()
            );
            assert_eq!(w, limit.min(100 + rows));
        }
    }
}

#[test]
fn limit_stops_the_listing_in_order() {
    let want = reference(10, false, ListFormat::Csv);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    for limit in [0u64, 1, 5, 500, 724, 10_000] {
        let mut out = Vec::new();
        let k = list(
            10,
            false,
            Some(limit),
            ListFormat::Csv,
            Engine::Bits,
            Some(&pool),
            &mut out,
        )
        .unwrap();
        assert_eq!(k, limit.min(724));
        let lines: Vec<&str> = want.lines().take(limit as usize).collect();
        let mut expect = lines.join("\n");
        if !lines.is_empty() {
            expect.push('\n');
        }
        assert_eq!(String::from_utf8(out).unwrap(), expect);
    }
}
