#include "util/error.h"

#include <stdarg.h>
#include <stdio.h>

void error_set(facet_error *e, const char *fmt, ...)
{
	if (!e || e->set)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof e->msg, fmt, ap);
	va_end(ap);
	e->set = 1;
}

void error_clear(facet_error *e)
{
	e->set = 0;
	e->msg[0] = 0;
}
