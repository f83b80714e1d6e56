"""The classic exact-cover models of ``xcover model``, from Python.

Each function builds its model with the crate's own model code (``dancelinks::models``, the
same items and options as the DLX text ``xcover model NAME`` writes) and returns a
:class:`Model`: a :class:`dancelinks.Problem` (count, list, optimise it as any problem) whose
solutions are :class:`Solution` objects that decode themselves — ``.array`` (numpy), ``.text``
(the picture of ``xcover model NAME --solve``) and an SVG picture that Jupyter shows::

    >>> import dancelinks.models as m
    >>> m.langford(7).count().count
    52
    >>> puzzle = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
    >>> m.sudoku(puzzle).first().array[0]
    array([5, 3, 4, 6, 7, 8, 9, 1, 2], dtype=uint8)

- :func:`sudoku` (81 characters or a 9×9 array), :func:`solve_sudokus` (many puzzles at once,
  in parallel, as ``xcover model sudoku --file F --solve``);
- :func:`pentominoes` and :func:`polyominoes` (any pieces on a board given by name, as a
  picture or as a boolean array);
- :func:`langford`, :func:`matchings`, :func:`queens`, :func:`word_squares`,
  :func:`dominoes`, :func:`macmahon`, :func:`edge_matching`.

The list of the models is the crate's (``dancelinks::models::registry``, from which ``xcover
model`` takes its subcommands too): :data:`MODELS` holds, for each, its name
(:attr:`Model.name`), its ``xcover model`` subcommand and its function here. The numbers and
the pictures of a solution are the crate's too, the same as the command line's.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Iterator, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

from . import Interrupted, Problem, Progress, _index, _native
from ._display import Picture, SvgMixin

__all__ = [
    "MODELS",
    "Model",
    "Solution",
    "SudokuBatch",
    "dominoes",
    "draw_sudoku",
    "edge_matching",
    "langford",
    "macmahon",
    "matchings",
    "pentominoes",
    "polyominoes",
    "queens",
    "solve_sudokus",
    "sudoku",
    "word_squares",
]


#: Every model, as the crate lists them: ``(name, command, function)`` — its :attr:`Model.name`,
#: its subcommand of ``xcover model`` and the function of this module that builds it.
MODELS: Tuple[Tuple[str, str, str], ...] = tuple(tuple(e) for e in _native.MODELS)  # type: ignore[misc]


class Solution(List[int], SvgMixin):
    """A solution of a :class:`Model`: the list of its option indices (into
    ``model.options``, as :meth:`dancelinks.Problem.solutions` gives them), which decodes
    itself:

    - :attr:`array`: the model's numbers (a sudoku's 9×9 digits, a Langford row, a matching's
      (n/2, 2) edges, the queens' files) or, for the models drawn in letters (tilings, word
      squares, dominoes), the picture's characters as a 2-d array;
    - :attr:`text`: the picture of ``xcover model NAME --solve``;
    - :meth:`picture` (and ``_repr_svg_``, ``to_svg()``, ``save(path)``): an SVG picture.
    """

    def __init__(self, options: Sequence[int], model: "Model"):
        super().__init__(int(o) for o in options)
        self.model = model

    @property
    def text(self) -> str:
        """The solution as ``xcover model NAME --solve`` writes it."""
        return str(self.model._model.text(list(self)))

    @property
    def array(self) -> np.ndarray:
        """The solution as a numpy array (see the class)."""
        numbers = self.model._model.numbers(list(self))
        if numbers is None:
            return np.array([list(line) for line in self.text.splitlines()], dtype="<U1")
        values, shape = numbers
        dtype = np.uint8 if self.model.name == "sudoku" else np.int64
        return np.array(values, dtype=dtype).reshape(shape)

    def picture(self) -> Picture:
        """The solution drawn as SVG (a filled sudoku with its clues in bold, a coloured
        tiling, a board with its queens, ...)."""
        return Picture(self.model._model.svg(list(self)))

    def __repr__(self) -> str:
        return f"Solution({list.__repr__(self)})"


class Model(Problem):
    """A model of ``xcover model``: a :class:`dancelinks.Problem` whose solutions (from
    :meth:`solutions`, :meth:`iter_solutions`, :meth:`first`) are :class:`Solution` objects.
    ``name`` is the model's name, ``title`` the line that heads its DLX file."""

    def __init__(self, native: Any):
        super().__init__((), (), _native_problem=native.problem())
        self._model = native
        #: The model's name, one of :data:`MODELS` (sudoku, polyomino, langford, ...).
        self.name: str = native.name
        #: What the problem is, e.g. ``Langford pairs, n = 7``.
        self.title: str = native.title()

    def __repr__(self) -> str:
        return (
            f"Model({self.title!r}: {len(self.items)} primary items, "
            f"{len(self.secondary)} secondary, {len(self.options)} options)"
        )

    def iter_solutions(  # type: ignore[override]
        self,
        limit: Optional[int] = None,
        time_limit: Optional[float] = None,
        threads: int = 0,
        progress: Progress = None,
    ) -> Iterator[Solution]:
        """The solutions, lazily, as :class:`Solution` objects (see
        :meth:`dancelinks.Problem.iter_solutions`)."""
        for s in super().iter_solutions(limit, time_limit, threads, progress):
            yield Solution(s, self)

    def solutions(  # type: ignore[override]
        self,
        limit: Optional[int] = None,
        time_limit: Optional[float] = None,
        threads: int = 0,
        progress: Progress = None,
    ) -> List[Solution]:
        """Every solution (at most ``limit``) as a :class:`Solution`, in the order of
        ``xcover solve``; ``progress`` as for :meth:`dancelinks.Problem.solutions`."""
        return super().solutions(  # type: ignore[return-value]
            limit, time_limit, threads, progress
        )

    def first(self) -> Optional[Solution]:
        """The first solution, or None when there is none."""
        for s in self.iter_solutions(limit=1):
            return s
        return None

    def decode(self, options: Sequence[int]) -> Solution:
        """A solution given by its option indices (from :meth:`minimise`, say) as a
        :class:`Solution`."""
        return Solution([_index(o, "option") for o in options], self)


# --------------------------------------------------------------------------------------------
# Sudoku


def _puzzle_line(puzzle: Union[str, "npt.ArrayLike"]) -> str:
    """An 81-character puzzle line from a string or an array of 81 digits (0 blank)."""
    if isinstance(puzzle, str):
        return puzzle
    a = np.asarray(puzzle)
    if a.size != 81 or not (np.issubdtype(a.dtype, np.integer) or a.dtype == bool):
        raise ValueError(
            f"a sudoku is 81 characters or a 9x9 array of digits, not shape {a.shape} of {a.dtype}"
        )
    flat = a.reshape(-1).astype(np.int64)
    if flat.min() < 0 or flat.max() > 9:
        raise ValueError("a sudoku's cells are 0 (blank) to 9")
    return "".join("." if d == 0 else str(d) for d in flat.tolist())


class Sudoku(Model):
    """The model of one sudoku puzzle; ``puzzle`` is its 9×9 clues (0 blank)."""

    def __init__(self, native: Any, line: str):
        super().__init__(native)
        #: The clues, a 9×9 uint8 array (0 for a blank).
        self.puzzle: np.ndarray = np.array(
            [0 if c in ".0" else int(c) for c in line.strip()], dtype=np.uint8
        ).reshape(9, 9)


def sudoku(puzzle: Union[str, "npt.ArrayLike"]) -> Sudoku:
    """The exact-cover model of a sudoku puzzle, as ``xcover model sudoku PUZZLE``: 81
    characters row by row (``1``-``9`` clues, ``.`` or ``0`` blanks) or a 9×9 (or 81) array of
    digits, 0 for a blank. A solution's :attr:`Solution.array` is the filled 9×9 grid (uint8);
    its picture shows the clues in bold. Bad puzzles (a wrong character, a clue repeated in a
    row, column or box) raise ValueError saying where."""
    line = _puzzle_line(puzzle)
    return Sudoku(_native.NativeModel.sudoku(line), line)


def draw_sudoku(
    grid: "npt.ArrayLike", puzzle: Optional["npt.ArrayLike"] = None, title: str = "sudoku"
) -> Picture:
    """A sudoku grid (9×9 digits, 0 blank) as an SVG picture, the clues of ``puzzle`` in bold
    (without it, every digit)."""
    g = np.asarray(grid).reshape(-1).astype(np.int64).tolist()
    clues = g if puzzle is None else np.asarray(puzzle).reshape(-1).astype(np.int64).tolist()
    if len(g) != 81 or len(clues) != 81:
        raise ValueError("a sudoku grid has 81 cells")
    if min(g + clues) < 0:
        raise ValueError("a sudoku's cells are 0 (blank) to 9")
    return Picture(_native.sudoku_svg(g, clues, title))


@dataclass
class SudokuBatch:
    """The answers of :func:`solve_sudokus`, one per puzzle in order.

    - ``solutions``: (k, 9, 9) uint8, each puzzle's first solution (zeros when it has none);
    - ``counts``: (k,) the solutions found, at most ``limit`` (with ``limit=2``, 1 says the
      solution is unique);
    - ``grids``: each puzzle's solutions found, an (m, 9, 9) array each;
    - ``puzzles``: (k, 9, 9) the clues.

    ``picture(i)`` draws puzzle i's first solution (its clues in bold).
    """

    solutions: np.ndarray
    counts: np.ndarray
    grids: List[np.ndarray]
    puzzles: np.ndarray

    def __len__(self) -> int:
        return len(self.counts)

    def picture(self, i: int = 0) -> Picture:
        """Puzzle i's first solution (or the puzzle itself when it has none) as SVG."""
        grid = self.solutions[i] if self.counts[i] else self.puzzles[i]
        return draw_sudoku(grid, self.puzzles[i], f"sudoku {i}")


def _puzzle_lines(puzzles: Any) -> List[str]:
    if isinstance(puzzles, str):
        # A file's text: one puzzle a line; blank lines and lines starting with # skipped.
        return [
            line
            for line in puzzles.splitlines()
            if line.strip() and not line.strip().startswith("#")
        ]
    if isinstance(puzzles, np.ndarray):
        if puzzles.ndim == 3 and puzzles.shape[1:] == (9, 9):
            puzzles = puzzles.reshape(len(puzzles), 81)
        if puzzles.ndim != 2 or puzzles.shape[1] != 81:
            raise ValueError(f"puzzles are a (k, 81) or (k, 9, 9) array, not {puzzles.shape}")
    return [_puzzle_line(p) for p in puzzles]


def solve_sudokus(puzzles: Any, limit: int = 1, threads: int = 0) -> SudokuBatch:
    """Solves many sudoku puzzles in one call, as ``xcover model sudoku --file F --solve``
    (``models::sudoku::solve_batch``: one problem a puzzle, the puzzles in parallel on
    ``threads``, 0 for all cores): at most ``limit`` solutions each. ``puzzles``: a list of
    81-character strings (or of 9×9 arrays), a (k, 81) or (k, 9, 9) array, or the text of a
    file of puzzles (one a line, blank lines and ``#`` lines skipped). A bad puzzle raises
    ValueError naming it (0-based) and the column.

    Ctrl-C stops after the current batch of 4,096 puzzles and raises
    :class:`dancelinks.Interrupted` with the puzzles solved so far as ``partial``."""
    lines = _puzzle_lines(puzzles)
    limit = _index(limit, "limit")
    got = _native.sudoku_batch(lines, limit, _index(threads, "threads"))
    if got is None:
        raise Interrupted(None)
    grids_bytes, counts, interrupted = got
    all_grids = np.frombuffer(grids_bytes, dtype=np.uint8).reshape(-1, 9, 9)
    k = len(counts)
    clues = np.array(
        [[0 if c in ".0" else int(c) for c in line.strip()] for line in lines[:k]],
        dtype=np.uint8,
    ).reshape(k, 9, 9)
    first = np.zeros((k, 9, 9), dtype=np.uint8)
    grids: List[np.ndarray] = []
    lo = 0
    for i, c in enumerate(counts):
        grids.append(all_grids[lo : lo + c].copy())
        if c:
            first[i] = all_grids[lo]
        lo += c
    batch = SudokuBatch(first, np.array(counts, dtype=np.int64), grids, clues)
    if interrupted:
        raise Interrupted(batch, k, len(lines))
    return batch


# --------------------------------------------------------------------------------------------
# Tilings and the others


def _board_picture(board: Any) -> str:
    if isinstance(board, str):
        return board
    a = np.asarray(board)
    if a.ndim != 2 or a.dtype != bool:
        raise ValueError(
            "a board is a name (6x10, 8x8-minus-centre), a picture ('.' a cell, '#' a hole) "
            f"or a 2-d boolean array (True a cell), not an array of shape {a.shape} of {a.dtype}"
        )
    return "\n".join("".join("." if x else "#" for x in row) for row in a.tolist()) + "\n"


def _piece_picture(name: str, piece: Any) -> str:
    if isinstance(piece, str):
        return "/".join(line.strip() for line in piece.strip().splitlines())
    a = np.asarray(piece)
    if a.ndim != 2 or a.dtype != bool:
        raise ValueError(
            f"piece {name}: a picture ('#' a cell, '.' none, '/' or a line break between "
            f"rows) or a 2-d boolean array, not shape {a.shape} of {a.dtype}"
        )
    return "/".join("".join("#" if x else "." for x in row) for row in a.tolist())


def polyominoes(
    board: Any = "6x10",
    pieces: Optional[Union[Mapping[str, Any], Sequence[Tuple[str, Any]]]] = None,
) -> Model:
    """Tilings of a board by pieces, each used once, in all rotations and reflections
    (``xcover model pentominoes``, whose model this is).

    - ``board``: a built-in name (``RxC`` such as ``6x10``, ``3x20``, or
      ``8x8-minus-centre``), a picture (``.`` a cell, ``#`` a hole, a line a row) or a 2-d
      boolean array (True a cell);
    - ``pieces``: ``{name: picture}`` (or ``[(name, picture)]``), a picture ``"##/#."`` (``#``
      a cell, ``/`` or a line break between rows) or a boolean array; None for the twelve
      pentominoes ``F I L N P T U V W X Y Z``.

    Every solution is counted, the symmetric images of a tiling too (as the command line's
    model: 6×10 has 9,356 = 4 × 2,339). A solution's :attr:`Solution.array` holds the first
    letter of the piece on each cell (``#`` a hole)."""
    plist = None
    if pieces is not None:
        items = pieces.items() if isinstance(pieces, Mapping) else pieces
        plist = [(str(name), _piece_picture(str(name), p)) for name, p in items]
    return Model(_native.NativeModel.polyomino(_board_picture(board), plist))


def pentominoes(board: Any = "6x10") -> Model:
    """The twelve pentominoes on ``board`` (default 6×10: 9,356 solutions, 2,339 up to
    symmetry), as ``xcover model pentominoes [BOARD]``; see :func:`polyominoes`."""
    return polyominoes(board)


def langford(n: int) -> Model:
    """Langford pairs: two of each number 1..n in a row of 2n, k places between the two k's
    (``xcover model langford N``; n = 7 has 52 solutions, a row and its mirror image both
    counted). :attr:`Solution.array` is the row."""
    return Model(_native.NativeModel.langford(_index(n, "n")))


def matchings(n: int) -> Model:
    """The perfect matchings of the complete graph K_n (``xcover model matchings N``; n = 10
    has 945). :attr:`Solution.array` is the (n/2, 2) array of edges, vertices from 1; the
    picture draws them on a circle."""
    return Model(_native.NativeModel.matchings(_index(n, "n")))


def queens(n: int) -> Model:
    """n queens as an exact cover (``xcover model queens N``: ranks and files primary,
    diagonals secondary; n = 8 has 92). :attr:`Solution.array` is the file of the queen of
    each rank."""
    return Model(_native.NativeModel.queens(_index(n, "n")))


def word_squares(words: Union[Sequence[str], str, "os.PathLike[str]"]) -> Model:
    """Double word squares (``xcover model word-squares WORDS``): k×k grids whose k rows and
    k columns are 2k distinct words of ``words`` (a list of words of one length, letters and
    digits; or a path to a file of them, one a line). A square and its transpose are two
    solutions. :attr:`Solution.array` is the square's letters."""
    if isinstance(words, (str, os.PathLike)):
        with open(os.fspath(words), encoding="utf-8") as f:
            words = [w.strip() for w in f if w.strip() and not w.strip().startswith("#")]
    return Model(_native.NativeModel.word_squares([str(w) for w in words]))


def _bounds(x: Any, what: str) -> Optional[Tuple[int, int]]:
    if x is None:
        return None
    if isinstance(x, (tuple, list)):
        if len(x) != 2:
            raise ValueError(f"{what} is a number V or a range (U, V), not {x!r}")
        return (_index(x[0], what), _index(x[1], what))
    v = _index(x, what)
    return (v, v)


def dominoes(
    rows: int,
    cols: int,
    horizontal: Union[None, int, Tuple[int, int]] = None,
    vertical: Union[None, int, Tuple[int, int]] = None,
) -> Model:
    """Domino tilings of a rows × cols rectangle (``xcover model dominoes ROWS COLS``; 6×6
    has 6,728), with between U and V horizontal (``horizontal=(U, V)``, or ``V`` for exactly
    V) and vertical dominoes: an exact cover with multiplicities. :attr:`Solution.array` is
    the picture's characters: ``<>`` a horizontal domino, ``^`` over ``v`` a vertical one."""
    return Model(
        _native.NativeModel.dominoes(
            _index(rows, "rows"),
            _index(cols, "cols"),
            _bounds(horizontal, "horizontal"),
            _bounds(vertical, "vertical"),
        )
    )


def macmahon(
    rows: int = 4, cols: int = 6, colours: int = 3, border: Optional[int] = 0
) -> Model:
    """MacMahon's coloured squares (``xcover model macmahon RxC``): every square whose four
    edges take ``colours`` colours (2 to 4; 3 gives the 24 squares), once up to turning, on a
    rows × cols rectangle, touching edges of one colour, the border all ``border`` (None: any).
    A coloured exact cover (XCC): the edges are secondary items with colours. 4×6 with 3
    colours has 106,624 tilings. The picture is the text one: each square a box with its four
    colours."""
    return Model(
        _native.NativeModel.macmahon(
            _index(rows, "rows"),
            _index(cols, "cols"),
            _index(colours, "colours"),
            None if border is None else _index(border, "border", 0, 255),
        )
    )


def edge_matching(
    rows: int, cols: int, colours: int = 7, seed: int = 1, rotations: bool = True
) -> Model:
    """A random edge-matching puzzle (``xcover model edge-matching RxC --colours K --seed
    S``): rows × cols square tiles cut from a solved grid whose inner edges take ``colours``
    colours, made from ``seed`` (so it has a solution), the tiles free to turn unless
    ``rotations`` is False. A coloured exact cover (XCC), the benchmark family where Knuth's
    SSXCC is strong."""
    return Model(
        _native.NativeModel.edge_matching(
            _index(rows, "rows"),
            _index(cols, "cols"),
            _index(colours, "colours"),
            _index(seed, "seed"),
            bool(rotations),
        )
    )
