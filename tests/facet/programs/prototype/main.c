/* A call through a mismatched prototype: main.c declares stamp with two
 * parameters, stamp.c defines it with one, so after linking the call's
 * function type is not the definition's. LLVM counts such a call as
 * indirect (getCalledFunction is null), but it names the function itself:
 * R0 must hold it although the IR types differ (redis calls
 * scriptIsTimedout() and 40 other functions declared `f()` this way). The
 * same holds for a call through an unprototyped declaration (`int later();`).
 * Neither is a call through a pointer: `facet fields` and `facet stats`
 * report them as their own kind ("named"). */
#pragma clang diagnostic ignored "-Wdeprecated-non-prototype"
#include <stdio.h>

int stamp(int n, int extra);   /* stamp.c: int stamp(int n) */
int later();                   /* unprototyped; stamp.c: int later(int n, const char *s) */

int main(int argc, char **argv)
{
	(void)argv;
	later(argc, argv[0]); /* SITE later */
	return stamp(argc, 2) > 0 ? 0 : 1; /* SITE stamp */
}

/*
 // EXPECT stamp field: named
 // EXPECT stamp r0: stamp
 // EXPECT stamp rpm: stamp
 // EXPECT stamp rplus: stamp
 // EXPECT later field: named
 // EXPECT later r0: later
 // EXPECT later rpm: later
 // COUNT stats sites_indirect_named: 2
 // COUNT fields sites_named: 2
 */
