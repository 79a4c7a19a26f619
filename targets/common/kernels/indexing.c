/* Gather, GatherElements, GatherND, OneHot, the scatters, ReverseSequence and
 * MaxUnpool: elements moved through runtime indices. Indices come in any
 * integer or float dtype (ONNX dtype code `idt`, a constant parameter, so the
 * switch folds away); a negative index counts from the end, and one still out
 * of range never reads or writes outside a tensor: gathers produce zero,
 * scatters skip. */
#include "kernel.h"

/* Element i of an index tensor of ONNX dtype idt; INT64_MIN for NaN, huge or unknown values. */
static inline int64_t load_index(const uint8_t *p, int64_t i, int64_t idt) {
  switch (idt) {
  case 1: {
    float f = ((const float *)p)[i];
    return f > -9.2e18f && f < 9.2e18f ? (int64_t)f : INT64_MIN;
  }
  case 11: {
    double f = ((const double *)p)[i];
    return f > -9.2e18 && f < 9.2e18 ? (int64_t)f : INT64_MIN;
  }
  case 2:
    return ((const uint8_t *)p)[i];
  case 3:
    return ((const int8_t *)p)[i];
  case 4:
    return ((const uint16_t *)p)[i];
  case 5:
    return ((const int16_t *)p)[i];
  case 6:
    return ((const int32_t *)p)[i];
  case 7:
    return ((const int64_t *)p)[i];
  case 12:
    return ((const uint32_t *)p)[i];
  case 13: {
    uint64_t u = ((const uint64_t *)p)[i];
    return u > (uint64_t)INT64_MAX ? INT64_MIN : (int64_t)u;
  }
  default:
    return INT64_MIN;
  }
}

/* Index k normalized against an axis of n elements; -1 if out of range. */
static inline int64_t norm_index(int64_t k, int64_t n) {
  if (k < 0)
    k += n;
  return k >= 0 && k < n ? k : -1;
}

/* t: out, data, indices; p: glow_abi_gather.
 * out[o, j, i] = data[o, indices[j], i] (o < outer, j < nidx, i < inner). */
#define GATHER(S, T)                                                                                                   \
  GLOW_KERNEL(gather_e##S) {                                                                                           \
    T *o = (T *)t[0];                                                                                                  \
    const T *x = (const T *)t[1];                                                                                      \
    const glow_abi_gather *ap = (const glow_abi_gather *)p;                                                            \
    int64_t outer = ap->outer, len = ap->len, inner = ap->inner, nidx = ap->nidx, idt = ap->idt;                       \
    for (int64_t a = 0; a < outer; a++)                                                                                \
      for (int64_t j = 0; j < nidx; j++, o += inner) {                                                                 \
        int64_t k = norm_index(load_index(t[2], j, idt), len);                                                         \
        const T *src = x + (a * len + (k < 0 ? 0 : k)) * inner;                                                        \
        for (int64_t i = 0; i < inner; i++)                                                                            \
          o[i] = k < 0 ? (T)0 : src[i];                                                                                \
      }                                                                                                                \
  }

/* Odometer step over dims[r] that keeps off = sum over axes d != skip of c[d] * st[d]. */
static inline void step_skip(int64_t r, const int64_t *dims, const int64_t *st, int64_t skip, int64_t *c,
                             int64_t *off) {
  for (int64_t d = r - 1; d >= 0; d--) {
    int64_t s = d == skip ? 0 : st[d];
    *off += s;
    if (++c[d] < dims[d])
      return;
    *off -= s * dims[d];
    c[d] = 0;
  }
}

static inline void dense_strides(int64_t r, const int64_t *dims, int64_t *st) {
  int64_t s = 1;
  for (int64_t d = r - 1; d >= 0; d--) {
    st[d] = s;
    s *= dims[d];
  }
}

/* t: out, data, indices; p: glow_abi_gather_elements.
 * out[c] = data[c with c[axis] = indices[c]]; out has the shape of indices. */
#define GATHER_ELEMENTS(S, T)                                                                                          \
  GLOW_KERNEL(gather_elements_e##S) {                                                                                  \
    T *o = (T *)t[0];                                                                                                  \
    const T *x = (const T *)t[1];                                                                                      \
    const glow_abi_gather_elements *ap = (const glow_abi_gather_elements *)p;                                          \
    int64_t r = ap->r, axis = ap->axis, idt = ap->idt, n = 1, c[8] = {0}, st[8], off = 0;                              \
    const int64_t *dims = ap->idx_dims, *xd = GLOW_ABI_GATHER_ELEMENTS_DATA_DIMS(ap);                                  \
    dense_strides(r, xd, st);                                                                                          \
    for (int64_t d = 0; d < r; d++)                                                                                    \
      n *= dims[d];                                                                                                    \
    for (int64_t i = 0; i < n; i++) {                                                                                  \
      int64_t k = norm_index(load_index(t[2], i, idt), xd[axis]);                                                      \
      o[i] = k < 0 ? (T)0 : x[off + k * st[axis]];                                                                     \
      step_skip(r, dims, st, axis, c, &off);                                                                           \
    }                                                                                                                  \
  }

/* t: out, data, indices; p: glow_abi_gather_nd.
 * For batch b and tuple j (indices[b, j, 0..K-1]): out[b, j, 0..S-1] = the slice of data's batch b at that tuple. */
#define GATHER_ND(S_, T)                                                                                               \
  GLOW_KERNEL(gather_nd_e##S_) {                                                                                       \
    T *o = (T *)t[0];                                                                                                  \
    const T *x = (const T *)t[1];                                                                                      \
    const glow_abi_gather_nd *ap = (const glow_abi_gather_nd *)p;                                                      \
    int64_t B = ap->B, N = ap->N, K = ap->K, S = ap->S, bs = ap->batch_stride, idt = ap->idt;                          \
    const int64_t *dims = ap->dims, *st = GLOW_ABI_GATHER_ND_STRIDES(ap);                                              \
    for (int64_t b = 0; b < B; b++)                                                                                    \
      for (int64_t j = 0; j < N; j++, o += S) {                                                                        \
        int64_t off = b * bs, bad = 0;                                                                                 \
        for (int64_t m = 0; m < K; m++) {                                                                              \
          int64_t k = norm_index(load_index(t[2], (b * N + j) * K + m, idt), dims[m]);                                 \
          bad |= k < 0;                                                                                                \
          off += (k < 0 ? 0 : k) * st[m];                                                                              \
        }                                                                                                              \
        for (int64_t s = 0; s < S; s++)                                                                                \
          o[s] = bad ? (T)0 : x[off + s];                                                                              \
      }                                                                                                                \
  }

/* t: out, indices, values (off, on); p: glow_abi_onehot.
 * out[a, d, i] = indices[a, i] (negative: + depth) == d ? on : off. */
#define ONEHOT(S, T)                                                                                                   \
  GLOW_KERNEL(onehot_e##S) {                                                                                           \
    T *o = (T *)t[0];                                                                                                  \
    const T *v = (const T *)t[2];                                                                                      \
    const glow_abi_onehot *ap = (const glow_abi_onehot *)p;                                                            \
    int64_t outer = ap->outer, depth = ap->depth, inner = ap->inner, idt = ap->idt;                                    \
    for (int64_t a = 0; a < outer; a++)                                                                                \
      for (int64_t d = 0; d < depth; d++)                                                                              \
        for (int64_t i = 0; i < inner; i++)                                                                            \
          o[(a * depth + d) * inner + i] = norm_index(load_index(t[1], a * inner + i, idt), depth) == d ? v[1] : v[0]; \
  }

/* *d = *d (red) u; red: 0 none (replace), 1 add, 2 mul, 3 max, 4 min. */
#define APPLY(T, d, u, red)                                                                                            \
  do {                                                                                                                 \
    T u_ = (u);                                                                                                        \
    if ((red) == 1)                                                                                                    \
      *(d) = (T)(*(d) + u_);                                                                                           \
    else if ((red) == 2)                                                                                               \
      *(d) = (T)(*(d)*u_);                                                                                             \
    else if ((red) == 3)                                                                                               \
      *(d) = *(d) > u_ ? *(d) : u_;                                                                                    \
    else if ((red) == 4)                                                                                               \
      *(d) = *(d) < u_ ? *(d) : u_;                                                                                    \
    else                                                                                                               \
      *(d) = u_;                                                                                                       \
  } while (0)

/* t: out, data, indices, updates; p: glow_abi_scatter_elements.
 * out = data, then out[c with c[axis] = indices[c]] (red)= updates[c] for every c in order. */
#define SCATTER_ELEMENTS(NAME, T)                                                                                      \
  GLOW_KERNEL(scatter_elements_##NAME) {                                                                               \
    T *o = (T *)t[0];                                                                                                  \
    const T *x = (const T *)t[1], *u = (const T *)t[3];                                                                \
    const glow_abi_scatter_elements *ap = (const glow_abi_scatter_elements *)p;                                        \
    int64_t r = ap->r, axis = ap->axis, idt = ap->idt, red = ap->red, n = 1, xn = 1, c[8] = {0}, st[8], off = 0;       \
    const int64_t *dims = ap->idx_dims, *xd = GLOW_ABI_SCATTER_ELEMENTS_DATA_DIMS(ap);                                 \
    dense_strides(r, xd, st);                                                                                          \
    for (int64_t d = 0; d < r; d++) {                                                                                  \
      n *= dims[d];                                                                                                    \
      xn *= xd[d];                                                                                                     \
    }                                                                                                                  \
    for (int64_t i = 0; i < xn; i++)                                                                                   \
      o[i] = x[i];                                                                                                     \
    for (int64_t i = 0; i < n; i++) {                                                                                  \
      int64_t k = norm_index(load_index(t[2], i, idt), xd[axis]);                                                      \
      if (k >= 0)                                                                                                      \
        APPLY(T, o + off + k * st[axis], u[i], red);                                                                   \
      step_skip(r, dims, st, axis, c, &off);                                                                           \
    }                                                                                                                  \
  }

/* t: out, data, indices, updates; p: glow_abi_scatter_nd.
 * out = data, then for each tuple j: out[slice at indices[j, 0..K-1]] (red)= updates[j, 0..S-1]. */
#define SCATTER_ND(NAME, T)                                                                                            \
  GLOW_KERNEL(scatter_nd_##NAME) {                                                                                     \
    T *o = (T *)t[0];                                                                                                  \
    const T *x = (const T *)t[1], *u = (const T *)t[3];                                                                \
    const glow_abi_scatter_nd *ap = (const glow_abi_scatter_nd *)p;                                                    \
    int64_t xn = ap->numel, N = ap->N, K = ap->K, S = ap->S, idt = ap->idt, red = ap->red;                             \
    const int64_t *dims = ap->dims, *st = GLOW_ABI_SCATTER_ND_STRIDES(ap);                                             \
    for (int64_t i = 0; i < xn; i++)                                                                                   \
      o[i] = x[i];                                                                                                     \
    for (int64_t j = 0; j < N; j++) {                                                                                  \
      int64_t off = 0, bad = 0;                                                                                        \
      for (int64_t m = 0; m < K; m++) {                                                                                \
        int64_t k = norm_index(load_index(t[2], j * K + m, idt), dims[m]);                                             \
        bad |= k < 0;                                                                                                  \
        off += (k < 0 ? 0 : k) * st[m];                                                                                \
      }                                                                                                                \
      for (int64_t s = 0; !bad && s < S; s++)                                                                          \
        APPLY(T, o + off + s, u[j * S + s], red);                                                                      \
    }                                                                                                                  \
  }

/* t: out, data, lens; p: glow_abi_reverse_sequence.
 * Along time, the first lens[b] steps of batch entry b reversed (a length clamped to [0, time]), the rest copied. */
#define REVERSE_SEQUENCE(S, T)                                                                                         \
  GLOW_KERNEL(reverse_sequence_e##S) {                                                                                 \
    T *o = (T *)t[0];                                                                                                  \
    const T *x = (const T *)t[1];                                                                                      \
    const glow_abi_reverse_sequence *ap = (const glow_abi_reverse_sequence *)p;                                        \
    int64_t time = ap->time, batch = ap->batch, inner = ap->inner, ta = ap->time_axis, idt = ap->idt;                  \
    for (int64_t b = 0; b < batch; b++) {                                                                              \
      int64_t len = load_index(t[2], b, idt);                                                                          \
      len = len < 0 ? 0 : len > time ? time : len;                                                                     \
      for (int64_t s = 0; s < time; s++) {                                                                             \
        int64_t f = s < len ? len - 1 - s : s;                                                                         \
        const T *src = x + (ta == 0 ? f * batch + b : b * time + f) * inner;                                           \
        T *dst = o + (ta == 0 ? s * batch + b : b * time + s) * inner;                                                 \
        for (int64_t i = 0; i < inner; i++)                                                                            \
          dst[i] = src[i];                                                                                             \
      }                                                                                                                \
    }                                                                                                                  \
  }

/* t: out, data, indices; p: glow_abi_unpool. out = 0, then out[indices[i]] = data[i] (MaxUnpool);
 * an index outside the output is skipped. */
#define UNPOOL(S, T)                                                                                                   \
  GLOW_KERNEL(unpool_e##S) {                                                                                           \
    T *o = (T *)t[0];                                                                                                  \
    const T *x = (const T *)t[1];                                                                                      \
    const glow_abi_unpool *ap = (const glow_abi_unpool *)p;                                                            \
    for (int64_t i = 0; i < ap->out_n; i++)                                                                            \
      o[i] = (T)0;                                                                                                     \
    for (int64_t i = 0; i < ap->in_n; i++) {                                                                           \
      int64_t k = load_index(t[2], i, ap->idt);                                                                        \
      if (k >= 0 && k < ap->out_n)                                                                                     \
        o[k] = x[i];                                                                                                   \
    }                                                                                                                  \
  }

/* By element size: plain moves (scatters without a reduction). */
#define BY_SIZE(S, T)                                                                                                  \
  GATHER(S, T) GATHER_ELEMENTS(S, T) GATHER_ND(S, T) ONEHOT(S, T) SCATTER_ELEMENTS(e##S, T) SCATTER_ND(e##S, T)        \
  REVERSE_SEQUENCE(S, T) UNPOOL(S, T)
BY_SIZE(1, uint8_t)
BY_SIZE(2, uint16_t)
BY_SIZE(4, uint32_t)
BY_SIZE(8, uint64_t)

/* By dtype: scatters with a reduction. */
#define BY_TYPE(NAME, T) SCATTER_ELEMENTS(NAME, T) SCATTER_ND(NAME, T)
BY_TYPE(f32, float)
BY_TYPE(f64, double)
BY_TYPE(i8, int8_t)
BY_TYPE(i16, int16_t)
BY_TYPE(i32, int32_t)
BY_TYPE(i64, int64_t)
BY_TYPE(u8, uint8_t)
BY_TYPE(u16, uint16_t)
BY_TYPE(u32, uint32_t)
BY_TYPE(u64, uint64_t)
