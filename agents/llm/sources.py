"""The sources a model is shown besides the two it may rewrite: a real operator's tiling data
header and helper headers define what the tiling program and the kernel refer to."""

from __future__ import annotations

from ascend_core.package import OperatorPackage

# A real operator's helper sources can be long: each is cut here in a prompt.
MAX_CONTEXT_CHARS = 12000


def other_sources(package: OperatorPackage) -> str:
    """The package's C++ sources besides the tiling program and the kernel, as prompt blocks."""
    shown = {package.host_path, package.kernel_path}
    blocks = [
        f"{path}:\n```cpp\n{text[:MAX_CONTEXT_CHARS]}\n```"
        for path, text in sorted(package.files.items())
        if path.startswith(("op_host/", "op_kernel/")) and path not in shown
    ]
    return "\n\n".join(blocks) or "(none)"
