#!/usr/bin/env python3
"""The benchmark suite's instances, and the second methods that check their counts.

    python3 benches/suite/gen.py [--out DIR] [--xcover PATH] [--only SUBSTR]
    python3 benches/suite/gen.py --list
    python3 benches/suite/gen.py --check [--only SUBSTR]

Without --list or --check it writes every instance as DIR/NAME.dlx (default
target/suite/instances), in Knuth's DLX format (DLX3's `u:v|name` for multiplicities): item
names of at most 8 characters, colours of one character, so that Knuth's DLX2, DLX3, SSXCC
and DLX6 read the same file on stdin. Instances that `xcover model` makes are written by it
(PATH, default target/release/xcover); the others by this script. Everything random comes
from a fixed seed, so the files are the same on every run.

--list prints the instances (name, family, set, how it is made). --check runs, for each
instance that has one, the independent count written here (a transfer-matrix count over the
grid, a per-block brute force, a closed form), compares it with benches/suite/counts.csv and
exits 1 on a mismatch. Only the standard library is used.
"""

import argparse
import csv
import itertools
import math
import os
import random
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# ---------------------------------------------------------------------------------------
# Writing DLX text


def dlx_text(primary, secondary, options, comment):
    """The DLX text: `primary` (names, or `u:v|name` strings), `secondary`, and options as
    lists of tokens."""
    lines = [f"| {comment}"]
    head = " ".join(primary)
    if secondary:
        head += " | " + " ".join(secondary)
    lines.append(head)
    for o in options:
        lines.append(" ".join(o))
    for name in list(primary) + list(secondary):
        bare = name.split("|")[-1]
        assert 0 < len(bare) <= 8 and ":" not in bare, name
    return "\n".join(lines) + "\n"


def cell(r, c):
    return f"{r}.{c}"


# ---------------------------------------------------------------------------------------
# Tilings of a rectangle by pieces that may be used any number of times

DOMINO = [[(0, 0), (0, 1)], [(0, 0), (1, 0)]]
# Monomino, dominoes, straight trominoes and L trominoes, every orientation (TAOCP 7.1.4).
MIXED = [
    [(0, 0)],
    [(0, 0), (0, 1)],
    [(0, 0), (1, 0)],
    [(0, 0), (0, 1), (0, 2)],
    [(0, 0), (1, 0), (2, 0)],
    [(0, 0), (0, 1), (1, 0)],
    [(0, 0), (0, 1), (1, 1)],
    [(0, 0), (1, 0), (1, 1)],
    [(0, 0), (1, -1), (1, 0)],
]


def tiling_dlx(rows, cols, shapes, comment):
    options = []
    for r in range(rows):
        for c in range(cols):
            for s in shapes:
                cells = [(r + dr, c + dc) for dr, dc in s]
                if all(0 <= a < rows and 0 <= b < cols for a, b in cells):
                    options.append([cell(a, b) for a, b in cells])
    items = [cell(r, c) for r in range(rows) for c in range(cols)]
    return dlx_text(items, [], options, comment)


def count_tilings(rows, cols, shapes, track=None):
    """Tilings counted cell by cell in row-major order (a transfer matrix over the broken
    profile): the state is the set of cells at or after the current one already covered.
    Each shape's offsets start at its first cell in row-major order. With `track`, a function
    giving each shape a weight exponent, the value is a polynomial (a list of coefficients)."""
    width = cols
    one = [1] if track else 1
    states = {0: one}
    for k in range(rows * cols):
        r, c = divmod(k, width)
        new = {}

        def add(state, value):
            if track:
                cur = new.get(state)
                if cur is None:
                    new[state] = list(value)
                else:
                    if len(cur) < len(value):
                        cur.extend([0] * (len(value) - len(cur)))
                    for i, v in enumerate(value):
                        cur[i] += v
            else:
                new[state] = new.get(state, 0) + value

        for state, value in states.items():
            if state & 1:
                add(state >> 1, value)
                continue
            for si, s in enumerate(shapes):
                mask = 0
                ok = True
                for dr, dc in s:
                    a, b = r + dr, c + dc
                    if not (0 <= a < rows and 0 <= b < cols):
                        ok = False
                        break
                    mask |= 1 << (dr * width + dc)
                if not ok or state & mask:
                    continue
                v = value
                if track:
                    e = track(si)
                    v = [0] * e + value
                add((state | mask) >> 1, v)
        states = new
    return states.get(0, [0] if track else 0)


# ---------------------------------------------------------------------------------------
# Independent blocks


def block_options(rng, size, unsat):
    """One block on `size` items: a planted partition plus random options of 1 to 3 items,
    each item in at most 3 options (few, so that MRV branches here first); or, unsatisfiable,
    every pair of the items (an odd number of items: no exact cover; each item in size-1
    options)."""
    if unsat:
        assert size % 2 == 1
        return [list(p) for p in itertools.combinations(range(size), 2)]
    items = list(range(size))
    rng.shuffle(items)
    options = []
    k = 0
    while k < size:
        w = min(rng.randint(1, 3), size - k)
        options.append(sorted(items[k : k + w]))
        k += w
    degree = [1] * size
    for _ in range(200):
        w = rng.randint(1, 3)
        o = sorted(rng.sample(range(size), w))
        if o in options or any(degree[i] >= 3 for i in o):
            continue
        options.append(o)
        for i in o:
            degree[i] += 1
    return options


def count_block(size, options):
    """Exact covers of range(size) by `options`, by brute force over subsets."""
    full = (1 << size) - 1
    masks = [sum(1 << i for i in o) for o in options]
    n = 0
    for r in range(len(masks) + 1):
        for sub in itertools.combinations(masks, r):
            acc = 0
            ok = True
            for m in sub:
                if acc & m:
                    ok = False
                    break
                acc |= m
            if ok and acc == full:
                n += 1
    return n


def blocks(k, unsat, seed):
    """k blocks of 5 items sharing no option; with `unsat`, the last one has no solution."""
    rng = random.Random(seed)
    size = 5
    all_blocks = []
    for b in range(k):
        all_blocks.append(block_options(rng, size, unsat and b == k - 1))
    return size, all_blocks


def blocks_dlx(k, unsat, seed):
    size, bl = blocks(k, unsat, seed)
    items = [f"b{b}.{i}" for b in range(k) for i in range(size)]
    options = [[f"b{b}.{i}" for i in o] for b, opts in enumerate(bl) for o in opts]
    kind = "one without a solution" if unsat else "every one with solutions"
    return dlx_text(
        items, [], options, f"{k} independent blocks of {size} items, {kind}; seed {seed}"
    )


def count_blocks(k, unsat, seed):
    size, bl = blocks(k, unsat, seed)
    return math.prod(count_block(size, o) for o in bl)


# ---------------------------------------------------------------------------------------
# Steiner triple systems: items the pairs of points, options the triples


def sts_dlx(v, pinned):
    """Labelled STS(v). With `pinned`, the triples through point 0 are fixed to
    {0,1,2}, {0,3,4}, ...: the other triples through 0 are left out."""
    pairs = [f"{a}.{b}" for a, b in itertools.combinations(range(v), 2)]
    fixed = {(0, 2 * i + 1, 2 * i + 2) for i in range((v - 1) // 2)}
    options = []
    for t in itertools.combinations(range(v), 3):
        if pinned and t[0] == 0 and t not in fixed:
            continue
        options.append([f"{a}.{b}" for a, b in itertools.combinations(t, 2)])
    what = "triples through 0 fixed" if pinned else "all labelled systems"
    return dlx_text(pairs, [], options, f"Steiner triple systems on {v} points, {what}")


def count_sts(v, pinned):
    """Labelled STS(v) by orbit counting over the isomorphism classes (v!/|Aut| each): STS(7)
    the Fano plane (|Aut| 168), STS(9) the affine plane AG(2,3) (432), STS(13) two classes
    (|Aut| 6 and 39). With point 0's triples pinned: divided by the (v-2)!! ways to pair the
    other points, since every pairing is equally frequent."""
    aut = {7: [168], 9: [432], 13: [6, 39]}[v]
    total = sum(math.factorial(v) // a for a in aut)
    if pinned:
        pairings = math.prod(range(v - 2, 0, -2))
        assert total % pairings == 0
        total //= pairings
    return total


# ---------------------------------------------------------------------------------------
# Polycubes in a box


def rotations():
    """The 24 rotation matrices of the cube."""
    mats = []
    for perm in itertools.permutations(range(3)):
        for signs in itertools.product((1, -1), repeat=3):
            m = [[0] * 3 for _ in range(3)]
            for i in range(3):
                m[i][perm[i]] = signs[i]
            det = (
                m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
                - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
                + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
            )
            if det == 1:
                mats.append(m)
    return mats


def orientations(shape):
    out = set()
    for m in rotations():
        pts = [tuple(sum(m[i][j] * p[j] for j in range(3)) for i in range(3)) for p in shape]
        lo = [min(p[i] for p in pts) for i in range(3)]
        out.add(tuple(sorted(tuple(p[i] - lo[i] for i in range(3)) for p in pts)))
    return sorted(out)


SOMA = {
    "V": [(0, 0, 0), (1, 0, 0), (0, 1, 0)],
    "L": [(0, 0, 0), (1, 0, 0), (2, 0, 0), (0, 1, 0)],
    "T": [(0, 0, 0), (1, 0, 0), (2, 0, 0), (1, 1, 0)],
    "Z": [(0, 0, 0), (1, 0, 0), (1, 1, 0), (2, 1, 0)],
    "A": [(0, 0, 0), (1, 0, 0), (1, 1, 0), (1, 1, 1)],
    "B": [(0, 0, 0), (1, 0, 0), (1, 1, 0), (1, 1, -1)],
    "P": [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)],
}
# The eight tetracubes: the five flat ones and the three others (Soma's A, B and P).
TETRACUBES = {
    "I": [(0, 0, 0), (1, 0, 0), (2, 0, 0), (3, 0, 0)],
    "O": [(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0)],
    "L": SOMA["L"],
    "T": SOMA["T"],
    "S": SOMA["Z"],
    "A": SOMA["A"],
    "B": SOMA["B"],
    "P": SOMA["P"],
}


def polycube_dlx(pieces, dims, comment):
    X, Y, Z = dims
    options = []
    for name, shape in pieces.items():
        for o in orientations(shape):
            for dx in range(X):
                for dy in range(Y):
                    for dz in range(Z):
                        pts = [(x + dx, y + dy, z + dz) for x, y, z in o]
                        if all(p[0] < X and p[1] < Y and p[2] < Z for p in pts):
                            options.append([name] + [f"{a}{b}{c}" for a, b, c in pts])
    items = list(pieces) + [f"{x}{y}{z}" for x in range(X) for y in range(Y) for z in range(Z)]
    return dlx_text(items, [], options, comment)


# ---------------------------------------------------------------------------------------
# Sudoku: random clues kept from a random solved grid


def solved_grid(rng):
    grid = [0] * 81

    def ok(k, d):
        r, c = divmod(k, 9)
        for j in range(9):
            if grid[r * 9 + j] == d or grid[j * 9 + c] == d:
                return False
        br, bc = 3 * (r // 3), 3 * (c // 3)
        for a in range(br, br + 3):
            for b in range(bc, bc + 3):
                if grid[a * 9 + b] == d:
                    return False
        return True

    def fill(k):
        if k == 81:
            return True
        digits = list(range(1, 10))
        rng.shuffle(digits)
        for d in digits:
            if ok(k, d):
                grid[k] = d
                if fill(k + 1):
                    return True
        grid[k] = 0
        return False

    assert fill(0)
    return grid


def sudoku_puzzle(clues, seed):
    rng = random.Random(seed)
    grid = solved_grid(rng)
    keep = set(rng.sample(range(81), clues))
    return "".join(str(grid[k]) if k in keep else "." for k in range(81))


def big_sudoku_dlx(n, clues, seed):
    """An open n×n sudoku (n = b², b = 4 or 5): a solved grid of the pattern (b·(r mod b) +
    ⌊r/b⌋ + c) mod n with bands, rows in bands, stacks, columns in stacks and digits shuffled,
    and `clues` random cells kept; a kept cell has only its digit's option."""
    b = int(round(n**0.5))
    rng = random.Random(seed)

    def pattern(r, c):
        return (b * (r % b) + r // b + c) % n

    groups = list(range(b))
    rows = [g * b + r for g in rng.sample(groups, b) for r in rng.sample(groups, b)]
    cols = [g * b + c for g in rng.sample(groups, b) for c in rng.sample(groups, b)]
    digits = rng.sample(range(1, n + 1), n)
    grid = [[digits[pattern(r, c)] for c in cols] for r in rows]
    cells = [(r, c) for r in range(n) for c in range(n)]
    kept = set(rng.sample(cells, clues))
    items = [f"p{r}.{c}" for r in range(n) for c in range(n)]
    items += [f"r{r}.{v}" for r in range(n) for v in range(1, n + 1)]
    items += [f"c{c}.{v}" for c in range(n) for v in range(1, n + 1)]
    items += [f"b{x}.{v}" for x in range(n) for v in range(1, n + 1)]
    options = []
    for r in range(n):
        for c in range(n):
            x = (r // b) * b + c // b
            for v in [grid[r][c]] if (r, c) in kept else range(1, n + 1):
                options.append([f"p{r}.{c}", f"r{r}.{v}", f"c{c}.{v}", f"b{x}.{v}"])
    return dlx_text(items, [], options, f"{n}x{n} sudoku, {clues} random clues kept, seed {seed}")


# ---------------------------------------------------------------------------------------
# 0-1 matrices with every row and column sum 2 (multiplicities)


def matrices_dlx(n, s):
    rows = [f"{s}|r{i}" for i in range(n)]
    cols = [f"{s}|c{j}" for j in range(n)]
    options = [[f"r{i}", f"c{j}"] for i in range(n) for j in range(n)]
    return dlx_text(
        rows + cols, [], options, f"{n}x{n} 0-1 matrices, every row and column sum {s}"
    )


def count_matrices2(n):
    """n×n 0-1 matrices with line sums 2, row by row: the state is how many columns still need
    two ones and how many one."""
    states = {(n, 0): 1}
    for _ in range(n):
        new = {}
        for (a, b), v in states.items():
            for da, db, w in (
                (-2, 2, a * (a - 1) // 2),
                (-1, 0, a * b),
                (0, -2, b * (b - 1) // 2),
            ):
                if w:
                    key = (a + da, b + db)
                    new[key] = new.get(key, 0) + v * w
        states = new
    return states.get((0, 0), 0)


# ---------------------------------------------------------------------------------------
# The instance table

WORDS5 = os.path.join(HERE, "words-5.txt")


def word_list(letters, path):
    """The words of words-5.txt spelled with `letters` only (all of them: None)."""
    words = [w.strip() for w in open(WORDS5) if w.strip() and not w.startswith("#")]
    if letters:
        words = [w for w in words if set(w) <= set(letters)]
    with open(path, "w") as f:
        f.write("\n".join(words) + "\n")


def board_file(rows, path):
    """A board for `xcover model pentominoes --board`: `.` a cell, `#` a hole."""
    with open(path, "w") as f:
        f.write("\n".join(rows) + "\n")


CORNERS8 = ["#......#"] + ["........"] * 6 + ["#......#"]


def double_factorial(n):
    return math.prod(range(n, 0, -2))


# ---------------------------------------------------------------------------------------
# Domino tilings of the Aztec diamond, and lozenge tilings of a hexagon (plain exact cover: the
# cells primary, one option per piece), each with a closed form


def aztec_dlx(n):
    """The Aztec diamond of order n: the unit squares inside |x| + |y| <= n + 1."""
    cells = [(x, y) for x in range(-n, n) for y in range(-n, n) if abs(2 * x + 1) + abs(2 * y + 1) <= 2 * n]
    inside = set(cells)
    name = {c: f"{c[0] + n}.{c[1] + n}" for c in cells}
    options = [
        [name[(x, y)], name[(x + dx, y + dy)]]
        for (x, y) in cells
        for dx, dy in ((1, 0), (0, 1))
        if (x + dx, y + dy) in inside
    ]
    return dlx_text([name[c] for c in cells], [], options, f"domino tilings of the Aztec diamond of order {n}")


def count_aztec(n):
    """Elkies, Kuperberg, Larsen and Propp: 2^(n(n+1)/2)."""
    return 2 ** (n * (n + 1) // 2)


def hexagon_triangles(a, b, c):
    """The unit triangles of the hexagon with sides a, b, c, a, b, c on the triangular lattice
    (basis e1, e2 at 60 degrees; the up triangle (i, j) has corners (i, j), (i+1, j), (i, j+1),
    the down one (i+1, j), (i, j+1), (i+1, j+1)): those whose centre lies inside."""

    def inside(x, y):
        return y > 0 and x < a and x + y < a + b and y < b + c and x > -c and x + y > 0

    span = [(i, j) for i in range(-c - 1, a + 1) for j in range(-1, b + c + 1)]
    ups = [(i, j) for i, j in span if inside(i + 1 / 3, j + 1 / 3)]
    downs = [(i, j) for i, j in span if inside(i + 2 / 3, j + 2 / 3)]
    return ups, downs


def hexagon_dlx(a, b, c):
    ups, downs = hexagon_triangles(a, b, c)
    down_set = set(downs)
    up_name = {t: f"u{t[0] + c}.{t[1]}" for t in ups}
    down_name = {t: f"d{t[0] + c}.{t[1]}" for t in downs}
    # A lozenge: an up triangle and a down one sharing an edge.
    options = [
        [up_name[(i, j)], down_name[d]]
        for (i, j) in ups
        for d in ((i, j), (i - 1, j), (i, j - 1))
        if d in down_set
    ]
    items = [up_name[t] for t in ups] + [down_name[t] for t in downs]
    return dlx_text(items, [], options, f"lozenge tilings of the hexagon {a},{b},{c}")


def count_hexagon(a, b, c):
    """MacMahon's count of plane partitions in an a x b x c box."""
    num, den = 1, 1
    for i in range(1, a + 1):
        for j in range(1, b + 1):
            for k in range(1, c + 1):
                num *= i + j + k - 1
                den *= i + j + k - 2
    assert num % den == 0
    return num // den


# name: (family, set, maker, check)
#   set: "tune" (rules may be fitted on it) or "aside" (kept for judging them);
#   maker: ("model", args) for `xcover model` (an `@...` argument is a file or puzzle this
#   script makes, see `resolve`), or ("gen", a function returning the DLX text);
#   check: a function returning the count by a second method, or None.
INSTANCES = {}


# ---------------------------------------------------------------------------------------
# Reduced latin squares (first row and first column in order)


def latin_dlx(n):
    """Reduced latin squares of order n: a cell, a symbol in a row and a symbol in a column
    for each entry; the first row and the first column fixed to 0, 1, ..., n − 1."""
    primary = [f"p{r}{c}" for r in range(n) for c in range(n)]
    primary += [f"r{r}{v}" for r in range(n) for v in range(n)]
    primary += [f"c{c}{v}" for c in range(n) for v in range(n)]
    options = []
    for r in range(n):
        for c in range(n):
            for v in range(n):
                if (r == 0 and v != c) or (c == 0 and v != r):
                    continue
                options.append([f"p{r}{c}", f"r{r}{v}", f"c{c}{v}"])
    return dlx_text(primary, [], options, f"reduced latin squares of order {n}")


def count_latin(n):
    """Reduced latin squares of order n, row by row: each row a permutation starting with its
    index that repeats no column's symbol (brute force)."""
    used = [{c} for c in range(n)]

    def rows(r):
        if r == n:
            return 1
        total = 0
        for perm in itertools.permutations([v for v in range(n) if v != r]):
            row = (r,) + perm
            if all(row[c] not in used[c] for c in range(1, n)):
                for c in range(1, n):
                    used[c].add(row[c])
                total += rows(r + 1)
                for c in range(1, n):
                    used[c].discard(row[c])
        return total

    return rows(1)


def inst(name, family, set_, maker, check=None):
    INSTANCES[name] = (family, set_, maker, check)


inst(
    "dominoes8x8",
    "dominoes",
    "tune",
    ("gen", lambda: tiling_dlx(8, 8, DOMINO, "domino tilings of 8x8")),
    lambda: count_tilings(8, 8, DOMINO),
)
inst(
    "dominoes12x12",
    "dominoes",
    "aside",
    ("gen", lambda: tiling_dlx(12, 12, DOMINO, "domino tilings of 12x12")),
    lambda: count_tilings(12, 12, DOMINO),
)
inst(
    "dominoes16x16",
    "dominoes",
    "tune",
    ("gen", lambda: tiling_dlx(16, 16, DOMINO, "domino tilings of 16x16")),
    lambda: count_tilings(16, 16, DOMINO),
)
inst(
    "mixed6x6",
    "mixed-tilings",
    "tune",
    ("gen", lambda: tiling_dlx(6, 6, MIXED, "6x6 by monominoes, dominoes, trominoes")),
    lambda: count_tilings(6, 6, MIXED),
)
inst(
    "mixed7x7",
    "mixed-tilings",
    "tune",
    ("gen", lambda: tiling_dlx(7, 7, MIXED, "7x7 by monominoes, dominoes, trominoes")),
    lambda: count_tilings(7, 7, MIXED),
)
inst(
    "mixed8x8",
    "mixed-tilings",
    "aside",
    ("gen", lambda: tiling_dlx(8, 8, MIXED, "8x8 by monominoes, dominoes, trominoes")),
    lambda: count_tilings(8, 8, MIXED),
)
for k, s in ((12, "tune"), (26, "aside")):
    inst(
        f"blocks{k}",
        "blocks",
        s,
        ("gen", lambda k=k: blocks_dlx(k, False, 47 + k)),
        lambda k=k: count_blocks(k, False, 47 + k),
    )
for k, s in ((12, "aside"), (26, "tune")):
    inst(
        f"blocks{k}-unsat",
        "blocks-unsat",
        s,
        ("gen", lambda k=k: blocks_dlx(k, True, 47 + k)),
        lambda k=k: count_blocks(k, True, 47 + k),
    )
inst("aztec9", "aztec", "tune", ("gen", lambda: aztec_dlx(9)), lambda: count_aztec(9))
inst("aztec8", "aztec", "aside", ("gen", lambda: aztec_dlx(8)), lambda: count_aztec(8))
inst("hexagon555", "lozenges", "tune", ("gen", lambda: hexagon_dlx(5, 5, 5)), lambda: count_hexagon(5, 5, 5))
inst("hexagon456", "lozenges", "aside", ("gen", lambda: hexagon_dlx(4, 5, 6)), lambda: count_hexagon(4, 5, 6))
inst("sts9", "steiner", "tune", ("gen", lambda: sts_dlx(9, False)), lambda: count_sts(9, False))
inst("sts13p", "steiner", "aside", ("gen", lambda: sts_dlx(13, True)), lambda: count_sts(13, True))
inst(
    "soma3x3x3",
    "polycubes",
    "tune",
    ("gen", lambda: polycube_dlx(SOMA, (3, 3, 3), "the seven Soma pieces in a 3x3x3 cube")),
)
inst(
    "tetracubes2x4x4",
    "polycubes",
    "aside",
    ("gen", lambda: polycube_dlx(TETRACUBES, (2, 4, 4), "the eight tetracubes in 2x4x4")),
)
inst("pent8x8centre", "holes", "tune", ("model", ["pentominoes", "8x8-minus-centre"]))
inst(
    "pent8x8corners",
    "holes",
    "aside",
    ("model", ["pentominoes", "--board", "@board:corners8"]),
)
# Seeds chosen so that the counts lie near 10^5 to 10^6.
SUDOKUS = {"sudoku20": (20, 3, "tune"), "sudoku21": (21, 1, "tune"), "sudoku22": (22, 2, "aside")}
for name, (clues, seed, s) in SUDOKUS.items():
    inst(name, "sudoku", s, ("model", ["sudoku", f"@sudoku:{clues}:{seed}"]))
# Larger sudokus, where the bitset search's rows are long (39 and 125 words): 16×16 and 25×25.
BIG_SUDOKUS = {
    "bigsud16a": (16, 110, 1, "tune"),
    "bigsud16b": (16, 100, 4, "aside"),
    "bigsud25a": (25, 320, 3, "tune"),
    "bigsud25b": (25, 310, 5, "aside"),
}
for name, (n, clues, seed, s) in BIG_SUDOKUS.items():
    inst(name, "big-sudoku", s, ("gen", lambda n=n, clues=clues, seed=seed: big_sudoku_dlx(n, clues, seed)))
inst("words5x475", "word-squares-5", "tune", ("model", ["word-squares", "@words:aeinrstlod"]))
inst("words5x824", "word-squares-5", "aside", ("model", ["word-squares", "@words:"]))
inst(
    "dominoes8x8h16",
    "multiplicities",
    "tune",
    ("model", ["dominoes", "8", "8", "--horizontal", "16"]),
    lambda: count_tilings(8, 8, DOMINO, track=lambda si: 1 - si)[16],
)
for n, s in ((6, "tune"), (7, "aside")):
    inst(
        f"matrices{n}",
        "multiplicities",
        s,
        ("gen", lambda n=n: matrices_dlx(n, 2)),
        lambda n=n: count_matrices2(n),
    )
inst("edge6x6", "colours", "tune", ("model", ["edge-matching", "6x6", "--colours", "6", "--seed", "3"]))
inst("edge8x8", "colours", "aside", ("model", ["edge-matching", "8x8", "--colours", "9", "--seed", "3"]))
inst(
    "matchings16",
    "matchings",
    "tune",
    ("model", ["matchings", "16"]),
    lambda: double_factorial(15),
)
inst(
    "matchings18",
    "matchings",
    "aside",
    ("model", ["matchings", "18"]),
    lambda: double_factorial(17),
)
# Latin squares: seen only after the tuning of round 5 (latin7 moved the lead rule's margin).
inst("latin6", "latin", "aside", ("gen", lambda: latin_dlx(6)), lambda: count_latin(6))
inst("latin7", "latin", "tune", ("gen", lambda: latin_dlx(7)))
inst("langford8", "langford", "tune", ("model", ["langford", "8"]))
inst("langford11", "langford", "tune", ("model", ["langford", "11"]))
inst("queens12", "queens", "tune", ("model", ["queens", "12"]))
inst("queens14", "queens", "tune", ("model", ["queens", "14"]))


def resolve(args, scratch):
    """`@...` arguments: files and puzzles made here for `xcover model`."""
    out = []
    for a in args:
        if a.startswith("@words:"):
            letters = a.split(":")[1]
            path = os.path.join(scratch, f"words-5-{letters or 'all'}.txt")
            word_list(letters, path)
            out.append(path)
        elif a == "@board:corners8":
            path = os.path.join(scratch, "corners8.txt")
            board_file(CORNERS8, path)
            out.append(path)
        elif a.startswith("@sudoku:"):
            _, clues, seed = a.split(":")
            out.append(sudoku_puzzle(int(clues), int(seed)))
        else:
            out.append(a)
    return out


def read_counts():
    path = os.path.join(HERE, "counts.csv")
    with open(path) as f:
        return {row["instance"]: row for row in csv.DictReader(f)}


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", default=os.path.join(ROOT, "target", "suite", "instances"))
    p.add_argument("--xcover", default=os.environ.get("XCOVER", os.path.join(ROOT, "target", "release", "xcover")))
    p.add_argument("--only", default="", help="only the instances whose name has this")
    p.add_argument("--list", action="store_true")
    p.add_argument("--check", action="store_true")
    a = p.parse_args()
    names = [n for n in INSTANCES if a.only in n]
    if a.list:
        for n in names:
            family, set_, maker, check = INSTANCES[n]
            how = "xcover model " + " ".join(maker[1]) if maker[0] == "model" else "gen.py"
            print(f"{n},{family},{set_},{how},{'yes' if check else 'no'}")
        return 0
    if a.check:
        counts = read_counts()
        bad = 0
        for n in names:
            check = INSTANCES[n][3]
            if check is None:
                continue
            got = check()
            want = counts.get(n, {}).get("count")
            ok = want is not None and int(want) == got
            print(f"{n}: {got} {'ok' if ok else 'MISMATCH with counts.csv: ' + str(want)}", flush=True)
            bad += not ok
        if bad:
            print(f"gen.py --check: {bad} mismatch(es)", file=sys.stderr)
            return 1
        return 0
    os.makedirs(a.out, exist_ok=True)
    scratch = os.path.join(a.out, "inputs")
    os.makedirs(scratch, exist_ok=True)
    for n in names:
        maker = INSTANCES[n][2]
        path = os.path.join(a.out, n + ".dlx")
        if maker[0] == "gen":
            text = maker[1]()
            with open(path + ".tmp", "w") as f:
                f.write(text)
            os.replace(path + ".tmp", path)
        else:
            if not os.access(a.xcover, os.X_OK):
                sys.exit(f"gen.py: no xcover binary at {a.xcover} (cargo build --release, or --xcover PATH)")
            subprocess.run([a.xcover, "model"] + resolve(maker[1], scratch) + ["-o", path], check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
