"""LLM plumbing and AscendOptimizer."""
