"""Bottleneck diagnosis from an msprof-style profile and the kernel source, as text.

The same wording is the retrieval query online and the first half of a distilled Bottleneck
offline, so a kernel's profile and the experiences that fixed a similar profile land close
together whichever embedder is in use.
"""

from __future__ import annotations

import re

from ascend_core.cpp import code_view
from ascend_core.protocol import Profile

PIPES = (
    ("vector", "aiv_vec"),
    ("scalar", "aiv_scalar"),
    ("MTE2", "aiv_mte2"),
    ("MTE3", "aiv_mte3"),
)
HINTS = {
    "vector": "vector compute dominates: many or short vector instructions, redundant passes over the tile",
    "scalar": "scalar-bound: element-wise work or address arithmetic runs on the scalar unit",
    "MTE2": "input data movement GM -> UB dominates: memory-bound on copy-in",
    "MTE3": "output data movement UB -> GM dominates: memory-bound on copy-out",
}


def profile_summary(profile: Profile | None) -> str:
    """One line for prompts: pipe ratios, UB use and cores."""
    if profile is None:
        return "no profile"
    ratios = ", ".join(f"{name} {getattr(profile, key + '_ratio'):.0%}" for name, key in PIPES)
    return (
        f"{ratios}; UB {profile.ub_bytes / 1024:.1f} of {profile.ub_capacity_bytes / 1024:.0f} KB; "
        f"block dim {profile.block_dim} of {profile.aiv_cores} cores"
    )


# What the kernel's code shows, each with the words the motifs' symptoms use.
KERNEL_SIGNS = (
    (
        re.compile(r"\bBUFFER_NUM\s*=\s*1\b|#\s*define\s+BUFFER_NUM\s+1\b"),
        "single-buffered queues: copy-in, compute and copy-out cannot overlap",
    ),
    (re.compile(r"PIPE_ALL"), "a PIPE_ALL barrier stalls every pipe"),
    (
        re.compile(r"\.GetValue\s*\(|\.SetValue\s*\("),
        "element-wise GetValue/SetValue on the scalar unit",
    ),
    (re.compile(r"\bDataCopyPad\b"), "DMA copies go through DataCopyPad"),
)


def kernel_signs(kernel: str) -> list[str]:
    """Facts read off the kernel's code (comments and strings ignored)."""
    view = code_view(kernel)
    signs = [text for pattern, text in KERNEL_SIGNS if pattern.search(view)]
    if "SetGlobalBuffer" in view and "SetL2CacheHint" not in view:
        signs.append("read-once inputs stream through L2 (no cache hint)")
    return signs


def diagnose(profile: Profile | None, kernel: str = "") -> str:
    """The profile's bottleneck, then what the kernel's code shows."""
    if profile is None:
        return "; ".join(["unknown bottleneck: no profile", *kernel_signs(kernel)])
    ratios = {name: getattr(profile, key + "_ratio") for name, key in PIPES}
    times = [getattr(profile, key + "_time_us") for _, key in PIPES]
    dominant = max(ratios, key=ratios.get)
    parts = [f"{dominant}-bound ({ratios[dominant]:.0%} of kernel time); {HINTS[dominant]}"]
    # How much the pipes overlap: 1x means they run one after another.
    overlap = sum(times) / profile.aiv_time_us if profile.aiv_time_us > 0 else 0.0
    busy = [name for name, r in ratios.items() if r > 0.3]
    if len(busy) >= 2 and overlap < 1.3:
        parts.append("pipes are serialised: copy-in, compute and copy-out do not overlap")
    elif overlap >= 1.6:
        parts.append("pipes overlap well")
    if profile.ub_capacity_bytes and profile.ub_bytes < 0.25 * profile.ub_capacity_bytes:
        parts.append("tiles use little of the UB: short transfers")
    if profile.aiv_cores and profile.block_dim < profile.aiv_cores:
        parts.append(f"only {profile.block_dim} of {profile.aiv_cores} vector cores used")
    return "; ".join(parts + kernel_signs(kernel))
