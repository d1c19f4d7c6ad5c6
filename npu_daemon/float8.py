"""The one-byte floating types of Ascend 950: OCP float8 (E4M3FN, E5M2), the E8M0 scale, HiFloat8.

Each travels as its byte (numpy uint8) and is compared as the float32 values it decodes to.
float8_e4m3fn, float8_e5m2 and float8_e8m0 are ml_dtypes' float8_e4m3fn, float8_e5m2 and
float8_e8m0fnu (round to nearest even; E8M0 rounds half up, as ml_dtypes does).

HiFloat8 (Huawei; arXiv 2409.16626, CANN's amct docs) has no numpy type, so its codec is ours.
A byte is a sign, a prefix-coded dot field D that says how wide the exponent is, the exponent in
sign-magnitude with its leading 1 implied, and what is left as mantissa:

    dot   D   exponents          mantissa bits
    11    4   +-[8, 15]          1
    10    3   +-[4, 7]           2
    01    2   +-[2, 3]           3
    001   1   +-1                3
    0001  0   0                  3
    0000  denormal: 2^(m - 23), m = 1..7 (m = 0: zero)

0x00 is zero, 0x80 NaN, 0x6F / 0xEF (exponent 15, mantissa 1) are +-inf, so 32768 is the largest
finite value. Encoding rounds to nearest with ties away from zero (CAST_ROUND, the "rna" mode of
asc_float2hif8); a value at or past the midpoint to 49152, where the next code would be, is inf.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np

# Our dtype name -> ml_dtypes type name (the OCP ones); hifloat8 is decoded by the table below.
ML_DTYPES = {
    "float8_e4m3fn": "float8_e4m3fn",
    "float8_e5m2": "float8_e5m2",
    "float8_e8m0": "float8_e8m0fnu",
}
FLOAT8 = (*ML_DTYPES, "hifloat8")

HIF8_NAN, HIF8_INF = 0x80, 0x6F
HIF8_MAX = 32768.0
_HIF8_PAST_MAX = 49152.0  # what the code after the largest would be: the overflow midpoint


def _hif8_magnitude(code: int) -> float:
    """The value of a HiFloat8 byte without its sign bit (0..0x7F), 0x6F included as 49152."""
    r = code & 0x7F
    if r >> 3 == 0:  # dot 0000: denormal
        return 0.0 if r == 0 else 2.0 ** ((r & 7) - 23)
    if r >> 5:  # dots 11, 10, 01: exponents of 4, 3, 2 bits
        dot = (r >> 5) + 1
        mbits = 5 - dot
    else:  # dots 001, 0001
        dot, mbits = (1 if r >> 4 else 0), 3
    field = (r >> mbits) & ((1 << dot) - 1) if dot else 0
    magnitude = (1 << (dot - 1)) | (field & ((1 << (dot - 1)) - 1)) if dot else 0
    exponent = -magnitude if dot and field >> (dot - 1) else magnitude
    return 2.0**exponent * (1 + (r & ((1 << mbits) - 1)) / (1 << mbits))


def _hif8_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(decode table of all 256 bytes, the non-negative values ascending, their codes)."""
    magnitudes = np.array([_hif8_magnitude(c) for c in range(128)])
    decode = np.concatenate([magnitudes, -magnitudes]).astype(np.float32)
    decode[HIF8_INF], decode[HIF8_INF | 0x80] = np.inf, -np.inf
    decode[HIF8_NAN] = np.nan
    order = np.argsort(magnitudes, kind="stable")
    return decode, magnitudes[order], order.astype(np.uint8)


HIF8_DECODE, _HIF8_SORTED, _HIF8_CODES = _hif8_tables()


def hif8_decode(bits: np.ndarray) -> np.ndarray:
    return HIF8_DECODE[np.asarray(bits, np.uint8)]


def hif8_encode(values: np.ndarray) -> np.ndarray:
    """float values -> HiFloat8 bytes, nearest with ties away from zero, past the range inf."""
    x = np.asarray(values, np.float64)
    a = np.abs(x)
    hi = np.clip(np.searchsorted(_HIF8_SORTED, a, side="left"), 1, len(_HIF8_SORTED) - 1)
    lo_v, hi_v = _HIF8_SORTED[hi - 1], _HIF8_SORTED[hi]
    with np.errstate(invalid="ignore"):
        take_hi = a - lo_v >= hi_v - a  # a tie goes to the larger magnitude
    codes = np.where(take_hi, _HIF8_CODES[hi], _HIF8_CODES[hi - 1])
    codes = np.where(a >= (HIF8_MAX + _HIF8_PAST_MAX) / 2, HIF8_INF, codes)
    codes = np.where((np.signbit(x)) & (codes != 0), codes | 0x80, codes)
    return np.where(np.isnan(x), HIF8_NAN, codes).astype(np.uint8)


def decode(bits: np.ndarray, dtype: str) -> np.ndarray:
    """The bytes of a one-byte float dtype -> float32 values."""
    if dtype == "hifloat8":
        return hif8_decode(bits)
    return np.asarray(bits, np.uint8).view(getattr(ml_dtypes, ML_DTYPES[dtype])).astype(np.float32)


def encode(values: np.ndarray, dtype: str) -> np.ndarray:
    """float values -> the bytes of a one-byte float dtype."""
    if dtype == "hifloat8":
        return hif8_encode(values)
    typed = np.asarray(values, np.float32).astype(getattr(ml_dtypes, ML_DTYPES[dtype]))
    return typed.view(np.uint8)
