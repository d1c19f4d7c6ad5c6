"""The cube API's Fill / InitConstValue on both engines: packages/cube_fill fills parts of A in L1
(as half and as uint32_t words), of A in L0A and of B in L0B between the loads, and both engines give
the product of the filled matrices bit-exactly at one simulated latency; a fill past its tensor, or
of a forged tensor past its buffer, stops the kernel on the guest engine. The CCE flags' integer
event ids ride along."""

from __future__ import annotations

from pathlib import Path

import pytest

from ascend_core.package import load_package
from ascend_core.protocol import EvalRequest, Stage, Status, Timeouts

CUBE_FILL = Path(__file__).parent / "packages" / "cube_fill"
L0A_FILL = "  InitConstValue(a2[256], {1, 1, 0, half(0.5f)});\n"


def test_fills_of_l1_l0a_and_l0b_match_the_native_engine_and_the_reference(engines):
    guest = engines.same(load_package(CUBE_FILL))
    assert all(c.passed and c.max_abs_error == 0.0 for c in guest.cases)


def test_without_the_fills_the_reference_fails(engines):
    # The fills decide the output: the kernel without its L0A fill is a wrong answer on both engines.
    pkg = load_package(CUBE_FILL)
    kernel = pkg.files["op_kernel/cube_fill.cpp"]
    assert L0A_FILL in kernel
    native, guest = engines.both(pkg.with_sources(kernel=kernel.replace(L0A_FILL, "")))
    assert native.status is Status.WRONG_ANSWER and guest.status is Status.WRONG_ANSWER


def test_cce_flags_with_an_integer_event_id_match_the_native_engine(engines):
    # set_flag / wait_flag with the event as an integer (conv kernels' uint16_t ping-pong flag).
    pkg = load_package(CUBE_FILL)
    kernel = pkg.files["op_kernel/cube_fill.cpp"]
    flags = (
        "  const uint16_t flag = 1;\n  set_flag(PIPE_MTE1, PIPE_M, flag);\n"
        "  wait_flag(PIPE_MTE1, PIPE_M, flag);\n"
    )
    engines.same(pkg.with_sources(kernel=kernel.replace(L0A_FILL, L0A_FILL + flags)))


@pytest.mark.parametrize(
    "fill,words",
    [
        # 3 fractals from fractal 2 of a 4-fractal tensor: one fractal past it.
        ("  InitConstValue(a2[512], {3, 1, 0, half(0.5f)});\n", "exceeds the tensor"),
        # A forged L0A tensor of 16 Mi elements: past L0A, wherever the fill would reach.
        ("  Fill(LocalTensor<half>(0, 1u << 24, TPosition::A2), {1, 1, 0, half(0)});\n", "past"),
    ],
)
def test_a_fill_past_its_tensor_stops_the_kernel(engines, fill, words):
    pkg = load_package(CUBE_FILL)
    kernel = pkg.files["op_kernel/cube_fill.cpp"]
    result = engines.guest.evaluate(
        EvalRequest(
            run_id="cube-fill-past",
            package=pkg.with_sources(kernel=kernel.replace(L0A_FILL, fill)),
            stages=[Stage.COMPILE, Stage.CHECK],
            timeouts=Timeouts(build_s=300, run_s=120),
        )
    )
    assert result.status is Status.RUNTIME_ERROR, result.message
    assert words in result.message, result.message
