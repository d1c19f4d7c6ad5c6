"""Inputs of int4 values handed as int32 words, eight to a word along the last axis (cann-bench's
INT4 layout, `cannbench/run.generation_source`): their bytes are AscendC's int4b_t, element 2k in
the low nibble of byte k, so the kernel reads the words as int4b_t tensors of eight times the
lanes, copies them by their bytes (half a byte a lane) and widens them by the `Cast` int4b_t ->
half that Atlas A2 has, then half -> float, as it widens int8. The same kernel serves the
task's other cases, where the input holds another dtype: only an int32 one is read as int4.
"""

from __future__ import annotations

from ascend_core.package import OperatorSpec
from ascend_gym.dsl.lang import DslError, Kernel

HELPER = """\
// An int32 input here holds int4 values, eight to a word (their bytes are int4b_t's): the kernel
// reads it as int4b_t.
template <typename T>
using Int4Words = typename std::conditional<std::is_same<T, int32_t>::value, int4b_t, T>::type;

// Bytes of n elements of T: half a byte each for int4b_t (n is even: rows of int4 are whole bytes).
template <typename T>
__aicore__ inline uint64_t BytesOf(uint64_t n) {
  return std::is_same<T, int4b_t>::value ? n / 2 : n * sizeof(T);
}
"""


def words(spec: OperatorSpec) -> set[str]:
    """The inputs some case hands as int4 words (drawn at eight times the last axis)."""
    return {a for c in spec.cases for a in c.drawn}


def check(
    kernel: Kernel, spec: OperatorSpec, kind: str, types: dict[str, str], narrow: frozenset[str]
) -> set[str]:
    """The int4 inputs of a kernel that can read them: a rows() loop over the last axis loading
    one whole as its first full tensor (which gives the rows' length), of a kernel type of its
    own that widens through half (a one-byte dtype in the other cases)."""
    packed = words(spec)
    if not packed:
        return packed
    where = kernel.where
    if kind != "rows":
        raise DslError(where, f"int4 inputs ({', '.join(sorted(packed))}) in a {kind}() kernel")
    (lp,) = kernel.loops
    if lp.row_axes > 1:
        raise DslError(where, "an int4 input in a rows loop over several axes")
    full = [n for n in lp.loads if kernel.tensors[n.name].layout == "full"]
    if not full or full[0].name not in packed or len(packed) > 1:
        raise DslError(where, "an int4 input is read as the rows loop's one first full tensor")
    if any(n.part[1] > 1 for n in full if n.name in packed):
        raise DslError(where, "an int4 input is read whole, not by parts")
    (name,) = packed
    # (an input the program's cases all leave out takes the first input's dtype, and is not read)
    if [n for n, t in types.items() if t == types[name] and n in kernel.tensors] != [name]:
        raise DslError(where, f"int4 input {name} shares its kernel type with another tensor")
    if types[name] not in narrow:
        raise DslError(where, f"int4 input {name} is no one-byte integer in the traced cases")
    return packed
