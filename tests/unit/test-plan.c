/* Memory planner: on random graphs, tensors live at the same time never share
 * bytes, every offset is aligned, and the activations size is at least the lower
 * bound; on a chain, the plan reaches the lower bound exactly; views share their
 * input's bytes; a Concat's inputs are made in place where they may be. */
#include <stdio.h>
#include <stdlib.h>

#include "glowc.h"

static int failures;
#define CHECK(c) ((c) ? (void)0 : (void)(failures++, fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #c)))

static unsigned rng = 12345;
static unsigned next(void) { return rng = rng * 1103515245u + 12345u, (rng >> 8) & 0xffffff; }

static int add_value(glow_graph *g, int64_t n) {
  int id = glow_value_add(g, NULL);
  glow_value_set_shape(&g->vals[id], GLOW_DT_F32, 1, &n);
  return id;
}

/* Random DAG of Add nodes over earlier values; the last node's output is the graph output. */
static glow_graph *random_graph(int nnodes) {
  glow_graph *g = glow_graph_create("test");
  int in = add_value(g, 1 + next() % 100);
  g->vals[in].kind = GLOW_VAL_INPUT;
  g->inputs = glow_xmalloc(sizeof(int));
  g->inputs[g->ninputs++] = in;
  for (int i = 0; i < nnodes; i++) {
    int a = (int)(next() % (unsigned)g->nvals), b = (int)(next() % (unsigned)g->nvals);
    int ins[2] = {a, b}, out = add_value(g, 1 + next() % 5000);
    glow_node_add(g, GLOW_OP_ADD, "add", 2, ins, 1, &out);
  }
  g->outputs = glow_xmalloc(sizeof(int));
  g->outputs[g->noutputs++] = g->nvals - 1;
  g->vals[g->nvals - 1].is_output = 1;
  return g;
}

static void check_plan(const glow_graph *g, const glow_plan *p) {
  int *first = calloc((size_t)g->nvals, sizeof(int)), *last = calloc((size_t)g->nvals, sizeof(int));
  for (int i = 0; i < g->nvals; i++)
    first[i] = last[i] = -1;
  for (int s = 0; s < p->norder; s++) {
    const glow_node *n = &g->nodes[p->order[s]];
    for (int k = 0; k < n->nin; k++)
      last[n->in[k]] = s;
    first[n->out[0]] = s;
    if (last[n->out[0]] < s)
      last[n->out[0]] = s;
  }
  for (int i = 0; i < g->nvals; i++) {
    if (p->area[i] != 3)
      continue;
    CHECK(p->offset[i] % GLOW_ALIGN == 0);
    CHECK(p->offset[i] + glow_value_bytes(&g->vals[i]) <= p->act_size);
    for (int j = i + 1; j < g->nvals; j++) {
      if (p->area[j] != 3 || last[i] < first[j] || last[j] < first[i])
        continue;
      uint64_t a0 = p->offset[i], a1 = a0 + glow_value_bytes(&g->vals[i]);
      uint64_t b0 = p->offset[j], b1 = b0 + glow_value_bytes(&g->vals[j]);
      CHECK(a1 <= b0 || b1 <= a0);
    }
  }
  CHECK(p->act_size >= p->act_lower_bound);
  CHECK(p->area[g->inputs[0]] == 2 && p->area[g->outputs[0]] == 2);
  free(first);
  free(last);
}

static int add_nchw(glow_graph *g, int64_t n, int64_t c) {
  int id = glow_value_add(g, NULL);
  int64_t dims[4] = {n, c, 2, 2};
  glow_value_set_shape(&g->vals[id], GLOW_DT_F32, 4, dims);
  return id;
}

/* x -> Add -> a, x -> Add -> b (n x c x 2 x 2 each), Concat(a, b or a) on channels -> c,
 * Add(c, c) -> y; with graph_in, b is x itself; with view, Identity(b) also feeds y's
 * Add. Checks the plan either way; returns 1 where the Concat was made in place. */
static int concat_plan(int64_t n, int64_t c, int twice, int graph_in, int view) {
  glow_graph *g = glow_graph_create("concat");
  int x = add_nchw(g, n, c), a = add_nchw(g, n, c), b = graph_in ? x : add_nchw(g, n, c), cat = add_nchw(g, n, 2 * c);
  int y = add_nchw(g, n, 2 * c), v = view ? add_nchw(g, n, c) : -1;
  g->vals[x].kind = GLOW_VAL_INPUT;
  g->inputs = glow_xmalloc(sizeof(int));
  g->inputs[g->ninputs++] = x;
  int xx[2] = {x, x}, ab[2] = {a, twice ? a : b}, cc[2] = {cat, cat};
  glow_node_add(g, GLOW_OP_ADD, "a", 2, xx, 1, &a);
  if (!graph_in)
    glow_node_add(g, GLOW_OP_ADD, "b", 2, xx, 1, &b);
  if (view)
    glow_node_add(g, GLOW_OP_IDENTITY, "view", 1, &b, 1, &v);
  int nc = glow_node_add(g, GLOW_OP_CONCAT, "cat", 2, ab, 1, &cat);
  glow_attr_add_int(&g->nodes[nc], "axis", 1);
  glow_node_add(g, GLOW_OP_ADD, "y", 2, cc, 1, &y);
  g->outputs = glow_xmalloc(sizeof(int));
  g->outputs[g->noutputs++] = y;
  g->vals[y].is_output = 1;
  glow_plan p;
  glow_plan_create(g, &p);
  int in_place = p.norder == (graph_in ? 2 : 3);
  uint64_t run = glow_value_bytes(&g->vals[a]);
  if (in_place) { /* a and b are the two runs of cat, which lives from a's step on */
    CHECK(p.offset[a] == p.offset[cat] && p.offset[b] == p.offset[cat] + run);
    CHECK(p.act_size == 2 * run && p.act_lower_bound == 2 * run);
  } else { /* the copy runs; the buffers of its inputs (a, and b unless x) and cat are apart */
    CHECK(p.norder == (graph_in ? 3 : 4)); /* the view is dropped either way */
    CHECK(p.offset[a] + run <= p.offset[cat] || p.offset[cat] + 2 * run <= p.offset[a]);
    CHECK(graph_in || twice || p.offset[b] + run <= p.offset[cat] || p.offset[cat] + 2 * run <= p.offset[b]);
  }
  glow_plan_free(&p);
  glow_graph_free(g);
  return in_place;
}

int main(void) {
  for (int t = 0; t < 200; t++) {
    glow_graph *g = random_graph(1 + (int)(next() % 40));
    glow_plan p;
    glow_plan_create(g, &p);
    check_plan(g, &p);
    glow_plan_free(&p);
    glow_graph_free(g);
  }
  /* A chain x -> a -> b -> c -> y of equal sizes needs two buffers at any time. */
  glow_graph *g = glow_graph_create("chain");
  int prev = add_value(g, 1000);
  g->vals[prev].kind = GLOW_VAL_INPUT;
  g->inputs = glow_xmalloc(sizeof(int));
  g->inputs[g->ninputs++] = prev;
  for (int i = 0; i < 4; i++) {
    int ins[2] = {prev, prev}, out = add_value(g, 1000);
    glow_node_add(g, GLOW_OP_ADD, "add", 2, ins, 1, &out);
    prev = out;
  }
  g->outputs = glow_xmalloc(sizeof(int));
  g->outputs[g->noutputs++] = prev;
  g->vals[prev].is_output = 1;
  glow_plan p;
  glow_plan_create(g, &p);
  check_plan(g, &p);
  CHECK(p.act_lower_bound == 2 * 4032);
  CHECK(p.act_size == p.act_lower_bound);
  CHECK(p.mutable_size == 2 * 4032);
  glow_plan_free(&p);
  glow_graph_free(g);
  /* x -> Add -> a -> Identity -> b -> Add -> y: b is a view of a (same bytes, no copy run). */
  g = glow_graph_create("view");
  int x = add_value(g, 256), a = add_value(g, 256), b = add_value(g, 256), y = add_value(g, 256);
  g->vals[x].kind = GLOW_VAL_INPUT;
  g->inputs = glow_xmalloc(sizeof(int));
  g->inputs[g->ninputs++] = x;
  int in2[2] = {x, x};
  glow_node_add(g, GLOW_OP_ADD, "add1", 2, in2, 1, &a);
  glow_node_add(g, GLOW_OP_IDENTITY, "view", 1, &a, 1, &b);
  int in3[2] = {b, a};
  glow_node_add(g, GLOW_OP_ADD, "add2", 2, in3, 1, &y);
  g->outputs = glow_xmalloc(sizeof(int));
  g->outputs[g->noutputs++] = y;
  g->vals[y].is_output = 1;
  glow_plan_create(g, &p);
  CHECK(p.norder == 2);
  CHECK(p.area[a] == 3 && p.area[b] == 3 && p.offset[a] == p.offset[b]);
  CHECK(p.act_size == 1024 && p.act_lower_bound == 1024);
  glow_plan_free(&p);
  glow_graph_free(g);
  /* Concats: in place, and each reason to keep the copy. */
  CHECK(concat_plan(1, 16, 0, 0, 0) == 1);  /* two 16-channel runs of 256 bytes: in place */
  CHECK(concat_plan(2, 16, 0, 0, 0) == 0);  /* batch 2: each input is two runs */
  CHECK(concat_plan(1, 3, 0, 0, 0) == 0);   /* 3 channels: the second run starts at 48 bytes */
  CHECK(concat_plan(1, 16, 1, 0, 0) == 0);  /* the same input twice */
  CHECK(concat_plan(1, 16, 0, 1, 0) == 0);  /* an input that is the graph's input */
  CHECK(concat_plan(1, 16, 0, 0, 1) == 0);  /* an input that is a view's root */
  printf("%s\n", failures ? "FAILED" : "ok");
  return failures != 0;
}
