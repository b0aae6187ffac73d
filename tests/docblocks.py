"""The code blocks of the README and of the documentation pages under docs/, for the tests
that run them (test_docs_commands.py and the tests that run a marked block by name).

A block is a fenced ```sh or ```python block, optionally preceded by a marker line
``<!-- name -->``. Unmarked blocks are run by the generic runners; a marked block is run by
a test that reads it by name (``marked``), and a marker's name is unique across the pages.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
README_PATH = ROOT / "README.md"
README = README_PATH.read_text(encoding="utf-8")
DOCS = ROOT / "docs"
TUTORIALS = sorted((DOCS / "tutorials").glob("*.md"))

BLOCK = re.compile(r"(<!-- ([a-z-]+) -->\n)?```(sh|python)\n(.*?)```", re.S)

Block = tuple[str | None, str, str]  # (marker, language, body)


def pages() -> list[Path]:
    """The README and every page under docs/ (docs/api's examples: test_api_docs.py)."""
    return [README_PATH, *sorted(p for p in DOCS.rglob("*.md") if "api" not in p.parts)]


def command_pages() -> list[Path]:
    """The pages whose unmarked commands run one line at a time (all but the tutorials,
    which run in order, a page at a time)."""
    return [p for p in pages() if p not in TUTORIALS]


def blocks(page: Path | str = README_PATH) -> list[Block]:
    text = page if isinstance(page, str) else page.read_text(encoding="utf-8")
    return [(m.group(2), m.group(3), m.group(4)) for m in BLOCK.finditer(text)]


def rel(page: Path) -> str:
    return page.relative_to(ROOT).as_posix()


def sh_commands(page: Path = README_PATH) -> list[str]:
    """The page's unmarked shell commands, one per line (comments left out)."""
    out = []
    for marker, lang, body in blocks(page):
        if lang == "sh" and marker is None:
            out += [ln for ln in body.splitlines() if ln.strip() and not ln.startswith("#")]
    return out


def marked(name: str) -> str:
    """The body of the one block marked ``<!-- name -->`` in the README or under docs/."""
    found = [
        (rel(p), body.strip())
        for p in pages()
        for marker, _lang, body in blocks(p)
        if marker == name
    ]
    assert found, f"no page has a <!-- {name} --> block"
    assert len(found) == 1, f"<!-- {name} --> marks blocks in {[p for p, _ in found]}"
    return found[0][1]
