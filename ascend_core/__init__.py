"""ascend_core: what both sides stand on. The wire messages, the operator package, the C++ source
scanner, the `@tune` markers, the suite registry and the SoC presets. It imports nothing else of the
project, so the daemon runs without the research side (Gymnasium, Ray, torch)."""
