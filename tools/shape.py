"""List the Python files over a line limit and the functions over a length limit.

    python tools/shape.py src/paohuzi/server --exclude migrations   # the server's bar
    python tools/shape.py src/paohuzi/core --lines 500

A function's length is from its ``def`` (decorators included) to its last line, docstring
included, nested functions counted in their parent too. Exit status 1 if anything is
listed (tests/server/test_shape.py holds the server to the bar).
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

__all__ = ["long_files", "long_functions", "main"]


def _sources(root: Path, exclude: Sequence[str]) -> list[Path]:
    """The ``.py`` files under ``root``, less those under a folder of ``exclude``."""
    skip = [root / x for x in exclude]
    return [f for f in sorted(root.rglob("*.py")) if not any(f.is_relative_to(x) for x in skip)]


def long_files(root: Path, limit: int, exclude: Sequence[str] = ()) -> Iterator[tuple[str, int]]:
    """Each ``.py`` file under ``root`` with more than ``limit`` lines: (path, lines)."""
    for f in _sources(root, exclude):
        n = len(f.read_text(encoding="utf-8").splitlines())
        if n > limit:
            yield str(f.relative_to(root)), n


def long_functions(
    root: Path, limit: int, exclude: Sequence[str] = ()
) -> Iterator[tuple[str, str, int]]:
    """Each function under ``root`` longer than ``limit`` lines: (path, name, lines);
    a method is named ``Class.method``."""
    for f in _sources(root, exclude):
        tree = ast.parse(f.read_text(encoding="utf-8"), filename=str(f))
        for name, node in _functions(tree, ""):
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            n = (node.end_lineno or node.lineno) - first + 1
            if n > limit:
                yield str(f.relative_to(root)), name, n


def _functions(
    node: ast.AST, prefix: str
) -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """Every function in ``node``, with its dotted name (classes and outer functions)."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
            yield prefix + child.name, child
            yield from _functions(child, f"{prefix}{child.name}.")
        elif isinstance(child, ast.ClassDef):
            yield from _functions(child, f"{prefix}{child.name}.")
        else:
            yield from _functions(child, prefix)


def main(argv: Sequence[str] | None = None) -> int:
    """List what is over the limits under a folder; 1 if anything is."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("root", type=Path, help="a folder of Python files")
    ap.add_argument("--lines", type=int, default=400, help="a file's limit (default 400)")
    ap.add_argument("--function", type=int, default=60, help="a function's (default 60)")
    ap.add_argument("--exclude", action="append", default=[], help="a folder under root")
    args = ap.parse_args(argv)
    if not args.root.is_dir():
        print(f"error: {str(args.root)[:200]!r} is not a folder", file=sys.stderr)
        return 2
    found = 0
    for path, n in long_files(args.root, args.lines, args.exclude):
        print(f"{path}: {n} lines (over {args.lines})")
        found += 1
    for path, name, n in long_functions(args.root, args.function, args.exclude):
        print(f"{path}: {name} is {n} lines (over {args.function})")
        found += 1
    if not found:
        print(f"nothing over {args.lines} lines a file or {args.function} a function")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
