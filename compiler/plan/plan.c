/* require shapes, no dead values in use; preserves the graph.
 * Memory plan over three areas: constants, mutable (inputs then outputs) and
 * activations. Activations get offsets from a greedy, liveness-based allocator
 * (largest first, lowest offset that overlaps no tensor live at the same time),
 * so buffers of tensors whose lifetimes do not intersect are shared. Views
 * (ops lowered to a plain copy of their input: Reshape, Flatten, Squeeze, ...)
 * share their input's buffer instead, and are dropped from the schedule. */
#include <stdlib.h>
#include <string.h>

#include "glowc.h"
#include "ops/op-util.h"

#define AREA_CONST 1
#define AREA_MUTABLE 2
#define AREA_ACT 3

static uint64_t align_up(uint64_t x) { return (x + GLOW_ALIGN - 1) / GLOW_ALIGN * GLOW_ALIGN; }

typedef struct {
  int id;
  int first, last; /* schedule positions of definition and last use */
  uint64_t size;
} live_range;

static int by_size_desc(const void *a, const void *b) {
  const live_range *x = a, *y = b;
  if (x->size != y->size)
    return x->size < y->size ? 1 : -1;
  return x->id - y->id; /* ties by id: deterministic */
}

int glow_plan_create(const glow_graph *g, glow_plan *p) {
  memset(p, 0, sizeof *p);
  p->offset = glow_xcalloc((size_t)g->nvals, sizeof *p->offset);
  p->area = glow_xcalloc((size_t)g->nvals, sizeof *p->area);
  p->order = glow_xmalloc(sizeof(int) * (size_t)(g->nnodes + 1));
  for (int i = 0; i < g->nnodes; i++)
    if (!g->nodes[i].dead)
      p->order[p->norder++] = i;

  int *first = glow_xmalloc(sizeof(int) * (size_t)g->nvals), *last = glow_xmalloc(sizeof(int) * (size_t)g->nvals);
  for (int i = 0; i < g->nvals; i++)
    first[i] = last[i] = -1;
  for (int s = 0; s < p->norder; s++) {
    const glow_node *n = &g->nodes[p->order[s]];
    for (int k = 0; k < n->nin; k++)
      if (n->in[k] >= 0)
        last[n->in[k]] = s;
    for (int k = 0; k < n->nout; k++)
      if (n->out[k] >= 0) {
        first[n->out[k]] = s;
        if (last[n->out[k]] < s)
          last[n->out[k]] = s; /* unused outputs still need room while written */
      }
  }

  /* A view's output takes its input's buffer (its root's); the root then lives
   * until the last use of any view of it. Graph outputs keep their own buffer. */
  int *root = glow_xmalloc(sizeof(int) * (size_t)g->nvals), nkept = 0, nsteps = p->norder;
  for (int i = 0; i < g->nvals; i++)
    root[i] = i;
  for (int s = 0; s < p->norder; s++) {
    const glow_node *n = &g->nodes[p->order[s]];
    int in = n->nin ? n->in[0] : -1, out = n->nout ? n->out[0] : -1;
    if (glow_op_get(n->op)->lower == glow_lower_copy && in >= 0 && out >= 0 && !g->vals[out].is_output &&
        glow_value_bytes(&g->vals[in]) == glow_value_bytes(&g->vals[out])) {
      root[out] = root[in];
      if (last[out] > last[root[in]])
        last[root[in]] = last[out];
      first[out] = last[out] = -1;
      continue;
    }
    p->order[nkept++] = p->order[s];
  }
  p->norder = nkept;

  for (int i = 0; i < g->ninputs; i++) {
    p->area[g->inputs[i]] = AREA_MUTABLE;
    p->offset[g->inputs[i]] = p->mutable_size;
    p->mutable_size += align_up(glow_value_bytes(&g->vals[g->inputs[i]]));
  }
  for (int i = 0; i < g->noutputs; i++) {
    int id = g->outputs[i];
    if (p->area[id])
      continue;
    p->area[id] = AREA_MUTABLE;
    p->offset[id] = p->mutable_size;
    p->mutable_size += align_up(glow_value_bytes(&g->vals[id]));
  }
  for (int i = 0; i < g->nvals; i++)
    if (g->vals[i].kind == GLOW_VAL_CONST && last[i] >= 0) {
      p->area[i] = AREA_CONST;
      p->offset[i] = p->const_size;
      p->const_size += align_up(glow_value_bytes(&g->vals[i]));
    }

  live_range *r = glow_xmalloc(sizeof *r * (size_t)(g->nvals + 1));
  int nr = 0;
  for (int i = 0; i < g->nvals; i++)
    if (!p->area[i] && first[i] >= 0)
      r[nr++] = (live_range){i, first[i], last[i], align_up(glow_value_bytes(&g->vals[i]))};

  /* Lower bound: the largest sum of simultaneously live tensors. */
  for (int s = 0; s < nsteps; s++) { /* live ranges are in positions of the full schedule */
    uint64_t sum = 0;
    for (int k = 0; k < nr; k++)
      if (r[k].first <= s && s <= r[k].last)
        sum += r[k].size;
    if (sum > p->act_lower_bound)
      p->act_lower_bound = sum;
  }

  qsort(r, (size_t)nr, sizeof *r, by_size_desc);
  for (int k = 0; k < nr; k++) {
    /* Candidate offsets: 0 and the end of every placed, overlapping tensor. */
    uint64_t best = UINT64_MAX;
    for (int c = -1; c < k; c++) {
      uint64_t off = c < 0 ? 0 : p->offset[r[c].id] + r[c].size;
      if (c >= 0 && (r[c].last < r[k].first || r[k].last < r[c].first))
        continue;
      if (off >= best)
        continue;
      int clash = 0;
      for (int j = 0; j < k && !clash; j++) {
        if (r[j].last < r[k].first || r[k].last < r[j].first)
          continue;
        uint64_t o = p->offset[r[j].id];
        clash = off < o + r[j].size && o < off + r[k].size;
      }
      if (!clash)
        best = off;
    }
    p->offset[r[k].id] = best;
    p->area[r[k].id] = AREA_ACT;
    if (best + r[k].size > p->act_size)
      p->act_size = best + r[k].size;
  }
  for (int i = 0; i < g->nvals; i++)
    if (root[i] != i) {
      p->area[i] = p->area[root[i]];
      p->offset[i] = p->offset[root[i]];
    }
  free(root);
  free(r);
  free(first);
  free(last);
  return 0;
}

void glow_plan_free(glow_plan *p) {
  free(p->offset);
  free(p->area);
  free(p->order);
  memset(p, 0, sizeof *p);
}
