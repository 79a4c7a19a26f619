#!/usr/bin/python3
"""Checks that model-compiler takes QLinearAdd only from com.microsoft and refuses that domain's other ops.

    check-ms-domain.py <model-compiler> <work dir>
"""
import os
import subprocess
import sys

from onnx import TensorProto, helper

compiler, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)


def model(op, domain):
    u8 = lambda n: helper.make_tensor_value_info(n, TensorProto.UINT8, [4])
    ins = ["a", "s", "z", "s", "z"] if op == "QLinearSigmoid" else ["a", "s", "z", "a", "s", "z", "s", "z"]
    inits = [helper.make_tensor("s", TensorProto.FLOAT, [], [0.1]), helper.make_tensor("z", TensorProto.UINT8, [], [3])]
    g = helper.make_graph([helper.make_node(op, ins, ["c"], domain=domain, name="n")], "g", [u8("a")], [u8("c")], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13), helper.make_opsetid("com.microsoft", 1)])
    m.ir_version = 7
    path = os.path.join(work, "%s-%s.onnx" % (op, domain or "default"))
    with open(path, "wb") as f:
        f.write(m.SerializeToString())
    r = subprocess.run([compiler, "-model=" + path, "-emit-bundle=" + work], capture_output=True, text=True)
    return r.returncode, r.stderr


failed = 0
for op, domain, ok, want in (("QLinearAdd", "com.microsoft", True, ""),
                             ("QLinearAdd", "", False, "it is a com.microsoft op"),
                             ("QLinearSigmoid", "com.microsoft", False, "only QLinearAdd and QLinearGlobalAveragePool")):
    rc, err = model(op, domain)
    good = (rc == 0) == ok and want in err
    print("%s (domain %s): %s%s" % (op, domain or "ai.onnx", "ok" if good else "WRONG", "" if good else ": " + err))
    failed += not good
sys.exit(1 if failed else 0)
