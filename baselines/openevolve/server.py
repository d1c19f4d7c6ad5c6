"""A local OpenAI-compatible chat endpoint backed by the offline proposer, for OpenEvolve offline.

OpenEvolve runs unchanged: its LLM client posts its usual prompts to
`http://127.0.0.1:<port>/v1/chat/completions`; this server reads the current program out of the
prompt, changes it with a random composition of moves of the offline knowledge every policy
shares (`agents.knowledge`, as Best-of-N's offline proposer) and answers with SEARCH/REPLACE diffs. It binds only
to loopback and speaks just enough of the API for OpenEvolve (`agents.llm.server`). The run's
model gateway sits in front of it, as in front of a real model.
"""

from __future__ import annotations

import random
import re
import threading
from typing import Any

from agents.knowledge import Knowledge
from agents.llm.server import ChatServer, answering
from ascend_core.package import OperatorPackage
from baselines.openevolve import program as program_io

MODEL = "ascend-gym-offline"
# Draws for a candidate not proposed before: compositions repeat often where an operator has few
# moves (a real operator's two template knobs), and a repeat is a free cache hit that yields no
# evaluation, which the gateway's cap counts against the model.
DRAWS = 200
# OpenEvolve's prompt templates put the program being evolved under this heading, in a fence.
_CURRENT = re.compile(r"# Current Program\n```[^\n]*\n(?P<code>.*?)\n```", re.DOTALL)


class OfflineDiffProposer:
    """Answers a prompt with SEARCH/REPLACE diffs of a random move composition of its program."""

    def __init__(
        self,
        baseline: OperatorPackage,
        seed: int,
        max_moves: int = 2,
        knowledge: Knowledge | None = None,
    ):
        self.baseline, self.max_moves = baseline, max_moves
        self.knowledge = knowledge or Knowledge(operator=baseline.uri)
        self.rng = random.Random(seed)
        self.lock = threading.Lock()  # one rng, possibly several request threads
        # Programs proposed (the program is what OpenEvolve sees): never one twice, whatever the
        # parent.
        self.proposed = {program_io.compose(baseline)}
        self.dry = 0  # answers in a row with nothing new: the knowledge is spent when it persists

    def answer(self, messages: list[dict[str, Any]]) -> str:
        prompt = "\n".join(str(m.get("content", "")) for m in messages if m.get("role") == "user")
        m = _CURRENT.search(prompt)
        if m is None:
            return "I found no program in the prompt to change."
        program = m["code"] + "\n"
        try:
            package = program_io.split(program, self.baseline)
        except program_io.ProgramError as e:
            return f"I cannot map this program onto the operator: {e}"
        with self.lock:
            # Moves can cancel out (x2 then /2) and compositions repeat: draw again rather than
            # answer with an empty diff or a program already proposed.
            for _ in range(DRAWS):
                candidate, note = self.knowledge.random_composition(
                    package, self.rng, self.max_moves
                )
                fresh = program_io.compose(candidate)
                if fresh != program and fresh not in self.proposed:
                    self.proposed.add(fresh)
                    self.dry = 0
                    break
            else:
                self.dry += 1
                return "No new change found for this program."
        diff = program_io.search_replace(program.rstrip("\n"), fresh.rstrip("\n"))
        return f"Changes: {note}\n\n{diff}\n"


class OfflineLLMServer(ChatServer):
    """The endpoint on a free loopback port, served from a background thread until `close()`."""

    def __init__(
        self,
        baseline: OperatorPackage,
        seed: int,
        max_moves: int = 2,
        knowledge: Knowledge | None = None,
    ):
        self.proposer = OfflineDiffProposer(baseline, seed, max_moves, knowledge)
        super().__init__(answering(self.proposer.answer), MODEL)
