"""LLM plumbing (the model gateway every policy talks through), the offline knowledge every
policy shares (`agents.knowledge`), and AscendOptimizer."""
