#include "llama_attention.h"

#if defined(__x86_64__)
#include <immintrin.h>
#include <math.h>

#include "llama_kernels.h"

// Swift never fuses a multiply and an add; neither may the compiler here.
#pragma STDC FP_CONTRACT OFF

#define TARGET "avx2,fma,f16c"

// Sixteen lanes as two registers (lanes 0-7, 8-15), multiplied and added without fusing, then
// the halves added pairwise: 16 -> 8 -> 4 -> 2 -> 1, as Swift's SIMD16 sum() reduces.
__attribute__((target(TARGET))) static float dot(const float *a, const float *b, int n) {
    __m256 lo = _mm256_setzero_ps(), hi = _mm256_setzero_ps();
    int i = 0;
    for (; i + 16 <= n; i += 16) {
        lo = _mm256_add_ps(lo, _mm256_mul_ps(_mm256_loadu_ps(a + i), _mm256_loadu_ps(b + i)));
        hi = _mm256_add_ps(hi, _mm256_mul_ps(_mm256_loadu_ps(a + i + 8), _mm256_loadu_ps(b + i + 8)));
    }
    const __m256 s8 = _mm256_add_ps(lo, hi);
    const __m128 s4 = _mm_add_ps(_mm256_castps256_ps128(s8), _mm256_extractf128_ps(s8, 1));
    const __m128 s2 = _mm_add_ps(s4, _mm_movehl_ps(s4, s4));
    float total = _mm_cvtss_f32(_mm_add_ss(s2, _mm_movehdup_ps(s2)));
    for (; i < n; i++) total += a[i] * b[i];
    return total;
}

// y += a * x, multiplied and added without fusing.
__attribute__((target(TARGET))) static void axpy(float a, const float *x, float *y, int n) {
    const __m256 va = _mm256_set1_ps(a);
    int i = 0;
    for (; i + 8 <= n; i += 8) _mm256_storeu_ps(y + i, _mm256_add_ps(_mm256_loadu_ps(y + i), _mm256_mul_ps(va, _mm256_loadu_ps(x + i))));
    for (; i < n; i++) y[i] += a * x[i];
}

__attribute__((target(TARGET))) static void attend(const float *q, const float *keys, const float *values, size_t stride, int n,
    int head_dim, float scale, float *scores, float *out) {
    float m = -INFINITY;
    for (int j = 0; j < n; j++) {
        scores[j] = dot(q, keys + (size_t)j * stride, head_dim) * scale;
        m = scores[j] > m ? scores[j] : m;
    }
    float sum = 0;
    for (int j = 0; j < n; j++) {
        scores[j] = expf(scores[j] - m);
        sum += scores[j];
    }
    const float inv = 1 / sum;
    for (int i = 0; i < head_dim; i++) out[i] = 0;
    for (int j = 0; j < n; j++) axpy(scores[j] * inv, values + (size_t)j * stride, out, head_dim);
}

int lk_attend(const float *q, const float *keys, const float *values, size_t stride, int n, int head_dim, float scale,
              float *scores, float *out) {
    if (!(lk_cpu_features() & LK_AVX2)) return -1;
    attend(q, keys, values, stride, n, head_dim, scale, scores, out);
    return 0;
}

#else
int lk_attend(const float *q, const float *keys, const float *values, size_t stride, int n, int head_dim, float scale,
              float *scores, float *out) {
    (void)q; (void)keys; (void)values; (void)stride; (void)n; (void)head_dim; (void)scale; (void)scores; (void)out;
    return -1;
}
#endif
