/* global_fp.c — a string interner whose hash function and log sink are
 * global function pointers: current_hash starts from a static initializer
 * and is replaced at run time (the table is then rehashed), log_sink is set
 * through a setter, and checksum is a second global of the hash type that
 * only ever holds hash_len.
 *
 * Covers: a function pointer in a global, from an initializer and from
 * stores; two globals of one type keep their own sets. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "observe.h"

#define NBUCKET 16

typedef unsigned (*hash_fn)(const char *s);
typedef void (*sink_fn)(const char *msg);

static unsigned hash_djb2(const char *s)
{
	OBSERVE_TARGET();
	unsigned h = 5381;
	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h;
}

static unsigned hash_fnv1a(const char *s)
{
	OBSERVE_TARGET();
	unsigned h = 2166136261u;
	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static unsigned hash_len(const char *s)
{
	OBSERVE_TARGET();
	return (unsigned)strlen(s);
}

static unsigned long logged_bytes;

static void sink_count(const char *msg)
{
	OBSERVE_TARGET();
	logged_bytes += strlen(msg);
}

static void sink_stdout(const char *msg)
{
	OBSERVE_TARGET();
	puts(msg);
}

hash_fn current_hash = hash_djb2; /* external: may be replaced by anyone */
static hash_fn checksum = hash_len;
static sink_fn log_sink;

struct word {
	const char *text;
	struct word *next;
};

static struct word words[32];
static struct word *buckets[NBUCKET];
static int nwords;

void set_log_sink(sink_fn fn)
{
	log_sink = fn;
}

static void log_msg(const char *msg)
{
	if (log_sink)
		ICALL(log_sink(msg)); /* @r0: sink_count sink_stdout */
}

static unsigned bucket_of(const char *s)
{
	return ICALL(current_hash(s)) % NBUCKET; /* @r0: hash_djb2 hash_fnv1a */
}

static const char *intern(const char *s)
{
	unsigned b = bucket_of(s);
	for (struct word *w = buckets[b]; w; w = w->next)
		if (strcmp(w->text, s) == 0)
			return w->text;
	if (nwords == 32)
		return NULL;
	struct word *w = &words[nwords++];
	w->text = s;
	w->next = buckets[b];
	buckets[b] = w;
	log_msg(s);
	return s;
}

static void rehash(hash_fn fn)
{
	current_hash = fn;
	memset(buckets, 0, sizeof buckets);
	for (int i = 0; i < nwords; i++) {
		unsigned b = bucket_of(words[i].text);
		words[i].next = buckets[b];
		buckets[b] = &words[i];
	}
}

int main(void)
{
	static const char *input[] = {"alpha", "beta", "alpha", "gamma", "delta", "beta"};
	unsigned sum = 0;

	set_log_sink(sink_count);
	for (int i = 0; i < 4; i++)
		intern(input[i]);
	rehash(hash_fnv1a);
	set_log_sink(sink_stdout);
	for (int i = 4; i < 6; i++)
		intern(input[i]);
	for (int i = 0; i < nwords; i++)
		sum += ICALL(checksum(words[i].text)); /* @r0: hash_len */
	printf("%d words, %u chars, %lu logged\n", nwords, sum, logged_bytes);
	return 0;
}
