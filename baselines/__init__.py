"""Baseline policies: random search over @tune markers (more arrive with their issues)."""
