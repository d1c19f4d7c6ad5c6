// The op base's host half type under the include path some ops-math tilings use.
#pragma once

#include "util/fp16.h"
