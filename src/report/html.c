/* html.c — the report's page frame: inline style and script, the search
 * box's code. Shared by the index and the site pages (internal.h). */
#include "report/internal.h"

#include <string.h>

static const char css[] =
	"body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#222;background:#fafafa}"
	"header{background:#1f3b5c;color:#fff;padding:10px 20px}header a{color:#cfe0ff}"
	"main{padding:10px 20px;max-width:1400px}h1{font-size:20px;margin:4px 0}h2{font-size:16px;margin:22px 0 6px}"
	"table{border-collapse:collapse;background:#fff;margin:4px 0}"
	"td,th{border:1px solid #ddd;padding:3px 8px;text-align:left;vertical-align:top;font-size:13px}"
	"th{background:#eef2f7}td.n{text-align:right;font-variant-numeric:tabular-nums}"
	"code,.mono{font-family:ui-monospace,monospace;font-size:12px}"
	".kind-direct{color:#222}.kind-premise-free{color:#1f5fbf}.kind-premised{color:#d2691e}.kind-agent{color:#c0392b}"
	".note{color:#555;font-size:13px;max-width:900px}#search{font-size:15px;padding:4px 8px;width:360px}"
	"#results{list-style:none;padding:0;margin:6px 0;max-height:320px;overflow:auto;background:#fff;"
	"border:1px solid #ddd;max-width:900px}#results li{padding:2px 8px;border-bottom:1px solid #eee}"
	"#site-table td{white-space:nowrap}#results:empty{display:none}.fig{background:#fff;border:1px solid #ddd;display:inline-block;margin:4px 0}";

/* The search box: an index of functions and sites in a JSON script block,
 * matched as the user types (substring, case-insensitive), at most 50
 * results shown. No network, no external script. */
static const char search_js[] =
	"(function(){var idx=JSON.parse(document.getElementById('index').textContent);"
	"var box=document.getElementById('search'),out=document.getElementById('results');"
	"function esc(s){return String(s).replace(/[&<>\"']/g,function(c){return '&#'+c.charCodeAt(0)+';';});}"
	"function run(){var q=box.value.trim().toLowerCase();out.innerHTML='';if(q.length<2)return;var n=0,html='';"
	"for(var i=0;i<idx.length&&n<50;i++){var e=idx[i];if(e.k.toLowerCase().indexOf(q)<0)continue;n++;"
	"html+='<li class=\"hit hit-'+e.t+'\">'+(e.u?'<a href=\"'+esc(e.u)+'\">'+esc(e.l)+'</a>':esc(e.l))+"
	"' <span class=\"note\">'+esc(e.d)+'</span></li>';}"
	"out.innerHTML=html||'<li class=\"none\">no function or site matches</li>';}"
	"box.addEventListener('input',run);if(box.value)run();})();";

void rp_page_start(FILE *out, const char *title, const char *program, bool index)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>", out);
	report_xml_text(out, title);
	fprintf(out, "</title>\n<style>%s</style></head>\n<body><header><h1>", css);
	report_xml_text(out, title);
	fputs("</h1><span class=\"mono\">", out);
	report_xml_text(out, program);
	fputs("</span>", out);
	if (!index)
		fputs(" &middot; <a href=\"index.html\">back to the program</a>", out);
	fputs("</header>\n<main>\n", out);
}

void rp_page_end(FILE *out, bool search)
{
	fputs("</main>\n", out);
	if (search)
		fprintf(out, "<script>%s</script>\n", search_js);
	fputs("<footer class=\"note\" style=\"padding:10px 20px\">written by facet report; every edge is "
	      "labelled by how it is known (direct, premise-free, premised, agent; docs/concepts.md). R&plusmn; may "
	      "drop a true edge where a premise fails; R+ never drops an R0 edge.</footer>\n</body></html>\n",
	      out);
}

/* JSON for a <script type="application/json"> block: "</" may not appear. */
void rp_json_block(FILE *out, const char *id, json_t *v)
{
	char *s = json_dumps(v, JSON_COMPACT | JSON_ENSURE_ASCII);
	fprintf(out, "<script type=\"application/json\" id=\"%s\">", id);
	for (const char *p = s ? s : "[]"; *p; p++) {
		if (p[0] == '<' && p[1] == '/')
			fputs("<\\", out);
		else
			fputc(*p, out);
	}
	fputs("</script>\n", out);
	free(s);
}

void rp_text(FILE *out, const char *s)
{
	report_xml_text(out, s ? s : "");
}
