"""LLM plumbing: the model gateway every policy's calls go through (record/replay, accounting,
the call cap), an OpenAI-compatible chat client and server, and extraction of code from replies."""

from agents.llm.cache import ReplayCache, cache_key
from agents.llm.client import ChatClient, ChatReply, LLMConfig, LLMError, Usage
from agents.llm.extract import extract_parts, extract_source
from agents.llm.gateway import ModelGateway
from agents.llm.server import ChatServer

__all__ = [
    "ChatClient",
    "ChatServer",
    "ChatReply",
    "LLMConfig",
    "LLMError",
    "ModelGateway",
    "ReplayCache",
    "Usage",
    "cache_key",
    "extract_parts",
    "extract_source",
]
