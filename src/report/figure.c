/* figure.c — targets per indirect site as grouped bars, one colour per
 * graph (the shape of bench's figure 6), drawn as inline SVG. */
#include "report/internal.h"

const char *const rp_bucket_names[RP_BUCKETS] = {"0", "1", "2", "3-4", "5-8", "9-16", "17-64", "65+"};

unsigned rp_bucket_of(unsigned n)
{
	return n <= 2 ? n : n <= 4 ? 3 : n <= 8 ? 4 : n <= 16 ? 5 : n <= 64 ? 6 : 7;
}

void rp_figure(FILE *out, const char *const *graph_names, unsigned n_graphs, unsigned counts[][RP_BUCKETS])
{
	static const char *const colours[] = {"#9aa5b1", "#1f5fbf", "#2e8b57", "#d2691e", "#8e44ad", "#c0392b"};
	unsigned max = 4;   /* at least one site per grid line */
	for (unsigned g = 0; g < n_graphs; g++)
		for (unsigned b = 0; b < RP_BUCKETS; b++)
			max = counts[g][b] > max ? counts[g][b] : max;
	max = (max + 3) / 4 * 4;   /* grid lines on whole numbers */
	const int left = 50, top = 20, plot_h = 180, group_w = 14 * (int)n_graphs + 20;
	int width = left + group_w * RP_BUCKETS + 20, height = top + plot_h + 60;
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"fig\" id=\"distribution\" width=\"%d\" "
	        "height=\"%d\" font-family=\"sans-serif\" font-size=\"11\">\n", width, height);
	fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#444\"/>\n", left, top + plot_h,
	        width - 10, top + plot_h);
	for (int k = 0; k <= 4; k++) {
		int y = top + plot_h - k * plot_h / 4;
		fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" fill=\"#555\">%u</text>"
		        "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#eee\"/>\n",
		        left - 4, y + 4, (unsigned)((unsigned long)max * (unsigned)k / 4), left, y, width - 10, y);
	}
	for (unsigned b = 0; b < RP_BUCKETS; b++) {
		int gx = left + 10 + (int)b * group_w;
		for (unsigned g = 0; g < n_graphs; g++) {
			int h = (int)((unsigned long)counts[g][b] * (unsigned)plot_h / max);
			fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"%d\" fill=\"%s\"><title>%s: %u sites with "
			        "%s targets</title></rect>\n",
			        gx + (int)g * 14, top + plot_h - h, h, colours[g % 6], graph_names[g], counts[g][b],
			        rp_bucket_names[b]);
		}
		fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>\n", gx + 7 * (int)n_graphs,
		        top + plot_h + 16, rp_bucket_names[b]);
	}
	fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"#555\">targets per indirect site</text>\n",
	        left + group_w * RP_BUCKETS / 2, top + plot_h + 32);
	for (unsigned g = 0; g < n_graphs; g++)
		fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/><text x=\"%d\" y=\"%d\">%s"
		        "</text>\n",
		        left + (int)g * 90, top + plot_h + 42, colours[g % 6], left + (int)g * 90 + 14, top + plot_h + 51,
		        graph_names[g]);
	fputs("</svg>\n", out);
}
