#!/usr/bin/env node
// Times ONNX Runtime on one model, `threads` intra-op threads (default 1),
// sequential execution: the reference that bench/run-bench.sh measures glowc
// against in the same run.
//
//   node ort-bench.js <model.onnx> [iters] [warmup] [threads]
// Prints "median_ms M min_ms m iters N". GLOWC_ORT_PROFILE=<file.json>: ONNX
// Runtime's profile of the runs is written there (bench/ort-profile.py reads it). Inputs are float32 with the same fixed
// pattern bench-bundle.c uses (static shapes are read from the model).
'use strict';
const path = require('path');
const os = require('os');

async function main() {
  const [model, itersArg, warmupArg, threadsArg] = process.argv.slice(2);
  if (!model) {
    console.error('usage: ort-bench.js <model.onnx> [iters] [warmup] [threads]');
    process.exit(2);
  }
  const iters = Number(itersArg || 50), warmup = Number(warmupArg || 5), threads = Number(threadsArg || 1);
  const dir = process.env.GLOWC_ORT_DIR || path.join(os.homedir(), '.cache', 'glowc', 'ort');
  const ort = require(path.join(dir, 'node_modules', 'onnxruntime-node'));
  const profile = process.env.GLOWC_ORT_PROFILE; // a file: ONNX Runtime's profile of these runs (ort-profile.py)
  const session = await ort.InferenceSession.create(model, {
    intraOpNumThreads: threads, interOpNumThreads: 1, executionMode: 'sequential', graphOptimizationLevel: 'all',
    ...(profile ? { enableProfiling: true, profileFilePrefix: `${profile}.tmp` } : {}),
  });
  const feeds = {};
  for (const name of session.inputNames) {
    const meta = session.inputMetadata ? session.inputMetadata.find((m) => m.name === name) : null;
    const dims = meta && meta.shape ? meta.shape.map((d) => (typeof d === 'number' ? d : 1)) : null;
    if (!dims) throw new Error(`cannot read the shape of input ${name}`);
    const n = dims.reduce((a, b) => a * b, 1);
    const data = new Float32Array(n);
    for (let k = 0; k < n; k++) data[k] = ((k * 7919) % 1000) / 1000 - 0.5;
    feeds[name] = new ort.Tensor('float32', data, dims);
  }
  for (let i = 0; i < warmup; i++) await session.run(feeds);
  const ms = [];
  for (let i = 0; i < iters; i++) {
    const t0 = process.hrtime.bigint();
    await session.run(feeds);
    ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  if (profile) { // ONNX Runtime names the file itself (prefix_date.json): moved to the name asked for
    session.endProfiling();
    const fs = require('fs');
    const dir = path.dirname(profile), base = `${path.basename(profile)}.tmp`;
    const made = fs.readdirSync(dir).filter((f) => f.startsWith(base) && f.endsWith('.json'));
    if (made.length !== 1) throw new Error(`no single ONNX Runtime profile ${base}*.json in ${dir}`);
    fs.renameSync(path.join(dir, made[0]), profile);
  }
  ms.sort((a, b) => a - b);
  console.log(`median_ms ${ms[iters >> 1].toFixed(3)} min_ms ${ms[0].toFixed(3)} iters ${iters}`);
}
main().catch((e) => { console.error(`ort-bench: ${e.message}`); process.exit(1); });
