/* Arrays of function pointers inside structs (issue 15.5): a per-encoding
 * struct holds an array of scanner functions, one per tokenizer state
 * (`enc->scanners[state]`). A variable index stays inside the member array
 * it indexes (issue 16), so the points-to analysis keeps each element's
 * field: R0 at a constant index has that element's scanners, at a variable
 * index every element's. Where the index is a constant the element is its
 * own key (encoding@16 for scanners[1]); where it is not, the key is the
 * whole array (encoding@8[], and `facet explain` says so). A write through a
 * variable index may land in any element: install() puts any_scan into
 * every element's F. In C the constant globals' IR type is an unnamed
 * literal struct (padding), so their member arrays come from the debug
 * info: C and C++ must agree here (tests/cxx/check_c_as_cxx.py). */
#include <stdio.h>

typedef int (*scanner)(const char *p);

struct encoding {
	const char *name;
	scanner scanners[3];
	int min_len;
};

static int s_data(const char *p) { return p[0]; }
static int s_tag(const char *p) { return p[1]; }
static int s_attr(const char *p) { return p[2]; }
static int u_data(const char *p) { return -p[0]; }
static int u_tag(const char *p) { return -p[1]; }
static int u_attr(const char *p) { return -p[2]; }
static int any_scan(const char *p) { return p[0] ^ p[1]; }

static const struct encoding utf8 = {"utf8", {s_data, s_tag, s_attr}, 1};
static const struct encoding utf16 = {"utf16", {u_data, u_tag, u_attr}, 2};
static struct encoding custom = {"custom", {NULL, NULL, NULL}, 1};

__attribute__((noinline)) static void install(struct encoding *e, scanner f, int n)
{
	for (int i = 0; i < n; i++)
		e->scanners[i] = f;
}

__attribute__((noinline)) static int scan_tag(const struct encoding *enc, const char *p)
{
	return enc->scanners[1](p); /* SITE tag */
}

__attribute__((noinline)) static int scan_state(const struct encoding *enc, int state, const char *p)
{
	return enc->scanners[state](p); /* SITE state */
}

int main(int argc, char **argv)
{
	install(&custom, any_scan, argc + 2);
	const struct encoding *e = argc > 3 ? &custom : argc > 2 ? &utf16 : &utf8;
	return scan_tag(e, argv[0]) + scan_state(e, argc % 3, argv[0]);
}

/* The constant index keeps the tag scanners and what install() may have
 * put there; the variable index keeps every element's.
 // EXPECT tag field: encoding.scanners[1]
 // EXPECT tag r0: any_scan s_tag u_tag
 // EXPECT tag rulesonly: any_scan s_tag u_tag
 // EXPECT tag rpm: any_scan s_tag u_tag
 // EXPECT tag decision u_tag: add supported Add-Witness true
 // EXPECT state field: encoding.scanners[]
 // EXPECT state r0: any_scan s_attr s_data s_tag u_attr u_data u_tag
 // EXPECT state rulesonly: any_scan s_attr s_data s_tag u_attr u_data u_tag
 */
