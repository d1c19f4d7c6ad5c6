"""Generation's foreign code in a child of its own.

Generation runs Python the researcher did not write: a model's DSL program (`model.py`, the
generate policy) and a task's golden, traced to pick a template (a cann-bench task's `golden.py`).
Run in the process that then evaluates the package and records its verdict, such code could
rewrite that verdict (patch the evaluation it shares the interpreter with) or the files that
record it. Here it runs in a forked child that confines itself (`sandbox.confine_client_child`:
read-only filesystems, no network, no capabilities, limits) and answers with JSON only: the
parent rebuilds the package (pydantic) and the few errors generation raises from that data,
never unpickles, and never runs what the child wrote. Where the kernel gives an unprivileged process no namespaces,
the child still cannot reach the parent's memory, but keeps the researcher's file access (a
warning says so).
"""

from __future__ import annotations

import functools
import json
import os
import select
import signal
import time
import warnings
from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import TypeAdapter, ValidationError

from ascend_gym.dsl.lang import DslError
from ascend_gym.dsl.trace import Unsupported
from npu_daemon import sandbox

TIMEOUT_S = 600.0  # a golden of thousands of nodes traces in seconds; a loop forever ends here
MAX_ANSWER_BYTES = 64 * 1024 * 1024  # a package is at most 16 MiB as a daemon request
MAX_MESSAGE_CHARS = 4000
LIMITS = sandbox.Limits(cpu_s=int(TIMEOUT_S), address_space_mb=8192)
T = TypeVar("T")


class GenerationFailed(RuntimeError):
    """The child ended without an answer: killed, timed out, or an error generation does not raise."""


def _answer(work: Callable[[], Any]) -> dict[str, Any]:
    """What the child sends: `work`'s value, or the error it raised as data."""
    try:
        return {"value": work()}
    except DslError as e:
        return {
            "error": "DslError",
            "where": e.where,
            "message": str(e).removeprefix(f"{e.where}: "),
        }
    except SyntaxError as e:
        return {
            "error": "SyntaxError",
            "message": e.msg,
            "filename": e.filename,
            "lineno": e.lineno,
        }
    except Unsupported as e:
        return {"error": "Unsupported", "message": str(e)}
    except RecursionError as e:
        return {"error": "RecursionError", "message": str(e)}
    except (ValueError, NameError) as e:
        return {"error": type(e).__name__, "message": str(e)}
    except Exception as e:  # noqa: BLE001 - a bug of generation's, reported by name
        return {"error": "Exception", "message": f"{type(e).__name__}: {e}"}


def _raise(answer: dict[str, Any]) -> None:
    """The child's error, rebuilt from its data as one of the types generation raises."""
    kind, message = answer["error"], str(answer.get("message", ""))[:MAX_MESSAGE_CHARS]
    if kind == "DslError":
        raise DslError(str(answer.get("where", ""))[:200], message)
    if kind == "SyntaxError":
        lineno = answer.get("lineno")
        filename = answer.get("filename")
        raise SyntaxError(
            message,
            (
                str(filename)[:200] if filename is not None else None,
                lineno if isinstance(lineno, int) else None,
                None,
                None,
            ),
        )
    errors: dict[str, type[Exception]] = {
        "Unsupported": Unsupported,
        "RecursionError": RecursionError,
        "ValueError": ValueError,
        "NameError": NameError,
    }
    raise errors.get(kind, GenerationFailed)(message)


def _read(fd: int, pid: int) -> bytes:
    """The child's answer, until it closes its end, the bound, or the deadline (then killed)."""
    chunks, size, deadline = [], 0, time.monotonic() + TIMEOUT_S
    while size <= MAX_ANSWER_BYTES:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            break
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        size += len(chunk)
    for target in (-pid, pid):  # its group (it called setsid first), else itself
        try:
            os.kill(target, signal.SIGKILL)
        except ProcessLookupError:
            pass
    return b""


def run(work: Callable[[], Any], shape: type[T]) -> T:
    """`work()` (JSON-serialisable) computed in a confined child, validated as `shape`; its
    errors raised here. An answer of another shape is the foreign code's: GenerationFailed."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child

        def child() -> None:
            os.close(r)
            os.setsid()
            quiet = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):  # nothing it prints reaches the researcher's terminal or log
                os.dup2(quiet, fd)
            unconfined = sandbox.confine_client_child(LIMITS)
            data = json.dumps({**_answer(work), "unconfined": unconfined}).encode()
            with os.fdopen(w, "wb") as out:
                out.write(data)

        sandbox.child_exit(child)
    os.close(w)
    try:
        data = _read(r, pid)
    finally:
        os.close(r)
        _, status = os.waitpid(pid, 0)
    try:
        answer = json.loads(data) if data else None
    except ValueError:
        answer = None
    if not isinstance(answer, dict) or not ({"value", "error"} & answer.keys()):
        why = f"signal {os.WTERMSIG(status)}" if os.WIFSIGNALED(status) else f"status {status >> 8}"
        raise GenerationFailed(f"generation's confined child gave no answer ({why})")
    if answer.get("unconfined"):
        _warn_unconfined(str(answer["unconfined"])[:MAX_MESSAGE_CHARS])
    if "error" in answer:
        _raise(answer)
    try:
        return TypeAdapter(shape).validate_python(answer["value"])
    except ValidationError as e:
        raise GenerationFailed(
            f"generation's confined child answered out of shape ({e.error_count()} errors: "
            f"{str(e.errors()[0]['msg'])[:200]})"
        ) from None


@functools.lru_cache(maxsize=1)
def _warn_unconfined(why: str) -> None:
    """Once a process: the child ran apart from the verdict, but with the researcher's files."""
    warnings.warn(
        f"generation's child could not make the filesystems read-only ({why}): the model's "
        "program and the reference ran with your own file access",
        stacklevel=3,
    )
