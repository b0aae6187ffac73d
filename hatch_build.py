"""Build hook: compile the observation encoder's C accelerator (src/paohuzi/encoding/_obsc.c).

Optional by design: without a C compiler (or with PAOHUZI_PURE_ENCODER=1) the hook says
so and the package installs as pure Python, the encoder then running its Python code.
An editable install compiles next to the source, where the editable path finds it (the
.so is git-ignored); a wheel gets it through force_include and a platform tag. The
source's SHA-256 is compiled in, so that paohuzi.encoding.observation can refuse a stale
build of an edited source.
"""

from __future__ import annotations

import hashlib
import os
import shlex
import subprocess
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

SOURCE = Path("src/paohuzi/encoding/_obsc.c")
MODULE = "paohuzi/encoding/_obsc"


class CustomBuildHook(BuildHookInterface):  # type: ignore[misc]  # hatchling is untyped here
    """Compile _obsc.c with the interpreter's own compiler settings, if it can."""

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if os.environ.get("PAOHUZI_PURE_ENCODER"):
            self.app.display_info("paohuzi: PAOHUZI_PURE_ENCODER is set, no C encoder")
            return
        suffix = sysconfig.get_config_var("EXT_SUFFIX")
        ldshared = sysconfig.get_config_var("LDSHARED")
        if not suffix or not ldshared:
            self.app.display_warning("paohuzi: no C toolchain known here; the encoder stays Python")
            return
        src = Path(self.root, SOURCE)
        if version == "editable":
            out = src.with_name("_obsc" + suffix)
        else:
            self._tmp = tempfile.TemporaryDirectory()
            out = Path(self._tmp.name, "_obsc" + suffix)
        sha = hashlib.sha256(src.read_bytes()).hexdigest()
        cmd = [
            *shlex.split(ldshared),
            "-fPIC",
            "-O2",
            "-I",
            sysconfig.get_paths()["include"],
            f'-DPAOHUZI_OBSC_SHA256="{sha}"',
            str(src),
            "-o",
            str(out),
        ]
        try:
            subprocess.run(cmd, check=True, capture_output=True, text=True)
        except (OSError, subprocess.CalledProcessError) as e:
            detail = getattr(e, "stderr", "") or str(e)
            self.app.display_warning(
                f"paohuzi: the C encoder did not compile, the encoder stays Python: {detail}"
            )
            return
        if version != "editable":
            build_data["force_include"][str(out)] = MODULE + suffix
            build_data["pure_python"] = False
            build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        tmp = getattr(self, "_tmp", None)
        if tmp is not None:
            tmp.cleanup()
