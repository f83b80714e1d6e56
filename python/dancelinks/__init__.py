"""dancelinks: exact cover by dancing links, and the N-queens models built on it.

The Python face of the Rust library behind the ``xcover`` command (the same engine, the same
answers)::

    >>> import dancelinks
    >>> dancelinks.count(8)
    92

- :func:`count`, :func:`solutions`, :func:`iter_solutions`, :func:`heatmap`: n-queens.
- :func:`maximise`: weighted n-queens (the Sultan's successors) for one board or a stack.
- :class:`Problem`: any exact-cover model (colours, costs, multiplicities), or
  :func:`read_dlx` for a file in Knuth's DLX format.
- :class:`Family` (from :meth:`Problem.family`): the solutions as one value — count,
  marginals, including/excluding, the k best by weights, uniform samples, save and load.

Long calls run on a worker thread without the interpreter lock. Ctrl-C stops them at the
search's next stopping point: the call raises :class:`Interrupted` (a ``KeyboardInterrupt``)
whose ``partial`` attribute holds what was found so far. A second Ctrl-C abandons the call at
once (``partial`` is then None).
"""

from __future__ import annotations

import json
import operator
import os
from dataclasses import dataclass, field
from typing import (
    TYPE_CHECKING,
    Any,
    Callable,
    Dict,
    Iterator,
    List,
    Literal,
    Optional,
    Sequence,
    Tuple,
    Union,
    overload,
)

import numpy as np
import numpy.typing as npt

try:
    from . import _native
except ImportError as _e:  # the source folder (python/) rather than the installed package
    raise ImportError(
        f"dancelinks: the native module dancelinks._native is not in {os.path.dirname(__file__)}."
        " That folder is the package's source (python/dancelinks in the repository), found"
        " before the installed package because Python runs from python/ or it is on"
        " PYTHONPATH. Install the package (pip install ./python, or maturin develop in"
        " python/) and run Python from another folder."
    ) from _e
from . import _display
from ._display import Picture, draw_heatmap, draw_solution, draw_solutions
from .family import Family

if TYPE_CHECKING:  # optional libraries, for the annotations only
    import pandas  # type: ignore[import-untyped, import-not-found, unused-ignore]
    import polars  # type: ignore[import-untyped, import-not-found, unused-ignore]

#: A progress report: None, True (a tqdm bar when tqdm is installed) or a callable
#: ``(done, total, found)``.
Progress = Union[None, bool, Callable[[int, int, int], Any]]

__all__ = [
    "MAX_N",
    "MAX_WEIGHTED_N",
    "Interrupted",
    "MaxResult",
    "MaxResults",
    "CountResult",
    "Family",
    "Optimum",
    "Picture",
    "Problem",
    "count",
    "draw_heatmap",
    "draw_solution",
    "draw_solutions",
    "heatmap",
    "maximise",
    "iter_solutions",
    "maximize",
    "read_dlx",
    "solutions",
]

__version__ = "0.1.0"

#: The largest board of :func:`count`, :func:`solutions` and :func:`heatmap`.
MAX_N: int = _native.MAX_N

#: The largest board of :func:`maximise` (as ``xcover queens max``).
MAX_WEIGHTED_N: int = _native.MAX_WEIGHTED_N


class Interrupted(KeyboardInterrupt):
    """Ctrl-C stopped a call: ``partial`` is what it had found (the call's type of result, a
    lower bound for :func:`count`; None for :func:`heatmap`), or None when a second Ctrl-C
    abandoned the call.

    A subclass of ``KeyboardInterrupt``, so a script stops as usual; catch it to keep the
    partial result::

        try:
            res = dancelinks.maximise(boards)
        except dancelinks.Interrupted as e:
            res = e.partial
    """

    def __init__(self, partial: Any, done: Optional[int] = None, total: Optional[int] = None):
        what = "interrupted" if done is None else f"interrupted after {done} of {total} boards"
        super().__init__(what)
        #: The partial result, or None.
        self.partial = partial
        #: Boards done and in all (for a stack of boards of :func:`maximise`), else None.
        self.done = done
        self.total = total


def _progress_callback(
    progress: Progress, unit: str, found: str = "found"
) -> Tuple[Any, Callable[[], Any]]:
    """A callback ``(done, total, found)`` for ``progress``: itself, a tqdm bar for True
    (when tqdm is installed; ``found`` names the third number), or None. Returns (callback,
    close)."""
    if progress is None or progress is False:
        return None, lambda: None
    if progress is True:
        return _display.progress_bar(unit, found)
    if not callable(progress):
        raise TypeError("progress must be None, True or a callable (done, total, found)")
    return progress, lambda: None


# --------------------------------------------------------------------------------------------
# N-queens


def count(
    n: int,
    unique: bool = False,
    engine: Optional[str] = None,
    threads: int = 0,
    progress: Progress = None,
) -> int:
    """The number of ways to place n non-attacking queens on an n×n board (OEIS A000170), or
    with ``unique=True`` of fundamental solutions, classes under the 8 symmetries of the
    square (A002562). The same count as ``xcover queens count n [--unique]``.

    ``engine``: ``"bits"`` (bit masks, meeting in the middle; n <= 32), ``"dlx"`` (dancing
    links on the exact-cover model), or None for the fastest for n. ``threads``: worker
    threads, 0 for all cores. ``progress``: a callable ``(tasks_done, tasks_total,
    solutions_so_far)`` called about 20 times a second, or True for a tqdm bar (when tqdm is
    installed).

    Ctrl-C stops the counter within a second (it watches for the request
    between tasks, in its searches and while it builds its tables) and raises
    :class:`Interrupted` with ``partial`` the solutions counted so far, a lower bound: a count
    cut short is never returned as the answer. Raises TypeError for an n that is not an
    integer (True is not one) and ValueError outside 1 to :data:`MAX_N`.
    """
    n = _index(n, "n", 1, MAX_N)
    cb, close = _progress_callback(progress, "tasks")
    try:
        counted = _native.count(
            n,
            bool(unique),
            None if engine is None else str(engine),
            _threads(threads),
            cb,
        )
    finally:
        close()
    if counted is None:
        raise Interrupted(None)
    solutions, fundamental, _engine, interrupted = counted
    result: int = (fundamental or 0) if unique else solutions
    if interrupted:
        raise Interrupted(result)
    return result


#: The most worker threads a call takes (0: all cores).
_MAX_THREADS: int = _native.MAX_THREADS

#: The largest count, limit or index the native module takes (a 64-bit unsigned integer).
_U64_MAX = 2**64 - 1


def _integer(x: Any, what: str) -> int:
    """x as an int (numpy integers too), else TypeError naming ``what``: a bool is not one,
    nor is a float, even an integral one."""
    if isinstance(x, (bool, np.bool_)):
        raise TypeError(f"{what} must be an integer, not bool")
    try:
        return operator.index(x)
    except TypeError:
        raise TypeError(f"{what} must be an integer, not {type(x).__name__}") from None


def _index(x: Any, what: str, lo: int = 0, hi: int = _U64_MAX) -> int:
    """x as an int from lo to hi, else TypeError/ValueError stating the range."""
    i = _integer(x, what)
    if not lo <= i <= hi:
        bounds = f"at least {lo}" if hi == _U64_MAX else f"{lo} to {hi}"
        raise ValueError(f"{what} must be {bounds}, not {i}")
    return i


def _threads(threads: Any) -> int:
    """Worker threads: 0 (all cores) to 1,024."""
    return _index(threads, "threads", 0, _MAX_THREADS)


def _optional_limit(limit: Optional[int]) -> Optional[int]:
    """A limit of solutions: None (no limit) or at least 1."""
    if limit is None:
        return None
    i = _integer(limit, "limit")
    if not 1 <= i <= _U64_MAX:
        raise ValueError(f"limit must be at least 1 (None for no limit), not {i}")
    return i


@overload
def solutions(
    n: int,
    unique: bool = ...,
    limit: Optional[int] = ...,
    threads: int = ...,
    class_sizes: Literal[False] = ...,
) -> npt.NDArray[np.uint8]: ...
@overload
def solutions(
    n: int,
    unique: bool = ...,
    limit: Optional[int] = ...,
    threads: int = ...,
    *,
    class_sizes: Literal[True],
) -> Tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]: ...
def solutions(
    n: int,
    unique: bool = False,
    limit: Optional[int] = None,
    threads: int = 0,
    class_sizes: bool = False,
) -> Union[npt.NDArray[np.uint8], Tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]]:
    """The n-queens solutions as a numpy ``uint8`` array of shape (k, n): row i is solution
    i + 1 in lexicographic order, column r the file of the queen of rank r (0-based), as the
    ``q0..q{n-1}`` columns of ``xcover queens list n --format csv``. At most ``limit`` rows.

    With ``unique=True``, one representative per symmetry class (the smallest image); with
    ``class_sizes=True`` as well, returns ``(array, sizes)``, sizes the class size (1, 2, 4 or
    8) of each row. ``pandas.DataFrame(a, columns=[f"q{r}" for r in range(n)])`` makes a
    table of it; :func:`iter_solutions` gives them one at a time.

    On Ctrl-C raises :class:`Interrupted` with the rows listed so far (a prefix of the
    listing) as ``partial``.
    """
    n = _index(n, "n", 1, MAX_N)
    listed = _native.solutions_array(n, bool(unique), _optional_limit(limit), _threads(threads))
    if listed is None:
        raise Interrupted(None)
    files, sizes, interrupted = listed
    a = np.frombuffer(files, dtype=np.uint8).reshape(-1, n).copy()
    s = np.frombuffer(sizes, dtype=np.uint8).copy()
    out = (a, s) if class_sizes else a
    if interrupted:
        raise Interrupted(out)
    return out


def iter_solutions(
    n: int, unique: bool = False, limit: Optional[int] = None
) -> Iterator[Tuple[int, ...]]:
    """Every n-queens solution as a tuple of n files (0-based: the file of the queen of rank
    0, 1, ...), in lexicographic order, as ``xcover queens list n`` lists them; at most
    ``limit``. With ``unique=True`` one representative per symmetry class.

    A lazy iterator: solutions are made on a worker thread a few thousand ahead; breaking out
    of the loop (or dropping the iterator) stops the search. Ctrl-C while it waits raises
    ``KeyboardInterrupt``.
    """
    n = _index(n, "n", 1, MAX_N)
    stream = _native.QueensStream(n, bool(unique), _optional_limit(limit))
    for files, _sizes in stream:
        rows = np.frombuffer(files, dtype=np.uint8).reshape(-1, n)
        for row in rows.tolist():
            yield tuple(row)


def heatmap(n: int, unique: bool = False) -> npt.NDArray[Any]:
    """An (n, n) ``int64`` array: entry [r, f] is the number of n-queens solutions with a queen
    on rank r, file f (each row and column sums to the total count), as ``xcover queens
    heatmap``. With ``unique=True``, counted over fundamental solutions. Counts beyond int64
    (not reachable in practice) give an object array of Python ints.

    Ctrl-C stops the search within a second and raises :class:`Interrupted`
    (``partial`` None: a table cut short is not kept).
    """
    n = _index(n, "n", 1, MAX_N)
    got = _native.heatmap(n, bool(unique))
    if got is None:
        raise Interrupted(None)
    counts, _total = got
    try:
        return np.array(counts, dtype=np.int64).reshape(n, n)
    except OverflowError:
        return np.array(counts, dtype=object).reshape(n, n)


# --------------------------------------------------------------------------------------------
# Weighted n-queens


@dataclass
class MaxResult(_display.MaxResultPicture):
    """The answer for one board of :func:`maximise`.

    - ``value``: the best score found (None when none was found, or the board has no layout);
    - ``bound``: a proven upper bound on the maximum (equal to ``value`` when optimal);
    - ``status``: ``optimal``, ``feasible`` (time ran out; ``bound`` says how far off it may
      be), ``time`` (time ran out before any layout), ``infeasible`` (n = 2, 3),
      ``below-floor`` (no layout reaches ``floor``; bound = floor − 1);
    - ``layouts``: (k, n) ``int64`` array, one layout a row (the file of the queen of each
      rank), best first; ``scores``: their scores; ``places``: their ranks (ties share one);
    - ``optimal_count``: the number of optimal layouts, counted after the search (None with
      ``top``, a floor, when a time limit cut the search, or when the count did not end in its
      own time — as long as the search took, at least a second — or is not known: a board on
      which every layout ties, n > 27);
    - ``nodes``: search nodes; ``board``: the board's number in the stack, from 1.
    """

    board: int
    n: int
    status: str
    value: Optional[int]
    bound: Optional[int]
    layouts: np.ndarray
    scores: np.ndarray
    optimal_count: Optional[int] = None
    nodes: int = 0
    #: The board's weights ((n, n) int64), for its picture (``_repr_svg_``, ``save``).
    weights: Optional[np.ndarray] = field(default=None, repr=False, compare=False)

    @property
    def places(self) -> List[int]:
        """The layouts' places in the ranking, best 1 (tied scores share the better place)."""
        return _native.places([int(s) for s in self.scores.tolist()])

    @property
    def layout(self) -> Optional[np.ndarray]:
        """The best layout (files per rank), or None."""
        return self.layouts[0] if len(self.layouts) else None

    def records(self) -> List[Dict[str, Any]]:
        """One dict a layout (or one for a board without any): the records of ``xcover queens
        max --format json``, written by the same code, with the columns of ``--format csv``:
        board, board_status, score, place, board_bound, optimal_count, nodes, n, q0..q{n-1}.
        ``score`` and ``place`` are the layout's; the board's ``status`` and ``bound`` are
        ``board_status`` and ``board_bound``."""
        lines = _native.max_records(
            self.board,
            self.n,
            self.status,
            self.bound,
            self.optimal_count,
            self.nodes,
            [int(s) for s in self.scores.tolist()],
            np.asarray(self.layouts, dtype=np.int64).tolist(),
        )
        return [json.loads(line) for line in lines.splitlines()]

    def to_pandas(self) -> "pandas.DataFrame":
        """The layouts as a pandas DataFrame (columns of :meth:`records`). Needs pandas."""
        return _to_pandas(self.records())

    def to_polars(self) -> "polars.DataFrame":
        """The layouts as a polars DataFrame (columns of :meth:`records`). Needs polars."""
        return _to_polars(self.records())


class MaxResults(_display.MaxResultsPicture, List[MaxResult]):
    """The results of a stack of boards (a list of :class:`MaxResult`), with one table for
    all of them."""

    def records(self) -> List[Dict[str, Any]]:
        """The records of every board, in order."""
        return [r for res in self for r in res.records()]

    def to_pandas(self) -> "pandas.DataFrame":
        """All boards' layouts as one pandas DataFrame. Needs pandas."""
        return _to_pandas(self.records())

    def to_polars(self) -> "polars.DataFrame":
        """All boards' layouts as one polars DataFrame. Needs polars."""
        return _to_polars(self.records())


def _to_pandas(records: List[Dict[str, Any]]) -> "pandas.DataFrame":
    try:
        import pandas as pd
    except ImportError:
        raise ImportError("to_pandas() needs pandas: pip install pandas") from None
    return pd.DataFrame.from_records(records)


def _to_polars(records: List[Dict[str, Any]]) -> "polars.DataFrame":
    try:
        import polars as pl
    except ImportError:
        raise ImportError("to_polars() needs polars: pip install polars") from None
    return pl.DataFrame(records, infer_schema_length=None)


def _seconds(time_limit: Optional[float]) -> Optional[float]:
    if time_limit is None:
        return None
    t = float(time_limit)
    if not t >= 0:
        raise ValueError(f"time_limit must be a number of seconds >= 0, not {time_limit!r}")
    return t


#: The weights of :func:`maximise`: numpy's int64.
_I64 = np.iinfo(np.int64)


def _weights(weights: "npt.ArrayLike") -> Tuple[np.ndarray, bool]:
    """weights as a C-contiguous int64 stack (k, n, n) and whether they were one board, or
    TypeError/ValueError saying what is wrong with them in the user's terms (their shape,
    their values). The board size is checked against the model's before anything is
    converted."""
    try:
        a = np.asarray(weights)
    except ValueError:
        # numpy >= 1.24 refuses nested lists of different lengths.
        raise ValueError(
            "weights are ragged: the rows (or boards) have different lengths; give an (n, n) "
            "matrix or a (k, n, n) stack"
        ) from None
    if a.dtype == object and any(isinstance(x, (list, tuple, np.ndarray)) for x in a.flat):
        # Older numpy makes an object array of the rows instead.
        raise ValueError(
            "weights are ragged: the rows (or boards) have different lengths; give an (n, n) "
            "matrix or a (k, n, n) stack"
        )
    shape = a.shape
    if a.ndim not in (2, 3) or a.shape[-1] != a.shape[-2]:
        raise ValueError(
            f"weights must be an (n, n) matrix or a (k, n, n) stack, not shape {shape}"
        )
    stack = a if a.ndim == 3 else a[np.newaxis]
    if stack.shape[0] > 0:
        _native.check_weighted_size(stack.shape[1])
    if a.dtype == object:
        for x in a.flat:
            if not isinstance(x, (int, np.integer, float)):
                raise TypeError(f"weights must be integers, not {type(x).__name__} ({x!r})")
            if isinstance(x, (int, np.integer)) and not _I64.min <= x <= _I64.max:
                raise ValueError(
                    f"weight {x} is too large for 64-bit integers (int64: -2**63 to 2**63 - 1)"
                )
        # Python ints within int64 (and floats, checked below as a float array).
        a = a.astype(np.float64 if any(isinstance(x, float) for x in a.flat) else np.int64)
    if np.issubdtype(a.dtype, np.floating):
        if not np.all(np.isfinite(a)):
            raise ValueError("weights must be integers: NaN and inf are not weights")
        fraction = a[a != np.round(a)]
        if fraction.size:
            raise ValueError(f"weights must be integers, not {fraction.flat[0].item()!r}")
        if a.size and (a.min() < -(2.0**63) or a.max() >= 2.0**63):
            raise ValueError(
                "a weight is too large for 64-bit integers (int64: -2**63 to 2**63 - 1)"
            )
    elif not (np.issubdtype(a.dtype, np.integer) or a.dtype == bool):
        raise TypeError(f"weights must be integers, not {a.dtype}")
    if a.dtype == np.uint64 and a.size and a.max() > _I64.max:
        raise ValueError(
            f"weight {a.max()} is too large for 64-bit integers (int64: -2**63 to 2**63 - 1)"
        )
    stack = a if a.ndim == 3 else a[np.newaxis]
    return np.ascontiguousarray(stack, dtype=np.int64), a.ndim == 2


def maximise(
    weights: "npt.ArrayLike",
    all_optimal: bool = False,
    top: Optional[int] = None,
    time_limit: Optional[float] = None,
    threads: int = 0,
    floor: Optional[int] = None,
    progress: Progress = None,
) -> Union[MaxResult, MaxResults]:
    """The maximum total weight under n non-attacking queens, for one (n, n) integer matrix or
    a stack of shape (k, n, n), as ``xcover queens max`` solves them (the same method and
    layouts): a :class:`MaxResult`, or a list of them (:class:`MaxResults`) for a stack.

    - ``all_optimal``: every optimal layout (and their count, ``optimal_count``);
    - ``top``: the ``top`` best layouts with their scores;
    - ``time_limit``: seconds per board; the best layout found then has status ``feasible``
      and a proven ``bound``;
    - ``threads``: 0 for all cores (one thread below n = 20, where the split does not pay);
    - ``floor``: look only for layouts scoring at least ``floor`` (status ``below-floor``
      when none does);
    - ``progress``: a callable ``(boards_done, boards, layouts_found)``, or True for a tqdm
      bar (when tqdm is installed).

    Weights are converted to ``int64``: integers, or floats without a fraction. Bad input
    raises ValueError naming what is wrong (ragged rows, the shape given when it is not
    square, a board the model does not take, checked before anything is converted; a
    fraction, NaN or inf; a weight beyond int64), or TypeError for values that are not numbers.
    ``floor`` is an integer from -2**127 to 2**127 - 1, ``top`` at least 1.

    Ctrl-C stops the search and raises :class:`Interrupted`: ``partial`` holds the boards
    finished and the board being solved with its best layout so far and the bound proven
    (status ``interrupted``) — a :class:`MaxResults` for a stack, the result for one board. A
    second Ctrl-C abandons the call at once (``partial`` None).
    """
    a, single = _weights(weights)
    k, n = a.shape[0], a.shape[1]
    if floor is not None:
        floor = _index(floor, "floor", -(2**127), 2**127 - 1)
    if top is not None:
        top = _index(top, "top", 1)
    cb, close = _progress_callback(progress, "boards")
    try:
        answer = _native.maximise(
            a.tobytes(),
            k,
            n,
            bool(all_optimal),
            top,
            _seconds(time_limit),
            _threads(threads),
            floor,
            cb,
        )
    finally:
        close()
    if answer is None:
        raise Interrupted(None)
    statuses, bounds, optimal_counts, nodes, counts, scores, files, interrupted = answer
    width = np.uint8 if n <= 255 else np.uint32
    all_layouts = np.frombuffer(files, dtype=width).reshape(-1, n).astype(np.int64)
    wide = any(abs(v) >= 2**63 for v in scores)
    all_scores = np.array(scores, dtype=object if wide else np.int64)
    results = MaxResults()
    lo = 0
    for b, count in enumerate(counts):
        hi = lo + count
        results.append(
            MaxResult(
                board=b + 1,
                n=n,
                status=statuses[b],
                value=scores[lo] if count else None,
                bound=bounds[b],
                layouts=all_layouts[lo:hi],
                scores=all_scores[lo:hi],
                optimal_count=optimal_counts[b],
                nodes=nodes[b],
                weights=a[b],
            )
        )
        lo = hi
    if interrupted and len(results) < k:
        raise Interrupted((results[0] if results else None) if single else results, len(results), k)
    if interrupted:
        raise Interrupted(results[0] if single else results)
    return results[0] if single else results


#: American spelling of :func:`maximise`.
maximize = maximise


# --------------------------------------------------------------------------------------------
# Any exact-cover model


@dataclass
class CountResult:
    """A count of :meth:`Problem.count`: ``count`` (a lower bound unless ``status`` is
    ``complete``), ``status`` (``complete``, ``limit`` or ``time``) and the
    search ``nodes``."""

    count: int
    status: str
    nodes: int

    def __int__(self) -> int:
        return self.count


@dataclass
class Optimum:
    """The answer of :meth:`Problem.minimise` / :meth:`Problem.maximise`.

    ``status``: ``optimal``, ``feasible`` (a budget ran out; ``bound`` is proven),
    ``infeasible`` (no exact cover), ``time`` (time ran out before any solution).
    ``value``: the best total cost; ``solutions``: the kept solutions, best first, each a list
    of option indices in the order chosen; ``values``: their totals.
    """

    status: str
    value: Optional[int]
    bound: Optional[int]
    solutions: List[List[int]]
    values: List[int]
    nodes: int


def _tokens(k: int, option: Union[str, Sequence[str]]) -> List[str]:
    """Option k's tokens: a string's words, or a sequence's names."""
    if isinstance(option, str):
        return option.split()
    if isinstance(option, (bytes, bytearray)) or not hasattr(option, "__iter__"):
        raise TypeError(
            f"option {k} must be a string of item names ('a b c:red') or a list of them, "
            f"not {type(option).__name__}"
        )
    return [str(t) for t in option]


def _cost(k: int, c: Any) -> int:
    """Option k's cost: an integer (or a float without a fraction) from 0 to 2**63 - 1, as
    DLX5's costs."""
    if isinstance(c, (float, np.floating)) and np.isfinite(c) and c == int(c):
        c = int(c)
    if isinstance(c, (float, np.floating)):
        raise ValueError(f"costs[{k}] = {c!r}: a cost must be an integer")
    i = _integer(c, f"costs[{k}]")
    if not 0 <= i <= _I64.max:
        raise ValueError(f"costs[{k}] = {i}: a cost must be 0 to 2**63 - 1 (as DLX5's)")
    return i


class Problem:
    """An exact-cover problem: items, and options that each cover some of them.

    ``Problem(items, options, secondary=(), costs=None)``:

    - ``items``: the primary item names (each covered exactly once); DLX3's multiplicities as
      ``"u:v|name"`` (covered u to v times) or ``"v|name"``.
    - ``options``: each a list of item names, or one string ``"p r x:A y"`` as in Knuth's DLX
      format; ``name:colour`` gives a secondary item a colour (options that agree on it may
      share it).
    - ``secondary``: the secondary item names (covered at most once, or by one colour).
    - ``costs``: one integer from 0 to 2**63 - 1 per option, for
      :meth:`minimise`/:meth:`maximise` (a float with a fraction is refused, not rounded).

    Item names are checked as the DLX reader checks them (no whitespace, NUL, ``:`` or ``|``;
    multiplicities by its parser). Mistakes (an unknown item, an item twice in one option, a
    colour on a primary item, an option without a primary item) raise ValueError naming the
    option; an option that is neither a string nor a list of names raises TypeError.
    """

    def __init__(
        self,
        items: Sequence[str],
        options: Sequence[Union[str, Sequence[str]]],
        secondary: Sequence[str] = (),
        costs: Optional[Sequence[int]] = None,
        *,
        _native_problem: Any = None,
    ):
        if _native_problem is None:
            if isinstance(items, str) or isinstance(secondary, str):
                raise TypeError("items and secondary are sequences of names, not one string")
            if costs is not None:
                costs = [_cost(k, c) for k, c in enumerate(costs)]
            _native_problem = _native.NativeProblem(
                [str(i) for i in items],
                [str(i) for i in secondary],
                [_tokens(k, o) for k, o in enumerate(options)],
                costs,
            )
        self._p = _native_problem
        self.items, self.secondary = self._p.items()
        self.options: List[str] = self._p.options()
        self.costs: List[int] = self._p.costs()
        #: The input line of each option (for :func:`read_dlx`), else empty.
        self.option_lines: List[int] = self._p.option_lines()
        #: The reader's warnings (options without a primary item are ignored).
        self.warnings: List[str] = self._p.warnings()

    def __repr__(self) -> str:
        return (
            f"Problem({len(self.items)} primary items, {len(self.secondary)} secondary, "
            f"{len(self.options)} options)"
        )

    def count(
        self,
        limit: Optional[int] = None,
        time_limit: Optional[float] = None,
        threads: int = 0,
        memo: Optional[bool] = None,
        progress: Progress = None,
    ) -> CountResult:
        """The number of solutions, as ``xcover solve --count``: a :class:`CountResult`
        (``int(result)`` is the count). ``limit`` stops after that many solutions (one
        thread), ``time_limit`` after that many seconds; ``memo``: None runs the plain and the
        memoised searches in turns (at most 128 times the best of them), True/False forces it.
        ``progress``: a callable ``(parts_done, parts, solutions)`` (the sub-problems of the
        split done and in all, 0 and 0 before the split is made or without one, and the
        solutions counted in those done), or True for a tqdm bar.

        A first Ctrl-C stops the search and raises :class:`Interrupted` with the count so far
        (status ``interrupted``, a lower bound); a second abandons the call at once
        (``partial`` None)."""
        cb, close = _progress_callback(progress, "parts", "solutions")
        try:
            counted = self._p.count(
                _optional_limit(limit), _seconds(time_limit), _threads(threads), memo, cb
            )
        finally:
            close()
        if counted is None:
            raise Interrupted(None)
        c, status, nodes, interrupted = counted
        result = CountResult(c, status, nodes)
        if interrupted:
            raise Interrupted(result)
        return result

    def solutions(
        self,
        limit: Optional[int] = None,
        time_limit: Optional[float] = None,
        threads: int = 0,
        progress: Progress = None,
    ) -> List[List[int]]:
        """Every solution as a list of option indices (into :attr:`options`, in the order the
        engine chose them), in the order of ``xcover solve``; at most ``limit``, for at most
        ``time_limit`` seconds. :meth:`iter_solutions` gives them one at a time.
        ``progress``: a callable ``(found, limit, found)`` (limit 0 when there is none), or
        True for a tqdm bar.

        On Ctrl-C raises :class:`Interrupted` with the solutions found so far."""
        found: List[List[int]] = []
        try:
            for solution in self.iter_solutions(limit, time_limit, threads, progress):
                found.append(solution)
        except KeyboardInterrupt as e:
            raise Interrupted(found) from e
        return found

    def iter_solutions(
        self,
        limit: Optional[int] = None,
        time_limit: Optional[float] = None,
        threads: int = 0,
        progress: Progress = None,
    ) -> Iterator[List[int]]:
        """The solutions of :meth:`solutions`, lazily: the search runs ahead on a worker
        thread; leaving the loop stops it. Ctrl-C while it waits raises
        ``KeyboardInterrupt``. ``progress`` as for :meth:`solutions`, called at each batch
        of solutions the worker hands over."""
        limit = _optional_limit(limit)
        stream = _native.ProblemStream(self._p, limit, _seconds(time_limit), _threads(threads))
        cb, close = _progress_callback(progress, "solutions", "found")
        found = 0
        try:
            for chunk in stream:
                found += len(chunk)
                if cb is not None:
                    cb(found, limit or 0, found)
                yield from chunk
        finally:
            close()

    def format(self, solution: Sequence[int]) -> List[str]:
        """A solution's options as DLX text. An index that is not one of :attr:`options`
        (negative ones included) raises IndexError naming it."""
        out = []
        for o in solution:
            i = _integer(o, "an option index")
            if not 0 <= i < len(self.options):
                raise IndexError(
                    f"option index {i} is out of range: the problem has {len(self.options)} "
                    f"options (0 to {len(self.options) - 1})"
                )
            out.append(self.options[i])
        return out

    def _optimise(
        self,
        maximise: bool,
        top: Optional[int],
        time_limit: Optional[float],
        threads: int,
        progress: Progress,
    ) -> Optimum:
        cb, close = _progress_callback(progress, "parts", "nodes")
        try:
            optimised = self._p.optimise(
                maximise,
                None if top is None else _index(top, "top", 1),
                _seconds(time_limit),
                _threads(threads),
                cb,
            )
        finally:
            close()
        if optimised is None:
            raise Interrupted(None)
        status, bound, sols, nodes, interrupted = optimised
        values = [v for v, _ in sols]
        result = Optimum(
            status,
            values[0] if values else None,
            bound,
            [list(s) for _, s in sols],
            values,
            nodes,
        )
        if interrupted:
            raise Interrupted(result)
        return result

    def minimise(
        self,
        top: Optional[int] = None,
        time_limit: Optional[float] = None,
        threads: int = 0,
        progress: Progress = None,
    ) -> Optimum:
        """A solution of least total cost (or the ``top`` best), by branch and bound, as
        ``xcover solve --minimize``. ``progress``: a callable ``(parts_done, parts, nodes)``
        (the sub-problems of a search on threads done and in all, 0 and 0 without them, and
        the nodes searched), or True for a tqdm bar."""
        return self._optimise(False, top, time_limit, threads, progress)

    def maximise(
        self,
        top: Optional[int] = None,
        time_limit: Optional[float] = None,
        threads: int = 0,
        progress: Progress = None,
    ) -> Optimum:
        """A solution of greatest total cost (or the ``top`` best), as ``xcover solve
        --maximize``; ``progress`` as for :meth:`minimise`."""
        return self._optimise(True, top, time_limit, threads, progress)

    minimize = minimise
    maximize = maximise

    def family(self, memory: Optional[int] = None) -> "Family":
        """The solutions as one value, a :class:`dancelinks.Family` (count, marginals,
        including/excluding, the k best by weights, uniform samples, iteration, save): the
        ZDD of ``xcover solve --zdd``, built on a worker thread within ``memory`` bytes
        (default 256 MiB, as ``--memo-mem``); a diagram that would outgrow it raises
        ValueError. Ctrl-C stops the build and raises :class:`Interrupted` (``partial``
        None)."""
        return Family._of(self, memory)


def read_dlx(path: Union[str, "os.PathLike[str]"]) -> Problem:
    """A :class:`Problem` from a file in Knuth's DLX format (with DLX3's multiplicities and
    DLX5's ``|n`` costs), read as ``xcover solve`` reads it. A malformed file raises
    ValueError ``FILE:LINE:COLUMN: message``; a missing one FileNotFoundError (an unreadable
    one PermissionError, a directory IsADirectoryError: OSErrors, as ``open`` raises). Options without a primary
    item are ignored (listed in ``warnings``, as DLX1 does); ``option_lines`` gives each
    option's line in the file."""
    import warnings as _warnings

    p = Problem((), (), _native_problem=_native.NativeProblem.read_dlx(os.fspath(path)))
    for w in p.warnings:
        _warnings.warn(w, stacklevel=2)
    return p
