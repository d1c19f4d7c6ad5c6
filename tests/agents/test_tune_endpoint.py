"""The offline model endpoint (`ascend-gym model`): each answer moves one @tune knob of the
prompt's program as a SEARCH/REPLACE edit that the policies' extraction applies, the same for the
same seed, anew for a repeated request (as a sampling model answers), over real HTTP."""

from __future__ import annotations

import json
import urllib.request

from agents.llm import extract_parts
from agents.llm.tune_endpoint import answer, serve
from ascend_core import suite, tune

ADD = suite.resolve("level1/add")


def prompt(source: str) -> list[dict]:
    return [{"role": "user", "content": f"Host tiling program:\n```cpp\n{source}\n```\n"}]


def test_an_answer_is_one_knob_moved_and_applies():
    sources = {"tiling": ADD.tiling_source, "kernel": ADD.kernel_source}
    reply = answer(prompt(ADD.tiling_source), seed=5)
    assert reply == answer(prompt(ADD.tiling_source), seed=5)
    parts = extract_parts(reply, sources)
    before = {t.name: t.value for t in tune.find_tunables(ADD.tiling_source)}
    after = {t.name: t.value for t in tune.find_tunables(parts["tiling"])}
    assert sum(before[k] != after[k] for k in before) == 1


def test_one_seed_moves_differently_for_different_prompts():
    """OpenEvolve sends one seed with every call: the prompt, not only the seed, picks the move
    (a seed alone sent every parent to the same one or two programs, duplicates after the first)."""
    variants = [
        ADD.tiling_source.replace("BLOCK_DIM = 40;", f"BLOCK_DIM = {n};") for n in range(4, 44, 5)
    ]
    moves = {answer(prompt(v), seed=964427998).split("\n")[0].split(": ", 1)[1] for v in variants}
    targets = {m.split(":")[0] + m.split("->")[-1] for m in moves}  # the knob and its new value
    assert len(targets) >= 4, moves


def test_a_program_without_markers_gets_words_not_code():
    assert "no @tune markers" in answer(prompt("int main() { return 0; }"), seed=1)


def test_served_over_http_without_usage_and_a_repeat_answered_anew():
    """The first answer is `answer`'s for the seed; the same request again gets another draw
    (OpenEvolve asks one prompt with one seed again and again; a fixed answer hit the call cap)."""
    replies = []
    with serve() as server:
        body = {"model": "m", "messages": prompt(ADD.tiling_source), "seed": 2}
        request = urllib.request.Request(
            server.base_url + "/chat/completions", data=json.dumps(body).encode(), method="POST"
        )
        for _ in range(4):
            with urllib.request.urlopen(request, timeout=30) as reply:
                data = json.loads(reply.read())
            assert "usage" not in data
            replies.append(data["choices"][0]["message"]["content"])
    assert replies[0] == answer(prompt(ADD.tiling_source), seed=2)
    assert replies[1] == answer(prompt(ADD.tiling_source), seed=2, repeat=1)
    assert all("SEARCH" in r for r in replies) and len(set(replies)) > 1
