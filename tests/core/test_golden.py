"""Golden playthrough files: regenerate and diff (PAOHUZI_UPDATE_GOLDEN=1 rewrites them)."""

from __future__ import annotations

from pathlib import Path

import pytest

from .golden_util import GOLDEN_DIR, GOLDEN_SEEDS, UPDATE_ENV, check_golden, playthrough


@pytest.mark.parametrize("seed", GOLDEN_SEEDS)
def test_golden_playthrough(seed: int) -> None:
    check_golden(GOLDEN_DIR / f"playthrough-seed{seed}.txt", playthrough(seed))


def test_missing_golden_fails_and_is_not_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(UPDATE_ENV, raising=False)
    path = tmp_path / "playthrough-seed99.txt"
    with pytest.raises(pytest.fail.Exception, match=f"missing; write it with: {UPDATE_ENV}=1"):
        check_golden(path, "text\n")
    assert not path.exists()


def test_changed_golden_fails_with_a_diff(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(UPDATE_ENV, raising=False)
    path = tmp_path / "g.txt"
    path.write_text("a\nb\n", encoding="utf-8")
    with pytest.raises(pytest.fail.Exception, match=r"(?s)changed.*-b\n\+c"):
        check_golden(path, "a\nc\n")
    check_golden(path, "a\nb\n")


def test_update_env_writes_the_golden(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(UPDATE_ENV, "1")
    path = tmp_path / "g.txt"
    check_golden(path, "new\n")
    assert path.read_text(encoding="utf-8") == "new\n"
