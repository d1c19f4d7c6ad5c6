"""Evolution markers in tiling programs: `// @tune name in [lo, hi] step N|pow2`.

The tunable number is the last integer literal on the marked line before the comment. Stage I of
AscendOptimizer, the random policy and the discrete action space mutate these numbers.
"""

from __future__ import annotations

import functools
import random
import re
from dataclasses import dataclass

MARKER = re.compile(
    r"^(?P<head>.*?)(?P<num>\d+)(?P<suffix>[uUlL]*)(?P<tail>[^0-9\n]*?)"
    r"//\s*@tune\s+(?P<name>\w+)\s+in\s+\[\s*(?P<lo>-?\d+)\s*,\s*(?P<hi>-?\d+)\s*\]\s*(?P<mode>pow2|step(?:\s+(?P<step>\d+))?)",
    re.MULTILINE,
)


@dataclass(frozen=True)
class Tunable:
    name: str
    value: int
    lo: int
    hi: int
    mode: str  # "pow2" or "step"
    step: int
    line: int  # 0-based line number

    def clamp(self, value: int) -> int:
        value = max(self.lo, min(self.hi, value))
        if self.mode == "pow2":
            return 1 << (value.bit_length() - 1) if value > 0 else self.lo
        return self.lo + (value - self.lo) // self.step * self.step

    def grid(self) -> list[int]:
        if self.mode == "pow2":
            return [v for v in (1 << k for k in range(0, 63)) if self.lo <= v <= self.hi]
        return list(range(self.lo, self.hi + 1, self.step))

    def neighbours(self) -> dict[str, int]:
        """The catalogue's mutations of this number: x2, /2, +step, -step (clamped to range)."""
        return {
            "x2": self.clamp(self.value * 2),
            "/2": self.clamp(self.value // 2),
            "+step": self.clamp(self.value + self.step),
            "-step": self.clamp(self.value - self.step),
        }


def find_tunables(source: str) -> list[Tunable]:
    """The marked numbers of `source`, in order."""
    return list(_tunables(source)) if "@tune" in source else []


@functools.lru_cache(maxsize=256)
def _tunables(source: str) -> tuple[Tunable, ...]:
    """Cached per source: a search reads the markers of the same few tiling programs at every
    draw, and the marker pattern tries every number of every line."""
    out = []
    for m in MARKER.finditer(source):
        lo, hi = int(m["lo"]), int(m["hi"])
        if lo > hi:
            raise ValueError(f"@tune {m['name']}: empty range [{lo}, {hi}]")
        out.append(
            Tunable(
                m["name"],
                int(m["num"]),
                lo,
                hi,
                "pow2" if m["mode"] == "pow2" else "step",
                int(m["step"] or 1),
                source.count("\n", 0, m.start()),
            )
        )
    return tuple(out)


def set_value(source: str, name: str, value: int) -> str:
    """Rewrite the number of marker `name` (clamped to its range)."""
    for m in MARKER.finditer(source):
        if m["name"] == name:
            t = next(t for t in find_tunables(m.group(0)) if t.name == name)
            new = t.clamp(value)
            return source[: m.start("num")] + str(new) + source[m.end("num") :]
    raise KeyError(f"no @tune marker named {name!r}")


def random_mutation(source: str, rng: random.Random) -> tuple[str, str]:
    """Set one random tunable to a random value of its grid; returns (new source, description)."""
    tunables = find_tunables(source)
    if not tunables:
        raise ValueError("the tiling program has no @tune markers")
    t = rng.choice(tunables)
    choices = [v for v in t.grid() if v != t.value] or [t.value]
    value = rng.choice(choices)
    return set_value(source, t.name, value), f"{t.name}: {t.value} -> {value}"


_MARKER_COMMENT = re.compile(r"[ \t]*//\s*@tune\b[^\n]*")


def strip_markers(source: str) -> str:
    """`source` without its `// @tune` comments: the program as written before anyone marked it."""
    return _MARKER_COMMENT.sub("", source)
