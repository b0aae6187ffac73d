"""Voices and sounds: the files ship in the package (a few KB each, made by
tools/make-sounds), load after the first screen, play on claims and discards, and obey
the per-browser mute."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from paohuzi.server.process import ServerProcess
from paohuzi.web import STATIC
from paohuzi.web.screenshots import DESKTOP, bot_room, play

from .conftest import open_page

ROOT = Path(__file__).resolve().parents[2]
CLAIMS = ("chi", "peng", "wei", "pao", "ti", "hu")


def test_each_claim_has_a_small_voice_file_and_the_script_that_made_it() -> None:
    script = (ROOT / "tools" / "make-sounds").read_text(encoding="utf-8")
    assert "espeak-ng -v cmn" in script and "sox" in script
    for name in (*CLAIMS, "click", "draw"):
        f = STATIC / "sounds" / f"{name}.ogg"
        assert f.read_bytes()[:4] == b"OggS", name
        assert 500 < f.stat().st_size < 12_000, (name, f.stat().st_size)
        assert f"{name}" in script, name
        wav = f.with_suffix(".wav")  # for Safari, which plays no Ogg Vorbis
        head = wav.read_bytes()[:44]
        assert head[:4] == b"RIFF" and head[8:16] == b"WAVEfmt ", name
        assert int.from_bytes(head[24:28], "little") == 16_000, name  # 16 kHz
        assert 1_000 < wav.stat().st_size < 40_000, (name, wav.stat().st_size)


def test_sounds_load_after_the_first_screen_play_and_mute(browser: Any, web: ServerProcess) -> None:
    code, login = bot_room(web.http, "声音", 1, 29)
    page, watch = open_page(browser, web, login, DESKTOP, f"#/room/{code}")
    audio: list[str] = []
    page.on("request", lambda r: "/sounds/" in r.url and audio.append(r.url))
    page.get_by_role("button", name="开始").click()
    page.wait_for_selector(".table [data-mute]")
    assert page.evaluate("() => localStorage.getItem('phz.sound.muted')") is None
    play([page], lambda d: len(d) >= 3)
    page.wait_for_timeout(300)
    assert page.evaluate("() => window.__phzSounds || 0") > 0
    assert any(u.endswith("click.ogg") for u in audio), audio
    # Muted (kept in the browser): nothing more plays, after a reload too.
    page.locator("[data-mute]").click()
    page.locator("[data-volume]").fill("0.3")
    page.reload()
    page.wait_for_selector(".table [data-mute][aria-pressed=true]")
    before = page.evaluate("() => window.__phzSounds || 0")
    play([page], lambda d: len(d) >= 3)
    assert page.evaluate("() => window.__phzSounds || 0") == before
    assert page.evaluate("() => localStorage.getItem('phz.sound.volume')") == "0.3"
    assert [e for e in watch.errors if "sounds" not in e] == []


def test_a_browser_without_ogg_vorbis_gets_wav(browser: Any, web: ServerProcess) -> None:
    """Safari (iPhone and Mac) plays no Ogg Vorbis: where ``canPlayType`` says no, the
    table fetches the WAV files instead, and they play."""
    code, login = bot_room(web.http, "无ogg", 1, 31)
    page, watch = open_page(browser, web, login, DESKTOP, f"#/room/{code}")
    page.add_init_script(
        "HTMLMediaElement.prototype.canPlayType = function (t) {"
        " return /ogg/.test(t) ? '' : 'maybe'; };"
    )
    page.reload()
    audio: dict[str, int] = {}
    page.on("response", lambda r: "/sounds/" in r.url and audio.__setitem__(r.url, r.status))
    page.get_by_role("button", name="开始").click()
    page.wait_for_selector(".table [data-mute]")
    play([page], lambda d: len(d) >= 3)
    page.wait_for_timeout(300)
    assert audio and all(u.endswith(".wav") for u in audio), audio
    assert any(u.endswith("click.wav") for u in audio), audio
    assert set(audio.values()) <= {200, 206}, audio  # (a range request answers 206)
    assert page.evaluate("() => window.__phzSounds || 0") > 0
    assert [e for e in watch.errors if "sounds" not in e] == []


def test_the_first_page_needs_no_audio_and_stays_small(browser: Any, web: ServerProcess) -> None:
    page, _ = open_page(browser, web, None, DESKTOP, "#/")
    sizes: dict[str, int] = {}
    page.on("response", lambda r: sizes.__setitem__(r.url, len(r.body())))
    page.reload()
    page.wait_for_selector(".login")
    page.wait_for_timeout(500)
    assert not [u for u in sizes if "/sounds/" in u]
    assert sum(sizes.values()) < 300_000, sizes
