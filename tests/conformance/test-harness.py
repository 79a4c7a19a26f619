#!/usr/bin/env python3
"""Unit test of run-conformance.py's own logic (label: unit): the bfloat16 correction rounds to
nearest even (values worked out by hand), a suite-defects entry changes a test's category only
when the test fails the way its defect predicts, compile errors map to their categories, and
--shard picks every N-th test.

    test-harness.py <run-conformance.py>
"""
import importlib.util
import os
import struct
import sys
import tempfile
import types


def load(path):
    spec = importlib.util.spec_from_file_location("run_conformance", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def tensor_pb(rc, dims, dtype, name, raw):
    pb = b"".join(rc.put_varint(1 << 3) + rc.put_varint(d) for d in dims)
    return pb + rc.put_varint(2 << 3) + rc.put_varint(dtype) + rc.put_len(8, name.encode()) + rc.put_len(9, raw)


def main():
    rc = load(sys.argv[1])
    failures = []

    def check(what, got, want):
        if got != want:
            failures.append("%s: got %r, want %r" % (what, got, want))

    # --shard K/N: every N-th of the sorted names from the K-th; the shards cover all, once.
    names = ["t%02d" % i for i in range(7)]
    check("shard 0/2", rc.shard(names[::-1], "0/2"), ["t00", "t02", "t04", "t06"])
    check("shard 1/2", rc.shard(names, "1/2"), ["t01", "t03", "t05"])
    check("shard 2/3", rc.shard(names, "2/3"), ["t02", "t05"])
    for bad in ("2/2", "1", "a/2", "-1/2", "1/0"):
        try:
            rc.shard(names, bad)
            failures.append("shard %r: no error" % bad)
        except ValueError:
            pass

    # float32 bits -> bfloat16 bits, rounded to nearest even, by hand.
    cases = [(0x3F800000, 0x3F80),  # 1.0, exact
             (0x3F808000, 0x3F80),  # halfway, even below: down
             (0x3F818000, 0x3F82),  # halfway, odd below: up
             (0x3F80C000, 0x3F81),  # above halfway: up
             (0x3F807FFF, 0x3F80),  # below halfway: down
             (0xBF818000, 0xBF82),  # negative, halfway, odd: away from zero
             (0x7F7FFFFF, 0x7F80),  # largest float rounds to infinity
             (0x7F800000, 0x7F80),  # infinity stays
             (0x7F800001, 0x7FC0)]  # a NaN stays a NaN (quiet)
    with tempfile.TemporaryDirectory() as tmp:
        case = os.path.join(tmp, "test_case")
        os.makedirs(os.path.join(case, "test_data_set_0"))
        data = os.path.join(case, "test_data_set_0")
        raw = struct.pack("<%dI" % len(cases), *[f for f, _ in cases])
        with open(os.path.join(data, "input_0.pb"), "wb") as f:
            f.write(tensor_pb(rc, [len(cases)], 1, "input", raw))
        with open(os.path.join(data, "output_0.pb"), "wb") as f:
            f.write(tensor_pb(rc, [len(cases)], 4, "output", b"\0\0" * len(cases)))
        out = rc.bfloat16_rne(case, os.path.join(tmp, "corrected"))
        fields = list(rc.pb_fields(open(os.path.join(out, "output_0.pb"), "rb").read()))
        got = [v for f, _, v in fields if f == 9][0]
        check("bfloat16 bits", list(struct.unpack("<%dH" % len(cases), got)), [b for _, b in cases])
        check("dims", [v for f, w, v in fields if f == 1], [len(cases)])
        check("dtype and name kept", [(f, v) for f, _, v in fields if f in (2, 8)], [(2, 4), (8, b"output")])

        # A listed test that fails some other way keeps its own category (verdict None).
        args = types.SimpleNamespace(suite=tmp, work=tmp, ort_run=None, defects={"test_case": "invalid-input"})
        never = lambda d: (0, "")  # noqa: E731 (a rerun that passes)
        check("invalid-input, wrong result", rc.defect_verdict(args, "test_case", 1, "MISMATCH", never), None)
        check("invalid-input, input refused", rc.defect_verdict(
            args, "test_case", 2, "run-bundle: input 1 (like) has type float and 1 elements; the bundle expects "
            "float and 12", never)[1], "invalid test data")
        check("unlisted test", rc.defect_verdict(args, "test_other", 2, "the bundle expects", never), None)
        rne = types.SimpleNamespace(suite=tmp, work=tmp, ort_run=None, defects={"test_case": "bfloat16-rne"})
        check("bfloat16-rne, the corrected run fails too",
              rc.defect_verdict(rne, "test_case", 1, "MISMATCH", lambda d: (1, "MISMATCH")), None)
        check("bfloat16-rne, the corrected run passes",
              rc.defect_verdict(rne, "test_case", 1, "MISMATCH", never)[1], "passed (corrected reference)")
        check("bfloat16-rne, a crash", rc.defect_verdict(rne, "test_case", -11, "", never), None)

    # Compile errors, as glowc words them, to categories.
    for msg, want in [
            ("m.onnx:Adam_X (Adam): error: unsupported op 'Adam' (domain ai.onnx.preview.training): a training op; "
             "bundles run inference only", "training-only op"),
            ("m.onnx:U: error: unsupported op 'Unique' (domain ai.onnx): its output shape depends on the input "
             "values, and a bundle's shapes are fixed at compile time", "data-dependent output shape"),
            ("m.onnx: error: input 'x': sequence and optional types are not supported", "sequence/optional types"),
            ("m.onnx: error: input 'x': string tensors are not supported", "string tensors"),
            ("m.onnx:B: error: unsupported op 'Bernoulli' (domain ai.onnx): a random-number generator: bundles are "
             "deterministic", "random numbers"),
            ("m.onnx:If_r: error: unsupported op 'If' (domain ai.onnx): control flow with subgraphs (If, Loop, Scan) "
             "is not supported", "control flow (subgraphs)"),
            ("m.onnx:D: error: unsupported op 'Foo' (domain ai.onnx): glowc does not implement it yet",
             "not implemented yet"),
            ("m.onnx:S (Softmax): error: no Softmax kernel for type float16", "not implemented yet"),
            ("m.onnx:R (Reshape): error: input 'shape' (the target shape) must be a compile-time constant: glowc "
             "compiles static shapes (bind it to fixed values with -bind-input=shape,<tensor.pb>)",
             "data-dependent output shape"),
            ("m.onnx:C (Conv): error: the weight must be rank 4", "refused (other)")]:
        check(msg[:40], rc.refusal(msg), want)
    for f in failures:
        print("FAIL " + f)
    print("test-harness: %d checks failed" % len(failures) if failures else "test-harness: all checks passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
