/* Helpers shared by the data movement and shape ops. */
#include <string.h>

#include "ops/tensor-util.h"

int glow_t_need_const_nums(const glow_graph *g, const glow_node *n, int idx, const char *what, double *v, int cap) {
  const glow_value *c = glow_in(g, n, idx);
  if (!c || c->kind != GLOW_VAL_CONST) {
    int64_t unused[1];
    glow_need_const_ints(g, n, idx, what, unused, 0); /* reports the standard message */
    return -1;
  }
  int64_t k = glow_value_numel(c);
  if (k > cap || glow_dtype_size(c->dt) == 0 || c->dt == GLOW_DT_STRING)
    return glow_node_error(g, n, "input '%s' (%s) must be a numeric tensor of at most %d elements", c->name, what, cap);
  for (int64_t i = 0; i < k; i++)
    v[i] = glow_elem_get(c->dt, c->data, i);
  return (int)k;
}

int glow_t_check_movable(const glow_graph *g, const glow_node *n, const glow_value *v) {
  size_t s = glow_dtype_size(v->dt);
  if (v->dt == GLOW_DT_STRING || !(s == 1 || s == 2 || s == 4 || s == 8))
    return glow_node_error(g, n, "type %s is not supported", glow_dtype_name(v->dt));
  return 0;
}

void glow_t_kcall_by_size(glow_kcall *kc, const char *base, glow_dtype dt) {
  glow_kcall_init(kc, "glow_k_%s_e%d", base, (int)glow_dtype_size(dt));
}

int glow_t_lower_strided(const glow_graph *g, const glow_node *n, glow_kcall *kc, int rank, const int64_t *dims,
                         const int64_t *strides, int64_t offset) {
  const glow_value *o = glow_out(g, n, 0);
  if (glow_t_check_movable(g, n, o))
    return -1;
  int64_t d2[GLOW_T_MAX_VIEW], s2[GLOW_T_MAX_VIEW];
  int r = 0;
  int64_t numel = 1;
  for (int d = 0; d < rank; d++)
    numel *= dims[d];
  for (int d = 0; d < rank && numel; d++) {
    if (dims[d] == 1)
      continue;
    if (r && s2[r - 1] == strides[d] * dims[d]) { /* contiguous with the previous kept axis: merge */
      d2[r - 1] *= dims[d];
      s2[r - 1] = strides[d];
      continue;
    }
    d2[r] = dims[d];
    s2[r++] = strides[d];
  }
  if (!numel) { /* empty output: a loop that runs zero times */
    d2[0] = 0;
    s2[0] = 0;
    r = 1;
  } else if (!r) {
    d2[0] = 1;
    s2[0] = 0;
    r = 1;
  }
  glow_t_kcall_by_size(kc, "copy_strided", o->dt);
  glow_kcall_tensor(kc, n->out[0]);
  glow_kcall_tensor(kc, n->in[0]);
  glow_abi_copy_strided a = {.r = r, .in_offset = offset};
  glow_kcall_abi(kc, &a, sizeof a);
  glow_kcall_params(kc, r, d2);
  glow_kcall_params(kc, r, s2);
  return 0;
}

int glow_t_lower_table(const glow_graph *g, const glow_node *n, glow_kcall *kc, int64_t *const *tab, int fill_input,
                       uint64_t fill_bits) {
  const glow_value *o = glow_out(g, n, 0);
  if (glow_t_check_movable(g, n, o))
    return -1;
  glow_t_kcall_by_size(kc, "copy_table", o->dt);
  glow_kcall_tensor(kc, n->out[0]);
  glow_kcall_tensor(kc, n->in[0]);
  glow_kcall_tensor(kc, fill_input >= 0 ? n->in[fill_input] : -1);
  int r = o->rank ? o->rank : 1;
  glow_abi_copy_table a = {.r = r, .fill_bits = (int64_t)fill_bits};
  glow_kcall_abi(kc, &a, sizeof a);
  if (!o->rank) { /* a scalar: one axis of one element at offset 0 */
    static const int64_t dims_and_table[] = {1, 0};
    glow_kcall_params(kc, 2, dims_and_table);
    return 0;
  }
  glow_kcall_params(kc, r, o->dims);
  for (int d = 0; d < r; d++)
    glow_kcall_params(kc, (int)o->dims[d], tab[d]);
  return 0;
}

uint64_t glow_t_raw_bits(glow_dtype dt, const void *p) {
  union {
    uint8_t u8;
    uint16_t u16;
    uint32_t u32;
    uint64_t u64;
  } u;
  size_t s = glow_dtype_size(dt);
  memset(&u, 0, sizeof u);
  memcpy(&u, p, s <= 8 ? s : 8);
  switch (s) {
  case 1:
    return u.u8;
  case 2:
    return u.u16;
  case 4:
    return u.u32;
  default:
    return u.u64;
  }
}

uint64_t glow_t_bits_of(glow_dtype dt, double v) {
  unsigned char buf[8] = {0};
  if (glow_dtype_is_float(dt))
    glow_elem_set(dt, buf, 0, v);
  else
    glow_elem_seti(dt, buf, 0, (int64_t)v);
  return glow_t_raw_bits(dt, buf);
}

void glow_t_unravel(int64_t i, int rank, const int64_t *dims, int64_t *coord) {
  for (int d = rank - 1; d >= 0; d--) {
    coord[d] = dims[d] ? i % dims[d] : 0;
    i = dims[d] ? i / dims[d] : 0;
  }
}

void glow_t_copy_elem(glow_dtype dt, void *dst, int64_t di, const void *src, int64_t si) {
  size_t s = glow_dtype_size(dt);
  memcpy((char *)dst + (size_t)di * s, (const char *)src + (size_t)si * s, s);
}
