#!/usr/bin/env python3
"""Writes .tflite files by hand (plain python3: no flatbuffers module, no flatc),
so that a test can make a file as broken as it likes and know where each byte is.
  make-tflite.py CASE PATH     one bad input of tests/badinput/run-badinput.sh (CASES below)
  make-tflite.py --seeds DIR   the fuzzer's seeds (tests/fuzz/corpus/import-tflite/seed-*.tflite):
                               small valid models of the operators glowc imports
  make-tflite.py --json PATH   prints nothing; writes the 'float' seed (to check this writer
                               with flatc --json --raw-binary compiler/importer/tflite.fbs -- PATH)
The FlatBuffer is laid out front to back (root, then each object's children after
it), so every offset points forward, as FlatBuffers requires; scalars are aligned."""
import math
import os
import struct
import sys


# ---- a FlatBuffer writer ----

class Table:
    """fields: a list indexed by the schema's field index; each None or (fmt, value),
    fmt a struct code (b B h H i I q Q f) or 'o' (value: a Table, Vector or String)."""

    def __init__(self, *fields):
        self.fields = list(fields)
        self.pos = self.vt = None  # where it and its vtable were written
        self.offs = {}  # field index -> its offset in the table


class Vector:
    def __init__(self, fmt, items, align=4):
        self.fmt, self.items, self.align, self.pos = fmt, list(items), align, None  # pos: of the count


class String:
    def __init__(self, s):
        self.s = s.encode() if isinstance(s, str) else s
        self.pos = None


def size_of(fmt):
    return 4 if fmt == 'o' else struct.calcsize('<' + fmt)


def write(root, ident=b'TFL3'):
    """The bytes of a FlatBuffer with root table `root`; each object's .pos says where it went."""
    buf = bytearray(8)
    buf[4:8] = ident
    queue = [root]  # objects to write, each once
    refs = {id(root): [0]}  # object -> where the offsets to it go (an object listed twice is shared)

    def ref(at, obj):
        if obj.pos is not None:
            raise ValueError('an offset back to an object already written')
        if id(obj) not in refs:
            refs[id(obj)] = []
            queue.append(obj)
        refs[id(obj)].append(at)

    def pad(align, extra=0):
        while (len(buf) + extra) % align:
            buf.append(0)

    while queue:
        obj = queue.pop(0)
        if isinstance(obj, Table):
            present = [(i, f) for i, f in enumerate(obj.fields) if f is not None]
            align = max([4] + [size_of(f[0]) for _, f in present])
            offs, end = {}, 4
            for i, (fmt, _) in sorted(present, key=lambda p: -size_of(p[1][0])):
                end += -end % size_of(fmt)
                offs[i] = end
                end += size_of(fmt)
            nfields = max([i + 1 for i, _ in present] or [0])
            pad(2)
            obj.vt = len(buf)
            buf += struct.pack('<HH', 4 + 2 * nfields, end)
            buf += b''.join(struct.pack('<H', offs.get(i, 0)) for i in range(nfields))
            pad(align)
            obj.pos = pos = len(buf)
            obj.offs = offs
            buf += bytes(end)
            struct.pack_into('<i', buf, pos, pos - obj.vt)
            for i, (fmt, v) in present:
                if fmt == 'o':
                    ref(pos + offs[i], v)
                else:
                    struct.pack_into('<' + fmt, buf, pos + offs[i], v)
        elif isinstance(obj, Vector):
            esize = size_of(obj.fmt)
            pad(max(obj.align, esize), 4)
            obj.pos = len(buf)
            buf += struct.pack('<I', len(obj.items))
            for v in obj.items:
                if obj.fmt == 'o':
                    ref(len(buf), v)
                    buf += bytes(4)
                else:
                    buf += struct.pack('<' + obj.fmt, v)
        else:
            pad(4)
            obj.pos = len(buf)
            buf += struct.pack('<I', len(obj.s)) + obj.s + b'\0'
        for at in refs[id(obj)]:
            struct.pack_into('<I', buf, at, obj.pos - at)
    pad(4)
    return bytes(buf)


# ---- TFLite's tables (field indices of compiler/importer/tflite.fbs) ----

FLOAT32, INT32, UINT8, INT64, BOOL, INT16, INT8 = 0, 2, 3, 4, 6, 7, 9
CONV_2D_OPTS, DEPTHWISE_OPTS, POOL_OPTS, FC_OPTS, SOFTMAX_OPTS, ADD_OPTS, RESHAPE_OPTS = 1, 2, 5, 8, 9, 11, 17
SUB_OPTS, DIV_OPTS, MUL_OPTS = 28, 29, 21

ops = {'ADD': 0, 'AVERAGE_POOL_2D': 1, 'CONV_2D': 3, 'DEPTHWISE_CONV_2D': 4, 'FULLY_CONNECTED': 9,
       'MAX_POOL_2D': 17, 'MUL': 18, 'RESHAPE': 22, 'SOFTMAX': 25, 'CUSTOM': 32, 'SUB': 41, 'DIV': 42,
       'MAXIMUM': 55, 'MINIMUM': 57, 'LESS': 58, 'NOT_EQUAL': 72, 'POW': 78, 'FLOOR_DIV': 90,
       'FLOOR_MOD': 95, 'SQUARED_DIFFERENCE': 99, 'ADD_N': 106, 'LSH_PROJECTION': 15, 'SKIP_GRAM': 30,
       'DELEGATE': 51}


def ints(v):
    return ('o', Vector('i', v))


class Model:
    """A one-subgraph model built tensor by tensor and operator by operator."""

    def __init__(self):
        self.tensors, self.buffers, self.codes, self.ops = [], [Table()], [], []
        self.inputs, self.outputs = [], []

    def buffer(self, data):
        self.buffers.append(Table(('o', Vector('B', data, align=16))))
        return len(self.buffers) - 1

    def tensor(self, name, shape, dtype=FLOAT32, data=None, quant=None, extra=None):
        """Index of a new tensor; data: bytes of a constant; quant: (scales, zero points[, dim])."""
        fields = [ints(shape), ('b', dtype), None, ('o', String(name)), None]
        if data is not None:
            fields[2] = ('I', self.buffer(data))
        if quant:
            q = [None, None, ('o', Vector('f', quant[0])), ('o', Vector('q', quant[1]))]
            if len(quant) > 2:
                q += [None, None, ('i', quant[2])]
            fields[4] = ('o', Table(*q))
        fields += extra or []
        self.tensors.append(Table(*fields))
        return len(self.tensors) - 1

    def const(self, name, shape, values, fmt='f', dtype=FLOAT32, quant=None):
        return self.tensor(name, shape, dtype, struct.pack('<%d%s' % (len(values), fmt), *values), quant)

    def op(self, kind, inputs, outputs, opts_type=0, opts=None, custom=None):
        code = (kind, custom)
        if code not in self.codes:
            self.codes.append(code)
        fields = [('I', self.codes.index(code)), ints(inputs), ints(outputs)]
        if opts is not None:
            fields += [('B', opts_type), ('o', opts)]
        self.ops.append(Table(*fields))
        return self.ops[-1]

    def tables(self):
        codes = []
        for kind, custom in self.codes:
            code = ops[kind] if isinstance(kind, str) else kind
            codes.append(Table(('b', min(code, 127)), ('o', String(custom)) if custom else None, ('i', 1), ('i', code)))
        sg = Table(('o', Vector('o', self.tensors)), ints(self.inputs), ints(self.outputs), ('o', Vector('o', self.ops)),
                   ('o', String('main')))
        return Table(('I', 3), ('o', Vector('o', codes)), ('o', Vector('o', [sg])), ('o', String('make-tflite.py')),
                     ('o', Vector('o', self.buffers)))

    def bytes(self, ident=b'TFL3'):
        self.root = self.tables()
        return write(self.root, ident)


def floats(n, scale=0.1):
    return [((i * 7) % 11 - 5) * scale for i in range(n)]


def conv_model(depthwise=False, act=0, padding=0):
    """x[1,5,5,2] -> CONV_2D (or DEPTHWISE) 3x3 -> y."""
    m = Model()
    x = m.tensor('x', [1, 5, 5, 2])
    cout = 4
    w = m.const('w', [1 if depthwise else cout, 3, 3, cout if depthwise else 2], floats(36 if depthwise else 72))
    b = m.const('b', [cout], floats(cout))
    y = m.tensor('y', [1, 5 if padding == 0 else 3, 5 if padding == 0 else 3, cout])
    if depthwise:
        opts = Table(('b', padding), ('i', 1), ('i', 1), ('i', 2), ('b', act))
        m.op('DEPTHWISE_CONV_2D', [x, w, b], [y], DEPTHWISE_OPTS, opts)
    else:
        m.op('CONV_2D', [x, w, b], [y], CONV_2D_OPTS, Table(('b', padding), ('i', 1), ('i', 1), ('b', act)))
    m.inputs, m.outputs = [x], [y]
    return m


def float_model():
    """x[1,4,4,2] -> CONV_2D+RELU -> MAX_POOL 2x2 -> RESHAPE [1,8] -> FULLY_CONNECTED -> ADD -> SOFTMAX."""
    m = Model()
    x = m.tensor('x', [1, 4, 4, 2])
    w = m.const('conv/w', [2, 3, 3, 2], floats(36))
    b = m.const('conv/b', [2], [0.5, -0.5])
    c = m.tensor('conv', [1, 4, 4, 2])
    m.op('CONV_2D', [x, w, b], [c], CONV_2D_OPTS, Table(('b', 0), ('i', 1), ('i', 1), ('b', 1)))
    p = m.tensor('pool', [1, 2, 2, 2])
    m.op('MAX_POOL_2D', [c], [p], POOL_OPTS, Table(('b', 1), ('i', 2), ('i', 2), ('i', 2), ('i', 2)))
    s = m.const('shape', [2], [1, 8], fmt='i', dtype=INT32)
    r = m.tensor('flat', [1, 8])
    m.op('RESHAPE', [p, s], [r], RESHAPE_OPTS, Table(ints([1, 8])))
    fw = m.const('fc/w', [3, 8], floats(24))
    f = m.tensor('fc', [1, 3])
    m.op('FULLY_CONNECTED', [r, fw, -1], [f], FC_OPTS, Table(('b', 0)))
    k = m.const('bias', [3], [1.0, 2.0, 3.0])
    a = m.tensor('add', [1, 3])
    m.op('ADD', [f, k], [a], ADD_OPTS, Table(('b', 3)))
    y = m.tensor('y', [1, 3])
    m.op('SOFTMAX', [a], [y], SOFTMAX_OPTS, Table(('f', 1.0)))
    m.inputs, m.outputs = [x], [y]
    return m


def binary_model(kind, opts_type=0, dtype=FLOAT32, rank=4):
    """x, a constant of fewer dimensions (numpy broadcasting) -> kind -> y."""
    m = Model()
    shape = [1, 2, 3, 2][4 - rank:]
    x = m.tensor('x', shape, dtype)
    fmt = 'f' if dtype == FLOAT32 else 'i'
    k = m.const('k', [2], [2, 3] if fmt == 'i' else [2.0, 0.5], fmt=fmt, dtype=dtype)
    y = m.tensor('y', shape, BOOL if kind in ('LESS', 'NOT_EQUAL') else dtype)
    m.op(kind, [x, k], [y], opts_type, Table(('b', 0)) if opts_type else None)
    m.inputs, m.outputs = [x], [y]
    return m


def pool_avg_model():
    m = Model()
    x = m.tensor('x', [1, 6, 6, 3])
    y = m.tensor('y', [1, 3, 3, 3])
    m.op('AVERAGE_POOL_2D', [x], [y], POOL_OPTS, Table(('b', 0), ('i', 2), ('i', 2), ('i', 3), ('i', 3), ('b', 3)))
    m.inputs, m.outputs = [x], [y]
    return m


def int8_model():
    """An int8 fully connected layer between a QUANTIZE and a DEQUANTIZE (per-channel weight scales)."""
    m = Model()
    x = m.tensor('x', [1, 4])
    xq = m.tensor('x_q', [1, 4], INT8, quant=([0.05], [-3]))
    m.op(114, [x], [xq])  # QUANTIZE
    w = m.const('w', [2, 4], [1, -2, 3, -4, 5, -6, 7, -8], fmt='b', dtype=INT8, quant=([0.01, 0.02], [0, 0], 0))
    b = m.const('b', [2], [10, -10], fmt='i', dtype=INT32, quant=([0.0005, 0.001], [0, 0], 0))
    yq = m.tensor('y_q', [1, 2], INT8, quant=([0.1], [2]))
    m.op('FULLY_CONNECTED', [xq, w, b], [yq], FC_OPTS, Table(('b', 0)))
    y = m.tensor('y', [1, 2])
    m.op(6, [yq], [y])  # DEQUANTIZE
    m.inputs, m.outputs = [x], [y]
    return m


def seeds():
    s = {'float': float_model(), 'conv-same': conv_model(), 'conv-valid-relu6': conv_model(act=3, padding=1),
         'depthwise': conv_model(depthwise=True, act=1), 'avgpool': pool_avg_model(), 'int8-fc': int8_model()}
    for kind, t in (('SUB', SUB_OPTS), ('MUL', MUL_OPTS), ('DIV', DIV_OPTS), ('MAXIMUM', 0), ('POW', 0),
                    ('SQUARED_DIFFERENCE', 0), ('LESS', 0), ('NOT_EQUAL', 0)):
        s[kind.lower()] = binary_model(kind, t)
    s['floor_div-int'] = binary_model('FLOOR_DIV', dtype=INT32, rank=2)
    s['floor_mod-int'] = binary_model('FLOOR_MOD', dtype=INT32, rank=2)
    m = Model()  # ADD_N of three
    x = [m.tensor('x%d' % i, [2, 3]) for i in range(3)]
    y = m.tensor('y', [2, 3])
    m.op('ADD_N', x, [y])
    m.inputs, m.outputs = x, [y]
    s['add_n'] = m
    return s


# ---- the bad inputs of run-badinput.sh ----

def small():
    """x[1,2,2,1] -> ADD a constant w -> y, the model the single-defect cases break."""
    m = Model()
    x = m.tensor('x', [1, 2, 2, 1])
    w = m.const('w', [1, 2, 2, 1], [1.0, 2.0, 3.0, 4.0])
    y = m.tensor('y', [1, 2, 2, 1])
    m.op('ADD', [x, w], [y], ADD_OPTS, Table(('b', 0)))
    m.inputs, m.outputs = [x], [y]
    return m


def quantized(scale, zero=0):
    m = Model()
    x = m.tensor('x', [1, 4], INT8, quant=([0.1], [0]))
    k = m.tensor('k', [4], INT8, struct.pack('<4b', 1, 2, 3, 4), quant=([scale], [zero]))
    y = m.tensor('y', [1, 4], INT8, quant=([0.1], [0]))
    m.op('ADD', [x, k], [y], ADD_OPTS, Table(('b', 0)))
    m.inputs, m.outputs = [x], [y]
    return m


def patched(m, edit):
    """The model's bytes with edit(bytearray, model root) applied."""
    b = bytearray(m.bytes())
    edit(b, m.root)
    return bytes(b)


def case(name):
    m = small()
    if name == 'truncated':
        return m.bytes()[:150]
    if name == 'wrong-identifier':
        return m.bytes(ident=b'TFL2')
    if name == 'vector-past-end':  # tensor 'w''s shape claims 2^28 dimensions
        b = bytearray(m.bytes())
        struct.pack_into('<I', b, m.tensors[1].fields[0][1].pos, 1 << 28)
        return bytes(b)
    if name == 'table-past-end':  # the subgraph's operators vector points past the end
        b = bytearray(m.bytes())
        sg = m.root.fields[2][1].items[0]
        p = sg.pos + sg.offs[3]
        struct.pack_into('<I', b, p, len(b) + 64 - p)
        return bytes(b)
    if name == 'vtable-past-end':  # tensor 'y''s table says its vtable lies past the end of the file
        b = bytearray(m.bytes())
        y = m.tensors[2]
        struct.pack_into('<i', b, y.pos, y.pos - (len(b) + 8))
        return bytes(b)
    if name == 'string-without-nul':  # tensor 'y''s name loses its terminating NUL
        b = bytearray(m.bytes())
        s = m.tensors[2].fields[3][1]
        b[s.pos + 4 + len(s.s)] = ord('!')
        return bytes(b)
    if name == 'zero-scale':
        return quantized(0.0).bytes()
    if name == 'negative-scale':
        return quantized(-0.5).bytes()
    if name == 'nan-scale':
        return quantized(math.nan).bytes()
    if name == 'zero-point-out-of-range':
        return quantized(0.5, 300).bytes()
    if name == 'shape-vs-buffer':  # w is [1,2,2,1] floats (16 bytes) with 12 bytes behind it
        m.buffers[1] = Table(('o', Vector('B', bytes(12), align=16)))
        return m.bytes()
    if name == 'buffer-past-end':  # a buffer of the 3c layout whose bytes lie past the end of the file
        m.buffers[1] = Table(None, ('Q', 1 << 20), ('Q', 16))
        return m.bytes()
    if name == 'huge-shape':  # 2^38 elements of input x
        m.tensors[0].fields[0] = ints([65536, 65536, 64, 1])
        return m.bytes()
    if name == 'huge-broadcast':  # [2^18, 1] + [1, 2^19]: 2^37 elements computed (y's shape left unknown)
        m = Model()
        a, b, y = m.tensor('a', [1 << 18, 1]), m.tensor('b', [1, 1 << 19]), m.tensor('y', [])
        m.op('ADD', [a, b], [y], ADD_OPTS, Table(('b', 0)))
        m.inputs, m.outputs = [a, b], [y]
        return m.bytes()
    if name == 'tensor-index-out-of-range':  # the ADD reads tensor 7 of 3
        m.ops[0].fields[1] = ints([0, 7])
        return m.bytes()
    if name == 'omitted-input':  # the ADD's input 0 is -1 (omitted), which only optional inputs may be
        m.ops[0].fields[1] = ints([-1, 1])
        return m.bytes()
    if name == 'string-tensor':  # input x is a STRING tensor
        m.tensors[0].fields[1] = ('b', 5)
        return m.bytes()
    if name == 'opcode-out-of-range':
        m.ops[0].fields[0] = ('I', 5)
        return m.bytes()
    if name == 'unknown-builtin':
        m.codes[0] = (4000, None)
        return m.bytes()
    if name == 'unsupported-ops':  # LSH_PROJECTION twice, SKIP_GRAM and DELEGATE among ADDs: one error
        m = Model()
        x = m.tensor('x', [1, 4])
        prev = x
        for i, kind in enumerate(['LSH_PROJECTION', 'ADD', 'SKIP_GRAM', 'LSH_PROJECTION', 'DELEGATE']):
            t = m.tensor('t%d' % i, [1, 4])
            m.op(kind, [prev, prev] if kind == 'ADD' else [prev], [t])
            prev = t
        m.inputs, m.outputs = [x], [prev]
        return m.bytes()
    if name == 'rank-9':
        m.tensors[0].fields[0] = ints([1] * 9)
        return m.bytes()
    if name == 'sparse-tensor':
        m.tensors[1].fields += [None, ('o', Table(ints([0, 1, 2, 3])))]
        return m.bytes()
    if name == 'custom-quantization':
        q = Table(None, None, ('o', Vector('f', [0.1])), ('o', Vector('q', [0])), ('B', 1),
                  ('o', Table(('o', Vector('B', b'abc')))))
        m.tensors[1].fields[4] = ('o', q)
        return m.bytes()
    if name == 'many-tensors':  # 2^20 + 1 tensors, each a 14-byte table sharing one vtable
        return many_tensors((1 << 20) + 1)
    if name == 'max-tensors':  # 2^20 tensors (4 MB): as many as glowc reads, all read before the error
        return many_tensors(1 << 20)
    if name == 'many-references':  # 65536 operators of 1024 inputs, sharing one table (0.3 MB)
        return many_references(65536, 1024)
    if name == 'shared-buffer':  # 4096 tensors of 1 MiB sharing one buffer, added to one another
        return shared_buffer(4096)
    raise SystemExit('make-tflite.py: unknown case ' + name)


def many_tensors(n):
    """The small model with n - 3 more tensors, one table listed n - 3 times (tables may be shared),
    the last of them an output that no operator writes."""
    m = small()
    m.tensors += [Table(ints([1]))] * (n - 3)
    m.outputs.append(n - 1)
    return m.bytes()


def many_references(nops, ninputs):
    """nops operators, one table listed nops times, reading tensor 0 ninputs times."""
    m = small()
    m.ops[0].fields[1] = ints([0] * ninputs)
    m.ops *= nops
    return m.bytes()


def shared_buffer(n):
    """n tensors of 2^18 floats on one buffer, summed by a chain of ADDs: n MiB of constants from 1 MiB."""
    m = Model()
    x = m.tensor('x', [1 << 18])
    data = bytes(4 << 18)
    buf = m.buffer(data)
    prev = x
    for i in range(n):
        k = m.tensor('k%d' % i, [1 << 18], FLOAT32)
        m.tensors[k].fields[2] = ('I', buf)
        t = m.tensor('s%d' % i, [1 << 18])
        m.op('ADD', [prev, k], [t], ADD_OPTS, Table(('b', 0)))
        prev = t
    m.inputs, m.outputs = [x], [prev]
    return m.bytes()


def main():
    if len(sys.argv) == 3 and sys.argv[1] == '--seeds':
        for name, m in seeds().items():
            with open(os.path.join(sys.argv[2], 'seed-%s.tflite' % name), 'wb') as f:
                f.write(m.bytes())
    elif len(sys.argv) == 3 and sys.argv[1] == '--json':
        with open(sys.argv[2], 'wb') as f:
            f.write(float_model().bytes())
    elif len(sys.argv) == 3:
        data = case(sys.argv[1])
        with open(sys.argv[2], 'wb') as f:
            f.write(data)
    else:
        raise SystemExit(__doc__)


if __name__ == '__main__':
    main()
