"""What a model is shown of an operator besides the two sources it may rewrite: the other sources
(a real operator's tiling data header and helper headers define what the tiling program and the
kernel refer to), and every case a candidate must pass with the tolerance it is held to."""

from __future__ import annotations

import posixpath
import re

from ascend_core.package import OperatorPackage, OperatorSpec

# A real operator's helper sources can be long: each is cut here in a prompt,
MAX_CONTEXT_CHARS = 12000
# and all of them together here, so that the prompt fits a model's context: ops-nn ge_glu_v2's
# 51 helper sources come to 345,000 characters even cut one by one.
MAX_CONTEXT_TOTAL = 48000
_INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', re.M)


def other_sources(package: OperatorPackage) -> str:
    """The package's C++ sources besides the tiling program and the kernel, as prompt blocks: those
    the two include first, then the others, as many as MAX_CONTEXT_TOTAL holds; the paths left out
    are named."""
    shown = {package.host_path, package.kernel_path}
    included = {
        posixpath.basename(name)
        for text in (package.tiling_source, package.kernel_source)
        for name in _INCLUDE.findall(text)
    }
    paths = sorted(
        (p for p in package.files if p.startswith(("op_host/", "op_kernel/")) and p not in shown),
        key=lambda p: (posixpath.basename(p) not in included, p),
    )
    blocks, room, left_out = [], MAX_CONTEXT_TOTAL, []
    for path in paths:
        block = f"{path}:\n```cpp\n{package.files[path][:MAX_CONTEXT_CHARS]}\n```"
        if len(block) > room:
            left_out.append(path)
            continue
        blocks.append(block)
        room -= len(block)
    if left_out:
        blocks.append(f"(left out for length: {', '.join(left_out)})")
    return "\n\n".join(blocks) or "(none)"


def cases_text(spec: OperatorSpec) -> str:
    """Every shape case, one line each (the bench case marked), then each output dtype's
    tolerance: a candidate tuned for the bench case alone fails on the others."""
    lines = []
    for case in spec.cases:
        shapes = ", ".join(f"{k}={v}" for k, v in case.shapes.items())
        dtypes = "".join(f", {k} {v}" for k, v in case.dtypes.items())
        attrs = f"; attrs {case.attrs}" if case.attrs else ""
        bench = " (bench)" if case.bench else ""
        lines.append(f"- {case.name}{bench}: {case.dtype}{dtypes}; {shapes}{attrs}")
    used = sorted({spec.arg_dtype(c, a.name) for c in spec.cases for a in spec.outputs})
    for dtype in used:
        t = spec.tolerance_for(dtype)
        outliers = (
            f", except {t.max_outlier_fraction:g} of the elements" if t.max_outlier_fraction else ""
        )
        lines.append(
            f"- tolerance {dtype}: |out - ref| <= {t.atol:g} + {t.rtol:g} * |ref|{outliers}"
        )
    return "\n".join(lines)
