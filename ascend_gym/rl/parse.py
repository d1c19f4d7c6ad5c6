"""A model's completion into an operator package, or a clear format error.

Two forms, the ones trainers hand a reward function:

1. text (a string, or a chat transcript whose last assistant message is text) with fenced blocks,
   each naming the file it replaces in its info string: a package path (```cpp op_kernel/add.cpp)
   or a part (```cpp kernel, ```cpp tiling, ```cpp tiling_header). One unlabelled block is taken
   as the kernel when it declares an `__aicore__` entry, as the tiling when it defines
   `TilingFunc`;
2. tool arguments (a dict, or a transcript's last tool call): {"files": {path: text}} or any of
   {"kernel", "tiling", "tiling_header"}: text.

Only the package's own sources under op_host/ and op_kernel/ may be replaced: the spec, the
reference and the file list are the task's, not the model's.
"""

from __future__ import annotations

import json
import re
from typing import Any

from ascend_core.package import OperatorPackage

_FENCE = re.compile(r"```[ \t]*(?P<info>[^\n`]*)\n(?P<body>.*?)```", re.DOTALL)
PARTS = ("kernel", "tiling", "tiling_header")
EDITABLE = ("op_host/", "op_kernel/")


class FormatError(ValueError):
    """The completion holds no usable package change; the message says what to fix."""


def completion_text(completion: Any) -> str | dict:
    """The text (or tool arguments) of a completion in any of the shapes trainers pass."""
    if isinstance(completion, str | dict) and not _is_message(completion):
        return completion
    messages = [completion] if _is_message(completion) else list(completion or [])
    for message in reversed(messages):
        if message.get("role", "assistant") != "assistant":
            continue
        for call in reversed(message.get("tool_calls") or []):
            arguments = call.get("function", call).get("arguments", {})
            return _arguments(arguments)
        content = message.get("content")
        if isinstance(content, list):  # content parts
            content = "".join(p.get("text", "") for p in content if isinstance(p, dict))
        if content:
            return content
    raise FormatError("the completion has no assistant text or tool call")


def _arguments(arguments: Any) -> dict:
    """A tool call's arguments, an object or its JSON text."""
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)
        except ValueError as e:
            raise FormatError(f"the tool call's arguments are not JSON: {e}") from None
    if not isinstance(arguments, dict):
        raise FormatError("the tool call's arguments are not an object")
    return arguments


def _is_message(x: Any) -> bool:
    return isinstance(x, dict) and ("role" in x or "tool_calls" in x)


def parse_completion(completion: Any, base: OperatorPackage) -> OperatorPackage:
    """The base package with the files the completion replaces. A completion of any other shape
    is its own FormatError, never an exception that fails the batch scored with it."""
    try:
        body = completion_text(completion)
        files = _from_arguments(body, base) if isinstance(body, dict) else _from_text(body, base)
    except (TypeError, ValueError, AttributeError, KeyError) as e:
        if isinstance(e, FormatError):
            raise
        raise FormatError(f"not a completion this reads ({type(e).__name__}: {e})") from None
    if not files:
        raise FormatError(
            "no source block: reply with fenced blocks named by file, e.g. ```cpp "
            f"{base.kernel_path}"
        )
    for path in files:
        if path not in base.files or not path.startswith(EDITABLE):
            editable = sorted(p for p in base.files if p.startswith(EDITABLE))
            raise FormatError(f"{path!r} is not a source of this operator: one of {editable}")
        if not files[path].strip():
            raise FormatError(f"{path} is empty")
    return base.model_copy(update={"files": {**base.files, **files}})


def _path_of(label: str, base: OperatorPackage) -> str:
    return {
        "kernel": base.kernel_path,
        "tiling": base.host_path,
        "tiling_header": base.tiling_header_path,
    }[label]


def _from_arguments(arguments: dict, base: OperatorPackage) -> dict[str, str]:
    files = dict(arguments.get("files") or {})
    for part in PARTS:
        if arguments.get(part):
            files[_path_of(part, base)] = arguments[part]
    unknown = set(arguments) - {"files", *PARTS}
    if unknown:
        raise FormatError(f"unknown arguments {sorted(unknown)}: use files, {', '.join(PARTS)}")
    if not all(isinstance(v, str) for v in files.values()):
        raise FormatError("every file's text must be a string")
    return files


def _from_text(text: str, base: OperatorPackage) -> dict[str, str]:
    if text.count("```") % 2:
        raise FormatError("a fenced block is not closed (``` without its closing ```)")
    blocks = [(m["info"].split(), m["body"]) for m in _FENCE.finditer(text)]
    files: dict[str, str] = {}
    for words, body in blocks:
        path = _named(words[1:] if words else [], base)
        if path is None and len(blocks) == 1:
            path = _guessed(body, base)
        if path is None:
            raise FormatError(
                f"a block names no file: open it with ```cpp <path>, a path of {sorted(base.files)}, "
                "or ```cpp kernel / ```cpp tiling"
            )
        if path in files:
            raise FormatError(f"two blocks replace {path}")
        files[path] = body
    return files


def _named(words: list[str], base: OperatorPackage) -> str | None:
    for word in words:
        word = word.removeprefix("path=").removeprefix("file=").strip("`'\":")
        if word in PARTS:
            return _path_of(word, base)
        if "/" in word or "." in word:
            return word
    return None


def _guessed(body: str, base: OperatorPackage) -> str | None:
    kernel, tiling = "__aicore__" in body, "TilingFunc" in body
    if kernel != tiling:
        return base.kernel_path if kernel else base.host_path
    return None
