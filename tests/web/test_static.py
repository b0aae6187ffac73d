"""The client's files: no build step, one pinned vendored library with its licences, a CJK
font named, everything shipped in the package (not ignored by git, so in the wheel)."""

from __future__ import annotations

import hashlib
import re
import subprocess
from pathlib import Path

from paohuzi.web import STATIC

ROOT = Path(__file__).resolve().parents[2]  # the checkout, wherever paohuzi is installed

VENDOR_SHA256 = "72284e8e9079c87817145df1110f74e8a2aa040b2fc384922e18dfcb46fc1fd7"


def test_the_vendored_library_is_pinned_with_its_licences() -> None:
    lib = STATIC / "vendor" / "htm-preact-standalone.js"
    assert hashlib.sha256(lib.read_bytes()).hexdigest() == VENDOR_SHA256
    notes = (STATIC / "vendor" / "README.md").read_text(encoding="utf-8")
    assert "htm 3.1.1" in notes and "npm pack" in notes
    assert "Apache License" in (STATIC / "vendor" / "LICENSE-htm").read_text(encoding="utf-8")
    assert "MIT" in (STATIC / "vendor" / "LICENSE-preact").read_text(encoding="utf-8")


def test_plain_es_modules_with_no_build_step() -> None:
    files = sorted(p.name for p in STATIC.rglob("*") if p.is_file())
    assert not {"package.json", "package-lock.json", "node_modules"} & set(files)
    for js in STATIC.glob("*.js"):
        text = js.read_text(encoding="utf-8")
        for spec in re.findall(r'from "([^"]+)"', text):
            assert spec.startswith("./"), f"{js.name} imports {spec!r}: only local modules"
            assert (js.parent / spec).is_file(), f"{js.name} imports a missing {spec}"
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    assert '<script type="module" src="/static/app.js">' in html


def test_the_page_names_a_cjk_font_that_ci_installs() -> None:
    css = (STATIC / "style.css").read_text(encoding="utf-8")
    stack = re.search(r"font-family: ([^;]+);", css)
    assert stack and stack.group(1).startswith('"WenQuanYi Micro Hei"')
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "fonts-wqy-microhei" in ci and "chromium" in ci


def test_the_files_are_tracked_not_ignored() -> None:
    files = [str(p) for p in STATIC.rglob("*") if p.is_file()]
    r = subprocess.run(["git", "check-ignore", *files], cwd=STATIC, capture_output=True, text=True)
    assert r.stdout == ""  # nothing ignored: hatch puts all of src/paohuzi in the wheel
