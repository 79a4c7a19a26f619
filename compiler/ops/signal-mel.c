/* MelWeightMatrix (opset 17): the [dft_length / 2 + 1, num_mel_bins] matrix
 * of triangular mel filters that turns a onesided spectrum into mel bins. All
 * inputs must be compile-time constants; the filter edges are computed here,
 * in the precision and order of ONNX's definition (float32 mels, float64
 * frequencies, floored bin numbers), and the triangles filled from them, by
 * this reference or, when the matrix is a graph output, by a kernel. */
#include <math.h>

#include "ops/tensor-util.h"

#define MEL_MAX_BINS 4096

typedef struct {
  int64_t nspec, nmel, bins[MEL_MAX_BINS + 2];
} mel_plan;

/* Python's float floor division a // b for b > 0. */
static double mel_floordiv(double a, double b) {
  double mod = fmod(a, b), div = (a - mod) / b;
  if (mod < 0)
    div -= 1;
  double f = floor(div);
  return div - f > 0.5 ? f + 1 : f;
}

static int mel_get(const glow_graph *g, const glow_node *n, mel_plan *m) {
  int64_t len, rate;
  double lo, hi;
  const int64_t big = (int64_t)1 << 30;
  if (glow_need_const_int_scalar(g, n, 0, "num_mel_bins", 1, MEL_MAX_BINS, &m->nmel) ||
      glow_need_const_int_scalar(g, n, 1, "dft_length", 1, big, &len) ||
      glow_need_const_int_scalar(g, n, 2, "sample_rate", 1, big, &rate))
    return -1;
  for (int i = 3; i < 5; i++)
    if (glow_value_numel(glow_in(g, n, i)) != 1 || !glow_dtype_is_float(glow_in(g, n, i)->dt))
      return glow_node_error(g, n, "%s must be a float scalar", i == 3 ? "lower_edge_hertz" : "upper_edge_hertz");
  if (glow_t_need_const_nums(g, n, 3, "lower_edge_hertz", &lo, 1) != 1 ||
      glow_t_need_const_nums(g, n, 4, "upper_edge_hertz", &hi, 1) != 1)
    return -1;
  if (!(lo >= 0 && lo < hi && hi <= (double)rate / 2))
    return glow_node_error(g, n, "the edges must satisfy %s: they are %g, %g and %g",
                           "0 <= lower_edge_hertz < upper_edge_hertz <= sample_rate / 2", lo, hi, (double)rate / 2);
  m->nspec = len / 2 + 1;
  float lo_mel = 2595 * log10f(1 + (float)lo / 700), hi_mel = 2595 * log10f(1 + (float)hi / 700);
  float step = (hi_mel - lo_mel) / (float)(m->nmel + 2);
  for (int64_t i = 0; i < m->nmel + 2; i++) {
    double hz = 700 * (pow(10, ((double)i * step + lo_mel) / 2595) - 1);
    m->bins[i] = (int64_t)mel_floordiv((double)(len + 1) * hz, (double)rate);
    if (m->bins[i] < 0 || m->bins[i] >= m->nspec)
      return glow_node_error(g, n, "mel bin edge %lld falls outside the %lld spectrogram bins", (long long)m->bins[i],
                             (long long)m->nspec);
  }
  return 0;
}

static int infer_mel(glow_graph *g, glow_node *n) {
  mel_plan m;
  glow_dtype dt = (glow_dtype)glow_attr_int(n, "output_datatype", GLOW_DT_F32);
  if (dt != GLOW_DT_F32 && dt != GLOW_DT_F64)
    return glow_node_error(g, n, "output_datatype %d is not supported (float and double are)", (int)dt);
  if (mel_get(g, n, &m))
    return -1;
  int64_t dims[2] = {m.nspec, m.nmel};
  glow_value_set_shape(glow_out(g, n, 0), dt, 2, dims);
  return 0;
}

static int eval_mel(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  mel_plan m;
  glow_dtype dt = glow_out(g, n, 0)->dt;
  (void)ins;
  if (mel_get(g, n, &m))
    return -1;
  for (int64_t j = 0; j < m.nspec * m.nmel; j++)
    glow_elem_set(dt, outs[0], j, 0);
  for (int64_t i = 0; i < m.nmel; i++) {
    int64_t l = m.bins[i], c = m.bins[i + 1], h = m.bins[i + 2];
    if (c == l)
      glow_elem_set(dt, outs[0], c * m.nmel + i, 1);
    for (int64_t j = l; c > l && j <= c; j++)
      glow_elem_set(dt, outs[0], j * m.nmel + i, (double)(j - l) / (double)(c - l));
    for (int64_t j = c; j < h; j++)
      glow_elem_set(dt, outs[0], j * m.nmel + i, (double)(h - j) / (double)(h - c));
  }
  return 0;
}

static int lower_mel(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  mel_plan m;
  if (mel_get(g, n, &m))
    return -1;
  glow_kcall_init(kc, "glow_k_melweight_%s", glow_dtype_suffix(glow_out(g, n, 0)->dt));
  glow_kcall_tensor(kc, n->out[0]);
  glow_abi_melweight a = {.nspec = m.nspec, .nmel = m.nmel};
  glow_kcall_abi(kc, &a, sizeof a);
  glow_kcall_params(kc, (int)m.nmel + 2, m.bins);
  return 0;
}

const glow_op_info glow_op_MEL_WEIGHT_MATRIX = {"MelWeightMatrix", 5, 5, 1, 1, infer_mel, eval_mel, lower_mel};
