"""SoC presets: the figures of each Ascend part (cores, memories, clock), from soc/presets.toml.

The host tiling reads them through PlatformAscendC on both backends; the profile reports the
vector core count and UB capacity from them. The default SoC lives in ascend_core.protocol.
"""

from __future__ import annotations

import functools
import tomllib
from pathlib import Path

PRESETS = Path(__file__).resolve().parent / "soc" / "presets.toml"


@functools.cache
def _presets() -> dict[str, dict]:
    return tomllib.loads(PRESETS.read_text())


def socs() -> list[str]:
    """Every SoC with a preset."""
    return sorted(k for k in _presets() if k != "common")


def preset(soc: str) -> dict[str, str]:
    """One part's figures (its own over the family's common ones) as strings, as the harness reads them.

    Raises KeyError with a one-line message for an unknown SoC."""
    if soc not in socs():
        raise KeyError(f"unknown soc {soc!r}; known: {socs()}")
    table = _presets()
    return {k: str(v) for k, v in {**table["common"], **table[soc]}.items()}


def aiv_cores(soc: str) -> int:
    """The part's vector (AIV) core count."""
    return int(preset(soc)["aiv_cores"])


def aic_cores(soc: str) -> int:
    """The part's cube (AIC) core count."""
    return int(preset(soc)["aic_cores"])


def ub_capacity_bytes(soc: str) -> int:
    """Unified Buffer bytes a kernel may allocate (the toolchain keeps a reserve)."""
    p = preset(soc)
    return int(p["ub_bytes"]) - int(p["ub_reserved_bytes"])
