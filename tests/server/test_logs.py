"""Structured logs: ``paohuzi serve --log-format json`` writes one JSON object per line."""

from __future__ import annotations

import json
import logging

import pytest

from paohuzi.server.logs import JsonFormatter, configure_logging


def test_a_log_line_is_one_json_object_with_extra_fields() -> None:
    log = logging.getLogger("paohuzi.server.test")
    record = log.makeRecord(
        log.name, logging.INFO, __file__, 1, "match %s rebuilt", (7,), None,
        extra={"match_id": 7, "decisions": [1, 2]},
    )  # fmt: skip
    line = JsonFormatter().format(record)
    assert "\n" not in line
    out = json.loads(line)
    assert out["msg"] == "match 7 rebuilt" and out["level"] == "INFO"
    assert out["logger"] == "paohuzi.server.test" and out["match_id"] == 7
    assert out["decisions"] == "[1, 2]" and out["ts"].endswith("+00:00")
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        import sys

        record.exc_info = sys.exc_info()
    assert "RuntimeError: boom" in json.loads(JsonFormatter().format(record))["exc"]


def test_uvicorn_goes_through_the_same_handler(capsys: pytest.CaptureFixture[str]) -> None:
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    try:
        configure_logging("json")
        logging.getLogger("uvicorn.error").info("Application startup complete.")
        err = capsys.readouterr().err.strip().splitlines()
        assert json.loads(err[-1])["msg"] == "Application startup complete."
        with pytest.raises(ValueError, match="log format 'xml'"):
            configure_logging("xml")
    finally:
        root.handlers[:], _ = saved
        root.setLevel(saved[1])


def test_serve_refuses_an_unknown_log_format(capsys: pytest.CaptureFixture[str]) -> None:
    from paohuzi.cli.errors import run

    assert run(["serve", "--log-format", "xml", "--db", "sqlite:///x.db"]) == 2
    assert "--log-format 'xml'" in capsys.readouterr().err
