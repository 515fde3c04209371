/* struct_copy.c — struct copies that become memory intrinsics: explicit
 * __builtin_memcpy/__builtin_memset, struct assignment, pass and return by
 * value.  A small 2-D transform library applied to a fixed polygon.
 *
 * Usage: struct_copy [ANGLE_STEPS]   (rotates by 90 degrees per step) */
#include <stdio.h>
#include <stdlib.h>

struct point {
	long x, y;
};

struct polygon {
	int n;
	struct point pts[12];
	char label[32];
};

static struct point rotate90(struct point p)
{
	struct point r = {-p.y, p.x};
	return r;
}

static struct polygon rotate_all(struct polygon in, int steps)
{
	struct polygon out;
	__builtin_memcpy(&out, &in, sizeof out); /* @call(O0) llvm.memcpy*=__builtin_memcpy */
	for (int s = 0; s < steps % 4; s++)
		for (int i = 0; i < out.n; i++)
			out.pts[i] = rotate90(out.pts[i]); /* @call(O0) rotate90 */
	return out;
}

static void clear(struct polygon *p)
{
	__builtin_memset(p, 0, sizeof *p); /* @call llvm.memset*=__builtin_memset */
}

static long area2(const struct polygon *p)
{
	long a = 0;
	for (int i = 0; i < p->n; i++) {
		struct point u = p->pts[i], v = p->pts[(i + 1) % p->n];
		a += u.x * v.y - v.x * u.y;
	}
	return a < 0 ? -a : a;
}

int main(int argc, char **argv)
{
	struct polygon square, turned, saved;
	int steps = argc > 1 ? atoi(argv[1]) : 1; /* @inline-call atoi */

	clear(&square); /* @inline-call clear */
	square.n = 4;
	square.pts[1].x = 2;
	square.pts[2].x = 2;
	square.pts[2].y = 2;
	square.pts[3].y = 2;
	__builtin_memcpy(square.label, "square", 7); /* @call(O0) llvm.memcpy*=__builtin_memcpy */
	turned = rotate_all(square, steps); /* @call(O0) rotate_all */
	saved = turned;
	printf("%s: area2 %ld, first corner (%ld, %ld)\n", saved.label, area2(&saved), /* @call printf @inline-call area2 */
	       saved.pts[1].x, saved.pts[1].y);
	return 0;
}
