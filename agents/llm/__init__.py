"""LLM plumbing: an OpenAI-compatible chat client with token and cost accounting, a record/replay
cache that makes a run reproducible offline, and extraction of code from replies."""

from agents.llm.cache import ReplayCache, cache_key
from agents.llm.client import ChatClient, ChatReply, LLMConfig, LLMError, Usage
from agents.llm.extract import extract_parts, extract_source

__all__ = [
    "ChatClient",
    "ChatReply",
    "LLMConfig",
    "LLMError",
    "ReplayCache",
    "Usage",
    "cache_key",
    "extract_parts",
    "extract_source",
]
