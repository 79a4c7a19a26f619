/* What Glow's instrumentation says about a step: its operands, its instruction kind
 * (Glow's number and name), Glow's type spelling, the instrument-ir.info and
 * instrument-debug.info files and the callbacks' declarations in the header.
 * A step is one of Glow's IR instructions; its operands are the node's outputs and
 * inputs that have memory in the bundle (compile-time constants have none). */
#include <stdlib.h>
#include <string.h>

#include "codegen/codegen-internal.h"

/* Glow's Kinded::Kind numbers of the instructions glowc's ops correspond to: the
 * order of tools/ClassGen/InstrGen.cpp (Glow of May 2024; backend-specific
 * instructions come after all of these, so the numbers hold for every backend set). */
static const struct {
  const char *onnx, *glow;
  int kind;
} kinds[] = {
    {"Identity", "copy", 4}, {"Dropout", "copy", 4}, {"Conv", "convolution", 5}, {"ConvInteger", "convolution", 5},
    {"QLinearConv", "convolution", 5}, {"ConvTranspose", "convtranspose", 7},
    {"BatchNormalization", "batchnormalization", 9}, {"MaxPool", "maxpool", 11}, {"GlobalMaxPool", "maxpool", 11},
    {"AveragePool", "avgpool", 12}, {"GlobalAveragePool", "avgpool", 12}, {"QLinearAveragePool", "avgpool", 12},
    {"QLinearGlobalAveragePool", "avgpool", 12}, {"ArgMax", "argmax", 13}, {"ArgMin", "argmin", 14},
    {"Gemm", "fullyconnected", 16}, {"LRN", "localresponsenormalization", 20},
    {"LayerNormalization", "layernormalization", 22}, {"Softmax", "softmax", 23}, {"LogSoftmax", "logsoftmax", 25},
    {"MatMul", "matmul", 28}, {"MatMulInteger", "matmul", 28}, {"QLinearMatMul", "matmul", 28},
    {"ReduceSum", "batchedreduceadd", 30}, {"ReduceMin", "batchedreducemin", 31},
    {"ReduceMax", "batchedreducemax", 32}, {"ReduceProd", "batchedreduceprod", 33}, {"CumSum", "cumsum", 34},
    {"Add", "elementadd", 54}, {"Sum", "elementadd", 54}, {"QLinearAdd", "elementadd", 54}, {"Sub", "elementsub", 55},
    {"Mul", "elementmul", 57}, {"QLinearMul", "elementmul", 57}, {"Div", "elementdiv", 59}, {"Mod", "elementfmod", 60},
    {"Max", "elementmax", 61}, {"Min", "elementmin", 62}, {"Equal", "elementcmpeq", 63}, {"Less", "elementcmplt", 65},
    {"Greater", "elementcmplt", 65}, {"LessOrEqual", "elementcmplte", 66}, {"GreaterOrEqual", "elementcmplte", 66},
    {"IsNaN", "elementisnan", 67}, {"Pow", "elementpow", 68}, {"And", "elementand", 69}, {"Or", "elementor", 71},
    {"Xor", "elementxor", 73}, {"Not", "elementnot", 75}, {"Neg", "elementneg", 77}, {"Abs", "elementabs", 78},
    {"Floor", "elementfloor", 79}, {"Sign", "elementsign", 80}, {"Ceil", "elementceil", 81},
    {"Round", "elementround", 83}, {"Sqrt", "elementsqrt", 84}, {"Reciprocal", "elementreciprocal", 86},
    {"Sin", "elementsin", 87}, {"Cos", "elementcos", 88}, {"Log", "elementlog", 89}, {"Exp", "elementexp", 90},
    {"Acos", "elementacos", 91}, {"Asin", "elementasin", 92}, {"Atan", "elementatan", 93}, {"Erf", "elementerf", 94},
    {"NonZero", "nonzero", 95}, {"Where", "elementselect", 96}, {"Relu", "relu", 110}, {"Clip", "clip", 112},
    {"Sigmoid", "sigmoid", 114}, {"Tanh", "tanh", 115}, {"LeakyRelu", "leakyrelu", 116},
    {"HardSwish", "hardswish", 117}, {"Softplus", "softplus", 118}, {"Transpose", "transpose", 119},
    {"Concat", "concat", 120}, {"QLinearConcat", "concat", 120}, {"ConstantOfShape", "splat", 121},
    {"Tile", "inserttensor", 123}, {"Slice", "extracttensor", 124}, {"Gather", "gather", 125},
    {"GatherND", "gathernd", 126}, {"GatherElements", "gatherelements", 127}, {"ScatterND", "scatterdata", 129},
    {"SpaceToDepth", "spacetodepth", 131}, {"Pad", "pad", 135}, {"QuantizeLinear", "quantize", 142},
    {"DynamicQuantizeLinear", "quantize", 142}, {"DequantizeLinear", "dequantize", 143}, {"TopK", "topk", 145},
    {"Cast", "convertto", 146}, {"CastLike", "convertto", 146}, {"TFLiteCustomOperator", "tflitecustomoperator", 152},
    {"RoiAlign", "roialign", 154},
};
/* An op Glow's IR has no instruction for is reported as an external function call. */
#define GLOW_KIND_OTHER 147
#define GLOW_KIND_OTHER_NAME "externalfunctioncall"

const char *glow_glow_kind(const glow_graph *g, const glow_node *n, int *number) {
  const char *op = glow_op_get(n->op)->onnx_name;
  if (!strcmp(op, "Resize") || !strcmp(op, "Upsample")) { /* by mode, as Glow's importer picks */
    int linear = !strcmp(glow_attr_string(n, "mode", "nearest"), "linear");
    *number = linear ? 133 : 132;
    return linear ? "resizebilinear" : "resizenearest";
  }
  if (!strcmp(op, "MatMul") && n->nout > 0 && n->out[0] >= 0 && g->vals[n->out[0]].rank > 2) {
    *number = 29;
    return "batchmatmul";
  }
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
    if (!strcmp(kinds[i].onnx, op)) {
      *number = kinds[i].kind;
      return kinds[i].glow;
    }
  *number = GLOW_KIND_OTHER;
  return GLOW_KIND_OTHER_NAME;
}

/* Glow's element names (Type::getElementName); the types Glow has none for keep glowc's. */
static const char *elem_name(glow_dtype dt) {
  switch (dt) {
  case GLOW_DT_F32: return "float";
  case GLOW_DT_F16: return "float16";
  case GLOW_DT_BF16: return "bfloat16";
  case GLOW_DT_F64: return "float64";
  case GLOW_DT_I8: return "i8";
  case GLOW_DT_U8: return "ui8";
  case GLOW_DT_I16: return "i16";
  case GLOW_DT_I32: return "index32";
  case GLOW_DT_I64: return "index64";
  case GLOW_DT_BOOL: return "bool";
  default: return glow_dtype_name(dt);
  }
}

void glow_glow_type(glow_strbuf *b, const glow_value *v) {
  glow_sb_printf(b, "%s<", elem_name(v->dt));
  for (int i = 0; i < v->rank; i++)
    glow_sb_printf(b, "%s%lld", i ? " x " : "", (long long)v->dims[i]);
  glow_sb_printf(b, ">");
}

/* Glow's names of the input operands of some instructions, space-separated. */
static const struct {
  const char *glow, *inputs;
} roles[] = {
    {"convolution", "Src Filter Bias"},      {"convtranspose", "Src Filter Bias"},
    {"fullyconnected", "Src Weights Bias"},  {"batchnormalization", "Src Scale Bias Mean Var"},
    {"layernormalization", "Src Scale Bias"}, {"elementselect", "Cond LHS RHS"},
    {"gather", "Data Indices"},              {"gathernd", "Data Indices"},
    {"gatherelements", "Data Indices"},
};

/* The input names of an instruction of Glow kind `kname` with n inputs, NULL if Glow's are not known. */
static const char *input_roles(const char *kname, int n) {
  for (size_t i = 0; i < sizeof roles / sizeof roles[0]; i++)
    if (!strcmp(roles[i].glow, kname)) {
      int words = 1;
      for (const char *c = roles[i].inputs; *c; c++)
        words += *c == ' ';
      return words == n ? roles[i].inputs : NULL;
    }
  int binary = !strncmp(kname, "element", 7) || !strcmp(kname, "matmul") || !strcmp(kname, "batchmatmul");
  return binary && n == 2 ? "LHS RHS" : NULL;
}

void glow_operands_of(const glow_graph *g, const glow_plan *p, const glow_node *n, glow_operands *ops) {
  ops->id = glow_xmalloc(sizeof *ops->id * (size_t)(n->nin + n->nout + 1));
  ops->nin = ops->nout = 0;
  for (int k = 0; k < n->nin; k++)
    if (n->in[k] >= 0 && p->area[n->in[k]])
      ops->id[ops->nin++] = n->in[k];
  for (int k = 0; k < n->nout; k++)
    if (n->out[k] >= 0 && p->area[n->out[k]])
      ops->id[ops->nin + ops->nout++] = n->out[k];
  int kind;
  ops->roles = input_roles(glow_glow_kind(g, n, &kind), ops->nin);
}

void glow_operands_free(glow_operands *ops) { free(ops->id); }

void glow_operand_name(char *dst, size_t cap, const glow_operands *ops, int k) {
  int out = k >= ops->nin, i = out ? k - ops->nin : k, count = out ? ops->nout : ops->nin;
  if (!out && ops->roles) { /* word i of the roles */
    const char *w = ops->roles;
    for (int j = 0; j < i; j++)
      w = strchr(w, ' ') + 1;
    snprintf(dst, cap, "%.*s", (int)strcspn(w, " "), w);
  } else if (count == 1) {
    snprintf(dst, cap, "%s", out ? "Dest" : "Src");
  } else {
    snprintf(dst, cap, "%s%d", out ? "Dest" : "Src", i);
  }
}

/* Glow's layout: names padded to the longest plus 2, at least 10 wide, colon included. */
static int name_width(const glow_operands *ops) {
  size_t most = 0;
  for (int k = 0; k < ops->nin + ops->nout; k++) {
    char name[32];
    glow_operand_name(name, sizeof name, ops, k);
    most = strlen(name) > most ? strlen(name) : most;
  }
  return (int)(most + 2 > 10 ? most + 2 : 10);
}

static const char *node_name(const glow_node *n) {
  return n->name && *n->name ? n->name : glow_op_get(n->op)->onnx_name;
}

void glow_emit_instrument_ir_info(const glow_graph *g, const glow_plan *p, glow_strbuf *b) {
  for (int s = 0; s < p->norder; s++) {
    const glow_node *n = &g->nodes[p->order[s]];
    int kind;
    const char *kname = glow_glow_kind(g, n, &kind);
    glow_sb_printf(b, "ID   : %d\nKind : %d (%s)\nName : %s\n", s, kind, kname, node_name(n));
    glow_operands ops;
    glow_operands_of(g, p, n, &ops);
    int w = name_width(&ops);
    for (int k = 0; k < ops.nin + ops.nout; k++) {
      char name[40];
      glow_operand_name(name, sizeof name - 1, &ops, k);
      strcat(name, ":");
      glow_sb_printf(b, "%s[%d] %-*s ", k < ops.nin ? "Inp" : "Out", k < ops.nin ? k : k - ops.nin, w, name);
      glow_glow_type(b, &g->vals[ops.id[k]]);
      glow_sb_printf(b, "\n");
    }
    glow_sb_printf(b, "\n");
    glow_operands_free(&ops);
  }
}

int glow_instrument_debug_format_check(const char *format) {
  static const char *const ok[] = {"console", "bin", "txt", "rawbin", "rawtxt"};
  for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
    if (!strcmp(format, ok[i]))
      return 0;
  glow_error("-instrument-debug-format", "'%s' is not a format; use console, bin, txt, rawbin or rawtxt", format);
  return -1;
}

const char *glow_instrument_debug_format(const glow_bundle_options *o) {
  return o->instrument_debug_format ? o->instrument_debug_format : "console";
}

/* Whether -instrument-debug-only (a comma list) names the node, its ONNX op or its Glow kind;
 * every step when the list is absent. */
int glow_instrument_debug_selected(const glow_bundle_options *o, const glow_graph *g, const glow_node *n) {
  const char *list = o->instrument_debug_only;
  if (!list || !*list)
    return 1;
  int kind;
  const char *names[3] = {node_name(n), glow_op_get(n->op)->onnx_name, glow_glow_kind(g, n, &kind)};
  for (const char *s = list; *s;) {
    size_t len = strcspn(s, ",");
    for (int i = 0; i < 3; i++)
      if (strlen(names[i]) == len && !strncmp(names[i], s, len))
        return 1;
    s += len + (s[len] == ',');
  }
  return 0;
}

void glow_emit_instrument_debug_info(const glow_graph *g, const glow_plan *p, const glow_bundle_options *o,
                                     glow_strbuf *b) {
  const char *format = glow_instrument_debug_format(o);
  const char *ext = strstr(format, "bin") ? "bin" : "txt";
  glow_sb_printf(b, "Format: %s\n", format);
  int file = 0;
  for (int s = 0; s < p->norder; s++) {
    const glow_node *n = &g->nodes[p->order[s]];
    if (!glow_instrument_debug_selected(o, g, n))
      continue;
    int kind;
    glow_sb_printf(b, "\nKind: %s\nName: %s\n", glow_glow_kind(g, n, &kind), node_name(n));
    glow_operands ops;
    glow_operands_of(g, p, n, &ops);
    int w = name_width(&ops);
    for (int j = 0; j < ops.nin + ops.nout; j++) { /* Glow's operand order: outputs first */
      int k = j < ops.nout ? ops.nin + j : j - ops.nout;
      char name[40];
      glow_operand_name(name, sizeof name - 1, &ops, k);
      strcat(name, ":");
      glow_sb_printf(b, "[%d] %-*s data%04d.%s    ", j, w, name, file++, ext);
      glow_glow_type(b, &g->vals[ops.id[k]]);
      glow_sb_printf(b, "\n");
    }
    glow_operands_free(&ops);
  }
}

void glow_instrument_header(glow_strbuf *b) {
  glow_sb_printf(
      b, "// -instrument-ir: the bundle calls these around each instruction (step); the\n"
         "// program defines them (with C linkage). id: the step's number in\n"
         "// instrument-ir.info (written beside the bundle), kind: Glow's instruction kind,\n"
         "// opInp and opOut: the operand counts, opAddr and opSize: the operands'\n"
         "// addresses and sizes in bytes, the inputs first, then the outputs (not yet\n"
         "// written when glow_instrument_before is called).\n"
         "void glow_instrument_before(int id, int kind, int opInp, int opOut, uint8_t **opAddr, int *opSize);\n"
         "void glow_instrument_after(int id, int kind, int opInp, int opOut, uint8_t **opAddr, int *opSize);\n\n");
}
