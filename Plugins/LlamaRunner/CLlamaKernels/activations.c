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

__attribute__((target(TARGET))) static void geglu_run(float *g, const float *u, const float *table, int n) {
    const __m512 low = _mm512_set1_ps(-10.0f), high = _mm512_set1_ps(10.0f);
    for (int j = 0; j < n; j += 16) {
        const __mmask16 live = live_lanes(n - j);
        const __m512 v = _mm512_maskz_loadu_ps(live, g + j);
        const __m512i bits = _mm512_cvtepu16_epi32(_mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
        __m512 gelu = _mm512_mask_i32gather_ps(_mm512_setzero_ps(), live, bits, table, 4);
        gelu = _mm512_mask_mov_ps(gelu, _mm512_cmp_ps_mask(v, high, _CMP_GE_OQ), v);
        // +0 at or below -10, not 0 × u (which is -0 for a negative u), as the table loop gives.
        const __m512 product = _mm512_mul_ps(gelu, _mm512_maskz_loadu_ps(live, u + j));
        _mm512_mask_storeu_ps(g + j, live, _mm512_mask_mov_ps(product, _mm512_cmp_ps_mask(v, low, _CMP_LE_OQ), _mm512_setzero_ps()));
    }
}

__attribute__((target(TARGET))) static void rmsnorm_run(const float *x, const float *w, float *y, int n, float eps) {
    __m512d sums[2] = {_mm512_setzero_pd(), _mm512_setzero_pd()};
    for (int j = 0; j < n; j += 16) {
        const __mmask16 live = live_lanes(n - j);
        const __m512 v = _mm512_maskz_loadu_ps(live, x + j);
        const __m512d lo = _mm512_cvtps_pd(_mm512_castps512_ps256(v));
        const __m512d hi = _mm512_cvtps_pd(_mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(v), 1)));
        sums[0] = _mm512_fmadd_pd(lo, lo, sums[0]);
        sums[1] = _mm512_fmadd_pd(hi, hi, sums[1]);
    }
    const double sum = _mm512_reduce_add_pd(_mm512_add_pd(sums[0], sums[1]));
    const __m512 s = _mm512_set1_ps((float)(1.0 / __builtin_sqrt(sum / n + (double)eps)));
    for (int j = 0; j < n; j += 16) {
        const __mmask16 live = live_lanes(n - j);
        const __m512 v = _mm512_mul_ps(_mm512_maskz_loadu_ps(live, x + j), s);
        _mm512_mask_storeu_ps(y + j, live, _mm512_mul_ps(v, _mm512_maskz_loadu_ps(live, w + j)));
    }
}

int lk_geglu(float *g, const float *u, const float *table, int n) {
    if (!has_avx512f() || n < 0) return -1;
    geglu_run(g, u, table, n);
    return 0;
}

int lk_rmsnorm(const float *x, const float *w, float *y, int n, float eps) {
    if (!has_avx512f() || n <= 0) return -1;
    rmsnorm_run(x, w, y, n, eps);
    return 0;
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

int lk_geglu(float *g, const float *u, const float *table, int n) {
    (void)g; (void)u; (void)table; (void)n;
    return -1;
}

int lk_rmsnorm(const float *x, const float *w, float *y, int n, float eps) {
    (void)x; (void)w; (void)y; (void)n; (void)eps;
    return -1;
}
#endif
