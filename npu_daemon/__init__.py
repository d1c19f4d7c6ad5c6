"""npu_daemon: compiles, checks and times AscendC operator candidates for ascend_gym clients."""
