#!/usr/bin/python3
"""Checks that model-compiler takes the com.microsoft ops it runs only from that domain, refuses that
domain's other ops, and refuses QLinearAveragePool's channels_last=1, each with a message.

    check-ms-domain.py <model-compiler> <work dir>
"""
import os
import subprocess
import sys

from onnx import TensorProto, helper

compiler, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)

# Inputs and attributes of each op, on a uint8 "a" with shared scale "s" and zero point "z".
BINARY = ["a", "s", "z", "a", "s", "z", "s", "z"]
POOL = ["a", "s", "z", "s", "z"]
OPS = {"QLinearAdd": (BINARY, {}), "QLinearAveragePool": (POOL, {"kernel_shape": [2, 2]}),
       "QLinearConcat": (["s", "z", "a", "s", "z", "a", "s", "z"], {"axis": 1}),
       "QLinearGlobalAveragePool": (POOL, {"channels_last": 0}), "QLinearMul": (BINARY, {}),
       "QLinearSigmoid": (POOL, {})}
ACCEPTED = [op for op in OPS if op != "QLinearSigmoid"]  # in the order the message lists them


def model(op, domain, **extra):
    u8 = lambda n: helper.make_tensor_value_info(n, TensorProto.UINT8, [1, 2, 4, 4])
    ins, attrs = OPS[op]
    inits = [helper.make_tensor("s", TensorProto.FLOAT, [], [0.1]), helper.make_tensor("z", TensorProto.UINT8, [], [3])]
    node = helper.make_node(op, ins, ["c"], domain=domain, name="n", **dict(attrs, **extra))
    c = helper.make_tensor_value_info("c", TensorProto.UINT8, None)
    g = helper.make_graph([node], "g", [u8("a")], [c], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13), helper.make_opsetid("com.microsoft", 1)])
    m.ir_version = 7
    path = os.path.join(work, "%s-%s.onnx" % (op, domain or "default"))
    with open(path, "wb") as f:
        f.write(m.SerializeToString())
    r = subprocess.run([compiler, "-model=" + path, "-emit-bundle=" + work], capture_output=True, text=True)
    return r.returncode, r.stderr


failed = 0
checks = [(op, "com.microsoft", True, "", {}) for op in ACCEPTED]
checks += [(op, "", False, "it is a com.microsoft op", {}) for op in ACCEPTED]
checks += [("QLinearSigmoid", "com.microsoft", False,
            "of com.microsoft, only %s and %s are supported" % (", ".join(ACCEPTED[:-1]), ACCEPTED[-1]), {}),
           ("QLinearAveragePool", "com.microsoft", False, "n (QLinearAveragePool): error: channels_last=1 is not supported", {"channels_last": 1})]
for op, domain, ok, want, extra in checks:
    rc, err = model(op, domain, **extra)
    good = (rc == 0) == ok and want in err
    what = "%s (domain %s%s)" % (op, domain or "ai.onnx", "".join(", %s=%s" % kv for kv in extra.items()))
    print("%s: %s%s" % (what, "ok" if good else "WRONG", "" if good else ": " + err))
    failed += not good
sys.exit(1 if failed else 0)
