/* wrapper.c — facet-cc: the compiler wrapper of `facet capture` (capture/wrap.h).
 *
 * A program of its own, linking neither libLLVM nor SQLite: it runs once per
 * compile and link of the observed build, so its start-up is part of
 * capture's overhead. */
#include "capture/wrap.h"

int main(int argc, char **argv)
{
	return capture_wrap(argc, argv);
}
