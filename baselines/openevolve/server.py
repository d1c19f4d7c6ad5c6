"""A local OpenAI-compatible chat endpoint backed by the offline proposer, for OpenEvolve offline.

OpenEvolve runs unchanged: its LLM client posts its usual prompts to
`http://127.0.0.1:<port>/v1/chat/completions`; this server reads the current program out of the
prompt, changes it with a random composition of moves of the offline knowledge every policy
shares (`agents.knowledge`, as Best-of-N's offline proposer) and answers with SEARCH/REPLACE diffs. It binds only
to loopback and speaks just enough of the API for OpenEvolve: chat completions and the model list.
"""

from __future__ import annotations

import json
import random
import re
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from agents.knowledge import Knowledge
from ascend_gym.package import OperatorPackage
from baselines.openevolve import program as program_io
from baselines.openevolve.evaluator import append_log

MODEL = "ascend-gym-offline"
DRAWS = 20
# OpenEvolve's prompt templates put the program being evolved under this heading, in a fence.
_CURRENT = re.compile(r"# Current Program\n```[^\n]*\n(?P<code>.*?)\n```", re.DOTALL)


class OfflineDiffProposer:
    """Answers a prompt with SEARCH/REPLACE diffs of a random move composition of its program."""

    def __init__(
        self,
        baseline: OperatorPackage,
        seed: int,
        max_moves: int = 2,
        log_path: Path | None = None,
        knowledge: Knowledge | None = None,
    ):
        self.baseline, self.max_moves, self.log_path = baseline, max_moves, log_path
        self.knowledge = knowledge or Knowledge(operator=baseline.uri)
        self.rng = random.Random(seed)
        self.lock = threading.Lock()  # one rng, possibly several request threads

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
            # Moves can cancel out (x2 then /2): draw again rather than answer with an empty diff.
            for _ in range(DRAWS):
                candidate, note = self.knowledge.random_composition(
                    package, self.rng, self.max_moves
                )
                if candidate.content_hash() != package.content_hash():
                    break
            else:
                return "No applicable change found for this program."
        diff = program_io.search_replace(
            program.rstrip("\n"), program_io.compose(candidate).rstrip("\n")
        )
        return f"Changes: {note}\n\n{diff}\n"


class _Handler(BaseHTTPRequestHandler):
    proposer: OfflineDiffProposer  # set on the per-server subclass

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - keep OpenEvolve's console clean
        pass

    def _send(self, status: int, body: dict[str, Any]) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:  # noqa: N802 - http.server's naming
        if self.path.rstrip("/").endswith("/models"):
            self._send(
                200,
                {
                    "object": "list",
                    "data": [{"id": MODEL, "object": "model", "owned_by": "ascend_gym"}],
                },
            )
        else:
            self._send(404, {"error": {"message": f"no route {self.path}"}})

    def do_POST(self) -> None:  # noqa: N802
        if not self.path.rstrip("/").endswith("/chat/completions"):
            self._send(404, {"error": {"message": f"no route {self.path}"}})
            return
        try:
            request = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))))
            messages = request["messages"]
        except (ValueError, KeyError) as e:
            self._send(400, {"error": {"message": f"bad request: {e}"}})
            return
        content = self.proposer.answer(messages)
        prompt_chars = sum(len(str(m.get("content", ""))) for m in messages)
        usage = {
            "prompt_tokens": prompt_chars // 4,
            "completion_tokens": len(content) // 4,
            "total_tokens": (prompt_chars + len(content)) // 4,
        }
        if self.proposer.log_path is not None:
            append_log(self.proposer.log_path, {"time": time.time(), **usage})
        self._send(
            200,
            {
                "id": f"chatcmpl-{uuid.uuid4().hex}",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": request.get("model", MODEL),
                "choices": [
                    {
                        "index": 0,
                        "finish_reason": "stop",
                        "message": {"role": "assistant", "content": content},
                    }
                ],
                # Characters / 4 as a token estimate, so OpenEvolve's token accounting has numbers to add.
                "usage": usage,
            },
        )


class OfflineLLMServer:
    """The endpoint on a free loopback port, served from a background thread until `close()`."""

    def __init__(
        self,
        baseline: OperatorPackage,
        seed: int,
        max_moves: int = 2,
        log_path: Path | None = None,
        knowledge: Knowledge | None = None,
    ):
        proposer = OfflineDiffProposer(baseline, seed, max_moves, log_path, knowledge)
        handler = type("Handler", (_Handler,), {"proposer": proposer})
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._thread = threading.Thread(
            target=self._server.serve_forever, name="offline-llm", daemon=True
        )
        self._thread.start()

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
