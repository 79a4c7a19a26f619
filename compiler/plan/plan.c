/* require shapes, no dead values in use; preserves the graph.
 * Memory plan over three areas: constants, mutable (inputs then outputs) and
 * activations. Activations get offsets from a greedy, liveness-based allocator
 * (largest first, lowest offset that overlaps no tensor live at the same time),
 * so buffers of tensors whose lifetimes do not intersect are shared. Views
 * (ops lowered to a plain copy of their input: Reshape, Flatten, Squeeze, ...)
 * share their input's buffer instead, and are dropped from the schedule; so are
 * Concats whose inputs can be made in place (concat_in_place). */
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

/* Whether value `in` may become a run of another tensor's buffer: an activation made
 * by a step (not a graph input, output or constant), not a view or run already, and
 * no other value's root (rooted[in] 0). */
static int may_be_run(const glow_graph *g, int in, const int *root, const char *rooted, const int *first) {
  return in >= 0 && g->vals[in].kind == GLOW_VAL_ACT && !g->vals[in].is_output && root[in] == in && !rooted[in] &&
         first[in] >= 0;
}

/* A Concat in place: where every dim before the axis is 1, each input is one
 * contiguous run of the output, so the steps that make the inputs can write
 * straight into it and the Concat (a copy of every byte) is dropped. Squeezenet's
 * fire modules and googlenet's inception blocks each end in one. Every input must
 * qualify (may_be_run), appear once, and start GLOW_ALIGN-aligned (kernels and code
 * assume aligned tensors; so no input but the last has padding a kernel could
 * write); the output must not be a graph output or a view. The output then lives
 * from its first input's step to the last use of it or of any input.
 * @return 1 if done (root, rel, first and last updated), else 0. */
static int concat_in_place(const glow_graph *g, const glow_node *n, int *root, char *rooted, uint64_t *rel,
                           int *first, int *last) {
  int out = n->nout ? n->out[0] : -1;
  if (n->op != GLOW_OP_CONCAT || out < 0 || g->vals[out].is_output || root[out] != out)
    return 0;
  const glow_value *y = &g->vals[out];
  int axis = (int)glow_attr_int(n, "axis", 1);
  axis = axis < 0 ? axis + y->rank : axis;
  for (int d = 0; d < axis && d < y->rank; d++)
    if (y->dims[d] != 1)
      return 0;
  uint64_t off = 0;
  for (int k = 0; k < n->nin; k++) {
    int in = n->in[k];
    if (!may_be_run(g, in, root, rooted, first) || off % GLOW_ALIGN || g->vals[in].dt != y->dt)
      return 0;
    for (int j = 0; j < k; j++)
      if (n->in[j] == in)
        return 0;
    off += glow_value_bytes(&g->vals[in]);
  }
  off = 0;
  rooted[out] = 1;
  for (int k = 0; k < n->nin; k++) {
    int in = n->in[k];
    root[in] = out;
    rel[in] = off;
    off += glow_value_bytes(&g->vals[in]);
    first[out] = first[in] < first[out] ? first[in] : first[out];
    last[out] = last[in] > last[out] ? last[in] : last[out];
    first[in] = last[in] = -1;
  }
  return 1;
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
  uint64_t *rel = glow_xcalloc((size_t)g->nvals, sizeof *rel); /* a run's offset in its root */
  char *rooted = glow_xcalloc((size_t)g->nvals, 1);            /* some other value's root */
  for (int i = 0; i < g->nvals; i++)
    root[i] = i;
  for (int s = 0; s < p->norder; s++) {
    const glow_node *n = &g->nodes[p->order[s]];
    int in = n->nin ? n->in[0] : -1, out = n->nout ? n->out[0] : -1;
    if (glow_op_get(n->op)->lower == glow_lower_copy && in >= 0 && out >= 0 && !g->vals[out].is_output &&
        glow_value_bytes(&g->vals[in]) == glow_value_bytes(&g->vals[out])) {
      root[out] = root[in];
      rooted[root[in]] = 1;
      rel[out] = rel[in];
      if (last[out] > last[root[in]])
        last[root[in]] = last[out];
      first[out] = last[out] = -1;
      continue;
    }
    if (concat_in_place(g, n, root, rooted, rel, first, last))
      continue;
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
      p->offset[i] = p->offset[root[i]] + rel[i];
    }
  free(root);
  free(rel);
  free(rooted);
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
