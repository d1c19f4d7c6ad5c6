"""The OpenEvolve baseline: the real `openevolve` package evolving an operator.

- `policy`: the policy (one OpenEvolve instance per run, in a Ray actor, stopped at budget);
- `program`: an operator package as one OpenEvolve program with two EVOLVE-BLOCKs, and back;
- `evaluator`: the file OpenEvolve's workers load by path to score a program on the daemon;
- `server`: the offline OpenAI-compatible endpoint answering with the shared offline knowledge;
- `config.yaml`: every OpenEvolve setting, on purpose.
"""
