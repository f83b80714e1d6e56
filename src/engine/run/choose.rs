//! Which search runs: one function, [`choose`], turns a problem and a [`Plan`] into a
//! [`Choice`], and every rule and tuning constant of that choice is here. `count`, `list` and
//! `optimize` execute the choice; nothing below them decides.
//!
//! A count with [`MemoMode::Auto`] (the default) of a problem the bitset search ([`Dense`])
//! takes, without Knuth's tree, a shard or a limit of solutions, nodes or mems, runs the
//! *portfolio* (`portfolio.rs`): where the bitset search's tables are large, the memoised
//! dance alone first (a ski rental against the portfolio's builds,
//! [`Opener::Dance`]); then the bitset search alone for its first nodes,
//! then the two plain searches (the bitset search and the sparse-set search [`Cells`]) over
//! the parts of its tree, each part counted by the one faster per node so far
//! (`paired.rs`), beside the memoised dance in frontier order and the
//! memoised dance of fewest options first, in rounds of growing length, each search resuming where it stopped, until
//! one ends the count. Its guarantee: whatever the problem, at most `2 (k − 1) / LEAST_SHARE`
//! (128, k = 3 searches) times the time of the best of the searches alone, plus the first
//! slice; about `1 + LEAST_SHARE` (1.03) times it when the searches' estimates of the time
//! they still need point at the best one. A problem that falls apart into parts
//! no option joins is first cut into them, each counted so, the smallest first. Every other
//! count (a budget of nodes, mems or solutions, `--knuth`, a shard, multiplicities, more than
//! [`DENSE_MAX_OPTIONS`] options) follows the rules of [`MemoMode`]: the plain search
//! ([`Plain`]), or the memoised dance after a probe.
//!
//! # The rules and their constants
//!
//! A constant a search needs for its own data structure (a size cap) stays with the search;
//! the table names where.
//!
//! Measurements in the table that name *the team* were made while the portfolio's frontier
//! search was a memoised team with parts (two or more searches sharing one table, splitting
//! each node into the parts no live option joins); the dance in frontier order replaced it
//! (docs/lab-notes.md).
//!
//! | rule | constant | value | range | measurement behind it |
//! |---|---|---|---|---|
//! | the portfolio's frontier search: the memoised dance branching in frontier order (after a forced item, the open item first in the breadth-first order of `search/frontier.rs`), leading on its least estimate whether or not it is evidence | — | — | — | not a fit: the same order as the team it replaced, at the dance's cost a node (one walk of the open items, not a pass over the live options and a union-find). One thread, three alternating rounds, wall, against the team: domino tilings 12×12 50.5 → 16.6 ms and 16×16 1.74 → 0.46 s (`--memo on` 37 ms and 1.17 s), 10×10 17.9 → 9.0, 6×20 6.8 → 5.2; mixed 6×6, 7×7, 8×8 15.7 → 11.5, 65 → 52, 381 → 198 ms; the suite's other instances and the unseen sudokus within the noise (the ones over 1.05 rechecked with seven rounds: 0.93–1.06). Two threads: dominoes 16×16 1.57 → 0.53 s, 12×12 61 → 19 ms |
//! | the memoised dance alone first (on the calling thread, on threads too), where the bitset search's tables are large: a ski rental against what the portfolio builds before counting (the *buy*), in slices of a third of it, the first always, each other only while the dance's estimate of its time left at its pace is evidence and within the buy; kept in the portfolio, where it stopped, when its table pays and its estimate is evidence | [`DANCE_FIRST_BYTES`], [`BUILD_NS_PER_BYTE`], [`OPENER_SLICES`] | 1 MiB, 3 ns a byte, 3 | 256 KiB–4 MiB, 1–4 ns, 2–4 | a bound, not a fit: a count that goes on pays at most the buy more, one slice unless the dance shows evidence. The buy measured from table sizes to the first part, one thread: 25×25 sudoku 10.4 MB 28 ms, 5×5 word squares 9.4 MB 27 ms, edge matching 8×8 4.4 MB 15 ms, 16×16 sudoku 1.4 MB 4.4 ms (2.7–3.5 ns a byte). Short counts of 25×25 sudokus (unseen seeds, 24–680 solutions) 24–62 → 17–25 ms (`--knuth` 11–19), `bigsud25a` 0.11 → 0.044 s (`--memo on` 0.043); counts that go on pay a slice (`bigsud25b`: 13.5 ms of 0.4 s). Kept whatever its evidence, the dance's table paid on a 16×16 sudoku's first nodes and it led the first rounds for 50 ms of 0.4 s. With the memo passing by the nodes that do not branch, a memoised node where the memo misses costs about a plain one, so renting on no longer needs the table to pay, and a dance with a paying table and an estimate that is evidence goes on rather than being dropped (five alternating rounds, wall, before → after, `--memo on`, `--knuth`): 25×25 sudoku of 318 clues (540,000 solutions; its dance estimated 0.12 s, the buy 39 ms, and dropped, the portfolio's own dance got its least share) 0.72 → 0.091 s (0.057, 1.00); 16×16 sudokus of 112 and 115 clues 24.4 → 15.2 and 16.9 → 8.4 ms (9.1 and 9.3; 18.2 and 8.4); `bigsud16a` 0.50 → 0.46 s (0.31, 0.53); `bigsud25a` 26.5 → 25.8 ms (25.0) |
//! | the memoised dance keeps the counts of the nodes that branch (their item has 2 options or more); a node with one option counts what its child counts | `MEMO_LEAST_OPTIONS` (stays in memo_dance.rs) | 2 options | 1–2 | not a fit: a node with none counts 0 and one with one counts its child's count, so the table loses nothing but the walk down forced options on a repeat. `--memo on`, one thread, five alternating rounds, against a key at every node: 25×25 sudoku of 325 clues 23.4 → 17.1 ms, domino tilings 12×12 86 → 33 ms and 16×16 2.01 → 1.11 s, Aztec 8 68 → 41 ms, hexagon 4,5,6 14.1 → 9.1 ms, mixed 7×7 2.44 → 2.14 s, K18 and blocks the same |
//! | the bitset search alone first, on threads | [`ALONE_NODES`] | 2^10 nodes | 2^8–2^12 | a count that ends within them builds nothing else (no cut, no second search, no memo); otherwise the parts of the cut from the root count them again (about 0.1 ms on a 9×9 sudoku) |
//! | the bitset search alone first, on one thread; the rest of its count becomes the parts (`Dense::rest`: nothing counted twice) | [`DENSE_SLICE_NODES`] | 2^12 nodes | 2^10–2^20 | small counts end before any other search starts; at 2^16 domino tilings of 8×8 took 10 ms before the memo joined, which counts them in 5 ms; at 2^12 the memo's shares cost 13-queens and the word squares nothing measurable |
//! | the two plain searches over the tree's parts: each part counted whole by the faster (the bitset search first, the sparse-set search second), the other kept to a share of the time, the sample its part begins with included (costed before it is taken, at the lesser of the two paces); a part of the other is a pair of samples, its first nodes by each search, each timed over its second half, and the faster on all such samples so far goes on with it (before the first pair, the one of less time per node over its parts); a trailer's sample cut short by the portfolio's turn gives the part to the leader when the count resumes | [`TRAILER_SHARE`], [`TRAILER_SAMPLE_NODES`] | 1/32, 2^14 nodes | 1/256–1/8, 2^10–2^16 | a guarantee, not a fit: whichever search is faster on the samples, the count costs at most about `1 + TRAILER_SHARE · (r − 1)` times its time (`r` the ratio of the paces), the trailer's samples included, plus the first pair and the leader's sample of each pair the trailer wins. Costing the sample before it is taken (at the lesser of the two paces; a search without a pace leads not): 12-queens 18.9 → 16.7 ms, Langford 11 36.9 → 32.7, edge matching 6×6 12.2 → 11.4, tetracubes 36.3 → 28.9 (three alternating rounds; the suite's others within the noise, the ones over 1.05 rechecked with seven: the same within 2%). Paces differ by depth and by part (the bitset search pays `m/64` words a try, the sparse-set search the options a try removes): on a 16×16 sudoku the bitset search was faster on the first 16,000 nodes and 1.75 times slower over the count; on two threads the sparse-set search's paces over its first, small parts (230 ns a node) made it lose every sample against the bitset search's pace over all its parts, in 2 runs of 12 (1.2 and 1.7 s against 0.9); compared on the same nodes it wins every pair (12 runs: 0.89–1.05 s) |
//! | the same on threads, in time | [`THREADS_FIRST_SLICE`] | 2 ms | 1–10 ms | the memo waits this long on threads. Two threads, wall ms, at 2 ms against 10: domino tilings 8×8 6.3 against 13.6 (`--memo on` 5.8), K16 6.4 against 14.6, mixed 6×6 11.1 against 18.2, dominoes 12×12 24.5 against 31.5; plain counts: STS 9 3.2 against 3.4, 12-queens 9.9 against 9.1 (`--memo off` 9.2), pentominoes 3×20 12.3 against 10.4 (10.1). At 100 ms the memo joined too late: mixed 8×8 1.74 s against 0.82 at 10 ms |
//! | on threads, the memo waits for the rest of the first slice only when the plain searches' estimate of the time they still need after this long is evidence (within [`CREDIBLE_HORIZON`] times the time spent) | [`THREADS_FIRST_LOOK`] | 0.5 ms | 0.25–2 ms | not a fit: a count whose estimate is evidence runs as before; one whose estimate is not (hours or years after half a millisecond: tilings, matchings) has the memo join 1.5 ms sooner. Two threads, nine alternating rounds, wall: domino tilings 8×8 7.4 → 5.9 ms, K16 7.6 → 5.8, K18 9.7 → 8.4, hexagons 4,5,6 and 5,5,5 13.1 → 11.1 and 14.9 → 13.2, mixed 6×6 12.4 → 11.0, Aztec 8 57.6 → 52.4; plain counts within ±3% (12-queens, Langford 8 and 11, edge matching 6×6, tetracubes, matrices 6) but STS 9 1.00 to 1.16 times as long in three runs of seven to nine rounds (a 4 ms count whose slice is stopped and resumed; with the memo joining at 0.5 ms whatever the estimate, 1.18 to 1.26) |
//! | the opening round, shared equally, the memoised searches first (the dance in frontier order, then the other), the plain search last, its first slice counted as its share | [`OPENING_ROUND`] | 1 ms (or the plain search's estimate of its time left, if less) | 0–10 ms | the memo's estimate lags at its start (Knuth's fraction of a tree whose later branches are hits): at 1 ms domino tilings 8×8 11.3 ms → 5.1 (memo alone 4.5), K16 8.0 → 5.3 (4.6), dominoes 12×12 47 → 34. Its length is a trade: a plain count pays half of it, and a memoised count of `T` pays nothing more when `T` is within its half, at most `T` more otherwise. At 0.5 ms instead (ten to twenty alternating runs, wall): open sudokus of 23–26 clues 1.5–6% faster, domino tilings 8×8, K16, 7×12, 10×10 and mixed 6×6 3–7% faster, dominoes 4×30 5.6% and K14 2% slower; but on two threads domino tilings 16×16 take 0.64 s against 0.58 at 1 ms (one thread 1.12 s). At 0.25 ms: mixed 6×6 5% and K14 3% slower than at 1 ms. With the memoised searches first and the plain search's first slice as its share (nine alternating rounds, wall, before → after, `--memo on`): domino tilings 8×8 5.68 → 4.28 ms (3.94), K16 5.61 → 4.88 (4.03), K18 10.07 → 8.04 (7.16), hexagons 5,5,5 and 4,5,6 8.78 → 8.17 and 8.10 → 7.73 (6.92, 6.73); plain counts (12-queens, STS 9 and 13, Langford 8, edge matching 6×6) the same or up to 6% faster |
//! | the least part of each round of the searches that do not lead, shared evenly | [`LEAST_SHARE`] | 1/32 | 1/256–1/4 | the guarantee's factor is 2 (k − 1)/LEAST_SHARE (k = 3: 128); the cost when the leader is best is LEAST_SHARE. With 1/32 for each of the two others instead: the suite's plain counts 0–5% slower than with one memoised search, 13-queens 0.0696 s against 0.0678 shared (seven alternating runs), memoised counts none faster |
//! | a memoised search leads a round on the least estimate of the time left once its table has spared it as many nodes as it visited (no margin against the plain search's estimate) | — | — | — | the margin of 2 this rule had (a memoised search had to estimate half the plain search's time left until its table had spared it two nodes a node) guarded open sudokus, whose memoised estimates stall near the plain search's; since a table leads only once it has spared a node per node visited in the plain tree's nodes (the rule below), those tables never lead, and the margin only held back the tables that spare one to two nodes a node. Reduced latin squares of order 7 (16,942,080; an unseen family): the dance's estimate 6.4 s against the plain search's 9.5 at 4 s (its table at 1.2 nodes a node), held back by the margin; 16.9 → 10.0 s (`--memo on` 7.4). Five to eleven alternating rounds, one thread, with the margin → without: `bigsud16a` 497 → 465 ms, `bigsud16b` 2.76 → 2.54 s, the other 16×16 and 25×25 sudokus, hexagon 4,5,6, Aztec 8, matrices 6 and fifteen unseen 9×9 sudokus of 21–25 clues the same within ±3% (traced on two of them: no memoised search leads either way); earlier measurements of the margin in lab-notes
//! | the memoised dance of fewest options first estimates its time left also by the plain tree (its own plain tree, by the same rule of choice): the nodes of the plain search's estimate of its tree (nodes over the fraction done) it has not covered (visited or spared by its table's hits), at the rate it covered them; the lesser of that and the fraction's estimate | — | — | — | not a fit: the two searches' progress in one unit. Knuth's fraction lags on a memoised tree (its later branches end in hits): on `bigsud16a` the dance, leading, estimated 0.47 s left against the plain search's 0.28 with a fifth of its count left, and lost the lead; it had covered 1.87 M of the plain tree's 3.6 M nodes at 10.3 M a second against 7.9 M. Three to seven alternating rounds, one thread, wall, before → after: `bigsud16a` 593 → 526 ms (`--memo on` 307), `bigsud16b` 2.96 → 2.92 s (1.25); where the table does not pay (sudokus 9×9, queens, word squares, edge matching: traced) nothing changes, and the suite's other counts within the noise |
//! | an estimate of the time left is evidence only within this many times the time spent; while no search's is, a memoised search's table pays and the plain search would lead, the round is shared evenly | [`CREDIBLE_HORIZON`] | 100 | 10–1000 | a bound on what Knuth's estimate of a barely begun tree can say, not a fit: domino tilings 12×12 on two threads, the plain search's estimate after 6 ms was 2·10^9 s in one run and 7·10^12 s in another, the team's 10^11–10^12 s, and the lower led (twelve runs: 0.02 to 0.10 s; with the rule 0.02–0.03 s every time); dominoes 16×16 on two threads 1.13 → 0.62 s (one thread 1.22). Counts where the memoised search led already, or whose table does not pay (sudokus, queens, Langford, matrices, edge matching), the same within the runs' noise (seven alternating runs, one and two threads) |
//! | the memoised dance (the search of `--memo on`) a third search of the portfolio, resumed in place; it leads only on an estimate within [`CREDIBLE_HORIZON`] times the time spent, and its table is a part of the memo's memory | [`DANCE_MEMO_PART`] | 1/4 of `memo_bytes` | — | not a fit: the best search is in the portfolio or the guarantee does not reach it. Lozenge tilings of hexagons 4,4,4 / 4,5,6 / 5,5,5: 15 / 55 / 93 ms → 6 / 13 / 11 ms (`--memo on` 5 / 12 / 10); Aztec diamond 9 0.50 → 0.23 s (0.21). Without the evidence rule it led mixed tilings of 7×7 on figures as far off as the team's, in turns with it: 1.4–1.5× slower (with it 1.02). The suite's plain counts 0–5% slower, most within the noise (three alternating runs). Tables: the team's reach 150 MB on domino tilings 16×16, the dance's 58 MB on Aztec 9 |
//! | the tables follow the time, within `memo_bytes` together: each table its part while the plain search leads; while a memoised search leads, a table that does not lead doubles only if its share of the round is at least its search's time so far (its stores grow at most as its time does), a search not yet built keeps its part, and the leader's table may grow into the rest; a table past its part shrinks back to it when its search no longer leads (`share_memory` in portfolio.rs) | — | — | — | not a fit: a table's need follows its search's time, as the shares do. Reduced latin squares of order 7, whose dance of fewest options first leads after the frontier order's table grew to 112 MB while it led, and with its quarter (64 MB) forgot counts (`--memo on` 6.7 s with 64 MB, 5.0 s with 256 MB): its table now 112 MB, the count 11.8 → 8.6 s, three alternating rounds, wall (`--memo on` 6.5 in the same run). The other counts where a memoised search leads (domino tilings 8×8 and 12×12, mixed 6×6 and 7×7, hexagon 4,5,6, Aztec 9, K18, the 16×16 and 25×25 sudokus) and word squares, edge matching 8×8 and sudoku20 within the noise (five to nine alternating rounds; domino tilings 12×12 1.08 and 1.15 in two runs, by callgrind 104–110 M instructions before and 110–111 M after, each count's slices timed). Without the shrinking, a search that led first kept what it took: `latin7` with `--memo-mem 64M`, the dance in frontier order led first and took 56 MB, and the next leader had 7 MB of its 16; with it, 28 MB |
//! | a search's estimate of the time it still needs: the fraction left at the pace of its estimate since the end of its first turn (the plain search's first slice) | — | — | — | the memoised team on an open sudoku of 23 clues estimated half its tree done after 384 nodes (its reversed member ended a small branch of the root), then nothing more: measured from its start it would lead for 61 ms of a count the plain search ends in 11 (42 ms against SSXCC's 12); from its first turn the count takes 12.8 ms. The suite's tilings, matchings, blocks and families not tuned on: the same times (within ±3%, ten alternating runs) |
//! | …or at its pace over the latest half of its time (from its latest mark at or before half its time, after its first turn), whichever is longer | — | — | — | not a fit: a pace measured over a part of the tree long behind the search says nothing of the part it is in. Knuth's fraction gives each branch of a node an equal part, and stalls near its end when the last branch is the largest: on `bigsud16b` the plain search's fraction went from 0.03 to 0.94 between 0.08 and 0.33 s of a 4.1 s count, and it estimated 0.02 to 0.09 s left for a second (over its latest half: 25 to 30 s) |
//! | a leader that has had [`BROKEN_PROMISE`] times the time it estimated it still needed when its round began, without ending the count, and would lead again while another search has no estimate (its table has not shown it pays, or its fraction has not moved), shares that round evenly | [`BROKEN_PROMISE`] | 2 | 1–4 | a bound, not a fit: a leader whose estimate is right ends the count within its turn, so the rule costs nothing where the estimates hold; an estimate wrong by twice or more is no evidence, and the other's silence none against it. `bigsud16b`: the plain search, leading, estimated 0.02 s left 0.35 s into the count and had not ended 0.33 s later, when the memoised dance had had 10 ms on its least share; with the even round its table shows it pays, and it leads from the next round. Five alternating rounds, one thread, wall, before → after: `bigsud16b` 2.54 → 2.24 s (`--memo on` 1.13). Without the condition on the others' estimates, Aztec 9 (the memoised dance, leading, estimates milliseconds left at 0.99 of its tree for 60 ms) took 1.16 times as long; with it, 144 → 128 ms |
//! | a memoised search leads only while its table has spared it at least as many nodes as it visited | — | 1 node spared per node visited | — | not a fitted figure: below it the table has not halved the search's work, which then is the plain search's in another order, only slower. The nodes spared are the plain tree's (a hit's sub-problem's nodes visited and those its own hits spared): counted in the memoised search's own nodes, the dance that counts `bigsud16a` 1.7 times faster than the plain search had 0.51 M saved against 0.55 M visited (2.9 M as the plain tree's), and lost its lead (461 → 434 ms, `--memo on` 330; open sudokus 0.3–0.9 later in the count as the plain tree's). After the opening round, in the search's own nodes: open sudokus of 23–25 clues 0.16–0.27, where a jump of the team's estimate within the opening would make it lead the first round (24 clues seed 202: 4.2 ms with the rule, 4.9 without; fifteen alternating runs); domino tilings 8×8 and 12×12 7.4 and 6.2, K16 8.8, mixed 6×6 and 7×7 12.6 and 9.9 (their times the same with and without it, ±1.5%) |
//! | rounds double, the leader's turn first | — | 2× | — | a round is at most the sum of all before it: the factor 2 of the guarantee; a leader that ends the count spares the others' shares of its round |
//! | a search's first slice in the portfolio, and its least slice after | [`FIRST_NODES`], [`LEAST_NODES`] | 64, 16 nodes | — | a memoised node may cost a hundred plain ones on problems of thousands of options |
//! | the memo table's memory | [`Plan::memo_bytes`] (`DEFAULT_MEMO_BYTES`, memo.rs) | 256 MiB | — | the memoised search's table; on threads a table of `memo_bytes / threads` each |
//! | the bitset search takes at most | [`DENSE_MAX_OPTIONS`] (stays in dense.rs) | 16,384 options | — | conflict rows of m²/8 bytes: 32 MiB |
//! | …and per-level state of at most | `DENSE_MAX_STACK_BYTES` (stays in dense.rs) | 64 MiB | — | levels × (sets + sizes) |
//! | the bitset search walks the options a try removes through a mask of the words that hold some | `SPARSE_WALK_WORDS` (stays in dense/tables.rs), and conflict rows non-zero in ≥ 2/3 of their words on average | 5 to 64 words | — | a sudoku's removed options fall in any of its words, a coin toss per word: sudoku22 0.41 → 0.38 s; pentominoes 3×20 22 → 17.5 ms, 8×8 with a hole 118 → 113; where rows sit in a few words (mixed tilings) the mask cost up to 15%, and with 4 words (14-queens, STS 13) 3–5% |
//! | …or rows whose words with conflicts change from one option of an item to the next in this fraction of the words | `SPARSE_WALK_CHANGE` (stays in dense/tables.rs) | 0.1 | 0.09–0.11 | the static proxy of a mispredicted test per word: open sudokus 0.110–0.171 (all 31 made, 4 to 6 words), every other family 0.087 or less (mixed 4×9 0.087, 6×6 0.067, 7×7 0.064, 8×8 0.058; dominoes 0.04–0.05, 14-queens 0.037, STS 13 0.025; pentominoes 0: taken for their dense rows). Open sudokus of 25 and 24 clues whose rows fill 0.60–0.66 of their words: 3–6% faster (25 clues 5.70 → 5.36 ms, 24 clues 8.92 → 8.65) |
//! | the bitset search keeps its sizes on a trail above | `TRAIL_PRIMARIES` (stays in dense.rs) | 128 primary items | — | copying the sizes for each try costs more than the decrements (a sudoku's 324 items) |
//! | a plain count (no memo) takes the bitset search wherever it takes the problem | — | — | — | since its time per node fell by a third (sudokus), it beats the dance on short options of primary items too, where the dance had won: Langford 12 0.17 s against 0.25, Steiner triples 13 0.05 against 0.08 |
//! | a plain count with colours on one thread takes the sparse-set search ([`Cells`]) | — | — | — | coloured set (word squares, edge matching, MacMahon's squares) 0.78 to 0.91 of the dance's time; colour-free set (13-queens, Langford, pentominoes) 1.1 to 1.2 |
//! | the memo's probe (memo `auto` with a budget of nodes or mems, or past the bitset search's cap) | [`PROBE_NODES`] | 2^12 nodes | 2^12–2^15 | the decision is the same on the benchmark set for 4,096 to 32,768 nodes; its cost, paid again when the memo is dropped, grows with it (Langford 12: 0.4% at 4,096, 0.8% at 8,192) |
//! | …shorter for long keys | — | `PROBE_NODES × 8 / words`, at least a quarter | — | word squares' 130-word keys: 1,024 nodes in 4 MiB (8,192 nodes in 58 MB cost 8% of the count) |
//! | …in a table of | [`PROBE_BYTES`] | 4 MiB | — | grows to `memo_bytes` when the memo is kept |
//! | the memo pays when its hits saved more mems than it costs a node | [`MEMO_NODE_MEMS`] | 800 mems | — | sudoku's plain nodes of about 200 mems ran 7 times slower memoised, 6×10 pentominoes' of about 12,000 mems gained from it |
//! | …against the bitset search, this many times more | [`DENSE_MEMO_FACTOR`] | 8 | — | a bitset node costs a third to a half of a dance node (pentominoes 6×10 1.4 µs against 2.8); pentominoes' memo saves 1,064 to 2,398 mems a node and the bitset search wins by 1.8× |
//! | the early abort of dead ends is kept when the probe cut off one per | [`DEAD_ENDS_FOR_WATCH`] | 2 nodes | — | the abort costs about 37% more instructions a node (13-queens 964 against 706); rates: 13-queens 0.20 a node, Langford 0.28, pentominoes 1.8 to 2.0 |
//! | the dance's split on threads: sub-problems per thread | [`PARTS_PER_THREAD`] | 256 | — | enough that the unequal sizes of sub-trees even out over the threads; also the memoised count on threads |
//! | the bitset search's split on threads: sub-problems per thread at least | [`SUBPROBLEMS_PER_THREAD`] | 64 | — | its sub-trees, cut at the first depth with this many, even out (a figure of its own so that the split, and `--stats`, stay as they were) |
//! | a shard's split: sub-problems at least, and per shard | [`SHARD_PARTS_MIN`], [`PARTS_PER_SHARD`] | 4,096, 64 | — | depends only on the shards, so that every shard of a run computes the same split |
//! | the deepest cut tried | `MAX_SPLIT_DEPTH` (stays in split.rs) | 16 | — | the split's own bound |
//! | a listing on threads holds ahead of the output, per thread | [`WINDOW_PER_THREAD`] | 32 sub-problems | — | bounds the memory held by the solutions of parts not yet written |
//! | the optimiser on threads cuts at | `PARALLEL_CUT` (stays in optimize/strategy.rs) | depth 3 | — | the optimiser's own |
//!
//! [`Dense`]: crate::engine::Dense
//! [`Cells`]: crate::engine::Cells
//! [`DENSE_MAX_OPTIONS`]: crate::engine::DENSE_MAX_OPTIONS

use std::time::Duration;

use super::{MemoMode, Plan};
use crate::engine::problem::Problem;
use crate::engine::search::cells::Cells;
use crate::engine::search::dense::Dense;

/// The nodes of the bitset search ([`Dense`]) a default count runs alone on one thread
/// before the memoised search joins it (the rest of its count then becomes the plain
/// searches' parts), or, with a budget of nodes or mems, before the memo's probe: a count that ends within them never pays for the memo,
/// and one on which the memo pays spends them first (domino tilings of 8×8: 10 ms at 2^16
/// nodes against 5 ms for the whole memoised count; perfect matchings of K16: 50 ms at 2^20
/// against 1 ms). At 2^12 the memo's shares cost 13-queens and the word squares nothing
/// measurable (0.08 s and 0.22 s either way).
pub const DENSE_SLICE_NODES: u64 = 1 << 12;

/// The bitset search's tables (conflict rows and item rows, [`Dense::table_bytes`]) from
/// which a default count opens with the memoised dance alone, on the calling thread
/// ([`Opener::Dance`]): a ski rental. What the portfolio builds before its plain searches
/// count (the tables, the first slice, its rest as parts) costs about
/// [`BUILD_NS_PER_BYTE`] a byte of the tables, the *buy*; the dance, cheap to build, counts
/// first, the *rent*. A count it ends builds nothing else; one that goes on keeps its work
/// when the dance's table pays and its estimate is evidence (it goes on as the portfolio's
/// dance, where it stopped). It rents in
/// [`OPENER_SLICES`] slices at most, the buy in all; the first always, each other only while
/// its estimate of the time it still needs at its pace is evidence and within the buy. So a
/// count that goes on pays at most the buy more, and most pay a slice. Below a mebibyte the
/// tables cost about as much as the bitset search's first slice (a 16×16 sudoku's 1.1 MB:
/// 1.0–1.6 ms, its first 4,096 nodes 0.7 ms).
pub const DANCE_FIRST_BYTES: usize = 1 << 20;

/// What the portfolio builds before its plain searches count, per byte of the bitset
/// search's tables: the tables (most of it page faults and zeroing), the first slice, its
/// rest as parts (measured when a memoised team's rows were built too, a small part). Measured (one thread, from the end of the
/// table sizes to the first part): a 25×25 sudoku's 10.4 MB 28 ms (2.7 ns a byte), 5×5 word
/// squares' 9.4 MB 27 ms (2.9), edge matching 8×8's 4.4 MB 15 ms (3.5), a 16×16 sudoku's 1.4
/// MB 4.4 ms (3.1).
pub const BUILD_NS_PER_BYTE: f64 = 3.0;

/// The slices the memoised dance's opening rent ([`DANCE_FIRST_BYTES`]) is cut into: the first
/// a third of the buy, always run; each other only on the dance's evidence.
pub const OPENER_SLICES: u32 = 3;

/// What the portfolio builds before its plain searches count, for tables of `bytes` bytes
/// (the ski rental's buy, [`BUILD_NS_PER_BYTE`]).
pub(crate) fn build_time(bytes: usize) -> Duration {
    Duration::from_secs_f64(bytes as f64 * BUILD_NS_PER_BYTE * 1e-9)
}

/// The nodes the bitset search counts alone, from the root, before a default count on
/// threads builds anything else: a count that ends within them pays for no cut of its tree,
/// no second plain search and no memo. Otherwise they are counted again by the parts (on a
/// 9×9 sudoku about 0.1 ms). (On one thread the first [`DENSE_SLICE_NODES`] are counted
/// alone, and their rest becomes the parts: nothing is counted twice.)
pub const ALONE_NODES: u64 = 1 << 10;

/// The pair of plain searches over a tree's parts (`paired.rs`): the share of the time the
/// slower of the two (by time per node on the parts it counted) keeps getting parts, so that
/// a change of lead is seen. The count costs at most about `1 + TRAILER_SHARE · (r − 1)`
/// times the faster search's, `r` the ratio of their paces.
pub const TRAILER_SHARE: f64 = 1.0 / 32.0;

/// The nodes of a part of the slower plain search that each search runs (a pair of samples,
/// `paired.rs`) before the faster on such samples goes on with it. A search's pace
/// varies with the depth (a 25×25 sudoku's part: the sparse-set search 0.25 µs a node on
/// its first 256 nodes, 0.05 over the part, the bitset search 0.24), so the sample is long
/// enough to go deep: at most this many nodes are wasted per pair (the loser's).
pub const TRAILER_SAMPLE_NODES: u64 = 1 << 14;

/// On threads, the time the plain search counts alone before the others join (on one
/// thread its first slice is [`DENSE_SLICE_NODES`] nodes): what a memoised count waits on
/// threads (see the table).
pub const THREADS_FIRST_SLICE: Duration = Duration::from_millis(2);

/// On threads, the part of [`THREADS_FIRST_SLICE`] after which the plain searches' estimate
/// of the time they still need (the fraction of the tree left at their pace so far) decides
/// whether the memo waits for the rest of the slice: it waits when the estimate is evidence,
/// within [`CREDIBLE_HORIZON`] times the time spent (a count that may well be short pays for
/// no memo), and joins at once otherwise (domino tilings, matchings: estimates of hours or
/// years after half a millisecond). A count whose estimate is evidence costs what it did
/// without the look; one whose estimate is not gains up to the rest of the slice, unless
/// the plain search would have ended within it after all.
pub const THREADS_FIRST_LOOK: Duration = Duration::from_micros(500);

/// The portfolio's opening round, after the plain search's first slice: every search an
/// equal share of it, the memoised ones first, the plain search's first slice counted as its
/// share. A count a memoised search ends in its share costs at most its time, the other
/// memoised search's share and the first slice; any other pays at most the memoised
/// searches' shares more (see the table above for the trade its length makes).
pub const OPENING_ROUND: Duration = Duration::from_millis(1);

/// The least part of each round of the portfolio the searches that do not lead share, evenly
/// (`LEAST_SHARE / (k − 1)` each): the guarantee's factor is `2 (k − 1) / LEAST_SHARE`
/// (k = 3 searches: 128), the overhead when the leader is the best search about
/// `LEAST_SHARE` (3%).
pub const LEAST_SHARE: f64 = 1.0 / 32.0;

/// An estimate of the time a search still needs is taken as evidence only when it is at most
/// this many times the time the portfolio has spent: beyond it, Knuth's estimate of a tree
/// barely begun differs by orders of magnitude from one run to the next (domino tilings
/// 12×12 on two threads: the plain search's 2·10^9 to 7·10^12 s after 6 ms), and which
/// search leads would be a coin toss. While no search's estimate is within it, a memoised
/// search's table pays and the plain search would lead, the round is shared evenly.
pub const CREDIBLE_HORIZON: f64 = 100.0;

/// A leader of a round that has had this many times the time it estimated it still needed
/// since the round began, without ending the count, broke its promise: if it would lead the
/// next round too, that round is shared evenly (`broke_its_promise` in portfolio.rs).
pub const BROKEN_PROMISE: f64 = 2.0;

/// The portfolio's memoised dance keeps `1 / DANCE_MEMO_PART` of the memo's memory
/// ([`Plan::memo_bytes`]) for its table while the plain search leads (a memoised search that
/// leads takes what the other table does not need, see the table), the dance in frontier
/// order the rest: the two
/// tables together stay within `--memo-mem` (domino tilings of 16×16 in frontier order: a
/// peak of about 200 MB for the process; the dance of fewest options first on Aztec
/// diamonds of order 9 58 MB, on lozenge tilings of the hexagon 5,5,5 2 MB).
pub const DANCE_MEMO_PART: u64 = 4;

/// A search's first slice in the portfolio, in nodes, when its time per node is not known
/// yet (a memoised node may cost a hundred plain ones on problems of thousands of options).
pub const FIRST_NODES: u64 = 64;

/// The least slice of a search in the portfolio after its first, in nodes.
pub const LEAST_NODES: u64 = 16;

/// What the memo costs a node of the memoised search, in mems of the plain one (measured:
/// sudoku's plain nodes of about 200 mems ran 7 times slower memoised, 6×10 pentominoes' of
/// about 12,000 mems gained from it). [`MemoMode::Auto`] keeps the memo when the probe's hits
/// saved more mems than this per node visited.
pub const MEMO_NODE_MEMS: u64 = 800;

/// The probe of [`MemoMode::Auto`], in nodes. Its cost is paid again when the memo is
/// dropped (the plain search starts over): 4,096 memoised nodes are 0.4% of Langford 12's
/// count by instruction count, and the cost grows with the probe (8,192 nodes: 0.8%),
/// while on the benchmark set the decision is the same for probes of 4,096 to 32,768 nodes
/// (pentominoes' saving per node, the closest call, 1,064 to 2,398 mems against the 800
/// the memo costs).
pub const PROBE_NODES: u64 = 1 << 12;

/// The memory of the probe's table (it may grow to the plan's `memo_bytes` afterwards, when
/// the memo is kept).
pub const PROBE_BYTES: u64 = 4 << 20;

/// [`MemoMode::Auto`] keeps the early abort of dead ends (the colour-free tree that commits an
/// option only when it leaves every primary item an option,
/// [`Solver::knuth_tree`](crate::engine::Solver::knuth_tree)`(false)`) when the probe cut off
/// at least one dead end per this many nodes, and takes DLX2's tree otherwise. The abort
/// costs about 37% more instructions a node (marking the option's items, watching every
/// length: 13-queens 964 against 706 a node, Langford 12 946 against 686); it saves a node
/// per dead end. Measured rates: 13-queens 0.20 a node, Langford 0.28 (DLX2's tree 12% and
/// 7% fewer instructions), pentominoes 1.8 to 2.0 (a third of DLX2's nodes).
pub const DEAD_ENDS_FOR_WATCH: u64 = 2;

/// How much more the memo must save against the bitset search than against the dance (see
/// [`MEMO_NODE_MEMS`]): a bitset node costs a third to a half of a dance node (pentominoes
/// 6×10: 1.4 µs against 2.8; MacMahon's squares 0.30 against 0.50), and a memoised one more
/// than a plain one (pentominoes 3.9 µs), so the memo must cut the tree by far more.
/// Measured: pentominoes' memo saves 1,064 to 2,398 mems a node (the bitset search wins by
/// 1.8×), perfect matchings' millions.
pub const DENSE_MEMO_FACTOR: u64 = 8;

/// Sub-problems per thread the dance's split aims at for a run on threads (a plain or a
/// memoised count, a listing): enough that the unequal sizes of sub-trees even out over the
/// threads.
pub const PARTS_PER_THREAD: usize = 256;

/// The sub-problems a thread of the bitset search's count on threads gets at least (where
/// the tree has them): enough that threads finishing at different times still end together.
pub const SUBPROBLEMS_PER_THREAD: usize = 64;

/// Sub-problems a split for shards aims at, at least (see [`shard_target`]).
pub const SHARD_PARTS_MIN: usize = 4096;

/// Sub-problems a split for shards aims at per shard (see [`shard_target`]).
pub const PARTS_PER_SHARD: usize = 64;

/// Sub-problems per thread a listing may hold ahead of the output (finished or running).
pub const WINDOW_PER_THREAD: usize = 32;

/// Sub-problems a split for `shards` shards aims at: at least [`SHARD_PARTS_MIN`], and
/// [`PARTS_PER_SHARD`] per shard, so that every shard gets many sub-trees and no shard much
/// more work than the mean. Depends only on `shards`, so that every shard of a run computes
/// the same split.
pub(crate) fn shard_target(shards: usize) -> usize {
    SHARD_PARTS_MIN.max(shards.saturating_mul(PARTS_PER_SHARD))
}

/// The sub-problems the dance's split aims at on `threads` threads, or for shard `shard`.
pub(crate) fn split_target(threads: usize, shard: Option<(usize, usize)>) -> usize {
    match shard {
        Some((_, m)) => shard_target(m),
        None => PARTS_PER_THREAD.saturating_mul(threads),
    }
}

/// The sub-problems the bitset search's count on `threads` threads is cut into, at least.
pub(crate) fn dense_target(threads: usize) -> usize {
    threads.max(1) * SUBPROBLEMS_PER_THREAD
}

/// What a count runs: decided once by [`choose`], executed by `count`.
pub(crate) enum Choice<'p> {
    /// Parts that no option joins, each counted on the plan as a problem of its own, the
    /// smallest first.
    Parts(Vec<Problem>),
    /// The portfolio of the two plain searches over the tree's parts and the memoised
    /// searches, after the opener alone.
    Portfolio(Opener<'p>),
    /// The plain count, no memo.
    Plain(Plain<'p>),
    /// The memoised dance; with [`MemoMode::Auto`] (`probe`) first the bitset search's slice
    /// (when `dense` is given, on one thread), then a probe that decides the memo and the
    /// tree; the plain count `dense` or [`plain`] says when the memo does not pay.
    Memo {
        dense: Option<Dense<'p>>,
        probe: bool,
    },
}

/// The search a default count (the portfolio) runs alone first: a count that ends within
/// it builds nothing else. (Made once per count and moved once: its size does not matter.)
#[allow(clippy::large_enum_variant)]
pub(crate) enum Opener<'p> {
    /// The bitset search, for its first [`DENSE_SLICE_NODES`] nodes on one thread (their
    /// rest becomes the parts), [`ALONE_NODES`] on threads.
    Dense(Dense<'p>),
    /// The memoised dance, on the calling thread, where the bitset search's tables are large
    /// ([`DANCE_FIRST_BYTES`]), for at most what the portfolio would build before counting
    /// (the duration, [`build_time`]); the bitset search is built only if the count goes on,
    /// and the dance goes on as one of the portfolio's searches.
    Dance(Duration),
}

/// The plain count's search.
pub(crate) enum Plain<'p> {
    /// The bitset search, on the plan's threads.
    Dense(Dense<'p>),
    /// The sparse-set search, on one thread.
    Cells(Cells<'p>),
    /// Algorithm M, on one thread.
    Multiplicities,
    /// The dance, on the plan's threads or shard and tree.
    Dance,
}

/// Which search counts `problem` on `plan`.
pub(crate) fn choose<'p>(problem: &'p Problem, plan: &Plan) -> Choice<'p> {
    let budget = &plan.budget;
    if plan.memo == MemoMode::Auto
        && !plan.knuth
        && plan.shard.is_none()
        && budget.solutions.is_none()
        && budget.nodes.is_none()
        && budget.mems.is_none()
    {
        if let Some(parts) = problem.independent_parts() {
            return Choice::Parts(parts);
        }
        if let Ok(bytes) = Dense::table_bytes(problem) {
            if bytes >= DANCE_FIRST_BYTES {
                return Choice::Portfolio(Opener::Dance(build_time(bytes)));
            }
            if let Ok(dense) = Dense::new(problem) {
                return Choice::Portfolio(Opener::Dense(dense));
            }
        }
    }
    let dense = if plan.memo == MemoMode::On && budget.solutions.is_none() {
        None
    } else {
        dense_for(problem, plan)
    };
    if plan.memo == MemoMode::Off
        || plan.shard.is_some()
        || budget.solutions.is_some()
        || problem.has_multiplicities()
    {
        return Choice::Plain(plain(problem, plan, dense));
    }
    Choice::Memo {
        dense,
        probe: plan.memo == MemoMode::Auto,
    }
}

/// The plain count's search: the bitset search when [`dense_for`] gave it, else the
/// sparse-set search for colours on one thread ([`cells_for`]), else Algorithm M for
/// multiplicities, else the dance.
pub(crate) fn plain<'p>(problem: &'p Problem, plan: &Plan, dense: Option<Dense<'p>>) -> Plain<'p> {
    if let Some(d) = dense {
        return Plain::Dense(d);
    }
    if let Some(cells) = cells_for(problem, plan) {
        return Plain::Cells(cells);
    }
    if problem.has_multiplicities() {
        Plain::Multiplicities
    } else {
        Plain::Dance
    }
}

/// The bitset search for a count on `plan`, if it takes `problem`: not on Knuth's tree, not
/// in a shard (a shard's parts come from the dance's split), within
/// [`DENSE_MAX_OPTIONS`](crate::engine::DENSE_MAX_OPTIONS) and without multiplicities. It
/// beats the dance on every family of the suite it takes, short options included (Langford
/// 12: 0.17 s against 0.25).
fn dense_for<'p>(problem: &'p Problem, plan: &Plan) -> Option<Dense<'p>> {
    if plan.knuth || plan.shard.is_some() {
        return None;
    }
    Dense::new(problem).ok()
}

/// The plain count of a problem with colours on one thread without a shard, unless the plan
/// asks for Knuth's tree: the sparse-set search ([`Cells`], SSXCC's rules: forced moves,
/// wipe-outs, SSXCC's tree and node count), which beats the dance on the coloured benchmark
/// set (word squares, edge matching, MacMahon's squares: 0.78 to 0.91 of its time) and loses
/// to it on the colour-free one (13-queens, Langford, pentominoes: 1.1 to 1.2), hence the
/// rule. A listing keeps the dance, whose order of solutions is the same on every number of
/// threads.
fn cells_for<'p>(problem: &'p Problem, plan: &Plan) -> Option<Cells<'p>> {
    if plan.knuth || !problem.has_colours() || plan.shard.is_some() || plan.thread_count() != 1 {
        return None;
    }
    Cells::new(problem).ok()
}

/// The probe's length in nodes for keys of `words` words. Long keys (colours: half a word
/// per secondary item) cost a node more to hash and a slot more memory: the probe is shorter
/// and its table small, so that it stays about 1% of the search it decides about (word
/// squares, 130-word keys: 1,024 nodes in a 4 MiB table; before, 8,192 nodes in 58 MB cost 8%
/// of the count).
pub(crate) fn probe_nodes(words: usize) -> u64 {
    (PROBE_NODES * 8 / words.max(8) as u64).max(PROBE_NODES / 4)
}

/// After the probe: DLX2's tree unless the early abort of dead ends pays (see
/// [`DEAD_ENDS_FOR_WATCH`]): `dead_ends` cut off in the probe's `nodes` (at least 1).
pub(crate) fn knuth_after_probe(dead_ends: u64, nodes: u64) -> bool {
    dead_ends < nodes / DEAD_ENDS_FOR_WATCH
}

/// After the probe: whether the memo pays, its hits having saved `nodes_saved` nodes in a
/// probe of `nodes` nodes (at least 1) and `mems` mems. It pays when the mems its hits saved
/// (nodes saved × the probe's mems per node) exceed its own cost, about [`MEMO_NODE_MEMS`] a
/// node visited (hashing the key, probing a table that outgrows the caches); against the
/// bitset search (`dense`), whose nodes cost less, [`DENSE_MEMO_FACTOR`] times that.
pub(crate) fn memo_pays(nodes_saved: u64, mems: u64, nodes: u64, dense: bool) -> bool {
    let nodes = u128::from(nodes);
    let saved_mems = u128::from(nodes_saved) * u128::from(mems) / nodes;
    let cost = MEMO_NODE_MEMS * if dense { DENSE_MEMO_FACTOR } else { 1 };
    saved_mems >= nodes * u128::from(cost)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Budget;
    use crate::engine::ProblemBuilder;
    use crate::models::Model;
    use crate::models::langford::Langford;
    use crate::models::queens::Queens;

    /// The name of a choice, for the assertions.
    fn name(choice: &Choice<'_>) -> &'static str {
        match choice {
            Choice::Parts(_) => "parts",
            Choice::Portfolio(Opener::Dense(_)) => "portfolio",
            Choice::Portfolio(Opener::Dance(_)) => "portfolio, memoised dance first",
            Choice::Plain(Plain::Dense(_)) => "dense",
            Choice::Plain(Plain::Cells(_)) => "cells",
            Choice::Plain(Plain::Multiplicities) => "multiplicities",
            Choice::Plain(Plain::Dance) => "dance",
            Choice::Memo { dense: Some(_), .. } => "memo after dense",
            Choice::Memo { dense: None, .. } => "memo",
        }
    }

    #[test]
    fn each_rule_picks_its_search() {
        let queens = Queens::new(8).unwrap().problem().clone();
        let langford = Langford::new(7).unwrap().problem().clone();
        let colours = {
            let mut b = ProblemBuilder::new();
            b.primary("p").unwrap();
            b.primary("q").unwrap();
            b.secondary("x").unwrap();
            for option in ["p x:A", "q x:B", "q x:A"] {
                b.add_option_named(option, 0).unwrap();
            }
            b.build().unwrap()
        };
        let multiplicities = {
            let mut b = ProblemBuilder::new();
            b.primary_with_bounds("a", 1, 2).unwrap();
            b.add_option_named("a", 0).unwrap();
            b.add_option_named("a", 0).unwrap();
            b.build().unwrap()
        };
        let auto = Plan {
            memo: MemoMode::Auto,
            ..Plan::default()
        };
        let off = Plan::default();
        let nodes = Plan {
            budget: Budget {
                nodes: Some(1000),
                ..Budget::unlimited()
            },
            ..auto.clone()
        };
        let knuth = Plan {
            knuth: true,
            ..auto.clone()
        };
        let shard = Plan {
            shard: Some((1, 2)),
            ..Plan::default()
        };
        // Tables of over a mebibyte (4,100 options of one item: 65 words a row).
        let large = {
            let mut b = ProblemBuilder::new();
            b.primary("a").unwrap();
            for _ in 0..4100 {
                b.add_option_named("a", 0).unwrap();
            }
            b.build().unwrap()
        };
        assert!(Dense::table_bytes(&large).unwrap() >= DANCE_FIRST_BYTES);
        assert!(Dense::table_bytes(&queens).unwrap() < DANCE_FIRST_BYTES);
        let one_thread = Plan {
            threads: 1,
            ..auto.clone()
        };
        let two_threads = Plan {
            threads: 2,
            ..auto.clone()
        };
        let cases: [(&Problem, &Plan, &str); 12] = [
            (&queens, &auto, "portfolio"),
            (&queens, &nodes, "memo after dense"),
            (&queens, &knuth, "memo"),
            (&queens, &off, "dense"),
            // Short options too (three items: Langford pairs).
            (&langford, &off, "dense"),
            // A shard's parts are the dance's split.
            (&langford, &shard, "dance"),
            // The bitset search takes colours too (the sparse-set search counts those past
            // its cap).
            (&colours, &off, "dense"),
            (&multiplicities, &auto, "multiplicities"),
            (&langford, &knuth, "memo"),
            (&large, &one_thread, "portfolio, memoised dance first"),
            (&large, &two_threads, "portfolio, memoised dance first"),
            (&large, &off, "dense"),
        ];
        for (k, (problem, plan, want)) in cases.into_iter().enumerate() {
            assert_eq!(name(&choose(problem, plan)), want, "case {k}");
        }
        // The opener's count is the count.
        let out = super::super::count(&large, &one_thread);
        assert_eq!((out.end, out.count), (crate::engine::End::Exhausted, 4100));
    }

    #[test]
    fn the_probe_is_shorter_for_long_keys() {
        assert_eq!(probe_nodes(1), PROBE_NODES);
        assert_eq!(probe_nodes(16), PROBE_NODES / 2);
        assert_eq!(probe_nodes(130), PROBE_NODES / 4);
        assert!(knuth_after_probe(10, 100));
        assert!(!knuth_after_probe(60, 100));
        assert!(memo_pays(1, 1_000_000, 1, false));
        assert!(!memo_pays(0, 1_000_000, 1, false));
        assert!(!memo_pays(1, MEMO_NODE_MEMS, 1, true));
    }
}
