// SPDX-License-Identifier: BSD-2-Clause
#include "config.h"
#include "unit.h"
int main(void)
{
	return unit_verdict("placeholder");
}
