#!/usr/bin/env node
// Runs an ONNX model through ONNX Runtime, the reference glowc's tests compare against.
//
//   node ort-run.js <model.onnx> <case_dir> [<model.onnx> <case_dir>...]
//   node ort-run.js --pairs <file>      one "<model.onnx> <case_dir>" pair a line
//
// For each pair, reads case_dir/input_N.pb (serialized ONNX TensorProto, as in the ONNX backend tests),
// runs the model on one intra-op thread and writes case_dir/output_N.pb, one per model
// output in the model's order, each named after that output, with dims, data_type and
// raw_data (string tensors use string_data). An input file is bound to the model input of
// the same name, or by position when it has no name or an unknown one. Several pairs share
// one process (a few hundred small models in seconds); a pair that fails is reported and the
// others still run; the exit status is 1 if any failed. Many pairs go through --pairs: with a
// command line of about 40 kB the ORT library crashes (SIGSEGV) as it loads.
// onnxruntime-node is looked up in $GLOWC_ORT_DIR/node_modules (default
// $HOME/.cache/glowc/ort), where scripts/install-deps.sh puts it.
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');

// TensorProto.DataType -> onnxruntime-node type name and typed array.
const DTYPES = {
  1: { ort: 'float32', array: Float32Array },
  2: { ort: 'uint8', array: Uint8Array },
  3: { ort: 'int8', array: Int8Array },
  4: { ort: 'uint16', array: Uint16Array },
  5: { ort: 'int16', array: Int16Array },
  6: { ort: 'int32', array: Int32Array },
  7: { ort: 'int64', array: BigInt64Array },
  8: { ort: 'string', array: null },
  9: { ort: 'bool', array: Uint8Array },
  10: { ort: 'float16', array: Uint16Array },
  11: { ort: 'float64', array: Float64Array },
  12: { ort: 'uint32', array: Uint32Array },
  13: { ort: 'uint64', array: BigUint64Array },
};
const DTYPE_OF_ORT = Object.fromEntries(Object.entries(DTYPES).map(([k, v]) => [v.ort, Number(k)]));

// TensorProto field numbers (onnx.proto).
const F_DIMS = 1, F_DATA_TYPE = 2, F_FLOAT_DATA = 4, F_INT32_DATA = 5, F_STRING_DATA = 6,
  F_INT64_DATA = 7, F_NAME = 8, F_RAW_DATA = 9, F_DOUBLE_DATA = 10, F_UINT64_DATA = 11;
const WIRE_VARINT = 0, WIRE_I64 = 1, WIRE_LEN = 2, WIRE_I32 = 5;

// Errors end the current pair: main reports them and goes on with the next.
class OrtRunError extends Error {}
function fail(msg) {
  throw new OrtRunError(msg);
}

// ---- protobuf decoding ----

class Reader {
  constructor(buf, file) { this.buf = buf; this.pos = 0; this.file = file; }
  done() { return this.pos >= this.buf.length; }
  varint() {
    let v = 0n, shift = 0n;
    for (;;) {
      if (this.pos >= this.buf.length || shift > 63n) fail(`${this.file}: bad varint`);
      const b = this.buf[this.pos++];
      v |= BigInt(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
      shift += 7n;
    }
  }
  bytes(n) {
    if (this.pos + n > this.buf.length) fail(`${this.file}: truncated field`);
    const b = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return b;
  }
  skip(wire) {
    if (wire === WIRE_VARINT) this.varint();
    else if (wire === WIRE_I64) this.bytes(8);
    else if (wire === WIRE_LEN) this.bytes(Number(this.varint()));
    else if (wire === WIRE_I32) this.bytes(4);
    else fail(`${this.file}: unsupported wire type ${wire}`);
  }
}

// Appends the values of a repeated scalar field, packed (wire LEN) or not.
function readRepeated(r, wire, scalarWire, readOne, out) {
  if (wire === WIRE_LEN) {
    const sub = new Reader(r.bytes(Number(r.varint())), r.file);
    while (!sub.done()) out.push(readOne(sub));
  } else if (wire === scalarWire) {
    out.push(readOne(r));
  } else {
    fail(`${r.file}: unexpected wire type ${wire}`);
  }
}

const readVarint = (r) => r.varint();
const readF32 = (r) => r.bytes(4).readFloatLE(0);
const readF64 = (r) => r.bytes(8).readDoubleLE(0);

function decodeTensor(buf, file) {
  const t = { dims: [], dataType: 0, name: '', raw: null, floats: [], ints32: [], ints64: [],
    doubles: [], uints64: [], strings: [] };
  const r = new Reader(buf, file);
  while (!r.done()) {
    const key = Number(r.varint());
    const field = key >>> 3, wire = key & 7;
    switch (field) {
      case F_DIMS: {
        const d = [];
        readRepeated(r, wire, WIRE_VARINT, readVarint, d);
        for (const v of d) t.dims.push(Number(BigInt.asIntN(64, v)));
        break;
      }
      case F_DATA_TYPE: t.dataType = Number(r.varint()); break;
      case F_FLOAT_DATA: readRepeated(r, wire, WIRE_I32, readF32, t.floats); break;
      case F_INT32_DATA: readRepeated(r, wire, WIRE_VARINT, readVarint, t.ints32); break;
      case F_STRING_DATA: t.strings.push(r.bytes(Number(r.varint())).toString('utf8')); break;
      case F_INT64_DATA: readRepeated(r, wire, WIRE_VARINT, readVarint, t.ints64); break;
      case F_NAME: t.name = r.bytes(Number(r.varint())).toString('utf8'); break;
      case F_RAW_DATA: t.raw = Buffer.from(r.bytes(Number(r.varint()))); break;
      case F_DOUBLE_DATA: readRepeated(r, wire, WIRE_I64, readF64, t.doubles); break;
      case F_UINT64_DATA: readRepeated(r, wire, WIRE_VARINT, readVarint, t.uints64); break;
      default: r.skip(wire);
    }
  }
  return t;
}

// Turns a decoded TensorProto into the typed array (or string array) ORT takes.
function tensorData(t, file) {
  const dt = DTYPES[t.dataType];
  // Sequence and optional inputs (SequenceProto, OptionalProto) are not supported.
  const notTensor = '(not a TensorProto? sequence and optional inputs are not supported)';
  if (!dt) fail(`${file}: unsupported data_type ${t.dataType} ${notTensor}`);
  const count = t.dims.reduce((a, b) => a * b, 1);
  let data;
  if (dt.ort === 'string') {
    data = t.strings;
  } else if (t.raw) {
    // Copy: the typed array needs an aligned buffer of its own.
    const ab = new ArrayBuffer(t.raw.length);
    new Uint8Array(ab).set(t.raw);
    if (t.raw.length % dt.array.BYTES_PER_ELEMENT) fail(`${file}: raw_data size not a multiple of the element size`);
    data = new dt.array(ab);
  } else {
    const A = dt.array;
    switch (t.dataType) {
      case 1: data = A.from(t.floats); break;
      case 11: data = A.from(t.doubles); break;
      case 7: data = A.from(t.ints64, (v) => BigInt.asIntN(64, v)); break;
      case 12: data = A.from(t.uints64, (v) => Number(BigInt.asUintN(32, v))); break;
      case 13: data = A.from(t.uints64, (v) => BigInt.asUintN(64, v)); break;
      // int32_data holds int32, int16, int8, uint16, uint8, bool and float16 bits.
      default: data = A.from(t.ints32, (v) => Number(BigInt.asIntN(32, v)));
    }
  }
  if (data.length !== count) fail(`${file}: ${data.length} elements for dims [${t.dims}] ${notTensor}`);
  return { type: dt.ort, data, dims: t.dims };
}

// ---- protobuf encoding ----

function varintBytes(v) {
  let x = BigInt.asUintN(64, BigInt(v));
  const out = [];
  while (x >= 0x80n) {
    out.push(Number(x & 0x7fn) | 0x80);
    x >>= 7n;
  }
  out.push(Number(x));
  return Buffer.from(out);
}

const keyBytes = (field, wire) => varintBytes((field << 3) | wire);
const lenField = (field, bytes) => Buffer.concat([keyBytes(field, WIRE_LEN), varintBytes(bytes.length), bytes]);

function encodeTensor(name, dataType, dims, data) {
  const parts = [];
  if (dims.length) parts.push(lenField(F_DIMS, Buffer.concat(dims.map(varintBytes))));
  parts.push(keyBytes(F_DATA_TYPE, WIRE_VARINT), varintBytes(dataType));
  if (dataType === 8) {
    for (const s of data) parts.push(lenField(F_STRING_DATA, Buffer.from(s, 'utf8')));
  }
  parts.push(lenField(F_NAME, Buffer.from(name, 'utf8')));
  if (dataType !== 8) {
    // Little-endian host (x86-64, AArch64), as raw_data requires.
    parts.push(lenField(F_RAW_DATA, Buffer.from(data.buffer, data.byteOffset, data.byteLength)));
  }
  return Buffer.concat(parts);
}

// ---- main ----

function loadOrt() {
  const dir = process.env.GLOWC_ORT_DIR || path.join(os.homedir(), '.cache', 'glowc', 'ort');
  const mod = path.join(dir, 'node_modules', 'onnxruntime-node');
  try {
    return require(mod);
  } catch (e) {
    fail(`cannot load ${mod} (run scripts/install-deps.sh or set GLOWC_ORT_DIR): ${e.message}`);
  }
}

async function runOne(ort, modelPath, caseDir) {
  const session = await ort.InferenceSession.create(modelPath, {
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    logSeverityLevel: 3,  // errors come back as exceptions; no warnings about old opsets
  }).catch((e) => fail(`${modelPath}: ${e.message}`));
  // Released at once: hundreds of live sessions crash the process at exit.
  try {
    await runSession(ort, session, modelPath, caseDir);
  } finally {
    await session.release();
  }
}

async function runSession(ort, session, modelPath, caseDir) {
  const feeds = {};
  for (let i = 0; ; i++) {
    const file = path.join(caseDir, `input_${i}.pb`);
    if (!fs.existsSync(file)) break;
    const t = decodeTensor(fs.readFileSync(file), file);
    let name = t.name;
    if (!session.inputNames.includes(name)) {
      if (i >= session.inputNames.length) fail(`${file}: the model has only ${session.inputNames.length} inputs`);
      name = session.inputNames[i];
    }
    const { type, data, dims } = tensorData(t, file);
    feeds[name] = new ort.Tensor(type, data, dims);
  }
  for (const name of session.inputNames) {
    if (!(name in feeds)) fail(`${caseDir}: no input_N.pb for model input '${name}'`);
  }

  const results = await session.run(feeds).catch((e) => fail(`${modelPath}: ${e.message}`));
  session.outputNames.forEach((name, i) => {
    const t = results[name];
    const dataType = DTYPE_OF_ORT[t.type];
    if (!dataType) fail(`output '${name}': unsupported type ${t.type}`);
    const file = path.join(caseDir, `output_${i}.pb`);
    const tmp = `${file}.tmp${process.pid}`;
    fs.writeFileSync(tmp, encodeTensor(name, dataType, t.dims, t.data));
    fs.renameSync(tmp, file);
  });
}

async function main() {
  let args = process.argv.slice(2);
  if (args.length === 2 && args[0] === '--pairs') {
    args = fs.readFileSync(args[1], 'utf8').split('\n').filter((l) => l.trim()).flatMap((l) => l.trim().split(/\s+/));
  }
  if (!args.length || args.length % 2) {
    process.stderr.write('usage: node ort-run.js <model.onnx> <case_dir> [<model.onnx> <case_dir>...]\n' +
      '       node ort-run.js --pairs <file>\n');
    process.exit(1);
  }
  let ort;
  try {
    ort = loadOrt();
  } catch (e) {
    process.stderr.write(`ort-run: ${e.message}\n`);
    process.exit(1);
  }
  let failed = 0;
  for (let i = 0; i < args.length; i += 2) {
    try {
      await runOne(ort, args[i], args[i + 1]);
    } catch (e) {
      if (!(e instanceof OrtRunError)) throw e;
      process.stderr.write(`ort-run: ${e.message}\n`);
      failed++;
    }
  }
  process.exit(failed ? 1 : 0);
}

main();
