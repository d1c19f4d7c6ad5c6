"""cann-bench submissions as operator packages: its example projects' layouts, read as they are.

A cann-bench submission is a project whose `csrc/ops/<op>/` holds one operator. The aclnn layout
(examples/aclnn_launch_example) is the CANN custom-op one: `op_host/<op>_def.cpp` (OpDef),
`op_host/<op>_tiling.cpp` (the tiling function), `op_kernel/<op>_kernel.cpp` (the kernel entry)
with `<op>_tiling_data.h` beside it; op_api/ and op_plugin/ are the host glue to PyTorch, which
the simulator does not need: it calls the kernel itself with the case's tensors, as the glue
would. The package pairs those sources with the imported task's spec and golden. The
direct-launch layout (no op_host/, the host side in op_plugin/) is direct_launch.py's.
"""

from __future__ import annotations

from pathlib import Path

from ascend_core.package import SOURCE_SUFFIXES, OperatorPackage
from ascend_gym.cannbench import NotASubmission, project_text

FOLDERS = ("op_host", "op_kernel")
# Host units that are not the tiling: graph-mode shape inference, the aclnn API layer.
HOST_SKIP = ("_infershape", "_infer_shape", "aclnn_")


def operator_dirs(project: Path) -> dict[str, Path]:
    """The operators of a submission project, by name: `csrc/ops/<op>/`, or the directory
    itself when it is one operator's."""
    if (project / "op_kernel").is_dir():
        return {project.name: project}
    ops = project / "csrc" / "ops"
    return {
        d.name: d
        for d in sorted(ops.iterdir() if ops.is_dir() else [])
        if d.is_dir() and (d / "op_kernel").is_dir()
    }


def _one(root: Path, names: list[str], what: str) -> str:
    for name in names:
        if (root / name).is_file():
            return name
    raise NotASubmission(f"{root}: no {what} ({' or '.join(names)})")


def package(op_dir: Path, task: OperatorPackage) -> OperatorPackage:
    """The operator under `op_dir` with the task's spec and golden: the aclnn layout, or the
    direct-launch one (direct_launch.py)."""
    op = op_dir.name
    if (op_dir / "op_plugin").is_dir() and not (op_dir / "op_host").is_dir():
        from ascend_gym.cannbench import direct_launch

        return direct_launch.package(op_dir, task)
    if not (op_dir / "op_host").is_dir():
        raise NotASubmission(
            f"{op_dir}: neither op_host/ (the aclnn layout) nor op_plugin/ (the direct-launch one)"
        )
    host = _one(op_dir, [f"op_host/{op}_tiling.cpp", f"op_host/{op}.cpp"], "tiling source")
    kernel = _one(op_dir, [f"op_kernel/{op}_kernel.cpp", f"op_kernel/{op}.cpp"], "kernel source")
    header = _one(
        op_dir,
        [f"op_kernel/{op}_tiling_data.h", f"op_host/{op}_tiling.h", f"op_kernel/{op}_tiling.h"],
        "tiling data header",
    )
    files = {
        p.relative_to(op_dir).as_posix(): project_text(p, op_dir)
        for folder in FOLDERS
        for p in sorted((op_dir / folder).rglob("*"))
        if p.is_file() and p.suffix in SOURCE_SUFFIXES
    }
    host_sources = sorted(
        p
        for p in files
        if p.startswith("op_host/")
        and p.endswith(".cpp")
        and p != host
        and not any(s in Path(p).name for s in HOST_SKIP)
    )
    spec = task.spec.model_copy(
        update={
            "host_file": host,
            "tiling_header": header,
            "kernel_file": kernel,
            "host_sources": host_sources,
        }
    )
    golden = {p: t for p, t in task.files.items() if not p.startswith(FOLDERS)}
    return OperatorPackage(spec=spec, files={**files, **golden}, uri=str(op_dir.resolve()))
