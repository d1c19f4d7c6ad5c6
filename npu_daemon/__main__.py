"""`python -m npu_daemon`: run a daemon (the same options as `ascend-gym daemon`)."""

import sys

from npu_daemon.main import main

if (
    __name__ == "__main__"
):  # worker processes are spawned: importing this module must not start a daemon
    sys.exit(main())
