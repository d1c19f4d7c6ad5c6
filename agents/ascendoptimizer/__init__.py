"""AscendOptimizer (arXiv 2603.23566): Stage I tiling evolution, Stage II rewind experience bank
and retrieval-augmented kernel rewriting, alternated. The policy is
`agents.ascendoptimizer.policy.AscendOptimizer` (registry name "ascendoptimizer")."""
