/* oracle.h — the interface of the one neural step (§3.4).
 *
 * The refinement asks an oracle only bounded questions (facet.h,
 * facet_question): at a site the witnesses leave empty, which of these
 * address-taken functions of the site's signature category are targets
 * (completion); at a same-signature residual site, which of these R0 targets
 * to keep (disambiguation). The oracle answers yes or no per listed candidate
 * and cannot name anything else. Its answers become facts that the rules of
 * Figure 4 classify like any other (classify.c): a completion "yes" is a
 * proposed add, a disambiguation "no" a proposed prune; warranted decisions
 * take precedence and abstaining sites are left alone.
 *
 * The default backend, `none`, answers nothing: R± is then the paper's
 * "Facet w/o LLM". Other backends (src/oracle/) implement this struct. */
#ifndef FACET_FACET_ORACLE_H
#define FACET_FACET_ORACLE_H

#include <stdbool.h>

#include "facet/facet.h"

typedef enum oracle_verdict { VERDICT_UNKNOWN, VERDICT_YES, VERDICT_NO } oracle_verdict;

struct facet_oracle {
	const char *name;          /* "none", "openai", "command", ... */
	void *ctx;                 /* the backend's state */
	/* Answers q about r's program: verdicts[i] for q->candidates[i]. Returns
	 * false when it has no usable answer (the symbolic result stands); a
	 * VERDICT_UNKNOWN entry leaves that candidate alone. */
	bool (*ask)(facet_oracle *o, const facet_result *r, const facet_question *q, oracle_verdict *verdicts);
};

#endif
