"""A minimal OpenAI-compatible endpoint on loopback: chat completions and the model list, each
request answered by a function, served from a background thread until `close()`. The model
gateway, the offline endpoint of the OpenEvolve baseline and the tests' scripted models use it."""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Complete = Callable[[dict[str, Any]], tuple[int, dict[str, Any]]]


def error(message: str) -> dict[str, Any]:
    return {"error": {"message": message, "type": "ascend_gym"}}


def chat_reply(content: str, model: str, messages: list[dict[str, Any]]) -> dict[str, Any]:
    """A chat completion answering `messages` with `content`. It reports no `usage`: a local server
    has no tokenizer, and an estimate stored as tokens would be read as a count (the gateway
    counts characters for every endpoint)."""
    return {
        "id": f"chatcmpl-{uuid.uuid4().hex}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [
            {
                "index": 0,
                "finish_reason": "stop",
                "message": {"role": "assistant", "content": content},
            }
        ],
    }


def answering(answer: Callable[[list[dict[str, Any]]], str]) -> Complete:
    """A `Complete` that answers every well-formed request with `answer(messages)`."""

    def complete(body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        messages = body.get("messages")
        if not isinstance(messages, list):
            return 400, error("the request has no messages")
        return 200, chat_reply(answer(messages), str(body.get("model", "")), messages)

    return complete


class _Handler(BaseHTTPRequestHandler):
    complete: Complete  # set on the per-server subclass
    model: str

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - keep consoles clean
        pass

    def _send(self, status: int, body: dict[str, Any]) -> None:
        data = json.dumps(body).encode()
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True  # the client gave up waiting: no one to answer

    def do_GET(self) -> None:  # noqa: N802 - http.server's naming
        if self.path.rstrip("/").endswith("/models"):
            entry = {"id": self.model, "object": "model", "owned_by": "ascend_gym"}
            self._send(200, {"object": "list", "data": [entry]})
        else:
            self._send(404, error(f"no route {self.path}"))

    def do_POST(self) -> None:  # noqa: N802
        if not self.path.rstrip("/").endswith("/chat/completions"):
            self._send(404, error(f"no route {self.path}"))
            return
        try:
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))))
        except ValueError as e:
            self._send(400, error(f"bad request: {e}"))
            return
        self._send(*type(self).complete(body))


class ChatServer:
    """`complete(body) -> (HTTP status, JSON reply)` served at `base_url` (127.0.0.1; port 0: a
    free one)."""

    def __init__(self, complete: Complete, model: str = "ascend-gym", port: int = 0):
        handler = type("Handler", (_Handler,), {"complete": staticmethod(complete), "model": model})
        self._server = ThreadingHTTPServer(("127.0.0.1", port), handler)
        self._thread = threading.Thread(
            target=self._server.serve_forever, name="chat-server", daemon=True
        )
        self._thread.start()

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> ChatServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
