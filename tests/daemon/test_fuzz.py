"""Protocol fuzz: 10,000 malformed, mistyped or oversized messages; the daemon answers each one it
receives with an error and keeps serving."""

from __future__ import annotations

import json
import random

import zmq

from ascend_core import suite
from ascend_core.protocol import EvalRequest, Stage

N_MESSAGES = 10_000
OVERSIZED = 16 * 1024 * 1024 + 1  # past the daemon's MAXMSGSIZE


def _valid() -> dict:
    """Compile-only (cached), so the few mutations that stay valid cost little to evaluate."""
    return json.loads(
        EvalRequest(
            run_id="fuzz", package=suite.resolve("level1/add"), stages=[Stage.COMPILE]
        ).model_dump_json()
    )


def _mutations(rng: random.Random, valid: dict) -> list[list[bytes]]:
    text = json.dumps(valid).encode()
    wrong = [None, 0, -1, 1e308, "", "x" * 1000, [], {}, [1, 2], {"a": {}}, True]
    messages = []
    for i in range(N_MESSAGES):
        kind = i % 8
        if kind == 0:
            payload = rng.randbytes(rng.randrange(0, 2000))
        elif kind == 1:
            payload = text[: rng.randrange(0, len(text))]  # truncated JSON
        elif kind == 2:  # a valid request with one field of a wrong type
            bad = json.loads(text)
            bad[rng.choice(list(bad))] = rng.choice(wrong)
            payload = json.dumps(bad).encode()
        elif kind == 3:  # a wrong type deeper in: the package, its spec, timeouts, stages
            bad = json.loads(text)
            target = rng.choice([bad["package"], bad["package"]["spec"], bad["timeouts"]])
            target[rng.choice(list(target))] = rng.choice(wrong)
            if rng.random() < 0.3:
                bad["stages"] = rng.choice([["nope"], "compile", [1]])
            payload = json.dumps(bad).encode()
        elif kind == 4:  # other message kinds, mistyped
            payload = json.dumps(
                {
                    "kind": rng.choice(["stats", "health", "ledger", "eval", "result", 7, None]),
                    "request_id": rng.choice(wrong),
                    "run_id": rng.choice(wrong),
                }
            ).encode()
        elif kind == 5:  # JSON that is not an object, or nested deep
            payload = rng.choice(
                [b"[]", b"null", b"42", b'"eval"', b"[" * 5000 + b"]" * 5000, b'{"kind":' * 3000]
            )
        elif kind == 6:  # extra fields (requests forbid them)
            bad = json.loads(text)
            bad["extra_" + str(i)] = i
            payload = json.dumps(bad).encode()
        else:  # invalid UTF-8 and control bytes inside a JSON-looking frame
            payload = b'{"kind": "eval", "request_id": "\xff\xfe' + rng.randbytes(20) + b'"}'
        extra = (
            [rng.randbytes(rng.randrange(1, 50)) for _ in range(rng.randrange(0, 3))]
            if i % 5 == 0
            else []
        )
        messages.append([b"", *extra, payload])
    return messages


def test_fuzz_10000_messages_zero_crashes(daemon):
    rng = random.Random(1234)
    messages = _mutations(rng, _valid())
    ctx = zmq.Context.instance()
    dealer = ctx.socket(zmq.DEALER)
    dealer.setsockopt(zmq.LINGER, 0)
    dealer.connect(daemon.address)
    received = 0

    def drain(wait_ms: int) -> None:
        nonlocal received
        while dealer.poll(wait_ms):
            reply = json.loads(dealer.recv_multipart()[-1])
            # A mutation that happens to stay valid (say seed=0, or a stats request) gets its answer.
            assert (
                reply["kind"] in ("result", "stats_reply", "health_reply", "ledger_reply")
                or reply["status"] == "REJECTED"
            ), reply
            received += 1

    for i, frames in enumerate(messages):
        dealer.send_multipart(frames)
        if i % 200 == 199:
            drain(0)
    while received < len(messages) and dealer.poll(10_000):
        drain(200)
    assert received == len(messages)
    dealer.close()

    # Oversized frames: the daemon drops the connection (MAXMSGSIZE) and carries on.
    for _ in range(3):
        big = ctx.socket(zmq.DEALER)
        big.setsockopt(zmq.LINGER, 0)
        big.connect(daemon.address)
        big.send_multipart([b"", b"{" + b" " * OVERSIZED])
        assert not big.poll(300)
        big.close()

    from ascend_gym.client import DaemonClient

    client = DaemonClient(daemon.address)
    assert client.stats().workers_alive == 2
    assert client.health().ok
    client.close()
    assert daemon.process.poll() is None
