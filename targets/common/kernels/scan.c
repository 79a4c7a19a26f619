/* CumSum and TopK along the middle extent of a tensor viewed as [outer, len, inner]. */
#include "kernel.h"

/* t: out, in; p: glow_abi_cumsum. Running sums in the element type. */
#define CUMSUM(NAME, T)                                                                                                \
  GLOW_KERNEL(cumsum_##NAME) {                                                                                         \
    T *o = (T *)t[0];                                                                                                  \
    const T *x = (const T *)t[1];                                                                                      \
    const glow_abi_cumsum *ap = (const glow_abi_cumsum *)p;                                                            \
    int64_t outer = ap->outer, len = ap->len, inner = ap->inner, excl = ap->exclusive, rev = ap->reverse;              \
    for (int64_t a = 0; a < outer; a++)                                                                                \
      for (int64_t c = 0; c < inner; c++) {                                                                            \
        T sum = (T)0;                                                                                                  \
        for (int64_t s = 0; s < len; s++) {                                                                            \
          int64_t i = (a * len + (rev ? len - 1 - s : s)) * inner + c;                                                 \
          T v = x[i];                                                                                                  \
          if (excl)                                                                                                    \
            o[i] = sum;                                                                                                \
          sum = (T)(sum + v);                                                                                          \
          if (!excl)                                                                                                   \
            o[i] = sum;                                                                                                \
        }                                                                                                              \
      }                                                                                                                \
  }

/* t: values, indices (int64), in; p: glow_abi_topk.
 * The k largest (or smallest) elements of each slice in order, ties by lower index; NaN counts as the largest
 * (first when largest, last when smallest). The outputs double as the insertion buffer. */
#define TOPK(NAME, T)                                                                                                  \
  static inline int topk_before_##NAME(T a, int64_t ia, T b, int64_t ib, int64_t largest) {                            \
    int na = a != a, nb = b != b;                                                                                      \
    if (na || nb)                                                                                                      \
      return na && nb ? ia < ib : largest ? na : nb;                                                                   \
    if (a != b)                                                                                                        \
      return largest ? a > b : a < b;                                                                                  \
    return ia < ib;                                                                                                    \
  }                                                                                                                    \
  GLOW_KERNEL(topk_##NAME) {                                                                                           \
    T *vo = (T *)t[0];                                                                                                 \
    int64_t *io = (int64_t *)t[1];                                                                                     \
    const T *x = (const T *)t[2];                                                                                      \
    const glow_abi_topk *ap = (const glow_abi_topk *)p;                                                                \
    int64_t outer = ap->outer, len = ap->len, inner = ap->inner, k = ap->k, largest = ap->largest;                     \
    for (int64_t a = 0; a < outer; a++)                                                                                \
      for (int64_t c = 0; c < inner; c++) {                                                                            \
        T *v = vo + a * k * inner + c;                                                                                 \
        int64_t *ix = io + a * k * inner + c, count = 0;                                                               \
        for (int64_t s = 0; s < len && k > 0; s++) {                                                                   \
          T e = x[(a * len + s) * inner + c];                                                                          \
          if (count == k && !topk_before_##NAME(e, s, v[(k - 1) * inner], ix[(k - 1) * inner], largest))               \
            continue;                                                                                                  \
          int64_t pos = count < k ? count++ : k - 1;                                                                   \
          for (; pos > 0 && topk_before_##NAME(e, s, v[(pos - 1) * inner], ix[(pos - 1) * inner], largest); pos--) {   \
            v[pos * inner] = v[(pos - 1) * inner];                                                                     \
            ix[pos * inner] = ix[(pos - 1) * inner];                                                                   \
          }                                                                                                            \
          v[pos * inner] = e;                                                                                          \
          ix[pos * inner] = s;                                                                                         \
        }                                                                                                              \
      }                                                                                                                \
  }

CUMSUM(f32, float)
CUMSUM(f64, double)
CUMSUM(i32, int32_t)
CUMSUM(i64, int64_t)
CUMSUM(u32, uint32_t)
CUMSUM(u64, uint64_t)
TOPK(f32, float)
TOPK(f64, double)
TOPK(i8, int8_t)
TOPK(i16, int16_t)
TOPK(i32, int32_t)
TOPK(i64, int64_t)
TOPK(u8, uint8_t)
TOPK(u16, uint16_t)
TOPK(u32, uint32_t)
TOPK(u64, uint64_t)
