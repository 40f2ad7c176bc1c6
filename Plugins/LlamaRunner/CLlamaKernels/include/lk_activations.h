// Element-wise functions of the decoder's forward pass on sixteen lanes (AVX-512F), with the
// vector exponential the attention's softmax uses too. Each returns 0, or -1 (nothing written)
// without AVX-512F, and then the engine runs its Swift loop (VectorOps).
#ifndef LK_ACTIVATIONS_H
#define LK_ACTIVATIONS_H

// out[i] = e^x[i], within 2 ulp of expf; 0 below about -103.9 and infinity above 88.72, as expf.
int lk_exp(const float *x, float *out, int n);

// g[i] = silu(g[i]) * u[i] = g[i] / (1 + e^-g[i]) * u[i], VectorOps.swiGLUByValue's formula with
// lk_exp for expf.
int lk_swiglu(float *g, const float *u, int n);

#endif
