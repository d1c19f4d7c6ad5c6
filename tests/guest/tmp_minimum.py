"""The kernels of the sharedTmpBuffer minimum tests (test_tmp_min_*.py): level1/add calling a
high-level API after its Add, on `norm`, a float TBuf of 512 ones (tests/daemon/
test_guest_redteam12.py add_calling), its sharedTmpBuffer `size` bytes of that buffer from byte
`offset`. A buffer one 32-byte block under the API's host helper's minimum is refused on both
engines, the message naming the API, the sizes and the helper; one at the minimum passes."""

from __future__ import annotations

from ascend_core.package import OperatorPackage
from ascend_core.protocol import Status
from ascend_core.suite import resolve
from tests.daemon.test_guest_redteam12 import add_calling

BLOCK = 32


def with_tmp(call: str, offset: int, size: int) -> str:
    """`call` in a scope of its own, `tmp` its buffer."""
    return (
        "    {\n"
        f"    LocalTensor<uint8_t> tmp = normBuf.Get<uint8_t>()[{offset}];\n"
        f"    tmp.SetSize({size});\n"
        f"    {call}\n"
        "    }\n"
    )


def add_package(statements: str) -> OperatorPackage:
    return resolve("level1/add").with_sources(kernel=add_calling(statements))


def assert_refused_under(
    engines, call: str, api: str, minimum: int, helper: str, offset: int
) -> None:
    under = minimum - BLOCK
    for result in engines.both(add_package(with_tmp(call, offset, under))):
        assert result.status is Status.RUNTIME_ERROR, (result.status, result.message)
        expected = f"{api}: the sharedTmpBuffer holds {under} bytes, under the minimum of {minimum} bytes {helper}"
        assert expected in result.message, result.message


def assert_passes_at(engines, calls: list[tuple[str, int, int]]) -> None:
    """Each (call, minimum, offset) with a buffer of exactly its minimum, in one kernel."""
    statements = "".join(with_tmp(call, offset, minimum) for call, minimum, offset in calls)
    for result in engines.both(add_package(statements)):
        assert result.status is Status.OK, (result.status, result.message)
