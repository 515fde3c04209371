/* sbitmap.c — sorted element arrays; unions merge in place from the back.
 *
 * The hot operation is dst ∪= src where src is a small delta and dst a large
 * points-to set. So a union first walks src and finds each element in dst by
 * galloping search (cost O(|src| log(|dst|/|src|)), not O(|dst|)), ORs bits
 * into elements that exist, and only if some element is missing grows dst and
 * merges backwards, which moves just the part of dst after the first
 * insertion point. */
#include "util/sbitmap.h"
#include "util/xalloc.h"

#include <assert.h>
#include <string.h>

/* Bits set in x. popcount64 is a library call on the baseline
 * x86-64 this is built for (no POPCNT instruction assumed), and it was 2% of
 * the solver's time; the SWAR count is a dozen inline operations. */
static inline unsigned popcount64(uint64_t x)
{
	x -= (x >> 1) & 0x5555555555555555ULL;
	x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
	return (unsigned)((x * 0x0101010101010101ULL) >> 56);
}

#define IDX(i)  ((uint32_t)((i) / SBM_BITS))
#define WORD(i) (((i) % SBM_BITS) / 64u)
#define BIT(i)  ((uint64_t)1 << ((i) % 64u))

void sbm_init(sbitmap *s)
{
	s->elems = NULL;
	s->len = s->cap = 0;
}

void sbm_free(sbitmap *s)
{
	free(s->elems);
	sbm_init(s);
}

void sbm_clear(sbitmap *s)
{
	s->len = 0;
}

static void reserve(sbitmap *s, uint32_t n)
{
	if (n <= s->cap)
		return;
	uint32_t cap = s->cap ? s->cap : 2;
	while (cap < n)
		cap = cap > UINT32_MAX / 2 ? n : cap * 2;
	s->elems = xrealloc(s->elems, (size_t)cap * sizeof *s->elems);
	s->cap = cap;
}

/* First position p >= lo with e[p].idx >= idx, galloping from lo: cheap when
 * the answer is near lo, logarithmic when it is far. */
static uint32_t seek(const sbm_elem *e, uint32_t lo, uint32_t n, uint32_t idx)
{
	if (lo >= n || e[lo].idx >= idx)
		return lo;
	/* invariant: e[lo].idx < idx; grow the step until e[hi].idx >= idx or hi == n */
	uint32_t step = 1, hi = lo + 1;
	while (hi < n && e[hi].idx < idx) {
		lo = hi;
		step *= 2;
		hi = n - lo > step ? lo + step : n;
	}
	/* answer in (lo, hi] */
	lo++;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (e[mid].idx < idx)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static sbm_elem *find(const sbitmap *s, uint32_t idx)
{
	uint32_t p = seek(s->elems, 0, s->len, idx);
	return p < s->len && s->elems[p].idx == idx ? &s->elems[p] : NULL;
}

bool sbm_set(sbitmap *s, unsigned i)
{
	uint32_t idx = IDX(i);
	uint32_t p;
	/* appending in ascending order is the common way sets are built */
	if (s->len && s->elems[s->len - 1].idx < idx)
		p = s->len;
	else if (s->len && s->elems[s->len - 1].idx == idx)
		p = s->len - 1;
	else
		p = seek(s->elems, 0, s->len, idx);
	if (p < s->len && s->elems[p].idx == idx) {
		uint64_t *w = &s->elems[p].w[WORD(i)];
		if (*w & BIT(i))
			return false;
		*w |= BIT(i);
		return true;
	}
	reserve(s, s->len + 1);
	memmove(&s->elems[p + 1], &s->elems[p], (size_t)(s->len - p) * sizeof *s->elems);
	s->elems[p] = (sbm_elem){ .idx = idx };
	s->elems[p].w[WORD(i)] = BIT(i);
	s->len++;
	return true;
}

bool sbm_test(const sbitmap *s, unsigned i)
{
	const sbm_elem *e = find(s, IDX(i));
	return e && (e->w[WORD(i)] & BIT(i));
}

bool sbm_reset(sbitmap *s, unsigned i)
{
	sbm_elem *e = find(s, IDX(i));
	if (!e || !(e->w[WORD(i)] & BIT(i)))
		return false;
	e->w[WORD(i)] &= ~BIT(i);
	if (!e->w[0] && !e->w[1]) {
		uint32_t p = (uint32_t)(e - s->elems);
		memmove(e, e + 1, (size_t)(s->len - p - 1) * sizeof *e);
		s->len--;
	}
	return true;
}

/* dst ∪= the n sorted elements at src (which must not live inside dst). */
static bool ior(sbitmap *dst, const sbm_elem *src, uint32_t n)
{
	bool changed = false;
	uint32_t missing = 0, j = 0, first = UINT32_MAX;
	for (uint32_t k = 0; k < n; k++) {
		j = seek(dst->elems, j, dst->len, src[k].idx);
		if (j < dst->len && dst->elems[j].idx == src[k].idx) {
			sbm_elem *d = &dst->elems[j];
			uint64_t a0 = src[k].w[0] & ~d->w[0], a1 = src[k].w[1] & ~d->w[1];
			if (a0 | a1) {
				d->w[0] |= a0;
				d->w[1] |= a1;
				changed = true;
			}
		} else {
			if (!missing)
				first = j;
			missing++;
		}
	}
	if (!missing)
		return changed;
	/* Merge backwards: positions below `first` are already in place. Matching
	 * elements were ORed above, so here a match just keeps dst's element. */
	reserve(dst, dst->len + missing);
	sbm_elem *d = dst->elems;
	int64_t i = (int64_t)dst->len - 1, k = (int64_t)n - 1, w = (int64_t)dst->len + missing - 1;
	while (k >= 0 && w > i) {
		if (i >= (int64_t)first && d[i].idx > src[k].idx)
			d[w--] = d[i--];
		else if (i >= (int64_t)first && d[i].idx == src[k].idx) {
			d[w--] = d[i--];
			k--;
		} else
			d[w--] = src[k--];
	}
	dst->len += missing;
	return true;
}

bool sbm_union(sbitmap *dst, const sbitmap *src)
{
	if (dst == src || !src->len)
		return false;
	if (!dst->len) {
		sbm_copy(dst, src);
		return true;
	}
	return ior(dst, src->elems, src->len);
}

size_t sbm_union_track(sbitmap *dst, const sbitmap *src, sbitmap *added)
{
	if (dst == src || !src->len)
		return 0;
	/* One pass over src: bits of an element dst already has are ORed into it
	 * at once; the elements dst lacks wait in `miss` and are merged in after
	 * (only they are looked up again). Everything dst gains is collected for
	 * `added`: straight into it when it is empty — a receiver not yet on the
	 * worklist, the usual case — else on the stack when small, else on the
	 * heap. When added is dst, nothing more is to be done for it. */
	sbm_elem gbuf[32], mbuf[32];
	bool direct = added->len == 0 && added != dst && added != src;
	bool keep = !direct && added != dst;
	sbm_elem *gain = gbuf, *miss = src->len <= 32 ? mbuf : xmalloc((size_t)src->len * sizeof *miss);
	if (direct) {
		reserve(added, src->len);
		gain = added->elems;
	} else if (keep && src->len > 32)
		gain = xmalloc((size_t)src->len * sizeof *gain);
	uint32_t ng = 0, nm = 0, j = 0;
	size_t bits = 0;
	for (uint32_t k = 0; k < src->len; k++) {
		const sbm_elem *s = &src->elems[k];
		j = seek(dst->elems, j, dst->len, s->idx);
		uint64_t a0 = s->w[0], a1 = s->w[1];
		if (j < dst->len && dst->elems[j].idx == s->idx) {
			sbm_elem *d = &dst->elems[j];
			a0 &= ~d->w[0];
			a1 &= ~d->w[1];
			if (!(a0 | a1))
				continue;
			d->w[0] |= a0;
			d->w[1] |= a1;
		} else
			miss[nm++] = *s;
		if (direct || keep)
			gain[ng++] = (sbm_elem){ .idx = s->idx, .w = { a0, a1 } };
		bits += (size_t)popcount64(a0) + (size_t)popcount64(a1);
	}
	if (nm)
		ior(dst, miss, nm);
	if (direct)
		added->len = ng;
	else if (keep && ng)
		ior(added, gain, ng);
	if (miss != mbuf)
		free(miss);
	if (gain != gbuf && !direct)
		free(gain);
	return bits;
}

void sbm_diff(sbitmap *c, const sbitmap *a, const sbitmap *b)
{
	if (c != a)
		reserve(c, a->len);
	/* Writing position k never passes reading position i, so c may be a. */
	uint32_t k = 0, j = 0;
	for (uint32_t i = 0; i < a->len; i++) {
		sbm_elem e = a->elems[i];
		j = seek(b->elems, j, b->len, e.idx);
		if (j < b->len && b->elems[j].idx == e.idx) {
			e.w[0] &= ~b->elems[j].w[0];
			e.w[1] &= ~b->elems[j].w[1];
			if (!e.w[0] && !e.w[1])
				continue;
		}
		c->elems[k++] = e;
	}
	c->len = k;
}

bool sbm_subtract(sbitmap *dst, const sbitmap *src)
{
	if (dst == src) {
		bool had = dst->len != 0;
		sbm_clear(dst);
		return had;
	}
	size_t before = sbm_count(dst);
	sbm_diff(dst, dst, src);
	return sbm_count(dst) != before;
}

bool sbm_intersect(sbitmap *dst, const sbitmap *src)
{
	if (dst == src)
		return false;
	bool changed = false;
	uint32_t k = 0, j = 0;
	for (uint32_t i = 0; i < dst->len; i++) {
		sbm_elem e = dst->elems[i];
		j = seek(src->elems, j, src->len, e.idx);
		if (j < src->len && src->elems[j].idx == e.idx) {
			uint64_t w0 = e.w[0] & src->elems[j].w[0], w1 = e.w[1] & src->elems[j].w[1];
			if (w0 != e.w[0] || w1 != e.w[1])
				changed = true;
			if (!w0 && !w1)
				continue;
			e.w[0] = w0;
			e.w[1] = w1;
			dst->elems[k++] = e;
		} else
			changed = true;
	}
	dst->len = k;
	return changed;
}

bool sbm_intersects(const sbitmap *a, const sbitmap *b)
{
	uint32_t i = 0, j = 0;
	while (i < a->len && j < b->len) {
		if (a->elems[i].idx < b->elems[j].idx)
			i = seek(a->elems, i, a->len, b->elems[j].idx);
		else if (a->elems[i].idx > b->elems[j].idx)
			j = seek(b->elems, j, b->len, a->elems[i].idx);
		else {
			if ((a->elems[i].w[0] & b->elems[j].w[0]) | (a->elems[i].w[1] & b->elems[j].w[1]))
				return true;
			i++;
			j++;
		}
	}
	return false;
}

bool sbm_subset(const sbitmap *a, const sbitmap *b)
{
	if (a->len > b->len)
		return false;
	uint32_t j = 0;
	for (uint32_t i = 0; i < a->len; i++) {
		j = seek(b->elems, j, b->len, a->elems[i].idx);
		if (j == b->len || b->elems[j].idx != a->elems[i].idx)
			return false;
		if ((a->elems[i].w[0] & ~b->elems[j].w[0]) | (a->elems[i].w[1] & ~b->elems[j].w[1]))
			return false;
	}
	return true;
}

bool sbm_equal(const sbitmap *a, const sbitmap *b)
{
	if (a->len != b->len)
		return false;
	for (uint32_t i = 0; i < a->len; i++) {
		const sbm_elem *x = &a->elems[i], *y = &b->elems[i];
		if (x->idx != y->idx || x->w[0] != y->w[0] || x->w[1] != y->w[1])
			return false;
	}
	return true;
}

size_t sbm_count(const sbitmap *s)
{
	size_t n = 0;
	for (uint32_t i = 0; i < s->len; i++)
		n += (size_t)popcount64(s->elems[i].w[0]) + (size_t)popcount64(s->elems[i].w[1]);
	return n;
}

void sbm_copy(sbitmap *dst, const sbitmap *src)
{
	if (dst == src)
		return;
	reserve(dst, src->len);
	if (src->len)
		memcpy(dst->elems, src->elems, (size_t)src->len * sizeof *src->elems);
	dst->len = src->len;
}

void sbm_swap(sbitmap *a, sbitmap *b)
{
	sbitmap t = *a;
	*a = *b;
	*b = t;
}

/* One element's hash: a bijection of each word (multiplying by an odd
 * constant), then a finaliser (MurmurHash3's fmix64) so that every bit of
 * the element reaches every bit of the hash. */
static inline uint64_t elem_hash(const sbm_elem *e)
{
	uint64_t w1 = e->w[1] * 0xc2b2ae3d27d4eb4fULL;
	uint64_t k = (e->w[0] + (uint64_t)e->idx * 0x165667b19e3779f9ULL) * 0x9e3779b97f4a7c15ULL ^ (w1 << 32 | w1 >> 32);
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	return k;
}

/* The sum of the elements' hashes: no element waits for the one before it
 * (a chained hash costs a multiply's latency per word, and points-to sets
 * of thousands of elements are hashed every time they change). */
uint64_t sbm_hash(const sbitmap *s)
{
	uint64_t h = 0x84222325cbf29ce4ULL ^ s->len;
	for (uint32_t i = 0; i < s->len; i++)
		h += elem_hash(&s->elems[i]);
	return h;
}

uint64_t sbm_hash_update(uint64_t h, uint32_t old_len, const sbitmap *s, const sbitmap *added)
{
	h -= 0x84222325cbf29ce4ULL ^ old_len;
	uint32_t j = 0;
	for (uint32_t k = 0; k < added->len; k++) {
		const sbm_elem *a = &added->elems[k];
		j = seek(s->elems, j, s->len, a->idx);
		assert(j < s->len && s->elems[j].idx == a->idx);
		const sbm_elem *now = &s->elems[j];
		sbm_elem was = { .idx = now->idx, .w = { now->w[0] & ~a->w[0], now->w[1] & ~a->w[1] } };
		h += elem_hash(now);
		if (was.w[0] | was.w[1])
			h -= elem_hash(&was);
	}
	return h + (0x84222325cbf29ce4ULL ^ s->len);
}

size_t sbm_bytes(const sbitmap *s)
{
	return (size_t)s->cap * sizeof *s->elems;
}
