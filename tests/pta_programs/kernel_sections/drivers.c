/* drivers.c — kernel_sections' entries from a second unit: the linker
 * joins them with main.c's in the same sections. */
#include "../observe.h"
#include "sections.h"

static int net_hook(void)
{
	OBSERVE_TARGET();
	return 2;
}
HOOK(net_hook);

static int disk_hook(void)
{
	OBSERVE_TARGET();
	return 4;
}
HOOK(disk_hook);

static int debug_param(const char *value)
{
	OBSERVE_TARGET();
	return value[0] == 'o';
}
PARAM("debug", debug_param);

int core_level(void)
{
	OBSERVE_TARGET();
	return 20;
}
LEVEL_CALL(0, core_level);

int device_level(void)
{
	OBSERVE_TARGET();
	return 40;
}
LEVEL_CALL(1, device_level);
