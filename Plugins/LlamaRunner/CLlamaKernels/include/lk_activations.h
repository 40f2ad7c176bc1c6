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

// g[i] = gelu(g[i]) * u[i] as VectorOps.geGLUByValue computes it, bit for bit: 0 at or below -10,
// g[i] itself at or above 10, else table[the bits of g[i] rounded to half precision], where
// `table` (65,536 floats, read during the call only) is GELU of every half-precision value.
int lk_geglu(float *g, const float *u, const float *table, int n);

// y[i] = x[i] * s * w[i] with s = 1 / sqrt(sum of x[j]^2 / n + eps), the sum of the squares in
// double (VectorOps.rmsNormByValue adds them in order; here sixteen partial sums are added
// at the end, so s may differ from it in the last bit). y may be x.
int lk_rmsnorm(const float *x, const float *w, float *y, int n, float eps);

#endif
