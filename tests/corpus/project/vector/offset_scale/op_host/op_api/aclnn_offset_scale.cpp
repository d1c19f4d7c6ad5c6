// The operator's aclnn layer: not part of a kernel launch's build.
#include "offset_api.h"
