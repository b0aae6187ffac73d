"""The examples in paohuzi.core's docstrings run, and say what the code does."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from types import ModuleType

import paohuzi
import paohuzi.core


def _modules() -> list[ModuleType]:
    names = ["paohuzi", "paohuzi.core"] + [
        m.name for m in pkgutil.walk_packages(paohuzi.core.__path__, "paohuzi.core.")
    ]
    return [importlib.import_module(n) for n in sorted(names)]


def test_core_doctests_pass() -> None:
    attempted = 0
    failures: list[str] = []
    finder = doctest.DocTestFinder()
    for module in _modules():
        runner = doctest.DocTestRunner(verbose=False)
        out: list[str] = []
        for test in finder.find(module, module.__name__):
            runner.run(test, out=out.append)
        result = runner.summarize(verbose=False)
        attempted += result.attempted
        if result.failed:
            failures.append(f"{module.__name__}: {result.failed} failed\n" + "".join(out))
    assert not failures, "\n".join(failures)
    # The modules hold examples today (cards, actions); finding none means the finder broke.
    assert attempted > 0
