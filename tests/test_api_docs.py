"""The examples in docs/api/*.md run, in order, as one script per page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

API = Path(__file__).resolve().parents[1] / "docs" / "api"
BLOCK = re.compile(r"```python\n(.*?)```", re.S)
PAGES = sorted(API.glob("*.md"))


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_api_page_examples_run(page: Path) -> None:
    blocks = BLOCK.findall(page.read_text(encoding="utf-8"))
    assert blocks, f"{page.name} has no python examples"
    namespace: dict[str, object] = {"__name__": f"docs_{page.stem.replace('-', '_')}"}
    for i, code in enumerate(blocks):
        try:
            exec(compile(code, f"{page.name} example {i}", "exec"), namespace)
        except Exception as e:  # pragma: no cover - the message is the point
            pytest.fail(f"{page.name} example {i} fails: {e!r}\n{code}")
