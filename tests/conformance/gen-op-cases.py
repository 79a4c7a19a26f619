#!/usr/bin/python3
"""Generates op cases the ONNX node tests leave out, in their layout, with PyTorch's or numpy's outputs:

    /usr/bin/python3 tests/conformance/gen-op-cases.py <out_dir>

GridSample (every mode, padding and align_corners, grid points on cell edges) against
torch.nn.functional.grid_sample; RoiAlign (adaptive and fixed sampling, both coordinate modes)
against torchvision.ops.roi_align; DFT (complex, onesided, dft_length padding and cutting, a
negative axis, inverse) and STFT (complex two-sided, windowed) against numpy.fft. Inputs that must
be constant are graph inputs, bound as the compiler asks. Fixed seed: two runs write the same bytes.
Needs /usr/bin/python3 with torch, torchvision and onnx (as tests/models/gen-models.py does).
"""
import itertools
import os
import sys

import numpy as np
import onnx
import torch
import torchvision
from onnx import helper, numpy_helper

OUT = sys.argv[1]
def save(name, nodes, ins, outs, opset):
    d=os.path.join(OUT,name); os.makedirs(d+'/test_data_set_0', exist_ok=True)
    def vi(n,a): return helper.make_tensor_value_info(n, onnx.mapping.NP_TYPE_TO_TENSOR_TYPE[a.dtype], list(a.shape))
    g=helper.make_graph(nodes, name, [vi(n,a) for n,a in ins], [vi(n,a) for n,a in outs])
    m=helper.make_model(g, opset_imports=[helper.make_opsetid('',opset)]); m.ir_version=8
    onnx.save(m, d+'/model.onnx')
    for i,(n,a) in enumerate(ins): onnx.save_tensor(numpy_helper.from_array(a,n), d+'/test_data_set_0/input_%d.pb'%i)
    for i,(n,a) in enumerate(outs): onnx.save_tensor(numpy_helper.from_array(a,n), d+'/test_data_set_0/output_%d.pb'%i)
rng=np.random.default_rng(0)
# GridSample vs torch, every combination
for mode,pad,ac in itertools.product(['bilinear','nearest','bicubic'],['zeros','border','reflection'],[0,1]):
    x=rng.standard_normal((2,3,5,7)).astype(np.float32)
    grid=(rng.uniform(-1.6,1.6,(2,4,6,2))).astype(np.float32)
    grid[0,0,:,0]=np.array([-1,-0.5,0,0.5,1,1/7.],np.float32)  # cell edges
    y=torch.nn.functional.grid_sample(torch.from_numpy(x),torch.from_numpy(grid),mode=mode,padding_mode=pad,
                                      align_corners=bool(ac)).numpy()
    node=helper.make_node('GridSample',['X','Grid'],['Y'],mode=mode,padding_mode=pad,align_corners=ac)
    save('gridsample_%s_%s_%d'%(mode,pad,ac),[node],[('X',x),('Grid',grid)],[('Y',y)],16)
# RoiAlign avg vs torchvision (aligned = half_pixel), adaptive and fixed sampling
for aligned,sr,scale in [(True,0,1.0),(False,0,0.5),(True,3,0.25),(False,2,1.0)]:
    x=rng.standard_normal((2,3,12,9)).astype(np.float32)
    rois=np.array([[0,0,8,11],[1.5,2.2,7.1,6.3],[-2,-1,20,25],[3,3,3.5,3.2],[4,1,8,5]],np.float32)/scale*0.6
    bi=np.array([0,1,1,0,1],np.int64)
    boxes=torch.from_numpy(np.concatenate([bi[:,None].astype(np.float32),rois],1))
    y=torchvision.ops.roi_align(torch.from_numpy(x),boxes,(4,3),spatial_scale=scale,sampling_ratio=sr,
                                aligned=aligned).numpy()
    node=helper.make_node('RoiAlign',['X','rois','bi'],['Y'],output_height=4,output_width=3,sampling_ratio=sr,
                          spatial_scale=scale,
                          coordinate_transformation_mode='half_pixel' if aligned else 'output_half_pixel')
    save('roialign_%d_%d_%g'%(aligned,sr,scale),[node],[('X',x),('rois',rois),('bi',bi)],[('Y',y)],16)
# DFT vs numpy: complex, onesided, dft_length pad/cut, negative axis, inverse complex
def dft(name,x,axis,inverse=0,onesided=0,L=None):
    xc=x[...,0]+(1j*x[...,1] if x.shape[-1]==2 else 0)
    ax=axis if axis>=0 else axis+x.ndim
    y=(np.fft.ifft if inverse else np.fft.fft)(xc,n=L,axis=ax)
    if onesided: y=np.take(y,np.arange((L or x.shape[ax])//2+1),axis=ax)
    y=np.stack([y.real,y.imag],-1).astype(np.float32)
    ins=[('x',x)]; nin=['x']
    if L is not None: ins.append(('L',np.array(L,np.int64))); nin.append('L')
    save(name,[helper.make_node('DFT',nin,['y'],axis=axis,inverse=inverse,onesided=onesided)],ins,[('y',y)],17)
dft('dft_complex',rng.standard_normal((2,7,3,2)).astype(np.float32),1)
dft('dft_onesided',rng.standard_normal((2,9,3,1)).astype(np.float32),1,onesided=1)
dft('dft_pad',rng.standard_normal((2,5,1)).astype(np.float32),1,L=8)
dft('dft_cut_neg',rng.standard_normal((3,2,11,2)).astype(np.float32),-2,L=6)
dft('dft_inv_len',rng.standard_normal((4,13,2)).astype(np.float32),1,inverse=1,L=13)
dft('dft_long',rng.standard_normal((1,400,1)).astype(np.float32),1)
# STFT: complex two-sided with frame_length, window plus frame_length
def stft(name,x,step,L,win,onesided):
    xc=x[...,0]+(1j*x[...,1] if x.shape[-1]==2 else 0)
    nf=(x.shape[1]-L)//step+1
    out=[]
    for b in range(x.shape[0]):
        fr=[]
        for f in range(nf):
            s=xc[b,f*step:f*step+L]*(win if win is not None else 1)
            z=np.fft.fft(s)
            if onesided: z=z[:L//2+1]
            fr.append(np.stack([z.real,z.imag],-1))
        out.append(fr)
    y=np.array(out,np.float32)
    ins=[('signal',x),('step',np.array(step,np.int64))]; nin=['signal','step']
    nin.append('window' if win is not None else '')
    if win is not None: ins.append(('window',win.astype(np.float32)))
    nin.append('len'); ins.append(('len',np.array(L,np.int64)))
    save(name,[helper.make_node('STFT',nin,['y'],onesided=onesided)],ins,[('y',y)],17)
stft('stft_complex',rng.standard_normal((2,40,2)).astype(np.float32),5,12,None,0)
stft('stft_win',rng.standard_normal((2,50,1)).astype(np.float32),7,10,rng.uniform(0,1,10),1)
