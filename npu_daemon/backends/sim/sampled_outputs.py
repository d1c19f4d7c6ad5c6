"""A sampled run's outputs, compared where its simulated blocks stored them.

A sampled run (docs/simulator.md, Large shapes) simulates some blocks and derives the others'
traces, so only the simulated blocks' share of each output was computed. The launcher
(runtime/sampled_check.h) writes each output as a uint64 count, `count` pairs of uint64 byte
offsets [lo, hi) (sorted, disjoint), then the bytes of those ranges; the elements wholly inside a
range are compared with the reference at the same flat positions. The launcher writes outputs so
only when the comparison vouches for the whole launch (every output byte stored by some block's
traced store, no block combining others' results); otherwise it says why
(`sampled_unchecked`) and the case runs whole.
"""

from __future__ import annotations

import errno
import io
import math
import os
import stat
import struct
from pathlib import Path

import numpy as np

from ascend_core.package import Case, OperatorSpec
from ascend_core.protocol import CaseCheck
from npu_daemon import candidate_files, checker


def compare(
    f: io.RawIOBase, spec: OperatorSpec, case: Case, output: str, want: np.ndarray
) -> CaseCheck:
    """Read one output in the sampled format from `f` and compare its ranges with `want`. A
    malformed header is the candidate's (`candidate_files.Tampered`), a stream that ends early
    the daemon's (OSError)."""
    dtype = spec.arg_dtype(case, output)
    storage = np.dtype(checker.STORAGE[dtype])
    size = math.prod(want.shape)
    ranges = _ranges(f, output, size * storage.itemsize)
    comparison = checker.Comparison(dtype, spec.tolerance_for(dtype))
    flat = want.reshape(-1)
    for lo, hi in ranges:
        first, end = -(-lo // storage.itemsize), hi // storage.itemsize  # whole elements only
        if end <= first:
            _read(f, output, hi - lo)
            continue
        _read(f, output, first * storage.itemsize - lo)  # a part element before
        for at in range(first, end, checker.CHUNK):
            n = min(checker.CHUNK, end - at)
            got = np.frombuffer(_read(f, output, n * storage.itemsize), dtype=storage)
            comparison.add(got, flat[at : at + n], at=at)
        _read(f, output, hi - end * storage.itemsize)  # and after
    if f.read(1):
        raise candidate_files.Tampered(f"output {output} runs past its sampled ranges")
    if comparison.size == 0:
        raise candidate_files.Tampered(f"output {output}: no element of a sampled block to compare")
    return comparison.check(case.name)


def compare_file(
    path: Path, output: str, want: np.ndarray, spec: OperatorSpec, case: Case
) -> CaseCheck:
    """`compare` on the launcher's file, opened as `candidate_files` opens them (no link, no
    FIFO)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        raise candidate_files.Tampered(f"{path.name} is missing") from None
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise candidate_files.Tampered(f"{path.name} is a symbolic link") from None
        raise
    with open(fd, "rb", buffering=0) as f:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise candidate_files.Tampered(f"{path.name} is not a regular file")
        return compare(f, spec, case, output, want)


def _ranges(f: io.RawIOBase, output: str, limit: int) -> list[tuple[int, int]]:
    """The header's byte ranges, checked: sorted, disjoint, inside the output."""
    (count,) = struct.unpack("<Q", _read(f, output, 8))
    if count > limit:
        raise candidate_files.Tampered(f"output {output}: {count} sampled ranges")
    pairs = struct.unpack(f"<{2 * count}Q", _read(f, output, 16 * count))
    ranges = list(zip(pairs[::2], pairs[1::2]))
    end = 0
    for lo, hi in ranges:
        if not end <= lo < hi <= limit:
            raise candidate_files.Tampered(
                f"output {output}: sampled range [{lo}, {hi}) out of order"
            )
        end = hi
    return ranges


def _read(f: io.RawIOBase, output: str, n: int) -> bytes:
    """Exactly n bytes (a pipe gives them in pieces)."""
    buffer = bytearray(n)
    view, done = memoryview(buffer), 0
    while done < n:
        k = f.readinto(view[done:])
        if not k:
            raise OSError(errno.EIO, f"output {output} ended after {done} of {n} bytes")
        done += k
    return bytes(buffer)
