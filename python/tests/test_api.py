"""The package's surface: names, docstrings, and the stub of the native module."""

import ast
import inspect
from pathlib import Path

import dancelinks
from dancelinks import _native

PACKAGE = Path(dancelinks.__file__).parent


def test_public_names_have_docstrings():
    for name in dancelinks.__all__:
        obj = getattr(dancelinks, name)
        if callable(obj):
            assert inspect.getdoc(obj), name


def test_typing_files_are_installed():
    assert (PACKAGE / "py.typed").is_file()
    assert (PACKAGE / "_native.pyi").is_file()


def stub_parameters():
    """{name: [parameter names]} of the functions and methods in _native.pyi."""
    tree = ast.parse((PACKAGE / "_native.pyi").read_text())
    out = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            out[node.name] = [a.arg for a in node.args.args]
        elif isinstance(node, ast.ClassDef):
            for f in node.body:
                if isinstance(f, ast.FunctionDef) and not f.name.startswith("__"):
                    out[f"{node.name}.{f.name}"] = [a.arg for a in f.args.args if a.arg != "self"]
    return out


def native_parameters(obj):
    return [p for p in inspect.signature(obj).parameters if p not in ("self", "$self", "py")]


def test_stub_matches_the_native_module():
    stub = stub_parameters()
    for name in ("count", "solutions_array", "heatmap", "maximise"):
        assert stub[name] == native_parameters(getattr(_native, name)), name
    for cls in ("NativeProblem",):
        for meth in ("count", "optimise", "read_dlx", "items", "options", "costs"):
            assert stub[f"{cls}.{meth}"] == native_parameters(
                getattr(getattr(_native, cls), meth)
            ), meth
    assert isinstance(_native.MAX_N, int) and dancelinks.MAX_N == _native.MAX_N
