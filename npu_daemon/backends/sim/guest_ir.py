"""Raw `__gm__` / `__ubuf__` pointers on the guest engine (docs/trust_boundary.md): the guest headers
make both qualifiers clang address spaces, so every access through such a pointer is a typed
load, store or memory intrinsic of the kernel's LLVM IR. This pass rewrites each of them into a
call of a charged import (module "ascendc": raw_load, raw_store, raw_copy, raw_fill; ascendc_guest/
raw.h), served by the host as GlobalTensor / LocalTensor GetValue and SetValue are, and turns the
casts between address spaces into integer round trips (the wasm32 backend selects no
addrspacecast). A pointer cast to a plain one keeps its GM or UB address, which lies past the
guest's own memory: dereferenced, it traps.

A kernel clang's C++ refuses the address spaces in (an element of class type, `half`, stored
through such a pointer) is built with both qualifiers plain, and its header marks the module
(PLAIN_MARK). There, every load, store and memory intrinsic through a pointer not known to lie in
the kernel's own memory (its allocas and globals) calls a checking function defined here: an address
from 1 GiB up (past the guest's memory, 64 MiB at most) goes to the same imports, GM or UB by its
range, any other is the plain access. The checks are guest code, metered like the rest.

GM data the kernel declares itself (a `__gm__` global: a constant table, or a writable one) the
device loads with the binary into GM. Here each such global is laid out in one image in the
guest's own memory (GM_DATA: a header with the image's byte count, then every global at its
offset), and every use of the global becomes the constant GM address kGmDataBase + its offset. The
host reads the image from a fresh instance before any guest code runs, and maps a copy of it as one
more GM buffer of the launch at kGmDataBase (runtime/guest/guest.cpp, Module::GmData): each access
is then checked and charged as a launch buffer's. The guest chooses only its own bytes, read within
its own memory.

The IR is clang 14's text form with typed pointers (`load float, float addrspace(7)* %p`).
"""

from __future__ import annotations

import re

GM, UB = 7, 8  # the address spaces of __gm__ and __ubuf__ (guest/include/kernel_operator.h)
SPACES = (GM, UB)
_INTRINSIC = re.compile(r"@llvm\.(memcpy|memmove|memset)\.([\w.]+)\(")
_POINTER_ATTRS = re.compile(
    r"^(?:(?:noundef|nonnull|noalias|nocapture|readonly|writeonly|align \d+|dereferenceable\(\d+\))\s+)*"
)
_IMPORTS = {
    "raw_load": "i64 (i32, i32, i32)",
    "raw_store": "void (i32, i32, i32, i64)",
    "raw_copy": "void (i32, i32, i32, i32, i32, i32)",
    "raw_fill": "void (i32, i32, i32, i32, i32)",
}
_ATTRS = 4_000_000  # an attribute group number clang never reaches
PLAIN_MARK = "@__ascendc_guest_plain_pointers"  # guest/include/kernel_operator.h, plain pointers
_OWN_END, _GM_BASE = 1 << 30, -(1 << 31)  # ascendc_guest::kUbBase, kGmBase (as a signed i32)
GM_DATA = "__ascendc_gm_data"  # the image's symbol, exported by guest_build when defined
GM_DATA_BASE, GM_DATA_HEAD = 0xFC000000, 64  # ascendc_guest::kGmDataBase, kGmDataHead
_GM_DATA_ALIGN = 32  # each global at least a 32 B block apart, as DataCopy moves GM


class RawAccessError(ValueError):
    """An access through a __gm__ / __ubuf__ pointer the guest engine cannot charge."""


def split_top(text: str) -> list[str]:
    """`text` split at its commas outside brackets, angle ones included (in IR they only bracket:
    `<i32 1, i32 2>`), and outside quotes (a quoted name, `@"w("`, or a `c"..."` string holds any
    character but `"`), as the operands of one instruction."""
    parts, depth, start, quoted = [], 0, 0, False
    for i, ch in enumerate(text):
        if ch == '"':
            quoted = not quoted
        elif quoted:
            continue
        elif ch in "([{<":
            depth += 1
        elif ch in ")]}>":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    parts.append(text[start:].strip())
    return parts


def _space(ty: str, ptr: str) -> re.Match[str] | None:
    """The address space (group 1) of an operand `ty addrspace(N)* P` of SPACES; None for any
    other pointer, such as a plain pointer to a pointer of those spaces."""
    return re.match(re.escape(ty) + r" addrspace\(([78])\)\* ", ptr)


def _bits(ty: str) -> int:
    """The width of a loaded or stored type (pointers are wasm32's 32 bits): one scalar access of
    1, 2, 4 or 8 bytes (a bool's i1 is a byte)."""
    widths = {"half": 16, "bfloat": 16, "float": 32, "double": 64}
    if ty.endswith("*"):
        bits = 32
    elif ty in widths:
        bits = widths[ty]
    elif m := re.fullmatch(r"i(\d+)", ty):
        bits = int(m.group(1))
    elif m := re.fullmatch(r"<(\d+) x (\w+)>", ty):
        bits = int(m.group(1)) * _bits(m.group(2))
    else:
        bits = 0
    if bits == 1 or bits in (8, 16, 32, 64):
        return bits
    raise RawAccessError(f"an access of type {ty} through a __gm__ / __ubuf__ pointer")


class _Rewriter:
    def __init__(self) -> None:
        self.n = 0
        self.used: set[str] = set()

    def tmp(self) -> str:
        self.n += 1
        return f"%__raw.{self.n}"

    def addr(self, out: list[str], pad: str, ptr: str) -> str:
        """An i32 of a typed pointer operand `T* OP`."""
        t = self.tmp()
        out.append(f"{pad}{t} = ptrtoint {ptr} to i32")
        return t

    def call(self, out: list[str], pad: str, name: str, args: str, result: str = "") -> None:
        self.used.add(name)
        ret = _IMPORTS[name].split(" ", 1)[0]
        out.append(f"{pad}{result}call {ret} @__ascendc_{name}({args})")

    def load(self, pad: str, name: str, rest: str) -> list[str]:
        parts = split_top(rest)
        head = parts[0]
        if head.startswith("atomic "):
            raise RawAccessError("an atomic load through a __gm__ / __ubuf__ pointer")
        ty = head.removeprefix("volatile ")
        m = _space(ty, parts[1])
        if m is None:
            return [f"{pad}{name} = load {rest}"]
        bits = _bits(ty)
        out: list[str] = []
        a = self.addr(out, pad, parts[1])
        raw = self.tmp()
        self.call(
            out, pad, "raw_load", f"i32 {m.group(1)}, i32 {a}, i32 {(bits + 7) // 8}", f"{raw} = "
        )
        out.append(f"{pad}{name} = {self.from_i64(out, pad, raw, ty, bits)}")
        return out

    def from_i64(self, out: list[str], pad: str, raw: str, ty: str, bits: int) -> str:
        if ty == "i64":
            return f"bitcast i64 {raw} to i64"
        if bits == 64:
            return f"bitcast i64 {raw} to {ty}"
        narrow = self.tmp()
        out.append(f"{pad}{narrow} = trunc i64 {raw} to i{bits}")
        if ty.endswith("*"):
            return f"inttoptr i32 {narrow} to {ty}"
        return f"bitcast i{bits} {narrow} to {ty}"

    def store(self, pad: str, rest: str) -> list[str]:
        parts = split_top(rest.removeprefix("volatile "))
        if rest.startswith("atomic "):
            raise RawAccessError("an atomic store through a __gm__ / __ubuf__ pointer")
        # The stored type: the longest head of `T V` that `T addrspace(N)* P` repeats.
        cuts = [i for i, ch in enumerate(parts[0]) if ch == " "]
        found = ((parts[0][:i], _space(parts[0][:i], parts[1])) for i in reversed(cuts))
        ty, m = next(((t, m) for t, m in found if m), ("", None))
        if m is None:
            return [f"{pad}store {rest}"]
        value = parts[0][len(ty) + 1 :]
        bits = _bits(ty)
        out: list[str] = []
        a = self.addr(out, pad, parts[1])
        wide = self.widen(out, pad, ty, value, bits)
        self.call(
            out, pad, "raw_store", f"i32 {m.group(1)}, i32 {a}, i32 {(bits + 7) // 8}, i64 {wide}"
        )
        return out

    def widen(self, out: list[str], pad: str, ty: str, value: str, bits: int) -> str:
        """An i64 of the stored value `ty value`, zero-extended."""
        wide = self.tmp()
        if ty.endswith("*"):
            as_int = self.tmp()
            out.append(f"{pad}{as_int} = ptrtoint {ty} {value} to i32")
            out.append(f"{pad}{wide} = zext i32 {as_int} to i64")
        elif bits == 64:
            out.append(f"{pad}{wide} = bitcast {ty} {value} to i64")
        else:
            as_int = self.tmp()
            out.append(f"{pad}{as_int} = bitcast {ty} {value} to i{bits}")
            out.append(f"{pad}{wide} = zext i{bits} {as_int} to i64")
        return wide

    def pointer(self, out: list[str], pad: str, arg: str) -> tuple[int, str, int]:
        """(address space, i32 address, alignment) of a memory intrinsic's pointer argument."""
        m = re.match(r"(i8(?: addrspace\((\d+)\))?\*) (.*)$", arg)
        if m is None:
            raise RawAccessError(f"a memory intrinsic's argument {arg}")
        attrs = _POINTER_ATTRS.match(m.group(3))
        align = re.search(r"align (\d+)", attrs.group(0)) if attrs else None
        op = m.group(3)[attrs.end() if attrs else 0 :]
        return (
            int(m.group(2) or 0),
            self.addr(out, pad, f"{m.group(1)} {op}"),
            int(align.group(1)) if align else 1,
        )

    def length(self, out: list[str], pad: str, arg: str) -> str:
        ty, op = arg.split(" ", 1)
        if ty == "i32":
            return op
        t = self.tmp()
        out.append(f"{pad}{t} = trunc {ty} {op} to i32")
        return t

    def intrinsic(self, pad: str, line: str, kind: str, m: re.Match[str]) -> list[str]:
        args = split_top(line[m.end() : line.rindex(")")])
        out: list[str] = []
        # A loop the compiler folded into a memcpy or memset: its accesses charged as the loop's
        # elements, whose size the pointer's alignment gives (at most the 8 bytes of a wasm load).
        if kind == "memset":
            space, dst, align = self.pointer(out, pad, args[0])
            byte = self.tmp()
            out.append(f"{pad}{byte} = zext {args[1]} to i32")
            n = self.length(out, pad, args[2])
            elem = min(align, 8)
            self.call(
                out, pad, "raw_fill", f"i32 {space}, i32 {dst}, i32 {byte}, i32 {n}, i32 {elem}"
            )
        else:
            dspace, dst, dalign = self.pointer(out, pad, args[0])
            sspace, src, salign = self.pointer(out, pad, args[1])
            n = self.length(out, pad, args[2])
            elem = min(dalign if dspace else salign, salign if sspace else dalign, 8)
            self.call(
                out,
                pad,
                "raw_copy",
                f"i32 {dspace}, i32 {dst}, i32 {sspace}, i32 {src}, i32 {n}, i32 {elem}",
            )
        return out

    def line(self, line: str) -> list[str]:
        if " addrspace(7)" not in line and " addrspace(8)" not in line:
            return [line]
        if line.startswith("declare "):
            return [] if _INTRINSIC.search(line) else [line]
        if m := _SPACE_GLOBAL.match(line):
            # GM globals left gm_data's pass; UB is the API's to allocate (TPipe), no binary loads it.
            raise RawAccessError(f"a global in __ubuf__ memory ({m.group(1)})")
        line = _constant_casts(line)
        pad = line[: len(line) - len(line.lstrip())]
        body = line.strip()
        if m := re.match(r"(%[-\w.$]+) = load (.*)$", body):
            return self.load(pad, m.group(1), m.group(2))
        if body.startswith("store "):
            return self.store(pad, body[len("store ") :])
        if m := re.match(r"(%[-\w.$]+) = addrspacecast (.*) to (.*)$", body):
            out: list[str] = []
            a = self.addr(out, pad, m.group(2))
            out.append(f"{pad}{m.group(1)} = inttoptr i32 {a} to {m.group(3)}")
            return out
        if (m := _INTRINSIC.search(body)) and re.match(r"(tail |musttail |notail )?call ", body):
            return self.intrinsic(pad, body, m.group(1), m)
        if re.search(r"\b(atomicrmw|cmpxchg)\b", body):
            raise RawAccessError("an atomic operation through a __gm__ / __ubuf__ pointer")
        if re.search(r"call [^@]*@llvm\.\w+\.p[78]", body):
            raise RawAccessError(f"the intrinsic {body.split('@', 1)[1].split('(')[0]}")
        return [line]


class _PlainRewriter(_Rewriter):
    """The plain-pointer build's pass: loads, stores and memory intrinsics through a pointer the
    function did not take from its own allocas or a global call the checking functions of
    _PLAIN_HELPERS."""

    def __init__(self) -> None:
        super().__init__()
        self.own: set[str] = set()  # this function's allocas and the pointers derived from them

    def is_own(self, operand: str) -> bool:
        return operand in self.own or (
            operand.startswith(("@", "getelementptr", "bitcast")) and "@" in operand
        )

    def helper(self, out: list[str], pad: str, name: str, args: str, result: str = "") -> None:
        self.used.add("raw_load" if name == "load" else f"raw_{name}")
        ret = "i64" if name == "load" else "void"
        out.append(f"{pad}{result}call {ret} @__ascendc_plain_{name}({args})")

    def load(self, pad: str, name: str, rest: str) -> list[str]:
        parts = split_top(rest)
        ty = parts[0].removeprefix("volatile ")
        if parts[0].startswith("atomic ") or not parts[1].startswith(f"{ty}* "):
            return [f"{pad}{name} = load {rest}"]
        if self.is_own(parts[1][len(ty) + 2 :]) or (bits := _width(ty)) is None:
            return [f"{pad}{name} = load {rest}"]
        out: list[str] = []
        a = self.addr(out, pad, parts[1])
        raw = self.tmp()
        self.helper(out, pad, "load", f"i32 {a}, i32 {(bits + 7) // 8}", f"{raw} = ")
        out.append(f"{pad}{name} = {self.from_i64(out, pad, raw, ty, bits)}")
        return out

    def store(self, pad: str, rest: str) -> list[str]:
        parts = split_top(rest.removeprefix("volatile "))
        heads = [parts[0][:i] for i, ch in enumerate(parts[0]) if ch == " "]
        ty = next((t for t in reversed(heads) if parts[1].startswith(f"{t}* ")), "")
        if rest.startswith("atomic ") or not ty or self.is_own(parts[1][len(ty) + 2 :]):
            return [f"{pad}store {rest}"]
        if (bits := _width(ty)) is None:
            return [f"{pad}store {rest}"]
        value = parts[0][len(ty) + 1 :]
        out: list[str] = []
        a = self.addr(out, pad, parts[1])
        wide = self.widen(out, pad, ty, value, bits)
        self.helper(out, pad, "store", f"i32 {a}, i32 {(bits + 7) // 8}, i64 {wide}")
        return out

    def intrinsic(self, pad: str, line: str, kind: str, m: re.Match[str]) -> list[str]:
        args = split_top(line[m.end() : line.rindex(")")])
        pointers = args[:1] if kind == "memset" else args[:2]
        operands = [re.sub(r"^i8\* " + _POINTER_ATTRS.pattern[1:], "", a) for a in pointers]
        if all(self.is_own(o) for o in operands):
            return [line]
        out: list[str] = []
        _, dst, align = self.pointer(out, pad, args[0])
        if kind == "memset":
            byte = self.tmp()
            out.append(f"{pad}{byte} = zext {args[1]} to i32")
            n = self.length(out, pad, args[2])
            self.helper(out, pad, "fill", f"i32 {dst}, i32 {byte}, i32 {n}, i32 {min(align, 8)}")
        else:
            _, src, salign = self.pointer(out, pad, args[1])
            n = self.length(out, pad, args[2])
            elem = min(align, salign, 8)
            self.helper(out, pad, "copy", f"i32 {dst}, i32 {src}, i32 {n}, i32 {elem}")
        return out

    def line(self, line: str) -> list[str]:
        body = line.strip()
        pad = line[: len(line) - len(line.lstrip())]
        if body.startswith("define "):
            self.own = set()
        elif m := re.match(r"(%[-\w.$]+) = alloca ", body):
            self.own.add(m.group(1))
        elif m := _DERIVED.match(body):
            base = re.search(r"[%@][-\w.$]+", split_top(m.group(2))[0])
            if base and self.is_own(base.group(0)):
                self.own.add(m.group(1))
        elif m := re.match(r"(%[-\w.$]+) = load (.*)$", body):
            return self.load(pad, m.group(1), m.group(2))
        elif body.startswith("store "):
            return self.store(pad, body[len("store ") :])
        elif (m := _INTRINSIC.search(body)) and re.match(r"(tail |musttail |notail )?call ", body):
            return self.intrinsic(pad, body, m.group(1), m)
        return [line]


# A pointer taken from another by an offset or a cast: `%p = getelementptr T, T* %b, ...`,
# `%p = bitcast T* %b to U*` (group 2 starts with the base operand).
_DERIVED = re.compile(r"(%[-\w.$]+) = (?:getelementptr (?:inbounds )?[^,]+, |bitcast )(.*)$")


def _width(ty: str) -> int | None:
    """_bits, or None for a type no scalar access moves (an aggregate, a wide vector)."""
    try:
        return _bits(ty)
    except RawAccessError:
        return None


def _sized(op: str) -> str:
    """A checking function's access of %n bytes at %a in the kernel's own memory (`load` returns it
    zero-extended, `store` writes the low bytes of %v): a branch per width, unaligned."""
    text = []
    for bits, after in ((8, "b2"), (16, "b4"), (32, "l64"), (64, None)):
        if after:
            text += [f"b{bits // 8}:", f"  %is{bits} = icmp eq i32 %n, {bits // 8}"]
            text += [f"  br i1 %is{bits}, label %l{bits}, label %{after}"]
        text += [f"l{bits}:", f"  %p{bits} = inttoptr i32 %a to i{bits}*"]
        if op == "load":
            text += [f"  %v{bits} = load i{bits}, i{bits}* %p{bits}, align 1"]
            text += [f"  %w{bits} = zext i{bits} %v{bits} to i64"] if after else []
            text += [f"  ret i64 %{'w' if after else 'v'}{bits}"]
        else:
            text += [f"  %t{bits} = trunc i64 %v to i{bits}"] if after else []
            text += [
                f"  store i{bits} %{'t' if after else 'v'}{bits if after else ''}, i{bits}* %p{bits}, align 1"
            ]
            text += ["  ret void"]
    return "\n".join(text) + "\n"


# The plain-pointer build's checking functions: an address past the guest's memory is UB's range
# (from kUbBase) or GM's (from kGmBase), served by the raw imports; any other is the kernel's own
# memory, accessed in place. A copy or fill reaching the imports passes 0 for a side in the guest.
_PLAIN_HELPERS = f"""
define internal i32 @__ascendc_plain_space(i32 %a) {{
  %far = icmp uge i32 %a, {_OWN_END}
  %gm = icmp uge i32 %a, {_GM_BASE}
  %s = select i1 %gm, i32 7, i32 8
  %r = select i1 %far, i32 %s, i32 0
  ret i32 %r
}}
define internal i64 @__ascendc_plain_load(i32 %a, i32 %n) {{
  %s = call i32 @__ascendc_plain_space(i32 %a)
  %own = icmp eq i32 %s, 0
  br i1 %own, label %b1, label %raw
raw:
  %v = call i64 @__ascendc_raw_load(i32 %s, i32 %a, i32 %n)
  ret i64 %v
{_sized("load")}}}
define internal void @__ascendc_plain_store(i32 %a, i32 %n, i64 %v) {{
  %s = call i32 @__ascendc_plain_space(i32 %a)
  %own = icmp eq i32 %s, 0
  br i1 %own, label %b1, label %raw
raw:
  call void @__ascendc_raw_store(i32 %s, i32 %a, i32 %n, i64 %v)
  ret void
{_sized("store")}}}
define internal void @__ascendc_plain_copy(i32 %d, i32 %s, i32 %n, i32 %e) {{
  %ds = call i32 @__ascendc_plain_space(i32 %d)
  %ss = call i32 @__ascendc_plain_space(i32 %s)
  %both = or i32 %ds, %ss
  %own = icmp eq i32 %both, 0
  br i1 %own, label %here, label %raw
raw:
  call void @__ascendc_raw_copy(i32 %ds, i32 %d, i32 %ss, i32 %s, i32 %n, i32 %e)
  ret void
here:
  %dp = inttoptr i32 %d to i8*
  %sp = inttoptr i32 %s to i8*
  call void @llvm.memmove.p0i8.p0i8.i32(i8* %dp, i8* %sp, i32 %n, i1 false)
  ret void
}}
define internal void @__ascendc_plain_fill(i32 %d, i32 %b, i32 %n, i32 %e) {{
  %ds = call i32 @__ascendc_plain_space(i32 %d)
  %own = icmp eq i32 %ds, 0
  br i1 %own, label %here, label %raw
raw:
  call void @__ascendc_raw_fill(i32 %ds, i32 %d, i32 %b, i32 %n, i32 %e)
  ret void
here:
  %dp = inttoptr i32 %d to i8*
  %byte = trunc i32 %b to i8
  call void @llvm.memset.p0i8.i32(i8* %dp, i8 %byte, i32 %n, i1 false)
  ret void
}}
"""
_PLAIN_INTRINSICS = {
    "@llvm.memmove.p0i8.p0i8.i32": "declare void @llvm.memmove.p0i8.p0i8.i32(i8*, i8*, i32, i1)",
    "@llvm.memset.p0i8.i32": "declare void @llvm.memset.p0i8.i32(i8*, i8, i32, i1)",
}


_SPACE_GLOBAL = re.compile(r"(@[-\w.$]+) = .*\baddrspace\([78]\) (?:global|constant) ")
_GM_GLOBAL = re.compile(r"(@[-\w.$]+) = ([\w ]*?)\baddrspace\(7\) (?:global|constant) (.*)$")
_NAME = re.compile(r"@[-\w.$]+")
_SCALAR_BYTES = {"half": 2, "bfloat": 2, "float": 4, "double": 8}


def _type_end(text: str) -> int:
    """The length of the type at the start of `T INIT` (a bracketed aggregate or one word)."""
    if text[:1] in "[{<":
        return _closing_bracket(text)
    return text.find(" ") if " " in text else len(text)


def _closing_bracket(text: str) -> int:
    depth = 0
    for i, ch in enumerate(text):
        depth += ch in "[{<"
        depth -= ch in "]}>"
        if depth == 0:
            return i + 1
    return len(text)


def _size(ty: str) -> int:
    """The bytes of a GM global's type: arrays of scalars or pointers (wasm32's 4 bytes)."""
    if m := re.fullmatch(r"\[(\d+) x (.*)\]", ty):
        return int(m.group(1)) * _size(m.group(2))
    if ty.endswith("*"):
        return 4
    if m := re.fullmatch(r"i(\d+)", ty):
        return (int(m.group(1)) + 7) // 8
    if ty in _SCALAR_BYTES:
        return _SCALAR_BYTES[ty]
    raise RawAccessError(f"a __gm__ global of type {ty}")


def gm_data(lines: list[str]) -> list[str]:
    """`lines` with every `__gm__` global moved into the image GM_DATA and each use of one made
    its constant GM address (the module's docstring)."""
    places: dict[str, str] = {}
    fields, values, rest, end = ["i32", f"[{GM_DATA_HEAD - 4} x i8]"], [], [], 0
    for line in lines:
        m = _GM_GLOBAL.match(line)
        if m is None:
            rest.append(line)
            continue
        parts = split_top(m.group(3))
        if "external" in m.group(2).split() or not parts[0]:
            raise RawAccessError(f"a __gm__ global defined outside the kernel ({m.group(1)})")
        cut = _type_end(parts[0])
        ty, init = parts[0][:cut], parts[0][cut:].strip()
        align = max([int(a[6:]) for a in parts[1:] if a.startswith("align ")] + [_GM_DATA_ALIGN])
        at = -(-end // align) * align
        fields += [f"[{at - end} x i8]", ty]
        values += [init]
        end = at + _size(ty)
        places[m.group(1)] = f"inttoptr (i32 {GM_DATA_BASE + at - (1 << 32)} to {ty} addrspace(7)*)"
    if not places:
        return lines

    def place(m: re.Match[str]) -> str:
        return places.get(m.group(0), m.group(0))

    pieces = [f"i32 {end}", f"[{GM_DATA_HEAD - 4} x i8] zeroinitializer"]
    for k, init in enumerate(values):
        pieces += [f"{fields[2 + 2 * k]} zeroinitializer", f"{fields[3 + 2 * k]} {init}"]
    image = (
        f"@{GM_DATA} = constant <{{ {', '.join(fields)} }}> <{{ {', '.join(pieces)} }}>, align 64"
    )
    return [_NAME.sub(place, line) for line in [*rest, image]]


def _constant_casts(line: str) -> str:
    """Constant-expression `addrspacecast (T* C to U*)` as `inttoptr (i32 ptrtoint (T* C to i32)
    to U*)`, in one pass over the line, nested casts inside out: a search from the line's start
    and a copy of the line per cast took minutes of the worker for a kernel's table of 20,000 cast
    pointers (an initializer is one line)."""
    key = "addrspacecast ("
    out, at = [], 0
    while (start := line.find(key, at)) >= 0:
        close = _closing(line, start + len(key) - 1)
        inner = _constant_casts(line[start + len(key) : close])
        cut = inner.rindex(" to ")
        out += [
            line[at:start],
            f"inttoptr (i32 ptrtoint ({inner[:cut]} to i32) to {inner[cut + 4 :]})",
        ]
        at = close + 1
    return "".join(out) + line[at:]


_PARENS = re.compile(r"[()]")


def _closing(line: str, open_at: int) -> int:
    """The index of the `)` closing the `(` at `open_at` (the line's last index if none does)."""
    depth = 0
    for m in _PARENS.finditer(line, open_at):
        depth += 1 if m.group() == "(" else -1
        if depth == 0:
            return m.start()
    return len(line) - 1


# Inline assembly: a call of `asm "..."` or module-level `module asm`.
_ASM = re.compile(r'^module asm "|\bcall(?:br)?\b[^@%"]*\basm\b', re.MULTILINE)


def assembly(ir: str) -> bool:
    """Whether the module carries inline assembly, which the native build's gate refuses too: its
    directives reach past the source (`.incbin` copies a host file into the module)."""
    return _ASM.search(ir) is not None


def rewrite(ir: str) -> str:
    """The module with every access through an address space of SPACES made an import call; in a
    plain-pointer build (PLAIN_MARK), every access that may reach past the guest's memory a call
    of a checking function."""
    plain = PLAIN_MARK in ir
    r = _PlainRewriter() if plain else _Rewriter()
    lines = ir.splitlines() if plain else gm_data(ir.splitlines())
    out = [piece for line in lines for piece in r.line(line)]
    if plain:
        out.append(_PLAIN_HELPERS)
        out += [d for name, d in _PLAIN_INTRINSICS.items() if f"declare void {name}(" not in ir]
        r.used |= {"raw_load", "raw_store", "raw_copy", "raw_fill"}
    for k, name in enumerate(sorted(r.used)):
        ret, params = _IMPORTS[name].split(" ", 1)
        out.append(f"declare {ret} @__ascendc_{name}{params} #{_ATTRS + k}")
        out.append(
            f'attributes #{_ATTRS + k} = {{ "wasm-import-module"="ascendc" '
            f'"wasm-import-name"="{name}" }}'
        )
    return "\n".join(out) + "\n"
