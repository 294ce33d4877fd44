/* SPDX-License-Identifier: MIT */
#include "asmcap-caps.h"

int sample_has_adx(void)
{
#ifdef ASMCAP_ADX
	return 1;
#else
	return 0;
#endif
}
