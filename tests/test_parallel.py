"""Jobs run alike on the local process pool and, when it is installed, on Ray."""

from __future__ import annotations

import pytest

from paohuzi.arena import run_arena
from paohuzi.parallel import map_jobs


def _square(x: int) -> int:
    return x * x


def test_process_backend_keeps_job_order() -> None:
    assert list(map_jobs(_square, [3, 1, 2], workers=2)) == [9, 1, 4]
    assert list(map_jobs(_square, [3, 1, 2], workers=1)) == [9, 1, 4]
    assert list(map_jobs(_square, [], workers=2)) == []


def test_unknown_backend_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown backend 'spark'"):
        list(map_jobs(_square, [1], backend="spark"))


def _strip(stats: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in stats.items() if k not in ("seconds", "bots")}


def test_ray_backend_gives_the_process_backends_results() -> None:
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        assert list(map_jobs(_square, [3, 1, 2], backend="ray", workers=2)) == [9, 1, 4]
        names = ["heuristic", "random", "random"]
        on_ray = run_arena(names, 3, seed=5, backend="ray", workers=2)
        local = run_arena(names, 3, seed=5, workers=2)
        assert _strip(on_ray) == _strip(local)
        for name in ("heuristic", "random"):
            assert on_ray["bots"][name]["mean_score"] == local["bots"][name]["mean_score"]
    finally:
        ray.shutdown()


def test_arena_backend_option_is_checked(capsys: pytest.CaptureFixture[str]) -> None:
    from paohuzi.cli.errors import run

    assert run(["arena", "--bots", "random", "-n", "1", "--backend", "spark"]) == 2
    err = capsys.readouterr().err
    assert "--backend 'spark'" in err and len(err.strip().splitlines()) == 1
