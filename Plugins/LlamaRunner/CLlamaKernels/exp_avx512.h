// What the AVX-512F kernels share: their run-time check, the mask of a run's live lanes, and e^x
// on sixteen lanes for the kernels that need it many times a token (the attention's softmax in
// attention.c, the gated activation in activations.c). Include after defining TARGET.
#ifndef LK_EXP_AVX512_H
#define LK_EXP_AVX512_H

#include <immintrin.h>

#include "exp_polynomial.h"
#include "llama_kernels.h"

static inline int has_avx512f(void) {
    static int cached = -1;  // a benign race: every thread computes the same value
    if (cached < 0) {
        __builtin_cpu_init();
        cached = (lk_cpu_features() & LK_AVX2) && __builtin_cpu_supports("avx512f");
    }
    return cached;
}

// The lanes of a 16-value run with `left` values left.
static inline __mmask16 live_lanes(int left) { return left >= 16 ? 0xFFFF : (__mmask16)((1u << left) - 1); }

// e^x, within 2 ulp of expf (ActivationKernelTests): e^r by LK_EXP_REDUCED, times 2^n by
// vscalefps, which rounds once into the subnormals, to 0 below them and to infinity above 88.72.
// Called once per value, expf was a tenth of a 128-token SmolLM2 prompt's time (Engine/README.md,
// "Speed").
__attribute__((target(TARGET))) static inline __m512 exp16(__m512 x) {
    // e^-104 rounds to 0 in float and e^89 to infinity; the clamp keeps ±inf out of the reduction.
    x = _mm512_min_ps(_mm512_max_ps(x, _mm512_set1_ps(-104.0f)), _mm512_set1_ps(89.0f));
    const __m512 n = _mm512_roundscale_ps(_mm512_mul_ps(x, _mm512_set1_ps(1.44269504088896341f)),
                                          _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    return _mm512_scalef_ps(LK_EXP_REDUCED(_mm512_, x, n), n);
}

#endif
