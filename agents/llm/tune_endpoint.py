"""An offline OpenAI-compatible endpoint for trying a model-driven run without a model.

It answers every chat request the way a cautious model might: it finds the `@tune` markers of the
first program in the prompt that has any, moves one of them to another value of its grid (the
choice follows the request, its seed and its prompt, and how often the same request came before,
as a sampling model answers a repeated prompt anew: answers are reproducible), and replies with one
SEARCH/REPLACE edit of that line, a form every policy's extraction accepts. It reports no token
usage (it has no tokenizer); the model gateway in front of it counts calls and characters. It
knows nothing of performance: what a run finds through it is what the search around the model
finds, with a model that only ever tweaks a knob.
"""

from __future__ import annotations

import json
import random
import re
import threading
from typing import Any

from agents.llm.server import ChatServer, answering
from ascend_core import tune

MODEL = "ascend-gym-tune"
_FENCE = re.compile(r"```[^\n`]*\n(?P<body>.*?)```", re.DOTALL)


def answer(messages: list[dict[str, Any]], seed: int | None = None, repeat: int = 0) -> str:
    """The reply to one chat (asked `repeat` times before): a SEARCH/REPLACE edit of one @tune
    line, or a refusal in words."""
    text = "\n".join(str(m.get("content") or "") for m in messages if m.get("role") == "user")
    rng = random.Random(f"{seed}/{repeat}/{text}")  # str seeds hash with sha512: reproducible
    for fence in _FENCE.finditer(text):
        program = fence["body"]
        try:
            if not tune.find_tunables(program):
                continue
            new, note = tune.random_mutation(program, rng)
        except ValueError:  # a malformed marker: look further
            continue
        old_lines, new_lines = program.split("\n"), new.split("\n")
        changed = [i for i, (a, b) in enumerate(zip(old_lines, new_lines)) if a != b]
        if not changed:
            continue
        line = changed[0]
        return (
            f"Move one knob: {note}.\n<<<<<<< SEARCH\n{old_lines[line]}\n=======\n"
            f"{new_lines[line]}\n>>>>>>> REPLACE\n"
        )
    return "The program shows no @tune markers: nothing to change."


def serve(port: int = 0) -> ChatServer:
    """The endpoint on 127.0.0.1:`port` (0: a free one); `base_url` says where."""

    asked: dict[str, int] = {}  # request -> times answered
    lock = threading.Lock()

    def complete(body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        request = json.dumps([body.get("seed"), body.get("messages")], sort_keys=True)
        with lock:
            repeat = asked.get(request, 0)
            asked[request] = repeat + 1
        seeded = answering(lambda messages: answer(messages, body.get("seed"), repeat))
        return seeded(body)

    return ChatServer(complete, MODEL, port=port)
