// lk_activations.h.
#include "lk_activations.h"
#include "llama_kernels.h"

#if defined(__x86_64__)
#include <immintrin.h>

#define TARGET "avx2,fma,f16c,avx512f"
#include "exp_avx512.h"

__attribute__((target(TARGET))) static void exp_run(const float *x, float *out, int n) {
    for (int j = 0; j < n; j += 16) {
        const __mmask16 live = live_lanes(n - j);
        _mm512_mask_storeu_ps(out + j, live, exp16(_mm512_maskz_loadu_ps(live, x + j)));
    }
}

__attribute__((target(TARGET))) static void swiglu_run(float *g, const float *u, int n) {
    const __m512 one = _mm512_set1_ps(1.0f);
    for (int j = 0; j < n; j += 16) {
        const __mmask16 live = live_lanes(n - j);
        const __m512 v = _mm512_maskz_loadu_ps(live, g + j);
        const __m512 silu = _mm512_div_ps(v, _mm512_add_ps(one, exp16(_mm512_sub_ps(_mm512_setzero_ps(), v))));
        _mm512_mask_storeu_ps(g + j, live, _mm512_mul_ps(silu, _mm512_maskz_loadu_ps(live, u + j)));
    }
}

int lk_exp(const float *x, float *out, int n) {
    if (!has_avx512f() || n < 0) return -1;
    exp_run(x, out, n);
    return 0;
}

int lk_swiglu(float *g, const float *u, int n) {
    if (!has_avx512f() || n < 0) return -1;
    swiglu_run(g, u, n);
    return 0;
}

#else
int lk_exp(const float *x, float *out, int n) {
    (void)x; (void)out; (void)n;
    return -1;
}

int lk_swiglu(float *g, const float *u, int n) {
    (void)g; (void)u; (void)n;
    return -1;
}
#endif
