"""What the package refuses (issue 39): input it cannot represent is refused, never truncated
or wrapped, and each error names what the user gave and the range it must be in."""

import re

import numpy as np
import pytest

import dancelinks

CLASSIC = np.arange(1, 65).reshape(8, 8)


def test_a_cost_with_a_fraction_is_refused_not_truncated():
    with pytest.raises(ValueError, match=r"costs\[0\] = 1\.9: a cost must be an integer"):
        dancelinks.Problem(["a"], ["a"], costs=[1.9])
    for bad in (float("nan"), float("inf")):
        with pytest.raises(ValueError, match=r"costs\[0\]"):
            dancelinks.Problem(["a"], ["a"], costs=[bad])
    with pytest.raises(TypeError, match=r"costs\[1\] must be an integer, not str"):
        dancelinks.Problem(["a"], ["a", "a"], costs=[1, "2"])
    with pytest.raises(TypeError, match=r"costs\[0\] must be an integer, not bool"):
        dancelinks.Problem(["a"], ["a"], costs=[True])
    with pytest.raises(ValueError, match=r"costs\[0\] = -1: a cost must be 0 to 2\*\*63 - 1"):
        dancelinks.Problem(["a"], ["a"], costs=[-1])
    with pytest.raises(ValueError, match=r"costs\[0\] = 2\*\*63|costs\[0\] = 92233"):
        dancelinks.Problem(["a"], ["a"], costs=[2**63])
    # A float without a fraction, and numpy integers, are the integers they hold.
    p = dancelinks.Problem(["a"], ["a", "a"], costs=[2.0, np.int64(3)])
    assert p.costs == [2, 3] and p.minimise().value == 2


def test_format_refuses_an_index_that_is_not_an_option():
    p = dancelinks.Problem(["a"], ["a", "a"])
    assert p.format([1, 0]) == ["a", "a"]
    out_of_range = r"option index -1 is out of range: .* 2 options \(0 to 1\)"
    with pytest.raises(IndexError, match=out_of_range):
        p.format([-1])
    with pytest.raises(IndexError, match="option index 2"):
        p.format([0, 2])
    with pytest.raises(TypeError, match="option index must be an integer, not str"):
        p.format(["0"])


@pytest.mark.parametrize(
    "items, secondary, options, message",
    [
        # NUL, refused as the command line's reader refuses it (the builder's check).
        (["a\0"], [], ["a\0"], r"invalid item name 'a\\0'"),
        (["a"], ["x\0"], ["a x\0"], r"invalid item name 'x\\0'"),
        (["a"], ["x"], [["a", "x:r\0"]], "invalid colour name"),
        # The DLX reader's multiplicities: a sign is not a digit, as in a file.
        (["+1|a"], [], ["a"], r"invalid item name '\+1\|a'"),
        (["1:+2|a"], [], ["a"], "invalid item name"),
        (["0|a"], [], ["a"], "bad multiplicity '0|a'"),
        (["3:2|a"], [], ["a"], "bad multiplicity"),
        (["99999999999|a"], [], ["a"], "bad multiplicity"),
        (["a"], ["2|x"], ["a x"], "only primary items can have one"),
        (["a b"], [], ["a"], "invalid item name 'a b'"),
    ],
)
def test_names_are_checked_as_the_dlx_reader_checks_them(items, secondary, options, message):
    with pytest.raises(ValueError, match=message):
        dancelinks.Problem(items, options, secondary=secondary)


def test_multiplicities_parse_as_in_a_dlx_file(tmp_path):
    path = tmp_path / "m.dlx"
    path.write_text("0:2|a 2|b c\na b\nb c\na\n")
    from_file = dancelinks.read_dlx(path)
    built = dancelinks.Problem(["0:2|a", "2|b", "c"], ["a b", "b c", "a"])
    assert built.items == from_file.items == ["0:2|a", "2|b", "c"]
    assert built.count().count == from_file.count().count
    # The same sign the binding's own parser used to take is refused by the file's reader.
    path.write_text("+1|a\na\n")
    with pytest.raises(ValueError, match="invalid item name"):
        dancelinks.read_dlx(path)


def test_an_option_that_is_not_a_list_of_names_is_named():
    with pytest.raises(TypeError, match=r"option 0 must be a string of item names .* not int"):
        dancelinks.Problem(["a"], [5])
    with pytest.raises(TypeError, match="option 1 .* not NoneType"):
        dancelinks.Problem(["a"], ["a", None])


@pytest.mark.parametrize("call", ["count", "solutions", "heatmap", "iter_solutions"])
def test_a_bool_is_not_an_n(call):
    with pytest.raises(TypeError, match="n must be an integer, not bool"):
        result = getattr(dancelinks, call)(True)
        next(iter(result))


@pytest.mark.parametrize(
    "call, message",
    [
        # The real limit and range, not an engine nobody chose.
        (lambda: dancelinks.count(33), r"^n must be 1 to 32, not 33$"),
        (lambda: dancelinks.count(33, engine="bits"), r"^n must be 1 to 32, not 33$"),
        (lambda: dancelinks.count(0), r"^n must be 1 to 32, not 0$"),
        (lambda: dancelinks.count(-1), r"^n must be 1 to 32, not -1$"),
        (lambda: dancelinks.heatmap(0), r"^n must be 1 to 32, not 0$"),
        (lambda: dancelinks.solutions(-3), r"^n must be 1 to 32, not -3$"),
        (lambda: dancelinks.solutions(8, limit=0), r"limit must be at least 1 \(None for no"),
        (lambda: dancelinks.solutions(8, limit=-1), r"limit must be at least 1 .*not -1$"),
        (lambda: dancelinks.maximise(CLASSIC, top=0), r"^top must be at least 1, not 0$"),
        (lambda: dancelinks.maximise(CLASSIC, top=-2), r"^top must be at least 1, not -2$"),
        (lambda: dancelinks.count(8, threads=-1), r"^threads must be 0 to 1024, not -1$"),
        (lambda: dancelinks.count(8, threads=2**70), r"^threads must be 0 to 1024, not 1180"),
        (
            lambda: dancelinks.Problem(["a"], ["a"]).minimise(top=0),
            r"^top must be at least 1, not 0$",
        ),
        (lambda: dancelinks.Problem(["a"], ["a"]).count(limit=0), "limit must be at least 1"),
    ],
)
def test_range_errors_state_the_real_range(call, message):
    with pytest.raises(ValueError, match=message):
        call()


@pytest.mark.parametrize(
    "weights, error, message",
    [
        # The shape the user gave, not the stack it became.
        (np.zeros((3, 4), dtype=np.int64), ValueError, re.escape("not shape (3, 4)")),
        (np.zeros((2, 2, 3), dtype=np.int64), ValueError, re.escape("not shape (2, 2, 3)")),
        (np.zeros(5, dtype=np.int64), ValueError, re.escape("not shape (5,)")),
        # NaN and inf are not weights (float64 itself is accepted).
        (np.full((4, 4), np.nan), ValueError, "NaN and inf are not weights"),
        (np.full((4, 4), np.inf), ValueError, "NaN and inf are not weights"),
        (np.full((4, 4), 0.5), ValueError, "weights must be integers, not 0.5"),
        ([[1, 2], [3]], ValueError, "weights are ragged"),
        ([[[1]], [[1, 2], [3, 4]]], ValueError, "weights are ragged"),
        ([[2**70] * 4] * 4, ValueError, "too large for 64-bit integers"),
        ([[-(2**70)] * 4] * 4, ValueError, "too large for 64-bit integers"),
        (np.full((4, 4), 2.0**70), ValueError, "too large for 64-bit integers"),
        (np.full((4, 4), 2**64 - 1, dtype=np.uint64), ValueError, "too large for 64-bit"),
        (np.array([["a"]]), TypeError, "weights must be integers, not <U1"),
        ([[None, 1], [1, 1]], TypeError, "weights must be integers, not NoneType"),
    ],
)
def test_bad_weights_say_what_is_wrong(weights, error, message):
    with pytest.raises(error, match=message):
        dancelinks.maximise(weights)


def test_floor_names_itself_and_its_range():
    with pytest.raises(ValueError, match=r"^floor must be -\d+ to \d+, not 1606"):
        dancelinks.maximise(CLASSIC, floor=2**200)
    with pytest.raises(TypeError, match="floor must be an integer, not float"):
        dancelinks.maximise(CLASSIC, floor=1.5)
    assert dancelinks.maximise(CLASSIC, floor=np.int64(260)).value == 260


def test_a_board_too_large_is_refused_before_it_is_converted():
    from dancelinks import _native

    # A board above the model's largest (docs/weighted.md: MAX_WEIGHTED_N): refused by its
    # shape, as a broadcast view of one byte, before a 1.7 GB int64 copy is made.
    largest = dancelinks.MAX_WEIGHTED_N
    n = 14654
    huge = np.broadcast_to(np.int8(1), (n, n))
    with pytest.raises(ValueError, match=f"14654 is above {largest}"):
        dancelinks.maximise(huge)
    with pytest.raises(ValueError, match="above"):
        _native.check_weighted_size(largest + 1)
    _native.check_weighted_size(largest)
    with pytest.raises(ValueError):
        dancelinks.maximise(np.zeros((0, 0), dtype=np.int64))
