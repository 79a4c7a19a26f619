/* init_net: every op is a fill whose data is in its arguments (shape, values),
 * and its output blob becomes a constant: GivenTensorFill (float),
 * GivenTensorDoubleFill, GivenTensorIntFill (int32), GivenTensorInt64Fill,
 * GivenTensorBoolFill, ConstantFill (one value, dtype), and the quantized
 * Int8GivenTensorFill (uint8 bytes in `values`) and Int8GivenTensorIntFill
 * (int32), whose Y_scale and Y_zero_point are kept for Int8Dequantize. Other
 * ops are reported all at once. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "importer/caffe2.h"

/* A ConstantFill's data comes from no bytes of the file, so its size is bounded on its own. */
#define CONSTANT_FILL_MAX_BYTES ((int64_t)1 << 30)

enum { FILL_FLOAT, FILL_DOUBLE, FILL_INT32, FILL_INT64, FILL_BOOL, FILL_CONSTANT, FILL_INT8, FILL_INT8_INT };

static const struct {
  const char *type;
  int kind;
} fills[] = {{"GivenTensorFill", FILL_FLOAT},      {"GivenTensorDoubleFill", FILL_DOUBLE},
             {"GivenTensorIntFill", FILL_INT32},   {"GivenTensorInt64Fill", FILL_INT64},
             {"GivenTensorBoolFill", FILL_BOOL},   {"ConstantFill", FILL_CONSTANT},
             {"Int8GivenTensorFill", FILL_INT8},   {"Int8GivenTensorIntFill", FILL_INT8_INT}};
enum { NFILLS = sizeof fills / sizeof fills[0] };

static int fill_kind(const char *type) {
  for (int i = 0; i < NFILLS; i++)
    if (!strcmp(type, fills[i].type))
      return fills[i].kind;
  return -1;
}

/* Caffe2's TensorProto.DataType (ConstantFill's dtype) to glowc's. */
static glow_dtype caffe2_dtype(int64_t t) {
  switch (t) {
  case 1: return GLOW_DT_F32;
  case 2: return GLOW_DT_I32;
  case 5: return GLOW_DT_BOOL;
  case 6: return GLOW_DT_U8;
  case 7: return GLOW_DT_I8;
  case 9: return GLOW_DT_I16;
  case 10: return GLOW_DT_I64;
  case 13: return GLOW_DT_F64;
  default: return GLOW_DT_UNDEF;
  }
}

static glow_dtype kind_dtype(int kind) {
  static const glow_dtype dt[] = {GLOW_DT_F32, GLOW_DT_F64, GLOW_DT_I32,  GLOW_DT_I64,
                                  GLOW_DT_BOOL, GLOW_DT_F32, GLOW_DT_U8, GLOW_DT_I32};
  return dt[kind];
}

/* The values of a Given*Fill (numel elements of dt) into *data, allocated only once the
 * argument is known to hold that many: a shape never makes glowc allocate more than the file holds. */
static int given_values(const glow_c2_op *op, int kind, glow_dtype dt, int64_t numel, void **out) {
  const Caffe2__Argument *a = glow_c2_arg(op, "values");
  if (!a)
    return glow_c2_err(op, "has no 'values' argument");
  size_t have = kind == FILL_INT8 ? a->s.len : kind == FILL_FLOAT || kind == FILL_DOUBLE ? a->n_floats : a->n_ints;
  const char *field = kind == FILL_INT8 ? "bytes (field s)" : kind == FILL_FLOAT || kind == FILL_DOUBLE ? "floats" : "ints";
  if (have != (size_t)numel)
    return glow_c2_err(op, "'values' has %zu %s, but its shape holds %lld elements", have, field, (long long)numel);
  void *data = *out = glow_xcalloc((size_t)numel + 1, glow_dtype_size(dt));
  for (int64_t i = 0; i < numel; i++) {
    if (kind == FILL_INT8)
      ((uint8_t *)data)[i] = a->s.data[i];
    else if (kind == FILL_FLOAT || kind == FILL_DOUBLE)
      glow_elem_set(dt, data, i, a->floats[i]);
    else
      glow_elem_seti(dt, data, i, a->ints[i]);
  }
  return 0;
}

/* ConstantFill: `value` (float or int) everywhere, of `dtype` (default float). */
static int constant_values(const glow_c2_op *op, glow_dtype *dt, int64_t numel, void **data) {
  int64_t t;
  if (glow_c2_arg_int(op, "dtype", 1, &t))
    return -1;
  if (!(*dt = caffe2_dtype(t)))
    return glow_c2_err(op, "dtype %lld is not supported (float 1, int32 2, bool 5, uint8 6, int8 7, int16 9, int64 10, "
                       "double 13 are)", (long long)t);
  if (numel > CONSTANT_FILL_MAX_BYTES / (int64_t)glow_dtype_size(*dt))
    return glow_c2_err(op, "a ConstantFill of %lld elements is more than glowc makes from one value (%lld bytes)",
                       (long long)numel, (long long)CONSTANT_FILL_MAX_BYTES);
  const Caffe2__Argument *a = glow_c2_arg(op, "value");
  double v = a && a->has_f ? a->f : a && a->has_i ? (double)a->i : 0.0;
  if (a && !a->has_f && !a->has_i)
    return glow_c2_err(op, "argument 'value' must be a number");
  *data = glow_xcalloc((size_t)numel + 1, glow_dtype_size(*dt));
  for (int64_t i = 0; i < numel; i++)
    if (glow_dtype_is_float(*dt))
      glow_elem_set(*dt, *data, i, v);
    else
      glow_elem_seti(*dt, *data, i, a && a->has_i ? a->i : (int64_t)v);
  return 0;
}

static int fill(glow_c2 *c, const glow_c2_op *op, int kind) {
  if (op->def->n_input)
    return glow_c2_err(op, "fills with inputs (input_as_shape) are not supported: give the shape as an argument");
  if (op->def->n_output != 1)
    return glow_c2_err(op, "a fill has one output (this one has %zu)", op->def->n_output);
  int64_t dims[GLOW_MAX_RANK];
  int rank = glow_c2_arg_ints(op, "shape", dims, GLOW_MAX_RANK);
  if (rank == -1)
    return -1;
  if (rank == -2)
    rank = 0; /* no shape: a scalar */
  int64_t numel = 1;
  for (int i = 0; i < rank; i++) {
    if (dims[i] < 0 || (dims[i] && numel > ((int64_t)1 << 40) / dims[i]))
      return glow_c2_err(op, "shape dimension %d (%lld) is negative or too large", i, (long long)dims[i]);
    numel *= dims[i];
  }
  glow_dtype dt = kind_dtype(kind);
  void *data = NULL;
  int rc;
  if (kind == FILL_CONSTANT) {
    rc = constant_values(op, &dt, numel, &data);
  } else {
    rc = given_values(op, kind, dt, numel, &data);
  }
  double scale = 1;
  int64_t zp = 0;
  if (!rc && (kind == FILL_INT8 || kind == FILL_INT8_INT) &&
      (glow_c2_arg_float(op, "Y_scale", 1, &scale) || glow_c2_arg_int(op, "Y_zero_point", 0, &zp)))
    rc = -1;
  if (!rc && !(scale > 0 && isfinite(scale)))
    rc = glow_c2_err(op, "Y_scale must be a positive number");
  if (!rc) {
    int id = glow_c2_out(c, op, 0);
    glow_value_make_const(c->g, id, dt, rank, dims, data);
    if (kind == FILL_INT8 || kind == FILL_INT8_INT)
      glow_c2_set_qparams(c, id, scale, zp);
  }
  free(data);
  return rc;
}

int glow_c2_init_net(glow_c2 *c, const Caffe2__NetDef *init) {
  int rc = 0;
  glow_strbuf unsupported = {0};
  int nbad = 0;
  for (size_t i = 0; i < init->n_op; i++) {
    glow_c2_op op = glow_c2_op_make(c->init_path, init->op[i]);
    int kind = fill_kind(op.type);
    if (kind < 0) {
      glow_sb_printf(&unsupported, "%s%s (%s)", nbad++ ? ", " : "", op.name, op.type);
      rc = -1;
    } else if (fill(c, &op, kind)) {
      rc = -1;
    }
    free(op.name);
  }
  if (nbad) {
    glow_strbuf known = {0};
    for (int i = 0; i < NFILLS; i++)
      glow_sb_printf(&known, "%s%s", i ? ", " : "", fills[i].type);
    glow_error(c->init_path, "%d op%s of init_net %s not a fill glowc reads: %s. An init_net holds the weights as "
               "fill ops: %s", nbad, nbad > 1 ? "s" : "", nbad > 1 ? "are" : "is", unsupported.s, known.s);
    glow_sb_free(&known);
  }
  glow_sb_free(&unsupported);
  return rc;
}
