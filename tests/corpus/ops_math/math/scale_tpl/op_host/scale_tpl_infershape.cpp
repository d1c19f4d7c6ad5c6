// Graph-mode shape inference: not part of a kernel launch, so the runner leaves it out (this
// header exists nowhere; compiling the file would fail).
#include "exe_graph/runtime/no_such_header_in_a_launch.h"
