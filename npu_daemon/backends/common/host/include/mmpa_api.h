// CANN's build puts include/mmpa on the include path, so tilings include MMPA by its bare name.
#pragma once
#include "mmpa/mmpa_api.h"
