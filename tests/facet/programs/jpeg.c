/* libjpeg-style dispatch: objects from an allocator reached through a
 * function pointer (cinfo->mem->alloc_small), modules that extend a public
 * base struct by embedding it (my_upsampler { struct jpeg_upsampler pub; }),
 * runtime stores through the embedded base (upsample->pub._upsample = ...),
 * and chained receivers (cinfo->master->prepare_for_output_pass(cinfo)). */
#include <stdio.h>
#include <stdlib.h>

typedef struct jpeg_decompress_struct *j_decompress_ptr;

struct jpeg_memory_mgr {
	void *(*alloc_small)(j_decompress_ptr cinfo, int pool_id, size_t sizeofobject);
};
struct jpeg_decomp_master {
	void (*prepare_for_output_pass)(j_decompress_ptr cinfo);
	void (*finish_output_pass)(j_decompress_ptr cinfo);
	int is_dummy_pass;
};
struct jpeg_upsampler {
	void (*start_pass)(j_decompress_ptr cinfo);
	void (*_upsample)(j_decompress_ptr cinfo, int *in, unsigned *out);
	int need_context_rows;
};
struct jpeg_color_deconverter {
	void (*start_pass)(j_decompress_ptr cinfo);
	void (*color_convert)(j_decompress_ptr cinfo, int *in, unsigned *out);
};
struct jpeg_decompress_struct {
	struct jpeg_memory_mgr *mem;
	struct jpeg_decomp_master *master;
	struct jpeg_upsampler *upsample;
	struct jpeg_color_deconverter *cconvert;
	int scale, gray;
};

/* ---- memory manager (jmemmgr.c): every module's object is carved out of
 * one pool block, so a points-to analysis sees them all as one object ---- */
typedef struct {
	struct jpeg_memory_mgr pub;
	char *pool;
	size_t bytes_left;
} my_memory_mgr;

enum { POOL_BYTES = 4096 };

static void *alloc_small(j_decompress_ptr cinfo, int pool_id, size_t size)
{
	my_memory_mgr *mem = (my_memory_mgr *)cinfo->mem;
	(void)pool_id;
	size = (size + 7) & ~(size_t)7;
	if (!mem->pool || mem->bytes_left < size) {
		mem->pool = calloc(1, POOL_BYTES);
		mem->bytes_left = POOL_BYTES;
	}
	void *object = mem->pool + (POOL_BYTES - mem->bytes_left);
	mem->bytes_left -= size;
	return object;
}

static void jinit_memory_mgr(j_decompress_ptr cinfo)
{
	my_memory_mgr *mem = calloc(1, sizeof *mem);
	mem->pub.alloc_small = alloc_small;
	cinfo->mem = &mem->pub;
}

/* ---- master ---- */
typedef struct {
	struct jpeg_decomp_master pub;
	int pass_number;
} my_master;

static void prepare_for_output_pass(j_decompress_ptr cinfo) { cinfo->scale += 1; }
static void finish_output_pass(j_decompress_ptr cinfo) { cinfo->scale -= 1; }

static void jinit_master_decompress(j_decompress_ptr cinfo)
{
	my_master *master = (my_master *)(*cinfo->mem->alloc_small)(cinfo, 1, sizeof(my_master));
	cinfo->master = &master->pub;
	master->pub.prepare_for_output_pass = prepare_for_output_pass;
	master->pub.finish_output_pass = finish_output_pass;
}

/* ---- upsampling (jdsample.c, jdmerge.c) ---- */
typedef struct {
	struct jpeg_upsampler pub;
	int next_row_out;
} my_upsampler;
typedef my_upsampler *my_upsample_ptr;

typedef struct {
	struct jpeg_upsampler pub;
	int *spare_row;
} my_merged_upsampler;

static void start_pass_upsample(j_decompress_ptr cinfo) { (void)cinfo; }
static void sep_upsample(j_decompress_ptr cinfo, int *in, unsigned *out) { *out = (unsigned)(*in * cinfo->scale); }
static void merged_2v_upsample(j_decompress_ptr cinfo, int *in, unsigned *out) { *out = (unsigned)(*in * 2 + cinfo->scale); }
static void merged_1v_upsample(j_decompress_ptr cinfo, int *in, unsigned *out) { *out = (unsigned)(*in + cinfo->scale); }

static void jinit_upsampler(j_decompress_ptr cinfo)
{
	my_upsample_ptr upsample = (my_upsample_ptr)(*cinfo->mem->alloc_small)(cinfo, 1, sizeof(my_upsampler));
	cinfo->upsample = (struct jpeg_upsampler *)upsample;
	upsample->pub.start_pass = start_pass_upsample;
	upsample->pub._upsample = sep_upsample;
}

static void jinit_merged_upsampler(j_decompress_ptr cinfo)
{
	my_merged_upsampler *upsample = (*cinfo->mem->alloc_small)(cinfo, 1, sizeof(my_merged_upsampler));
	cinfo->upsample = &upsample->pub;
	upsample->pub.start_pass = start_pass_upsample;
	if (cinfo->scale > 1)
		upsample->pub._upsample = merged_2v_upsample;
	else
		upsample->pub._upsample = merged_1v_upsample;
}

/* ---- color conversion (jdcolor.c): the same signature as _upsample ---- */
typedef struct {
	struct jpeg_color_deconverter pub;
	int *Cr_r_tab;
} my_color_deconverter;

static void start_pass_dcolor(j_decompress_ptr cinfo) { (void)cinfo; }
static void ycc_rgb_convert(j_decompress_ptr cinfo, int *in, unsigned *out) { *out = (unsigned)(*in ^ cinfo->gray); }
static void gray_rgb_convert(j_decompress_ptr cinfo, int *in, unsigned *out) { *out = (unsigned)*in; (void)cinfo; }

static void jinit_color_deconverter(j_decompress_ptr cinfo)
{
	my_color_deconverter *cconvert = (*cinfo->mem->alloc_small)(cinfo, 1, sizeof(my_color_deconverter));
	cinfo->cconvert = &cconvert->pub;
	cconvert->pub.start_pass = start_pass_dcolor;
	cconvert->pub.color_convert = cinfo->gray ? gray_rgb_convert : ycc_rgb_convert;
}

/* ---- the dispatches ---- */
__attribute__((noinline)) unsigned process_data(j_decompress_ptr cinfo, int sample)
{
	unsigned up = 0, rgb = 0;
	(*cinfo->master->prepare_for_output_pass)(cinfo); /* SITE prepare */
	(*cinfo->upsample->_upsample)(cinfo, &sample, &up); /* SITE upsample */
	int mid = (int)up;
	(*cinfo->cconvert->color_convert)(cinfo, &mid, &rgb); /* SITE convert */
	(*cinfo->master->finish_output_pass)(cinfo); /* SITE finish */
	return rgb;
}

int main(int argc, char **argv)
{
	(void)argv;
	struct jpeg_decompress_struct cinfo = {0};
	cinfo.scale = argc;
	cinfo.gray = argc > 2;
	jinit_memory_mgr(&cinfo);
	jinit_master_decompress(&cinfo);
	if (argc > 3)
		jinit_merged_upsampler(&cinfo);
	else
		jinit_upsampler(&cinfo);
	jinit_color_deconverter(&cinfo);
	printf("%u\n", process_data(&cinfo, 7));
	return 0;
}

/* What facet must answer (tests/facet/check_facet.py).
 * At -O0 the pool is one collapsed object to the points-to analysis: R0 at
 * each dispatch holds every function of the call's IR type stored anywhere
 * in the pool. The fields are recovered through the chained receivers
 * (cinfo is a typed parameter; its fields name the pointee structs), and the
 * runtime stores through the embedded base (upsample->pub._upsample) key on
 * jpeg_upsampler._upsample, so Prune-Store separates the modules. At -O2
 * the pool is inlined away and R0 is exact already; the optimiser also
 * drops merged_1v_upsample (argc > 3 implies scale > 1).
 *
 // EXPECT prepare field: jpeg_decomp_master.prepare_for_output_pass
 // EXPECT prepare step: chained
 // EXPECT@O0 prepare r0: prepare_for_output_pass finish_output_pass start_pass_upsample start_pass_dcolor
 // EXPECT@O2 prepare r0: prepare_for_output_pass
 // EXPECT prepare rpm: prepare_for_output_pass
 // EXPECT@O0 prepare rplus: prepare_for_output_pass finish_output_pass start_pass_upsample start_pass_dcolor
 // EXPECT@O0 prepare decision finish_output_pass: prune supported Prune-Store pi_proj
 // EXPECT@O0 prepare decision start_pass_dcolor: prune supported Prune-Store pi_proj
 // EXPECT prepare decision prepare_for_output_pass: add supported Add-Store pi_bind
 // EXPECT prepare abstains: yes
 //
 // EXPECT upsample field: jpeg_upsampler._upsample
 // EXPECT upsample step: chained
 // EXPECT@O0 upsample r0: sep_upsample merged_2v_upsample merged_1v_upsample ycc_rgb_convert gray_rgb_convert
 // EXPECT@O0 upsample rulesonly: sep_upsample merged_2v_upsample merged_1v_upsample
 // EXPECT@O0 upsample rpm: sep_upsample merged_2v_upsample merged_1v_upsample
 // EXPECT@O0 upsample abstains: no
 // EXPECT@O0 upsample decision ycc_rgb_convert: prune supported Prune-Store pi_proj
 // EXPECT@O0 upsample decision merged_1v_upsample: add supported Add-Store pi_bind
 // EXPECT@O2 upsample r0: sep_upsample merged_2v_upsample
 // EXPECT@O2 upsample rpm: sep_upsample merged_2v_upsample
 // EXPECT upsample decision sep_upsample: add supported Add-Store pi_bind
 //
 // EXPECT convert field: jpeg_color_deconverter.color_convert
 // EXPECT@O0 convert r0: sep_upsample merged_2v_upsample merged_1v_upsample ycc_rgb_convert gray_rgb_convert
 // EXPECT convert rpm: ycc_rgb_convert gray_rgb_convert
 // EXPECT convert abstains: yes
 // EXPECT@O0 convert decision sep_upsample: prune supported Prune-Store pi_proj
 //
 // EXPECT finish field: jpeg_decomp_master.finish_output_pass
 // EXPECT finish rpm: finish_output_pass
 */
