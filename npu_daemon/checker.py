"""Inputs, references and the tolerance check shared by every backend.

Inputs are drawn from a seeded generator so a candidate and its baseline see the same data; the
reference is the op's numpy function; outputs pass when |out - ref| <= atol + rtol * |ref| holds
for all but `max_outlier_fraction` of the elements (the CANN precision-standard shape), and no
output is NaN or infinite where the reference is finite; where the reference is NaN or infinite,
only the same value is within tolerance. A failure says where and by how much (the
first bad flat index, the count, the largest errors), never what the reference or an input holds.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO

import numpy as np

from ascend_core.package import Case, OperatorPackage, Tolerance
from ascend_core.protocol import CaseCheck
from npu_daemon import float8

# bfloat16 travels as its uint16 bit pattern, the one-byte floats as their byte (npu_daemon/float8.py).
STORAGE = {
    "float16": np.float16,
    "float32": np.float32,
    "bfloat16": np.uint16,
    "int8": np.int8,
    "uint8": np.uint8,
    "int16": np.int16,
    "int32": np.int32,
    "int64": np.int64,
    "bool": np.bool_,
    "float64": np.float64,
    "complex64": np.complex64,
    "uint16": np.uint16,
    "uint32": np.uint32,
    "uint64": np.uint64,
    **dict.fromkeys(float8.FLOAT8, np.uint8),
}
FLOATS = ("float16", "float32", "bfloat16", *float8.FLOAT8)  # drawn as float32, stored rounded


def bf16_bits(x: np.ndarray) -> np.ndarray:
    """float32 -> bfloat16 bits, round to nearest even."""
    u = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    rounded = (u + 0x7FFF + ((u >> 16) & 1)) >> 16
    return np.where(np.isnan(x), 0x7FC0, rounded).astype(np.uint16)


def bf16_values(bits: np.ndarray) -> np.ndarray:
    return (bits.astype(np.uint32) << 16).view(np.float32)


def to_values(raw: np.ndarray, dtype: str) -> np.ndarray:
    """Storage array -> the array a reference function computes with (bfloat16 and the one-byte
    floats as float32)."""
    if dtype in float8.FLOAT8:
        return float8.decode(raw, dtype)
    return bf16_values(raw) if dtype == "bfloat16" else raw


def to_storage(values: np.ndarray, dtype: str) -> np.ndarray:
    """Values -> the storage array of dtype (bfloat16 as its bits): the inverse of to_values."""
    if dtype in float8.FLOAT8:
        return float8.encode(values, dtype)
    return bf16_bits(values) if dtype == "bfloat16" else values.astype(STORAGE[dtype])


# Inputs are drawn and stored this many elements at a time, so a benchmark-sized tensor (billions
# of elements) never exists in float64 or in memory as a whole. numpy's generator gives the same
# stream drawn in pieces as at once, so the values do not depend on the chunk.
CHUNK = 1 << 22


def _draw(rng: np.random.Generator, dtype: str, lo: float, hi: float, n: int) -> np.ndarray:
    """n values of dtype drawn uniformly from [lo, hi] (integers: both ends included), as storage."""
    if dtype == "complex64":  # the imaginary parts follow all real parts in the stream
        return (rng.uniform(lo, hi, n) + 1j * rng.uniform(lo, hi, n)).astype(np.complex64)
    if dtype in FLOATS:
        return to_storage(rng.uniform(lo, hi, n).astype(np.float32), dtype)
    if dtype == "bool":
        return rng.integers(0, 2, n).astype(np.bool_)
    if dtype == "float64":
        return rng.uniform(lo, hi, n)
    return rng.integers(int(lo), int(hi) + 1, n).astype(STORAGE[dtype])


def broadcast_index(shape: list[int], axes: list[int], start: int, n: int) -> np.ndarray:
    """For the flat elements [start, start + n) of `shape`, their flat index in the shape with
    `axes` set to 1: where a tensor constant along those axes takes each value."""
    index = np.unravel_index(np.arange(start, start + n), shape)
    drawn = [1 if a in axes else d for a, d in enumerate(shape)]
    return np.ravel_multi_index([i * (a not in axes) for a, i in enumerate(index)], drawn)


def input_chunks(
    pkg: OperatorPackage, case: Case, seed: int
) -> Iterator[tuple[str, np.ndarray | None]]:
    """(input name, storage chunk) in generation order; each input ends with (name, None).

    Absent optional inputs yield nothing. complex64 is drawn whole, and so are the values of a
    broadcast input (its shape with the broadcast axes 1), then repeated along those axes. The
    case's `points` are set over the drawn or explicit values.
    """
    rng = np.random.default_rng([seed, *case.name.encode()])
    for arg in pkg.spec.inputs:
        if arg.name in case.absent:
            continue
        dtype, shape = pkg.spec.arg_dtype(case, arg.name), pkg.spec.draw_shape(case, arg.name)
        lo, hi = case.ranges.get(arg.name, arg.range)
        size = math.prod(shape)
        if axes := case.broadcast.get(arg.name):
            drawn = _draw(rng, dtype, lo, hi, size // math.prod(shape[a] for a in axes))
            for start in range(0, size, CHUNK):
                yield arg.name, drawn[broadcast_index(shape, axes, start, min(CHUNK, size - start))]
            yield arg.name, None
            continue
        points = case.points.get(arg.name, [])
        if dtype == "complex64":
            yield arg.name, _place(_draw(rng, dtype, lo, hi, size), 0, size, points, dtype)
            yield arg.name, None
            continue
        explicit = (
            np.array([float(v) for v in case.values[arg.name]]) if arg.name in case.values else None
        )
        for start in range(0, size, CHUNK):
            n = min(CHUNK, size - start)
            if explicit is not None:  # explicit values, tiled over the shape
                chunk = to_storage(explicit[np.arange(start, start + n) % explicit.size], dtype)
            else:
                chunk = _draw(rng, dtype, lo, hi, n)
            yield arg.name, _place(chunk, start, size, points, dtype)
        yield arg.name, None


def _place(
    chunk: np.ndarray, start: int, size: int, points: list[tuple[int, float | str]], dtype: str
) -> np.ndarray:
    """The chunk holding flat elements [start, start + len) of `size`, with the points that fall
    in it set (a negative index counts from the end)."""
    for index, value in points:
        if start <= index % size < start + chunk.size:
            chunk[index % size - start] = to_storage(np.array([float(value)]), dtype)[0]
    return chunk


def make_inputs(pkg: OperatorPackage, case: Case, seed: int) -> dict[str, np.ndarray]:
    """Storage arrays for every input of a case as drawn (absent optional inputs have none)."""
    chunks: dict[str, list[np.ndarray]] = {}
    for name, chunk in input_chunks(pkg, case, seed):
        if chunk is not None:
            chunks.setdefault(name, []).append(chunk)
        else:
            arrays = chunks.setdefault(name, [])
            shape = pkg.spec.draw_shape(case, name)
            dtype = STORAGE[pkg.spec.arg_dtype(case, name)]
            chunks[name] = (
                np.concatenate(arrays).reshape(shape) if arrays else np.zeros(shape, dtype)
            )
    return chunks


def write_inputs(pkg: OperatorPackage, case: Case, seed: int, directory: Path) -> None:
    """Every input as `in_NAME.bin` (raw storage), written chunk by chunk."""
    files: dict[str, BinaryIO] = {}
    try:
        for name, chunk in input_chunks(pkg, case, seed):
            if name not in files:
                files[name] = (directory / f"in_{name}.bin").open("wb")
            if chunk is not None:
                chunk.tofile(files[name])
    finally:
        for f in files.values():
            f.close()


DTYPES_PARAM = "dtypes"


def case_dtypes(fn: Callable[..., object], pkg: OperatorPackage, case: Case) -> dict:
    """`dtypes={argument: dtype}` of every input and output of the case, for a numpy reference
    that declares a `dtypes` parameter: bfloat16 and the one-byte floats reach it as float32, so
    this is how it can round an intermediate to the case's dtype as the device does."""
    if DTYPES_PARAM not in inspect.signature(fn).parameters:
        return {}
    args = (*pkg.spec.inputs, *pkg.spec.outputs)
    return {DTYPES_PARAM: {a.name: pkg.spec.arg_dtype(case, a.name) for a in args}}


def reference_outputs(
    pkg: OperatorPackage, case: Case, inputs: dict[str, np.ndarray], piece: int | None = None
) -> list[np.ndarray]:
    """The reference's outputs rounded to each output's dtype, as storage arrays. With `piece`,
    the inputs are flat pieces of that many elements of an element-wise case, and so are the
    outputs (`references.write_reference_pieces`)."""
    fn = pkg.reference()
    args = [
        to_values(inputs[a.name], pkg.spec.arg_dtype(case, a.name)) if a.name in inputs else None
        for a in pkg.spec.inputs
    ]
    if pkg.spec.reference_kind == "torch":  # cann-bench's golden: CPU tensors of each dtype
        from npu_daemon import torch_golden

        result = torch_golden.call(fn, pkg.spec, case, args)
    else:
        result = fn(*args, **pkg.spec.attr_values(case), **case_dtypes(fn, pkg, case))
    results = list(result) if isinstance(result, (tuple, list)) else [result]
    if len(results) != len(pkg.spec.outputs):
        raise ValueError(
            f"reference returned {len(results)} outputs, the spec declares {len(pkg.spec.outputs)}"
        )
    out = []
    for arg, value in zip(pkg.spec.outputs, results):
        dtype = pkg.spec.arg_dtype(case, arg.name)
        shape = (piece,) if piece is not None else pkg.spec.arg_shape(case, arg.name)
        # A masked array marks elements the operator leaves undefined: they are not compared.
        mask = np.broadcast_to(np.ma.getmaskarray(value), shape) if np.ma.isMA(value) else None
        value = np.broadcast_to(np.ma.getdata(value), shape)
        value = to_storage(value, dtype)
        out.append(value if mask is None else np.ma.array(value, mask=mask))
    return out


def compare(name: str, got: np.ndarray, want: np.ndarray, dtype: str, tol: Tolerance) -> CaseCheck:
    comparison = Comparison(dtype, tol)
    comparison.add(got, want)
    return comparison.check(name)


class Comparison:
    """The tolerance check of one output, fed whole or in consecutive pieces (an output streamed
    from the harness): the counts add up, so the verdict does not depend on the pieces."""

    def __init__(self, dtype: str, tol: Tolerance):
        self.dtype, self.tol = dtype, tol
        self.size = self.bad = self.invented = 0  # elements compared, outside tolerance, invented
        self.max_abs: float | None = None
        self.max_rel: float | None = None
        self.first_bad: int | None = None  # flat index
        self.first_invented: int | None = None

    def add(self, got: np.ndarray, want: np.ndarray, at: int | None = None) -> None:
        """The next piece of the output: `got` against the reference's `want`, of one shape;
        `at`, its first element's flat index when the pieces are not consecutive."""
        dtype = self.dtype
        if np.ma.isMA(want):  # only where the operator defines its output
            keep = ~np.ma.getmaskarray(want)
            got, want = np.asarray(got)[keep], np.ma.getdata(want)[keep]
        if dtype == "complex64":  # real and imaginary parts compared as float32 elements
            got, want, dtype = got.view(np.float32), want.view(np.float32), "float32"
        # Bit-identical elements are equal (or both the same NaN) and contribute zero error, so
        # the float64 arithmetic runs only on the elements whose bits differ: usually none.
        size = got.size
        differ = (
            np.flatnonzero(_bits(got) != _bits(want))
            if got.dtype == want.dtype
            else np.arange(size)
        )
        g = to_values(np.asarray(got).ravel()[differ], dtype).astype(np.float64)
        w = to_values(np.asarray(want).ravel()[differ], dtype).astype(np.float64)
        both_nan = np.isnan(g) & np.isnan(w)
        same = (g == w) | both_nan  # also equal infinities and +0 / -0
        exact = _integer_error(got, want, differ)
        with np.errstate(invalid="ignore", over="ignore"):
            if exact is not None:
                same = exact == 0
            err = np.where(same, 0.0, np.abs(g - w) if exact is None else exact)
            err = np.where(np.isnan(err), np.inf, err)  # NaN against a number: unbounded error
            # Where the reference is infinite, its allowance is infinite too: every output passed
            # there, NaN (an output never written) included. An infinity is met only by itself.
            bad = ~same & ~(np.isfinite(w) & (err <= self.tol.atol + self.tol.rtol * np.abs(w)))
            rel = np.where(same, 0.0, err / np.maximum(np.abs(w), 1e-12))
        if differ.size < size:  # the bit-identical elements: zero error
            err, rel = np.append(err, 0.0), np.append(rel, 0.0)
        # A NaN or infinity passes only where the reference has the same: never in the allowance.
        invented = bad & ~np.isfinite(g)
        for flags, first in ((bad, "first_bad"), (invented, "first_invented")):
            if getattr(self, first) is None and flags.any():
                i = int(np.flatnonzero(flags)[0])
                start = self.size if at is None else at
                setattr(self, first, start + int(differ[i]))
        self.bad += int(bad.sum())
        self.invented += int(invented.sum())
        self.size += size
        if err.size:
            piece_abs, piece_rel = float(err.max()), float(np.nanmax(rel))
            self.max_abs = piece_abs if self.max_abs is None else max(self.max_abs, piece_abs)
            self.max_rel = (
                piece_rel if self.max_rel is None else float(np.fmax(self.max_rel, piece_rel))
            )

    def check(self, name: str) -> CaseCheck:
        fraction = self.bad / max(self.size, 1)
        passed = fraction <= self.tol.max_outlier_fraction and not self.invented
        message = ""
        if not passed:  # positions and error sizes only: never a reference or an input value
            index = self.first_invented if self.invented else self.first_bad
            what = (
                f"{self.invented} of {self.size} elements NaN or infinite where the reference is finite or another value"
                if self.invented
                else f"{self.bad} of {self.size} elements ({fraction:.2%}) outside atol={self.tol.atol:g} rtol={self.tol.rtol:g}"
            )
            message = (
                f"{what}; first at flat index {index}; max abs error {self.max_abs or 0.0:.3g}, "
                f"max rel error {self.max_rel or 0.0:.3g}"
            )
        return CaseCheck(
            name=name,
            passed=passed,
            max_abs_error=self.max_abs or 0.0,
            max_rel_error=self.max_rel or 0.0,
            outlier_fraction=fraction,
            message=message,
        )


def _integer_error(got: np.ndarray, want: np.ndarray, differ: np.ndarray) -> np.ndarray | None:
    """|got - want| at `differ` in exact integers, for 64-bit integer outputs (None otherwise):
    float64 holds 53 bits, so 2**60 + 100 was 2**60 there, an error of 0 at atol 0."""
    if np.asarray(got).dtype.kind not in "iu" or np.asarray(got).dtype.itemsize < 8:
        return None
    g = np.asarray(got).ravel()[differ].astype(object)
    w = np.asarray(want).ravel()[differ].astype(object)
    return np.abs(g - w).astype(np.float64)


def _bits(a: np.ndarray) -> np.ndarray:
    """The raw bit patterns of a storage array, flat."""
    a = np.ascontiguousarray(a).ravel()
    return a.view(f"u{a.dtype.itemsize}")
