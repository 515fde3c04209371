/* win32/config.h — a configuration checked in for another platform's
 * build. The build on this host generates ./config.h from config.h.in,
 * so an `#include "config.h"` beside the template means that one, not this. */
#define HAVE_WIN32_THREADS 1
