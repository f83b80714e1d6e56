"""Pictures and progress bars: SVG drawn by the crate's own writers (the pictures of ``xcover
... --format svg``), shown by Jupyter through ``_repr_svg_``, and tqdm bars that start once
their total is known.

- :class:`Picture`: an SVG picture (``_repr_svg_``, :meth:`Picture.to_svg`,
  :meth:`Picture.save`);
- :func:`draw_solution`, :func:`draw_solutions`, :func:`draw_heatmap`: n-queens solutions (one
  board, or a sheet of them as ``xcover queens list --format svg``) and heat maps;
- :class:`MaxResultPicture`, :class:`MaxResultsPicture`: the pictures of
  :class:`dancelinks.MaxResult` and :class:`dancelinks.MaxResults` (the weighted boards with
  their queens, as ``xcover queens max --format svg``).
"""

from __future__ import annotations

import os
import warnings
from typing import Any, Callable, List, Optional, Sequence, Tuple, Union

import numpy as np

from . import _native

#: The most boards one picture holds (as the command line's SVG).
MAX_BOARDS = 1000


class Picture:
    """An SVG picture. Jupyter shows it (``_repr_svg_``); :meth:`to_svg` gives the text and
    :meth:`save` writes it to a file."""

    def __init__(self, svg: str):
        self.svg = svg

    def _repr_svg_(self) -> str:
        return self.svg

    def to_svg(self) -> str:
        """The SVG document, as text."""
        return self.svg

    def save(self, path: Union[str, "os.PathLike[str]"]) -> None:
        """Writes the SVG document to ``path`` (``.svg``)."""
        with open(os.fspath(path), "w", encoding="utf-8") as f:
            f.write(self.svg)

    def __repr__(self) -> str:
        return f"<Picture: SVG of {len(self.svg)} characters>"


class SvgMixin:
    """``_repr_svg_``, ``to_svg()`` and ``save(path)`` for a class whose ``picture()`` draws
    it."""

    def picture(self) -> Picture:  # pragma: no cover - every user defines it
        raise NotImplementedError

    def _repr_svg_(self) -> Optional[str]:
        try:
            return self.picture().svg
        except ValueError:  # nothing to draw (too many boards, an empty stack)
            return None

    def to_svg(self) -> str:
        """The picture as an SVG document (text)."""
        return self.picture().svg

    def save(self, path: Union[str, "os.PathLike[str]"]) -> None:
        """Writes the picture to ``path`` as an SVG document."""
        self.picture().save(path)


def _files(layout: "np.typing.ArrayLike", n: Optional[int] = None) -> List[int]:
    files = [int(f) for f in np.asarray(layout).reshape(-1)]
    if n is not None and len(files) != n:
        raise ValueError(f"a layout of an {n}x{n} board has {n} files, not {len(files)}")
    return files


def _weights(weights: "np.typing.ArrayLike", n: int) -> List[int]:
    w = np.asarray(weights)
    if w.shape != (n, n):
        raise ValueError(f"weights of an {n}x{n} board are an ({n}, {n}) array, not {w.shape}")
    return [int(x) for x in w.reshape(-1)]


def draw_solution(
    files: "np.typing.ArrayLike",
    weights: Optional["np.typing.ArrayLike"] = None,
    label: str = "",
) -> Picture:
    """One n-queens layout (the file of the queen of each rank, as a row of
    :func:`dancelinks.solutions`) on a chequered board, or on a board shaded by ``weights`` (an
    (n, n) array, written in the squares) as ``xcover queens max --format svg`` draws it."""
    q = _files(files)
    n = len(q)
    if weights is None:
        cell = 32 if n <= 16 else 16
        svg = _native.svg_boards(n, [q], [label], None, cell, 1)
    else:
        svg = _native.svg_boards(n, [q], [label], [_weights(weights, n)], 40, 1)
    return Picture(svg)


def draw_solutions(
    solutions: "np.typing.ArrayLike",
    class_sizes: Optional["np.typing.ArrayLike"] = None,
    per_row: int = 8,
) -> Picture:
    """A sheet of n-queens solutions, a (k, n) array as :func:`dancelinks.solutions` gives
    them, numbered ``#1``, ``#2``, ... (with ``class_sizes``, ``#1 (class of 8)``), ``per_row``
    to a row: the picture of ``xcover queens list --format svg``. At most 1,000 boards."""
    a = np.asarray(solutions)
    if a.ndim != 2:
        raise ValueError(f"solutions are a (k, n) array, not shape {a.shape}")
    k, n = a.shape
    if k == 0 or n == 0:
        raise ValueError("no solution to draw")
    if k > MAX_BOARDS:
        raise ValueError(
            f"{k} boards are more than one picture holds ({MAX_BOARDS}): draw a slice of them"
        )
    sizes = None if class_sizes is None else [int(s) for s in np.asarray(class_sizes)]
    if sizes is not None and len(sizes) != k:
        raise ValueError(f"{len(sizes)} class sizes for {k} solutions")
    labels = [f"#{i + 1}" if sizes is None else f"#{i + 1} (class of {sizes[i]})" for i in range(k)]
    return Picture(_native.svg_boards(n, a.astype(np.int64).tolist(), labels, None, 12, per_row))


def draw_heatmap(
    counts: "np.typing.ArrayLike", unique: bool = False, title: Optional[str] = None
) -> Picture:
    """The heat map of ``xcover queens heatmap --format svg``: an (n, n) array of counts (as
    :func:`dancelinks.heatmap` gives it), each square coloured by its count, with a legend.
    ``title`` defaults to the command line's (``unique``: the counts are of fundamental
    solutions)."""
    c = np.asarray(counts)
    if c.ndim != 2 or c.shape[0] != c.shape[1] or c.shape[0] == 0:
        raise ValueError(f"a heat map is an (n, n) array, not shape {c.shape}")
    n = c.shape[0]
    values = [int(x) for x in c.reshape(-1)]
    if any(v < 0 for v in values):
        raise ValueError("a heat map's counts are >= 0")
    if title is None:
        total = sum(values[:n])
        what = "fundamental solutions" if unique else "solutions"
        title = f"{n}-queens: where the queens stand ({total} {what})"
    return Picture(_native.svg_heatmap(n, values, title))


def _board_label(res: Any) -> str:
    """The label of a board of ``xcover queens max --format svg`` (the crate's), with the
    bound proven when the value is not."""
    return str(_native.weighted_title(res.board, res.value, res.status, res.bound))


def _weighted_boards(results: Sequence[Any]) -> Picture:
    if not results:
        raise ValueError("no board to draw")
    if len(results) > MAX_BOARDS:
        raise ValueError(
            f"{len(results)} boards are more than one picture holds ({MAX_BOARDS}): "
            "draw a slice of them"
        )
    n = results[0].n
    weights = []
    for r in results:
        if r.weights is None:
            raise ValueError("the result does not hold its weights (made by hand?)")
        weights.append(_weights(r.weights, n))
    queens = [None if r.layout is None else _files(r.layout, n) for r in results]
    labels = [_board_label(r) for r in results]
    return Picture(_native.svg_boards(n, queens, labels, weights, 40, 1))


class MaxResultPicture(SvgMixin):
    """The picture of a :class:`dancelinks.MaxResult`: its weighted board (squares shaded by
    weight, the weights written in) with the queens of its best layout, labelled with the
    value and status, as ``xcover queens max --format svg`` draws it."""

    def picture(self) -> Picture:
        """The board with its best layout, as a :class:`Picture`."""
        return _weighted_boards([self])


class MaxResultsPicture(SvgMixin):
    """The picture of a :class:`dancelinks.MaxResults`: every board (at most 1,000), one
    under the other, as ``xcover queens max --format svg`` draws a stack."""

    def picture(self) -> Picture:
        """The boards with their best layouts, as a :class:`Picture`."""
        return _weighted_boards(list(self))  # type: ignore[call-overload]


# --------------------------------------------------------------------------------------------
# Progress bars


def _tqdm_class() -> Any:
    """tqdm.auto's bar class (a widget in a notebook with ipywidgets, text otherwise), or None
    without tqdm. Its warning that ipywidgets is missing ("IProgress not found") is not
    shown: the text bar it falls back to works in a notebook too."""
    try:
        from tqdm import TqdmExperimentalWarning, TqdmWarning  # type: ignore[import-untyped]
    except ImportError:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TqdmWarning)
        warnings.simplefilter("ignore", TqdmExperimentalWarning)
        from tqdm.auto import tqdm  # type: ignore[import-untyped, unused-ignore]
    return tqdm


def progress_bar(
    unit: str, found: str = "found"
) -> Tuple[Optional[Callable[[int, int, int], None]], Callable[[], None]]:
    """A callback ``(done, total, found)`` that drives one tqdm bar, and its close function;
    ``(None, no-op)`` without tqdm. The bar is made at the first report, with its total
    (none made before it is known: total 0), so that no empty bar is left above the real
    one. ``found`` is shown whole (``found=666090624``, not tqdm's ``6.66e+8``), named by
    ``found``."""
    tqdm = _tqdm_class()
    if tqdm is None:
        return None, lambda: None
    bar: List[Any] = []

    def update(done: int, total: int, got: int) -> None:
        if not bar:
            bar.append(tqdm(total=total or None, unit=unit, dynamic_ncols=True))
        b = bar[0]
        if total and b.total != total:
            b.total = total
        b.n = done
        b.set_postfix_str(f"{found}={int(got)}", refresh=False)
        b.refresh()

    def close() -> None:
        if bar:
            bar[0].close()

    return update, close
