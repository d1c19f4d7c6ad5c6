"""`msprof op`: the command line, and its CSVs read into the msprof-vocabulary Profile.

msprof op writes OPPROF_<timestamp>_<tag>/ under --output; with several launches each launch gets
its own folder below it (the nesting differs between releases), so every OpBasicInfo.csv under
the output is one launch, and its PipeUtilization.csv sits beside it.

OpBasicInfo.csv: one row per launch with "Task Duration(us)", "Block Dim", "Current Freq"...
PipeUtilization.csv: one row per block (core) with aiv_time(us) and aiv_<pipe>_time(us) /
aiv_<pipe>_ratio for pipe in vec, scalar, mte2, mte3 (A2: aic_* columns too, N/A for vector-only).
Memory.csv (when collected): one row per block with GM_to_UB_datas(KB) and UB_to_GM_datas(KB).
"""

from __future__ import annotations

import csv
import re
import statistics
from pathlib import Path

from pydantic import BaseModel

PIPES = ("vec", "scalar", "mte2", "mte3")


class MsprofError(Exception):
    pass


class Launch(BaseModel):
    """One profiled kernel launch."""

    task_duration_us: float
    block_dim: int
    current_freq_mhz: float | None = None
    rated_freq_mhz: float | None = None
    pipes: dict[
        str, float
    ]  # aiv_time_us and aiv_<pipe>_time_us / _ratio: per-block means, ratios over all blocks
    blocks: int
    gm_bytes: dict[
        str, int
    ] = {}  # gm_read_bytes / gm_write_bytes over all blocks, when Memory.csv is there


def command(
    app: Path, run_spec: str, output: Path, kernel: str, warmup: int, repeats: int
) -> list[str]:
    """Profile `repeats` launches of `kernel` after skipping `warmup` of them."""
    return [
        "msprof",
        "op",
        f"--output={output}",
        f"--kernel-name={kernel}",
        f"--launch-skip-before-match={warmup}",
        f"--launch-count={repeats}",
        str(app),
        run_spec,
    ]


def _number(value: str | None) -> float | None:
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None  # "N/A"


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8-sig") as f:
        return [
            {k.strip(): (v or "").strip() for k, v in row.items() if k} for row in csv.DictReader(f)
        ]


def read_pipe_utilization(path: Path) -> tuple[dict[str, float], int]:
    """Per-block means of the aiv times; each ratio is that pipe's time over all blocks' time."""
    blocks = [r for r in _rows(path) if (_number(r.get("aiv_time(us)")) or 0) > 0]
    if not blocks:
        raise MsprofError(f"{path} has no vector-core rows")
    total = sum(_number(r["aiv_time(us)"]) for r in blocks)
    out = {"aiv_time_us": total / len(blocks)}
    for pipe in PIPES:
        times = [_number(r.get(f"aiv_{pipe}_time(us)")) or 0.0 for r in blocks]
        out[f"aiv_{pipe}_time_us"] = sum(times) / len(blocks)
        out[f"aiv_{pipe}_ratio"] = sum(times) / total if total > 0 else 0.0
    return out, len(blocks)


def read_memory(path: Path) -> dict[str, int]:
    """GM traffic of the vector cores summed over blocks (the CSV counts KiB)."""
    rows = _rows(path)
    kib = {
        field: sum(_number(r.get(column)) or 0.0 for r in rows)
        for field, column in (
            ("gm_read_bytes", "GM_to_UB_datas(KB)"),
            ("gm_write_bytes", "UB_to_GM_datas(KB)"),
        )
    }
    return {field: round(value * 1024) for field, value in kib.items()}


def read_launch(basic_info: Path) -> list[Launch]:
    pipes, blocks = read_pipe_utilization(basic_info.with_name("PipeUtilization.csv"))
    memory = basic_info.with_name("Memory.csv")
    gm_bytes = read_memory(memory) if memory.exists() else {}
    launches = []
    for row in _rows(basic_info):
        duration = _number(row.get("Task Duration(us)"))
        if duration is None:
            raise MsprofError(f"{basic_info}: no Task Duration(us) in row {row}")
        launches.append(
            Launch(
                task_duration_us=duration,
                block_dim=int(_number(row.get("Block Dim")) or 0),
                current_freq_mhz=_number(row.get("Current Freq")),
                rated_freq_mhz=_number(row.get("Rated Freq")),
                pipes=pipes,
                blocks=blocks,
                gm_bytes=gm_bytes,
            )
        )
    return launches


def _natural(path: Path) -> list:
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", path.as_posix())]


def read_output(output: Path) -> list[Launch]:
    files = sorted(output.rglob("OpBasicInfo.csv"), key=_natural)
    if not files:
        raise MsprofError(f"msprof wrote no OpBasicInfo.csv under {output}")
    return [launch for f in files for launch in read_launch(f)]


def summarise(launches: list[Launch]) -> tuple[float, dict[str, float | int]]:
    """latency_us (median task duration) and the profile fields: the pipes of the median launch,
    plus the spread of the repeats."""
    durations = sorted(l.task_duration_us for l in launches)
    median = statistics.median(durations)
    typical = min(launches, key=lambda l: abs(l.task_duration_us - median))
    q = (
        statistics.quantiles(durations, n=4, method="inclusive")
        if len(durations) > 1
        else [median] * 3
    )
    fields: dict[str, float | int] = {
        "block_dim": typical.block_dim,
        **typical.pipes,
        **typical.gm_bytes,
        "timing_repeats": len(durations),
        "latency_min_us": durations[0],
        "latency_max_us": durations[-1],
        "latency_iqr_us": q[2] - q[0],
    }
    if typical.current_freq_mhz is not None:
        fields["current_freq_mhz"] = typical.current_freq_mhz
    return median, fields
