/* A call through a mismatched prototype: main.c declares stamp with two
 * parameters, stamp.c defines it with one, so after linking the call's
 * function type is not the definition's. LLVM counts such a call as
 * indirect (getCalledFunction is null), but it names the function itself:
 * R0 must hold it although the IR types differ (redis calls
 * scriptIsTimedout() and 40 other functions declared `f()` this way). */
#include <stdio.h>

int stamp(int n, int extra);   /* stamp.c: int stamp(int n) */

int main(int argc, char **argv)
{
	(void)argv;
	return stamp(argc, 2) > 0 ? 0 : 1; /* SITE stamp */
}

/*
 // EXPECT stamp field: unrecovered
 // EXPECT stamp r0: stamp
 // EXPECT stamp rpm: stamp
 // EXPECT stamp rplus: stamp
 */
