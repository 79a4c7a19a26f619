/* The few CUDA driver API calls a CUDA bundle's host code makes, as cuda.h
 * declares them (their ABI is stable across CUDA versions; none of these has a
 * _v2 variant). Written out so that building glowc needs no CUDA toolkit. */
#ifndef GLOW_CUDA_DRIVER_H
#define GLOW_CUDA_DRIVER_H

typedef int CUresult;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;

#define CUDA_SUCCESS 0
#define CUDA_ERROR_INVALID_CONTEXT 201

CUresult cuCtxGetCurrent(CUcontext *pctx);
CUresult cuModuleLoadData(CUmodule *module, const void *image);
CUresult cuModuleUnload(CUmodule hmod);
CUresult cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name);
CUresult cuLaunchKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ,
                        unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ,
                        unsigned int sharedMemBytes, CUstream hStream, void **kernelParams, void **extra);
CUresult cuStreamSynchronize(CUstream hStream);

#endif
