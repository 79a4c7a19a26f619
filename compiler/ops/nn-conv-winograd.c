/* ConvWinograd: glowc's own node for a float32 3x3 Conv with unit strides and
 * dilations and one group, run by Winograd's F(4x4, 3x3) (kernel
 * glow_k_conv_wino_f32, targets/common/kernels/conv-winograd.c, which says how).
 * passes/winograd.c makes it of a Conv when compiling: X, U (the weights
 * transformed, glow_winograd_weights()), B, and the fused residual of
 * passes/fuse-epilogue.c; the Conv's epilogue attributes; glow.wino_pads (top,
 * left, bottom, right) and glow.wino_nb (the 16 * nb output channels of one
 * panel). It is not read from models and has no reference semantics of its own
 * (the interpreter runs the Conv it was made of). */
#include "ops/nn-util.h"

/* U = G g G^T of each filter g (3x3), in double, laid out per block of 16 * nb
 * output channels as U[block][xi][c][16 * nb], xi = 6 * row + column. */
void glow_winograd_weights(const float *w, int64_t M, int64_t C, int64_t nb, float *u) {
  static const double G[6][3] = {{1.0 / 4, 0, 0},          {-1.0 / 6, -1.0 / 6, -1.0 / 6}, {-1.0 / 6, 1.0 / 6, -1.0 / 6},
                                 {1.0 / 24, 1.0 / 12, 1.0 / 6}, {1.0 / 24, -1.0 / 12, 1.0 / 6}, {0, 0, 1}};
  int64_t bw = 16 * nb;
  for (int64_t m = 0; m < M; m++)
    for (int64_t c = 0; c < C; c++) {
      const float *g = w + (m * C + c) * 9;
      double t[6][3];
      for (int i = 0; i < 6; i++)
        for (int j = 0; j < 3; j++)
          t[i][j] = G[i][0] * g[j] + G[i][1] * g[3 + j] + G[i][2] * g[6 + j];
      for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++) {
          double v = t[i][0] * G[j][0] + t[i][1] * G[j][1] + t[i][2] * G[j][2];
          u[((m / bw * 36 + i * 6 + j) * C + c) * bw + m % bw] = (float)v;
        }
    }
}

typedef struct {
  int64_t N, C, M, H, W, OH, OW, pads[4], nb;
} wino_shape;

static int wino_get(const glow_graph *g, const glow_node *n, wino_shape *s) {
  const glow_value *x = glow_in(g, n, 0), *u = glow_in(g, n, 1), *b = glow_in(g, n, 2);
  const int64_t *pads;
  char s1[128];
  if (glow_attr_ints(n, "glow.wino_pads", &pads) != 4 || !glow_attr_find(n, "glow.wino_nb"))
    return glow_node_error(g, n, "ConvWinograd is glowc's own node, made when compiling a Conv; a model cannot use it");
  s->nb = glow_attr_int(n, "glow.wino_nb", 0);
  for (int i = 0; i < 4; i++)
    s->pads[i] = pads[i];
  if (x->dt != GLOW_DT_F32 || x->rank != 4 || u->dt != GLOW_DT_F32 || u->rank != 4 || u->kind != GLOW_VAL_CONST)
    return glow_node_error(g, n, "X %s must be a float32 N x C x H x W tensor and U constant float32 M x C x 6 x 6",
                           glow_shape_str(x, s1, sizeof s1));
  s->N = x->dims[0], s->C = x->dims[1], s->H = x->dims[2], s->W = x->dims[3], s->M = u->dims[0];
  s->OH = s->H + s->pads[0] + s->pads[2] - 2;
  s->OW = s->W + s->pads[1] + s->pads[3] - 2;
  if (u->dims[1] != s->C || u->dims[2] != 6 || u->dims[3] != 6 || s->nb < 1 || s->M % (16 * s->nb) || s->OH < 1 ||
      s->OW < 1 || s->pads[0] < 0 || s->pads[1] < 0 || s->pads[0] > 2 || s->pads[1] > 2)
    return glow_node_error(g, n, "U does not fit X %s, glow.wino_pads or glow.wino_nb", glow_shape_str(x, s1, sizeof s1));
  if (b && (b->dt != GLOW_DT_F32 || glow_value_numel(b) != s->M))
    return glow_node_error(g, n, "B must be a float32 vector of %lld elements", (long long)s->M);
  return 0;
}

static int infer_wino(glow_graph *g, glow_node *n) {
  wino_shape s;
  if (wino_get(g, n, &s))
    return -1;
  int64_t dims[4] = {s.N, s.M, s.OH, s.OW};
  glow_value_set_shape(glow_out(g, n, 0), GLOW_DT_F32, 4, dims);
  return 0;
}

static int eval_wino(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  (void)outs, (void)ins;
  return glow_node_error(g, n, "ConvWinograd is made when compiling only; the interpreter runs its Conv");
}

static int lower_wino(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  wino_shape s;
  if (wino_get(g, n, &s))
    return -1;
  glow_kcall_init(kc, "glow_k_conv_wino_f32");
  glow_kcall_tensor(kc, n->out[0]);
  for (int i = 0; i < 4; i++) /* X, U, B, the residual */
    glow_kcall_tensor(kc, i < n->nin ? n->in[i] : -1);
  glow_abi_conv_wino a = {.N = s.N, .C = s.C, .M = s.M, .H = s.H, .W = s.W, .OH = s.OH, .OW = s.OW, .pt = s.pads[0],
                          .pl = s.pads[1], .nb = s.nb, .epi = glow_nn_conv_epi(n)};
  glow_kcall_abi(kc, &a, sizeof a);
  return 0;
}

const glow_op_info glow_op_CONV_WINOGRAD = {"ConvWinograd", 2, 4, 1, 1, infer_wino, eval_wino, lower_wino};
