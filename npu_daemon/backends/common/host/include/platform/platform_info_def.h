// The platform package's class definitions (fe::PlatFormInfos) under the name its sources include.
#pragma once

#include "platform/platform_infos_def.h"
