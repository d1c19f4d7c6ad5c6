"""`python -m npu_daemon`: run a daemon (the same options as `ascend-gym daemon`)."""

import sys

from npu_daemon.main import main

sys.exit(main())
