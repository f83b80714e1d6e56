"""Types of the native module (``dancelinks._native``); the public API is ``dancelinks``."""

from os import PathLike
from typing import Callable, Iterator, List, Optional, Sequence, Tuple, Union

MAX_N: int
MAX_WEIGHTED_N: int

_Progress = Optional[Callable[[int, int, int], object]]

def count(
    n: int,
    unique: bool = False,
    engine: Optional[str] = None,
    threads: int = 0,
    progress: _Progress = None,
) -> Optional[Tuple[int, Optional[int], str, bool]]: ...
def solutions_array(
    n: int, unique: bool = False, limit: Optional[int] = None, threads: int = 0
) -> Optional[Tuple[bytes, bytes, bool]]: ...
def heatmap(n: int, unique: bool = False) -> Optional[Tuple[List[int], int]]: ...
def check_weighted_size(n: int) -> None: ...
def maximise(
    weights: bytes,
    k: int,
    n: int,
    all_optimal: bool = False,
    top: Optional[int] = None,
    time_limit: Optional[float] = None,
    threads: int = 0,
    floor: Optional[int] = None,
    progress: _Progress = None,
) -> Optional[
    Tuple[
        List[str],
        List[Optional[int]],
        List[Optional[int]],
        List[int],
        List[int],
        List[int],
        bytes,
        bool,
    ]
]: ...

class QueensStream(Iterator[Tuple[bytes, bytes]]):
    def __init__(self, n: int, unique: bool = False, limit: Optional[int] = None) -> None: ...
    def __iter__(self) -> "QueensStream": ...
    def __next__(self) -> Tuple[bytes, bytes]: ...

class NativeProblem:
    def __init__(
        self,
        primary: Sequence[str],
        secondary: Sequence[str],
        options: Sequence[Sequence[str]],
        costs: Optional[Sequence[int]] = None,
    ) -> None: ...
    @staticmethod
    def read_dlx(path: Union[str, "PathLike[str]"]) -> "NativeProblem": ...
    def items(self) -> Tuple[List[str], List[str]]: ...
    def options(self) -> List[str]: ...
    def costs(self) -> List[int]: ...
    def option_lines(self) -> List[int]: ...
    def warnings(self) -> List[str]: ...
    def has_multiplicities(self) -> bool: ...
    def count(
        self,
        limit: Optional[int] = None,
        time_limit: Optional[float] = None,
        threads: int = 0,
        memo: Optional[bool] = None,
        progress: _Progress = None,
    ) -> Tuple[int, str, int, bool]: ...
    def optimise(
        self,
        maximise: bool,
        top: Optional[int] = None,
        time_limit: Optional[float] = None,
        threads: int = 0,
        progress: _Progress = None,
    ) -> Tuple[str, Optional[int], List[Tuple[int, List[int]]], int, bool]: ...

class ProblemStream(Iterator[List[List[int]]]):
    def __init__(
        self,
        problem: NativeProblem,
        limit: Optional[int] = None,
        time_limit: Optional[float] = None,
        threads: int = 0,
    ) -> None: ...
    def __iter__(self) -> "ProblemStream": ...
    def __next__(self) -> List[List[int]]: ...

# Pictures (python/src/pictures.rs) and models (python/src/models.rs).

def svg_boards(
    n: int,
    queens: Sequence[Optional[Sequence[int]]],
    labels: Sequence[str],
    weights: Optional[Sequence[Sequence[int]]] = None,
    cell: int = 12,
    per_row: int = 8,
) -> str: ...
def svg_heatmap(n: int, counts: Sequence[int], title: str) -> str: ...
def weighted_title(
    board: int, value: Optional[int], status: str, bound: Optional[int] = None
) -> str: ...
def svg_cell_grid(
    rows: int,
    cols: int,
    cells: Sequence[Optional[Tuple[str, int, bool]]],
    coloured: bool,
    title: str,
) -> str: ...
def sudoku_svg(grid: Sequence[int], clues: Sequence[int], title: str) -> str: ...
def sudoku_batch(
    puzzles: Sequence[str], limit: int = 1, threads: int = 0
) -> Optional[Tuple[bytes, List[int], bool]]: ...

class NativeModel:
    name: str
    @staticmethod
    def sudoku(puzzle: str) -> "NativeModel": ...
    @staticmethod
    def polyomino(
        board: str, pieces: Optional[Sequence[Tuple[str, str]]] = None
    ) -> "NativeModel": ...
    @staticmethod
    def langford(n: int) -> "NativeModel": ...
    @staticmethod
    def matchings(n: int) -> "NativeModel": ...
    @staticmethod
    def queens(n: int) -> "NativeModel": ...
    @staticmethod
    def word_squares(words: Sequence[str]) -> "NativeModel": ...
    @staticmethod
    def dominoes(
        rows: int,
        cols: int,
        horizontal: Optional[Tuple[int, int]] = None,
        vertical: Optional[Tuple[int, int]] = None,
    ) -> "NativeModel": ...
    def problem(self) -> NativeProblem: ...
    def title(self) -> str: ...
    def text(self, solution: Sequence[int]) -> str: ...
    def numbers(self, solution: Sequence[int]) -> Optional[Tuple[List[int], List[int]]]: ...
    def svg(self, solution: Sequence[int]) -> str: ...
