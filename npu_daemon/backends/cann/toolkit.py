"""The installed CANN toolkit: where it is, which version, and the environment its tools need.

The daemon is started from a shell that sourced CANN's set_env.sh, which exports ASCEND_HOME_PATH
(older releases: ASCEND_TOOLKIT_HOME), PATH, LD_LIBRARY_PATH and PYTHONPATH. Candidate builds and
runs go through the sandbox, which scrubs the environment, so those variables are passed on.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

from pydantic import BaseModel

PASSED_PREFIXES = ("ASCEND_", "ASCENDC_")
PASSED_NAMES = ("LD_LIBRARY_PATH", "PYTHONPATH", "TOOLCHAIN_HOME")


class ToolkitMissing(Exception):
    pass


class Toolkit(BaseModel):
    home: Path
    version: str
    env: dict[str, str]

    @classmethod
    def discover(cls) -> Toolkit:
        home = os.environ.get("ASCEND_HOME_PATH") or os.environ.get("ASCEND_TOOLKIT_HOME")
        if not home or not Path(home).is_dir():
            raise ToolkitMissing(
                "no CANN toolkit: ASCEND_HOME_PATH is not set (source <cann>/set_env.sh before starting the daemon)"
            )
        for tool in ("cmake", "msprof", "npu-smi"):
            if shutil.which(tool) is None:
                raise ToolkitMissing(f"`{tool}` is not on PATH")
        env = {
            k: v
            for k, v in os.environ.items()
            if k.startswith(PASSED_PREFIXES) or k in PASSED_NAMES
        }
        env["ASCEND_HOME_PATH"] = home
        return cls(home=Path(home), version=_version(Path(home)), env=env)


def _version(home: Path) -> str:
    """The toolkit version from its install info (the file moved between releases)."""
    for path in [
        *sorted(home.glob("*-linux/ascend_toolkit_install.info")),
        home / "compiler" / "version.info",
        home / "version.cfg",
    ]:
        if path.is_file():
            found = re.search(
                r"^\s*version\s*=\s*(\S+)", path.read_text(errors="replace"), re.I | re.M
            )
            if found:
                return found[1]
    return "unknown"
