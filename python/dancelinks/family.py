"""The solutions of a problem as one value: :class:`Family`, from :meth:`Problem.family`
(``dancelinks.Problem``) or :meth:`Family.load`.

The family is the ZDD of ``xcover solve --zdd`` (the memoised search written down), asked
questions without listing it: how many solutions, how many take each option, the solutions
including or excluding options (new families), the k best under option weights (exact),
uniform samples (seeded: the draws of ``xcover solve --sample K --seed S``), each solution
in turn. For a model of :mod:`dancelinks.models` the solutions are
:class:`dancelinks.models.Solution` objects that decode and draw themselves, and
:meth:`Family.heatmap` draws the marginals (queens: the heat map of ``xcover queens heatmap``;
a tiling: where each piece lies).
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any, Iterator, List, Optional, Sequence, Tuple, Union

import numpy as np

from . import _native
from ._display import Picture

if TYPE_CHECKING:
    from . import Problem


class Family:
    """The solutions of a problem (see the module). Made by :meth:`dancelinks.Problem.family`
    or :meth:`Family.load`, not directly.

    - :attr:`count` (an int; ``len(family)`` too when it fits in ``sys.maxsize``);
    - :meth:`marginals`: for each option, the number of solutions that take it (numpy);
    - :meth:`including`, :meth:`excluding`: the solutions with all of, or none of, some
      options (as option indices or their DLX text), as new families;
    - :meth:`best`: the k best solutions under integer option weights;
    - :meth:`sample`: uniform draws; iteration: every solution, lazily;
    - :meth:`save`, :meth:`load`: the ZDD text of ``xcover solve --zdd``.

    A solution is a list of option indices (into ``options``, in the order the search chose
    them), or for a model a :class:`dancelinks.models.Solution`.
    """

    def __init__(
        self,
        native: Any,
        options: Sequence[str],
        option_lines: Sequence[int],
        model: Any = None,
    ):
        self._f = native
        #: The options' DLX text, by index (a loaded family: the texts of its file).
        self.options: List[str] = list(options)
        #: Each option's line in its input (0: none).
        self.option_lines: List[int] = list(option_lines)
        self._model = model

    @classmethod
    def _of(cls, problem: "Problem", memory: Optional[int]) -> "Family":
        from . import Interrupted, _index

        mem = None if memory is None else _index(memory, "memory", 4096)
        native = _native.NativeFamily.build(problem._p, mem)
        if native is None:
            raise Interrupted(None)
        model = problem if hasattr(problem, "_model") else None
        lines = problem.option_lines or [0] * len(problem.options)
        return cls(native, problem.options, lines, model)

    def _derived(self, native: Any) -> "Family":
        return Family(native, self.options, self.option_lines, self._model)

    def _solution(self, options: Sequence[int]) -> Any:
        if self._model is not None:
            from .models import Solution

            return Solution(options, self._model)
        return list(options)

    @property
    def count(self) -> int:
        """The number of solutions (OverflowError beyond 2**128 - 1)."""
        return int(self._f.count())

    def __len__(self) -> int:
        c = self.count
        if c > sys.maxsize:
            raise OverflowError(f"{c} solutions: more than len() can say; use .count")
        return c

    @property
    def nodes(self) -> int:
        """The number of nodes of the diagram."""
        return int(self._f.nodes())

    @property
    def bytes(self) -> int:
        """The memory the family keeps (28 bytes a node)."""
        return int(self._f.bytes())

    def __repr__(self) -> str:
        try:
            c: Any = self.count
        except OverflowError:
            c = "more than 2**128 - 1"
        return f"Family({c} solutions, {self.nodes} nodes)"

    def marginals(self) -> np.ndarray:
        """For each option (by index), the number of solutions that take it: an int64 array
        when every count fits, else an array of Python ints (dtype object)."""
        packed, big = self._f.marginals()
        if packed is not None:
            return np.frombuffer(packed, dtype=np.int64).copy()
        return np.array([int(c) for c in big], dtype=object)

    def _indices(self, options: Any) -> List[int]:
        from . import _index

        if isinstance(options, (str, int, np.integer)):
            options = [options]
        out = []
        for o in options:
            if isinstance(o, str):
                try:
                    out.append(self.options.index(o))
                except ValueError:
                    raise ValueError(f"no option {o!r} in the family's problem") from None
            else:
                out.append(_index(o, "an option index", 0, 2**32 - 1))
        return out

    def including(self, options: Any) -> "Family":
        """The solutions that take every one of ``options`` (indices, or DLX text as in
        ``options``), as a new family."""
        return self._derived(self._f.including(self._indices(options)))

    def excluding(self, options: Any) -> "Family":
        """The solutions that take none of ``options``, as a new family."""
        return self._derived(self._f.excluding(self._indices(options)))

    def best(
        self, weights: Any, k: int = 1, maximize: bool = True
    ) -> List[Tuple[int, Any]]:
        """The ``k`` best solutions under ``weights`` (one integer per option; a solution's
        value is the sum of its options' weights) as ``(value, solution)``, best first
        (greatest with ``maximize``, least without), equal values in iteration order. Exact:
        dynamic programming over the diagram."""
        from . import _index

        w = np.asarray(weights)
        if w.ndim != 1 or not (np.issubdtype(w.dtype, np.integer) or w.dtype == bool):
            raise ValueError("weights are one integer per option (a 1-d integer array)")
        kk = _index(k, "k", 0)
        out = self._f.best(w.astype(np.int64).tolist(), kk, bool(maximize))
        return [(int(v), self._solution(s)) for v, s in out]

    def sample(self, k: int, seed: int = 0) -> List[Any]:
        """``k`` solutions drawn exactly uniformly, with replacement (none when there is no
        solution); the same seed gives the same draws (those of ``xcover solve --sample K
        --seed S``)."""
        from . import _index

        return [
            self._solution(s)
            for s in self._f.sample(_index(k, "k", 0), _index(seed, "seed", 0, 2**64 - 1))
        ]

    def __iter__(self) -> Iterator[Any]:
        for s in self._f.__iter__():
            yield self._solution(s)

    def __getitem__(self, rank: int) -> Any:
        """The solution of that rank in iteration order (negative ranks from the end)."""
        from . import _integer

        r = _integer(rank, "a rank")
        c = self.count
        if r < 0:
            r += c
        s = self._f.solution(r) if 0 <= r < c else None
        if s is None:
            raise IndexError(f"rank {rank} of a family of {c} solutions")
        return self._solution(s)

    def heatmap(self) -> Picture:
        """The marginals of a model's family drawn as ``xcover model NAME --marginals
        --format svg`` draws them: queens as ``xcover queens heatmap --format svg``, a model
        whose picture is a grid of characters (a tiling, a sudoku, Langford pairs up to 9) as
        one heat map per character (a tiling: per piece, where it lies). ValueError for a
        family of a plain problem or of a model without a grid (matchings): :meth:`marginals`
        gives the counts."""
        svg = None if self._model is None else self._f.heatmap_svg(self._model._model)
        if svg is None:
            raise ValueError(
                "this family's marginals have no heat-map picture (the models whose picture "
                "is a grid have one); marginals() gives the counts"
            )
        return Picture(svg)

    def save(self, path: Union[str, "os.PathLike[str]"]) -> None:
        """Writes the family as the ZDD text of ``xcover solve --zdd`` (docs/engine.md)."""
        self._f.save(os.fspath(path), self.options, self.option_lines)

    @classmethod
    def load(
        cls, path: Union[str, "os.PathLike[str]"], memory: Optional[int] = None
    ) -> "Family":
        """A family from the ZDD text of ``xcover solve --zdd`` (or :meth:`save`), checked
        line by line: a mistake raises ValueError ``FILE:LINE: message``. Its options are
        numbered up to the largest index in the file; ``options`` holds their texts (empty for
        an index the file does not name)."""
        from . import _index

        mem = None if memory is None else _index(memory, "memory", 4096)
        native, labels = _native.NativeFamily.load(os.fspath(path), mem)
        n = native.option_count()
        texts = [""] * n
        lines = [0] * n
        for index, line, text in labels:
            texts[index] = text
            lines[index] = line
        return cls(native, texts, lines)
