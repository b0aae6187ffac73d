"""Links and cited file names in the README and docs/ point at files that exist."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]

# [text](target) and ![alt](target), target up to the first space or ")".
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
# A file name in a code span: `cases.md`, `docs/RULES.md`, `benchmarks/games.py`.
CITED = re.compile(r"`([\w][\w./-]*\.(?:md|txt|py|toml|json))`")
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)


def _prose(page: Path) -> str:
    """The page without its fenced code blocks (commands there are run, not linked)."""
    return FENCE.sub("", page.read_text(encoding="utf-8"))


def _rel(page: Path) -> str:
    return page.relative_to(ROOT).as_posix()


def test_there_are_pages() -> None:
    assert ROOT / "docs" / "RULES.md" in PAGES


@pytest.mark.parametrize("page", PAGES, ids=_rel)
def test_relative_links_resolve(page: Path) -> None:
    broken = []
    for target in LINK.findall(_prose(page)):
        if re.match(r"[a-z][a-z0-9+.-]*:", target, re.IGNORECASE) or target.startswith("#"):
            continue  # web addresses, mailto:, anchors within the page
        path = target.split("#", 1)[0].split("?", 1)[0]
        if not (page.parent / path).exists():
            broken.append(target)
    assert not broken, f"{_rel(page)} links to missing files: {broken}"


@pytest.mark.parametrize("page", PAGES, ids=_rel)
def test_cited_file_names_exist(page: Path) -> None:
    """A file named in a code span exists beside the page, from the repository root, or in
    the package (``server/online.py``) or its server (``tables.py`` in docs/server.md)."""
    roots = (page.parent, ROOT, ROOT / "src" / "paohuzi", ROOT / "src" / "paohuzi" / "server")
    missing = [
        name for name in CITED.findall(_prose(page)) if not any((r / name).exists() for r in roots)
    ]
    assert not missing, f"{_rel(page)} cites files that are not in the repository: {missing}"


def test_link_pattern_finds_links() -> None:
    text = 'see [a](docs/x.md#y), ![i](img.png "t") and [w](https://e.org) `cases.md`'
    assert LINK.findall(text) == ["docs/x.md#y", "img.png", "https://e.org"]
    assert CITED.findall(text) == ["cases.md"]
