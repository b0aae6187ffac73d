"""Code outside paohuzi.core uses only its public names.

A private name (one leading underscore) of the core, or building a core object behind its
constructor (``State.__new__``, ``object.__new__(Deal)``, ``object.__setattr__`` on a frozen
core value), ties a caller to internals that may change in any release. Tests may poke
internals; only ``src/`` outside the core is held to this.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
CORE = SRC / "paohuzi" / "core"


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _module_name(path: Path) -> str:
    """Dotted name, ``__init__`` kept, so a relative import's level can be counted off it."""
    return ".".join(path.relative_to(SRC).with_suffix("").parts)


def _defined_private(tree: ast.AST) -> set[str]:
    """Private names a module defines: functions, classes, assignments, ``self._x``, slots."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            names.add(node.value)  # __slots__ entries, setattr names
    return {n for n in names if _private(n)}


def core_names() -> tuple[set[str], set[str]]:
    """(private names defined anywhere in paohuzi.core, class names defined there)."""
    private: set[str] = set()
    classes: set[str] = set()
    for f in CORE.rglob("*.py"):
        tree = ast.parse(f.read_text(encoding="utf-8"))
        private |= _defined_private(tree)
        classes |= {n.name for n in ast.walk(tree) if isinstance(n, ast.ClassDef)}
    return private, classes


def violations(
    source: str, module: str, core_private: set[str], core_classes: set[str]
) -> list[tuple[int, str]]:
    """(line, what) for each use of a core internal in ``source`` (the module ``module``)."""
    tree = ast.parse(source)
    own = _defined_private(tree)
    here = module.split(".")
    found: list[tuple[int, str]] = []
    imported_classes: set[str] = set()

    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - node.level]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            if target != "paohuzi.core" and not target.startswith("paohuzi.core."):
                continue
            if any(_private(p) for p in target.split(".")):
                found.append((node.lineno, f"import from private module {target}"))
            for alias in node.names:
                if _private(alias.name):
                    found.append((node.lineno, f"import {alias.name} from {target}"))
                elif alias.name in core_classes:
                    imported_classes.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                dotted = alias.name.split(".")
                if dotted[:2] == ["paohuzi", "core"] and any(_private(p) for p in dotted):
                    found.append((node.lineno, f"import private module {alias.name}"))

    def core_class(expr: ast.expr) -> str | None:
        if isinstance(expr, ast.Name) and expr.id in imported_classes:
            return expr.id
        if isinstance(expr, ast.Attribute) and expr.attr in core_classes:
            return expr.attr
        return None

    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            on_self = isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")
            if node.attr in core_private and not (on_self and node.attr in own):
                found.append((node.lineno, node.attr))
            elif node.attr == "__new__" and (cls := core_class(node.value)):
                found.append((node.lineno, f"{cls}.__new__"))
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "object"
            and node.args
        ):
            first = node.args[0]
            if node.func.attr == "__new__" and (cls := core_class(first)):
                found.append((node.lineno, f"object.__new__({cls})"))
            elif node.func.attr == "__setattr__" and not (
                isinstance(first, ast.Name) and first.id == "self"
            ):
                found.append((node.lineno, "object.__setattr__ on another object"))
    return sorted(set(found))


def test_src_outside_core_uses_only_public_core_names() -> None:
    core_private, core_classes = core_names()
    assert core_private and {"State", "Deal"} <= core_classes, "the core scan found nothing"
    bad = []
    for f in sorted((SRC / "paohuzi").rglob("*.py")):
        if CORE in f.parents:
            continue
        source = f.read_text(encoding="utf-8")
        for line, what in violations(source, _module_name(f), core_private, core_classes):
            bad.append(f"{f.relative_to(ROOT)}:{line}: {what}")
    assert not bad, "code outside paohuzi.core uses core internals:\n" + "\n".join(bad)


def test_the_check_sees_each_kind_of_use() -> None:
    source = """
import math
from ..core.engine import State, Deal, _helper
from paohuzi.core import _private_mod
import paohuzi.core._private_mod
from ..core import engine

class Mine:
    def __init__(self):
        self._cache = {}
        object.__setattr__(self, "x", 1)

    def go(self, st):
        self._cache.clear()
        st._resolve_draw(1)
        engine._open_claims()
        s = State.__new__(State)
        d = object.__new__(Deal)
        e = engine.State.__new__(engine.State)
        object.__setattr__(d, "dealer", 0)
        st._cache.clear()
        return self._own()
"""
    got = violations(
        source,
        "paohuzi.bots.search",
        {"_helper", "_resolve_draw", "_open_claims", "_cache", "_private_mod", "_own"},
        {"State", "Deal"},
    )
    assert got == [
        (3, "import _helper from paohuzi.core.engine"),
        (4, "import _private_mod from paohuzi.core"),
        (5, "import private module paohuzi.core._private_mod"),
        (15, "_resolve_draw"),
        (16, "_open_claims"),
        (17, "State.__new__"),
        (18, "object.__new__(Deal)"),
        (19, "State.__new__"),
        (20, "object.__setattr__ on another object"),
        (21, "_cache"),
        (22, "_own"),
    ]
