/* Einsum: any equation of letters and one ellipsis per term (repeated labels
 * take diagonals, labels absent from the output are summed), computed as a
 * loop over the output labels and, inside it, over the summed labels. */
#include <ctype.h>
#include <string.h>

#include "ops/op-util.h"

#define ES_MAX_IN 4
#define ES_MAX_LABELS 12

typedef struct {
  int nin, nl, nout; /* labels 0..nout-1 are the output's, in its order */
  int64_t size[ES_MAX_LABELS];
  int64_t stride[ES_MAX_IN][ES_MAX_LABELS]; /* 0 where a label is absent or broadcast */
  int orank;
  int64_t odims[GLOW_MAX_RANK];
} es_plan;

/* One term: letters and at most one "..." into codes (0..51 letters, -1 the ellipsis). */
static int es_term(const glow_graph *g, const glow_node *n, const char *s, size_t len, int *codes, int *ell) {
  int k = 0;
  *ell = -1;
  for (size_t i = 0; i < len; i++) {
    if (s[i] == ' ')
      continue;
    if (s[i] == '.') {
      if (*ell >= 0 || i + 2 >= len || s[i + 1] != '.' || s[i + 2] != '.')
        return glow_node_error(g, n, "malformed ellipsis in the equation");
      *ell = k;
      codes[k++] = -1;
      i += 2;
    } else if (isalpha((unsigned char)s[i]) && k < GLOW_MAX_RANK + 1) {
      codes[k++] = islower((unsigned char)s[i]) ? s[i] - 'a' : 26 + s[i] - 'A';
    } else {
      return glow_node_error(g, n, "unexpected '%c' in the equation (or too many labels in a term)", s[i]);
    }
  }
  return k;
}

static int es_get(const glow_graph *g, const glow_node *n, es_plan *pl) {
  const char *eq = glow_attr_string(n, "equation", NULL);
  memset(pl, 0, sizeof *pl);
  if (!eq)
    return glow_node_error(g, n, "attribute equation is required");
  pl->nin = n->nin;
  if (n->nin > ES_MAX_IN)
    return glow_node_error(g, n, "more than %d inputs are not supported", ES_MAX_IN);
  glow_dtype dt = glow_in(g, n, 0)->dt;
  for (int i = 0; i < n->nin; i++)
    if (glow_in(g, n, i)->dt != dt)
      return glow_node_error(g, n, "inputs must have the same type");
  if (dt != GLOW_DT_F32 && dt != GLOW_DT_F64 && dt != GLOW_DT_I32 && dt != GLOW_DT_I64)
    return glow_node_error(g, n, "input type %s is not supported", glow_dtype_name(dt));
  const char *arrow = strstr(eq, "->");
  size_t lhs_len = arrow ? (size_t)(arrow - eq) : strlen(eq);
  /* Label sizes: 52 letters, then the ellipsis axes (right-aligned, broadcast). */
  int64_t lsize[52 + GLOW_MAX_RANK];
  int count[52] = {0}, nell = 0;
  int64_t ell_dims[GLOW_MAX_RANK];
  for (int i = 0; i < 52 + GLOW_MAX_RANK; i++)
    lsize[i] = -1;
  int codes[ES_MAX_IN][GLOW_MAX_RANK + 1], ncodes[ES_MAX_IN], ells[ES_MAX_IN];
  const char *t = eq;
  for (int i = 0; i < n->nin; i++) {
    const char *e = memchr(t, ',', (size_t)(eq + lhs_len - t));
    if (!e)
      e = eq + lhs_len;
    if ((i == n->nin - 1) != (e == eq + lhs_len))
      return glow_node_error(g, n, "the equation has a different number of terms than the %d inputs", n->nin);
    ncodes[i] = es_term(g, n, t, (size_t)(e - t), codes[i], &ells[i]);
    if (ncodes[i] < 0)
      return -1;
    t = e + 1;
  }
  for (int i = 0; i < n->nin; i++) {
    const glow_value *x = glow_in(g, n, i);
    int letters = ncodes[i] - (ells[i] >= 0), ne = x->rank - letters;
    if (ne < 0 || (ells[i] < 0 && ne != 0))
      return glow_node_error(g, n, "term %d has %d labels but input %d has rank %d", i, letters, i, x->rank);
    if (ne > nell) {
      for (int j = nell - 1; j >= 0; j--)
        ell_dims[j + ne - nell] = ell_dims[j];
      for (int j = 0; j < ne - nell; j++)
        ell_dims[j] = 1;
      nell = ne;
    }
    for (int c = 0, d = 0; c < ncodes[i]; c++) {
      if (codes[i][c] < 0) {
        for (int j = 0; j < ne; j++, d++) {
          int64_t *s = &ell_dims[nell - ne + j];
          if (*s != x->dims[d] && *s != 1 && x->dims[d] != 1)
            return glow_node_error(g, n, "ellipsis axes of the inputs cannot be broadcast together");
          if (*s == 1)
            *s = x->dims[d];
        }
        continue;
      }
      int l = codes[i][c];
      if (lsize[l] >= 0 && lsize[l] != x->dims[d])
        return glow_node_error(g, n, "label '%c' has sizes %lld and %lld", l < 26 ? 'a' + l : 'A' + l - 26,
                               (long long)lsize[l], (long long)x->dims[d]);
      lsize[l] = x->dims[d++];
      count[l]++;
    }
  }
  /* Output labels (letters 0..51, ellipsis axis j as 52 + j). */
  int out[GLOW_MAX_RANK + 1], nout = 0;
  if (arrow) {
    int oc[GLOW_MAX_RANK + 1], oell;
    int k = es_term(g, n, arrow + 2, strlen(arrow + 2), oc, &oell);
    if (k < 0)
      return -1;
    for (int c = 0; c < k; c++) {
      if (oc[c] < 0) {
        for (int j = 0; j < nell; j++)
          out[nout++] = 52 + j;
      } else {
        if (lsize[oc[c]] < 0)
          return glow_node_error(g, n, "output label '%c' is not in any input",
                                 oc[c] < 26 ? 'a' + oc[c] : 'A' + oc[c] - 26);
        for (int j = 0; j < nout; j++)
          if (out[j] == oc[c])
            return glow_node_error(g, n, "output label repeated");
        out[nout++] = oc[c];
      }
      if (nout > GLOW_MAX_RANK)
        return glow_node_error(g, n, "output rank above %d", GLOW_MAX_RANK);
    }
    if (oell < 0 && nell > 0) {
      for (int j = 0; j < nell; j++)
        if (ell_dims[j] != 1)
          return glow_node_error(g, n, "ellipsis axes are summed (the output has no '...'): not supported");
    }
  } else {
    for (int j = 0; j < nell; j++)
      out[nout++] = 52 + j;
    for (int l = 0; l < 52; l++)
      if (count[l] == 1)
        out[nout++] = l;
    if (nout > GLOW_MAX_RANK)
      return glow_node_error(g, n, "output rank above %d", GLOW_MAX_RANK);
  }
  /* Loop labels: the output's, then the summed letters. */
  int label[ES_MAX_LABELS], nl = 0;
  for (int j = 0; j < nout; j++)
    label[nl++] = out[j];
  for (int l = 0; l < 52; l++) {
    int in_out = 0;
    for (int j = 0; j < nout; j++)
      in_out |= out[j] == l;
    if (lsize[l] >= 0 && !in_out) {
      if (nl == ES_MAX_LABELS)
        return glow_node_error(g, n, "more than %d distinct labels are not supported", ES_MAX_LABELS);
      label[nl++] = l;
    }
  }
  pl->nl = nl;
  pl->nout = nout;
  pl->orank = nout;
  for (int j = 0; j < nl; j++) {
    pl->size[j] = label[j] >= 52 ? ell_dims[label[j] - 52] : lsize[label[j]];
    if (j < nout)
      pl->odims[j] = pl->size[j];
  }
  for (int i = 0; i < n->nin; i++) {
    const glow_value *x = glow_in(g, n, i);
    int64_t st[GLOW_MAX_RANK];
    glow_dense_strides(x->rank, x->dims, st);
    int ne = x->rank - (ncodes[i] - (ells[i] >= 0));
    for (int c = 0, d = 0; c < ncodes[i]; c++) {
      int cnt = codes[i][c] < 0 ? ne : 1;
      for (int r = 0; r < cnt; r++, d++) {
        int code = codes[i][c] < 0 ? 52 + nell - ne + r : codes[i][c];
        if (x->dims[d] == 1 && codes[i][c] < 0)
          continue; /* broadcast */
        for (int j = 0; j < nl; j++)
          if (label[j] == code)
            pl->stride[i][j] += st[d];
      }
    }
  }
  return 0;
}

static int infer_einsum(glow_graph *g, glow_node *n) {
  es_plan pl;
  if (es_get(g, n, &pl))
    return -1;
  glow_value_set_shape(glow_out(g, n, 0), glow_in(g, n, 0)->dt, pl.orank, pl.odims);
  return 0;
}

static int eval_einsum(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  es_plan pl;
  if (es_get(g, n, &pl))
    return -1;
  glow_dtype dt = glow_in(g, n, 0)->dt;
  int isint = !glow_dtype_is_float(dt);
  int64_t idx[ES_MAX_LABELS] = {0}, yi = 0;
  int more = 1;
  while (more) {
    double acc = 0;
    int64_t iacc = 0;
    for (int j = pl.nout; j < pl.nl; j++)
      idx[j] = 0;
    int inner = 1;
    while (inner) {
      double prod = 1;
      int64_t iprod = 1;
      for (int i = 0; i < pl.nin; i++) {
        int64_t off = 0;
        for (int j = 0; j < pl.nl; j++)
          off += idx[j] * pl.stride[i][j];
        if (isint)
          iprod *= glow_elem_geti(dt, ins[i], off);
        else
          prod *= glow_elem_get(dt, ins[i], off);
      }
      acc += prod;
      iacc += iprod;
      inner = 0;
      for (int j = pl.nl - 1; j >= pl.nout && !inner; j--)
        if (++idx[j] < pl.size[j])
          inner = 1;
        else
          idx[j] = 0;
    }
    if (isint)
      glow_elem_seti(dt, outs[0], yi++, iacc);
    else
      glow_elem_set(dt, outs[0], yi++, acc);
    more = 0;
    for (int j = pl.nout - 1; j >= 0 && !more; j--)
      if (++idx[j] < pl.size[j])
        more = 1;
      else
        idx[j] = 0;
  }
  return 0;
}

static int lower_einsum(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  es_plan pl;
  if (es_get(g, n, &pl))
    return -1;
  glow_kcall_init(kc, "glow_k_einsum_%s", glow_dtype_suffix(glow_in(g, n, 0)->dt));
  glow_kcall_tensor(kc, n->out[0]);
  for (int i = 0; i < pl.nin; i++)
    glow_kcall_tensor(kc, n->in[i]);
  glow_abi_einsum a = {.nin = pl.nin, .nl = pl.nl, .nout = pl.nout};
  glow_kcall_abi(kc, &a, sizeof a);
  glow_kcall_params(kc, pl.nl, pl.size);
  for (int i = 0; i < pl.nin; i++)
    glow_kcall_params(kc, pl.nl, pl.stride[i]);
  return 0;
}

const glow_op_info glow_op_EINSUM = {"Einsum", 1, ES_MAX_IN, 1, 1, infer_einsum, eval_einsum, lower_einsum};
