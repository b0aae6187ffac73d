"""The layer guard: every package of ``src/paohuzi`` imports only from the layers below it.

The order is declared here once (lowest first). A package may import itself and any
package of a *lower* layer; never one of its own layer (they stay independent) nor of
a higher one. Every import is read from the source with ``ast``, in every style:
``import paohuzi.x``, ``from paohuzi.x import y``, ``from paohuzi import x``, the
relative ``from ..x import y`` and ``from .. import x``, imports inside functions, and
``importlib.import_module`` of a constant name. The test of the checker itself below
shows it would catch ``from ..server import x`` inside the core.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PKG = SRC / "paohuzi"

ROOT = "paohuzi"
"""The package itself (``paohuzi/__init__.py``: the core's names and the version)."""

LAYERS: tuple[tuple[str, ...], ...] = (
    ("core", "parallel"),  # the rules (stdlib only); a process pool
    ("encoding", ROOT),  # the observation encoding (numpy); the package's own names
    ("bots",),
    ("env",),  # the single-agent environment seats bots as its opponents
    ("analysis",),  # 复盘: options valued by bots' rollouts (the server and the CLI run it)
    ("server", "tui", "arena", "simulate"),
    ("web", "train"),
    ("cli",),
    ("__main__",),  # python -m paohuzi
)
"""core ← encoding ← bots ← env ← analysis ← server/tui/arena ← web/train ← cli ← __main__."""

LEVEL = {name: i for i, layer in enumerate(LAYERS) for name in layer}


def module_name(path: Path) -> str:
    """``paohuzi.core.cards`` for src/paohuzi/core/cards.py (``__init__`` kept)."""
    return ".".join(path.relative_to(SRC).with_suffix("").parts)


def top_of(module: str) -> str | None:
    """The layer name a ``paohuzi...`` dotted name belongs to; None outside the package."""
    parts = module.split(".")
    if parts[0] != ROOT:
        return None
    if len(parts) == 1 or parts[1] == "__init__":
        return ROOT
    # ``from paohuzi import __version__``: a name of the root, not a package.
    if not ((PKG / parts[1]).is_dir() or (PKG / f"{parts[1]}.py").is_file()):
        return ROOT
    return parts[1]


def _resolve(module: str, level: int, name: str | None) -> str:
    """The absolute name of a relative import ``from <level dots><name>`` in ``module``."""
    base = module.split(".")
    base = base[:-1]  # the package holding the module (for __init__: the package itself)
    base = base[: len(base) - (level - 1)]
    return ".".join(base + ([name] if name else []))


def imported(source: str, module: str) -> Iterator[tuple[int, str]]:
    """(line, absolute dotted name) of everything ``source`` (the module ``module``) imports."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for a in node.names:
                yield node.lineno, a.name
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(module, node.level, node.module) if node.level else node.module or ""
            for a in node.names:  # ``from x import y``: y may be a submodule of x
                yield node.lineno, f"{base}.{a.name}" if a.name != "*" else base
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute | ast.Name)
            and (node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id)
            == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            name = node.args[0].value
            if name.startswith("."):
                dots = len(name) - len(name.lstrip("."))
                yield node.lineno, _resolve(module, dots, name[dots:] or None)
            else:
                yield node.lineno, name


def violations(source: str, module: str) -> list[str]:
    """Each import of ``source`` (the module ``module``) that breaks the declared order."""
    here = top_of(module)
    if here is None or here not in LEVEL:
        return [f"{module}: its package {here!r} is in no layer (declare it in LAYERS)"]
    bad = []
    for line, name in imported(source, module):
        there = top_of(name)
        if there is None or there == here:
            continue
        if there not in LEVEL:
            bad.append(f"{module}:{line} imports {name} of no declared layer")
        elif LEVEL[there] >= LEVEL[here]:
            how = "its own layer" if LEVEL[there] == LEVEL[here] else "a higher layer"
            bad.append(f"{module}:{line} imports {name} ({there}: {how})")
    return bad


def _sources() -> list[Path]:
    return sorted(PKG.rglob("*.py"))


def test_every_package_is_declared() -> None:
    found = {top_of(module_name(f)) for f in _sources()}
    assert found <= set(LEVEL), f"undeclared: {sorted(str(x) for x in found - set(LEVEL))}"


def test_every_import_follows_the_declared_order() -> None:
    bad = [v for f in _sources() for v in violations(f.read_text("utf-8"), module_name(f))]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize(
    ("module", "source"),
    [
        ("paohuzi.core.cards", "from ..server import x"),
        ("paohuzi.core.cards", "from .. import server"),
        ("paohuzi.core.cards", "from .. import __version__"),
        ("paohuzi.core.__init__", "from ..server import x"),
        ("paohuzi.core.cards", "import paohuzi.server.app"),
        ("paohuzi.core.cards", "from paohuzi import env"),
        ("paohuzi.core.cards", "def f():\n    from ..bots import make_bot"),
        ("paohuzi.core.cards", "import importlib\nimportlib.import_module('paohuzi.env')"),
        ("paohuzi.bots.learned", "from ..env.observation import encode"),
        ("paohuzi.encoding.layout", "from ..bots import Bot"),
        ("paohuzi.server.app", "from ..tui import app"),  # same layer
        ("paohuzi.tui.app", "from ..train.trainer import Net"),  # a higher layer
        ("paohuzi.server.routers.rooms", "from ...cli import main"),
    ],
)
def test_the_checker_catches(module: str, source: str) -> None:
    assert violations(source, module), source


@pytest.mark.parametrize(
    ("module", "source"),
    [
        ("paohuzi.core.cards", "from . import groups\nfrom .groups import Group"),
        ("paohuzi.core.__init__", "from .cards import Card"),
        ("paohuzi.bots.learned", "from ..encoding.observation import encode_view"),
        ("paohuzi.env.single", "from ..bots import make_bot"),
        ("paohuzi.cli.main", "from .. import __version__\nfrom ..server import app"),
        ("paohuzi.env.__init__", "import importlib\nimportlib.import_module('.aec', __name__)"),
    ],
)
def test_the_checker_allows(module: str, source: str) -> None:
    assert not violations(source, module), violations(source, module)


def test_relative_imports_resolve_as_python_does() -> None:
    assert _resolve("paohuzi.core.cards", 1, "groups") == "paohuzi.core.groups"
    assert _resolve("paohuzi.core.__init__", 1, "cards") == "paohuzi.core.cards"
    assert _resolve("paohuzi.core.cards", 2, "server") == "paohuzi.server"
    assert _resolve("paohuzi.server.routers.rooms", 3, None) == "paohuzi"
    assert top_of("paohuzi.__version__") == ROOT and top_of("numpy") is None
