"""Attention masks in a traced graph: the scores a softmax reads, less their masks.

PyTorch masks attention scores with -inf: `scores.masked_fill(~mask, -inf)` (or `mask == 0`,
`torch.where(mask, scores, -inf)`), or adds a mask made a bias (`zeros(L, S).masked_fill_(~m,
-inf)`, as `F.scaled_dot_product_attention`'s documented reference does), the mask a bool (or
0 / 1) input or a triangle of ones (`torch.tril(torch.ones(S, L))`, `is_causal`). Each is read
here as the lanes that take part: an input's nonzero (or zero) lanes, or the keys j <= i + d of
query row i (a causal mask). A row masked whole stays a row of -inf, whose softmax is NaN in
the kernel as in torch.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ascend_gym.dsl.trace import Sym, Unsupported


@dataclass
class Masks:
    """What masks a row of scores: an input (`keeps`: its nonzero lanes take part, else its
    zero ones) and a causal diagonal d (row i takes the keys j <= i + d)."""

    mask: Sym | None = None
    keeps: bool = True
    causal: int | None = None


def _unview(s: Sym) -> Sym:
    while s.op == "view" and not s.meta.get("flat"):
        s = s.args[0]
    return s


def _is(s: Sym, value: float) -> bool:
    s = _unview(s)
    return (s.op == "const" or s.op == "fill") and s.value == value


def peel(s: Sym, conds: list[tuple[Sym, bool]]) -> Sym:
    """s less the masked_fill(-inf) selects over it: each select's condition is appended with
    whether a lane where it holds is masked out (True) or kept (False)."""
    s = _unview(s)
    while s.op == "select" and (_is(s.args[1], -math.inf) or _is(s.args[2], -math.inf)):
        c, a, b = s.args
        drops = _is(a, -math.inf)
        conds.append((c, drops))
        s = _unview(b if drops else a)
    return s


def safe(p: Sym) -> tuple[Sym, Sym | None]:
    """torch's safe softmax, where(max(x) == -inf, 0, softmax(x)) (a row masked whole is 0):
    the softmax and the x whose max is tested; else p, None."""
    if p.op == "select" and _is(p.args[1], 0.0):
        c = p.args[0]
        top = _unview(c.args[0]) if c.op == "compare" else None
        if c.fn == "eq" and _is(c.args[1], -math.inf) and top is not None and top.op == "reduce":
            if top.fn == "max":
                return _unview(p.args[2]), top.args[0]
    return p, None


def mask_term(s: Sym) -> tuple[Sym, bool] | None:
    """A mask made an additive bias, where(c, -inf, 0) (or its mirror): c and whether a lane
    where it holds is masked out; None for any other term."""
    s = _unview(s)
    if s.op != "select":
        return None
    c, a, b = s.args
    if _is(a, -math.inf) and _is(b, 0.0):
        return c, True
    if _is(b, -math.inf) and _is(a, 0.0):
        return c, False
    return None


def sum_terms(s: Sym) -> list[tuple[Sym, Sym]]:
    """The terms of a sum (nested adds through views): each as written and under its views."""
    out: list[tuple[Sym, Sym]] = []
    stack = [s]
    while stack:
        t = stack.pop()
        u = _unview(t)
        if u.op == "binary" and u.fn == "add":
            stack.extend(reversed(u.args))
        else:
            out.append((t, u))
    return out


def read(conds: list[tuple[Sym, bool]], matrix: tuple[int, ...]) -> Masks:
    """The masks of the conditions found on scores of `matrix` [S, L] a matrix."""
    found = Masks()
    for c, drops in conds:
        x = _unview(c.args[0]) if c.op == "compare" else c
        # a triangle of ones is 0 or 1: `== 1` is its `!= 0`
        one = x.op == "band" and _is(x.args[0], 1.0) and _is(c.args[1], 1.0)
        if c.op != "compare" or c.fn not in ("eq", "ne") or not (_is(c.args[1], 0.0) or one):
            raise Unsupported("an attention mask other than an input or a triangle of ones")
        # the lanes where x is nonzero are masked out
        nonzero_drops = ((c.fn == "ne") != one) == drops
        if x.op == "input" and found.mask is None:
            found.mask, found.keeps = x, not nonzero_drops
        elif x.op == "band" and found.causal is None:
            found.causal = _causal(x, nonzero_drops, matrix)
        else:
            raise Unsupported("an attention of more than one mask input or triangle")
    return found


def _causal(band: Sym, nonzero_drops: bool, matrix: tuple[int, ...]) -> int:
    """A triangle of ones over the scores' matrices as the causal diagonal d it keeps."""
    ones = _unview(band.args[0])
    if ones.op != "fill" or ones.value == 0:
        raise Unsupported("an attention mask of a triangle of other than ones")
    if tuple(band.shape[-2:]) != matrix or any(n != 1 for n in band.shape[:-2]):
        raise Unsupported(
            f"a triangle mask {list(band.shape)} beside score matrices {list(matrix)}"
        )
    d = int(band.value)
    # tril's nonzero lanes are j <= i + d, triu's j >= i + d
    if band.fn == "tril" and not nonzero_drops:
        return d
    if band.fn == "triu" and nonzero_drops:
        return d - 1
    raise Unsupported("an attention mask keeping the upper triangle (keys after the query)")
