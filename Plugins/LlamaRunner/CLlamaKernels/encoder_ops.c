// The sentence encoder's element-wise steps and attention (API: include/encoder_ops.h).
// Before these, the Swift versions took a third of an embedding's time (perf, Engine README
// "The sentence encoder"): scalar LayerNorm sums, 4-lane dots and one libm expf per score.
#include "encoder_ops.h"
#include "llama_kernels.h"
#include "exp_polynomial.h"

#if defined(__x86_64__)
#include <immintrin.h>
#include <math.h>

#define TARGET "avx2,fma"

static int has_avx2(void) { return (lk_cpu_features() & LK_AVX2) != 0; }

__attribute__((target(TARGET), always_inline)) static inline float hsum(__m256 v) {
    const __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    const __m128 t = _mm_add_ps(s, _mm_movehl_ps(s, s));
    return _mm_cvtss_f32(_mm_add_ss(t, _mm_movehdup_ps(t)));
}

__attribute__((target(TARGET))) static void add_bias_avx2(float *x, size_t stride, int tokens, int columns, const float *bias) {
    for (int t = 0; t < tokens; t++) {
        float *row = x + (size_t)t * stride;
        int c = 0;
        for (; c + 8 <= columns; c += 8) _mm256_storeu_ps(row + c, _mm256_add_ps(_mm256_loadu_ps(row + c), _mm256_loadu_ps(bias + c)));
        for (; c < columns; c++) row[c] += bias[c];
    }
}

int lk_encoder_add_bias(float *x, size_t stride, int tokens, int columns, const float *bias) {
    if (!has_avx2()) return -1;
    add_bias_avx2(x, stride, tokens, columns, bias);
    return 0;
}

__attribute__((target(TARGET))) static void layer_norm_avx2(float *x, const float *residual, const float *residual_bias,
    size_t stride, int tokens, int columns, const float *weight, const float *bias, float epsilon) {
    for (int t = 0; t < tokens; t++) {
        float *row = x + (size_t)t * stride;
        const float *res = residual ? residual + (size_t)t * stride : NULL;
        __m256 sum = _mm256_setzero_ps();
        int c = 0;
        for (; c + 8 <= columns; c += 8) {
            __m256 v = _mm256_loadu_ps(row + c);
            if (res) v = _mm256_add_ps(v, _mm256_loadu_ps(res + c));
            if (residual_bias) v = _mm256_add_ps(v, _mm256_loadu_ps(residual_bias + c));
            _mm256_storeu_ps(row + c, v);
            sum = _mm256_add_ps(sum, v);
        }
        float total = hsum(sum);
        for (; c < columns; c++) {
            float v = row[c] + (res ? res[c] : 0) + (residual_bias ? residual_bias[c] : 0);
            row[c] = v;
            total += v;
        }
        const float mean = total / (float)columns;
        const __m256 m = _mm256_set1_ps(mean);
        __m256 squares = _mm256_setzero_ps();
        for (c = 0; c + 8 <= columns; c += 8) {
            const __m256 d = _mm256_sub_ps(_mm256_loadu_ps(row + c), m);
            squares = _mm256_fmadd_ps(d, d, squares);
        }
        float variance = hsum(squares);
        for (; c < columns; c++) variance += (row[c] - mean) * (row[c] - mean);
        const float inverse = 1.0f / sqrtf(variance / (float)columns + epsilon);
        const __m256 inv = _mm256_set1_ps(inverse);
        for (c = 0; c + 8 <= columns; c += 8) {
            const __m256 n = _mm256_mul_ps(_mm256_sub_ps(_mm256_loadu_ps(row + c), m), inv);
            _mm256_storeu_ps(row + c, _mm256_fmadd_ps(n, _mm256_loadu_ps(weight + c), _mm256_loadu_ps(bias + c)));
        }
        for (; c < columns; c++) row[c] = (row[c] - mean) * inverse * weight[c] + bias[c];
    }
}

int lk_encoder_layer_norm(float *x, const float *residual, const float *residual_bias, size_t stride, int tokens, int columns,
                          const float *weight, const float *bias, float epsilon) {
    if (!has_avx2()) return -1;
    layer_norm_avx2(x, residual, residual_bias, stride, tokens, columns, weight, bias, epsilon);
    return 0;
}

// erf(a) as x*P(x^2)/Q(x^2) on x = a clamped to [-4, 4]: the coefficients of VectorOps.erf16
// (the minimax fit Eigen and XLA use for float erf).
__attribute__((target(TARGET), always_inline)) static inline __m256 erf8(__m256 a) {
    const __m256 x = _mm256_max_ps(_mm256_min_ps(a, _mm256_set1_ps(4.0f)), _mm256_set1_ps(-4.0f));
    const __m256 x2 = _mm256_mul_ps(x, x);
    __m256 p = _mm256_set1_ps(-2.72614225801306e-10f);
    p = _mm256_fmadd_ps(p, x2, _mm256_set1_ps(2.77068142495902e-08f));
    p = _mm256_fmadd_ps(p, x2, _mm256_set1_ps(-2.10102402082508e-06f));
    p = _mm256_fmadd_ps(p, x2, _mm256_set1_ps(-5.69250639462346e-05f));
    p = _mm256_fmadd_ps(p, x2, _mm256_set1_ps(-7.34990630326855e-04f));
    p = _mm256_fmadd_ps(p, x2, _mm256_set1_ps(-2.95459980854025e-03f));
    p = _mm256_fmadd_ps(p, x2, _mm256_set1_ps(-1.60960333262415e-02f));
    __m256 q = _mm256_set1_ps(-1.45660718464996e-05f);
    q = _mm256_fmadd_ps(q, x2, _mm256_set1_ps(-2.13374055278905e-04f));
    q = _mm256_fmadd_ps(q, x2, _mm256_set1_ps(-1.68282697438203e-03f));
    q = _mm256_fmadd_ps(q, x2, _mm256_set1_ps(-7.37332916720468e-03f));
    q = _mm256_fmadd_ps(q, x2, _mm256_set1_ps(-1.42647390514189e-02f));
    return _mm256_div_ps(_mm256_mul_ps(x, p), q);
}

__attribute__((target(TARGET))) static void bias_gelu_avx2(float *x, size_t stride, int tokens, int column0, int column1,
    const float *bias) {
    const __m256 half = _mm256_set1_ps(0.5f), one = _mm256_set1_ps(1.0f), rsqrt2 = _mm256_set1_ps(0.70710678118654752f);
    for (int t = 0; t < tokens; t++) {
        float *row = x + (size_t)t * stride;
        int c = column0;
        for (; c + 8 <= column1; c += 8) {
            const __m256 v = _mm256_add_ps(_mm256_loadu_ps(row + c), _mm256_loadu_ps(bias + c));
            _mm256_storeu_ps(row + c, _mm256_mul_ps(_mm256_mul_ps(half, v), _mm256_add_ps(one, erf8(_mm256_mul_ps(v, rsqrt2)))));
        }
        for (; c < column1; c++) {
            const float v = row[c] + bias[c];
            row[c] = 0.5f * v * (1.0f + erff(v * 0.70710678118654752f));
        }
    }
}

int lk_encoder_bias_gelu(float *x, size_t stride, int tokens, int column0, int column1, const float *bias) {
    if (!has_avx2()) return -1;
    bias_gelu_avx2(x, stride, tokens, column0, column1, bias);
    return 0;
}

// e^x for x <= 0 (scores minus their maximum): e^r by LK_EXP_REDUCED, 2^n in the exponent bits;
// below -87 it is 0.
__attribute__((target(TARGET), always_inline)) static inline __m256 exp8(__m256 x) {
    const __m256 low = _mm256_set1_ps(-87.0f);
    const __m256 under = _mm256_cmp_ps(x, low, _CMP_LT_OQ);
    x = _mm256_max_ps(x, low);
    const __m256 n = _mm256_round_ps(_mm256_mul_ps(x, _mm256_set1_ps(1.44269504088896341f)), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    const __m256 y = LK_EXP_REDUCED(_mm256_, x, n);
    const __m256i bits = _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127)), 23);
    return _mm256_andnot_ps(under, _mm256_mul_ps(y, _mm256_castsi256_ps(bits)));
}

// The sums of eight registers' lanes, as one register: lane j = sum of a[j].
__attribute__((target(TARGET), always_inline)) static inline __m256 hsum8x8(const __m256 a[8]) {
    const __m256 t0 = _mm256_hadd_ps(a[0], a[1]), t1 = _mm256_hadd_ps(a[2], a[3]);
    const __m256 t2 = _mm256_hadd_ps(a[4], a[5]), t3 = _mm256_hadd_ps(a[6], a[7]);
    const __m256 u0 = _mm256_hadd_ps(t0, t1), u1 = _mm256_hadd_ps(t2, t3);
    return _mm256_add_ps(_mm256_permute2f128_ps(u0, u1, 0x20), _mm256_permute2f128_ps(u0, u1, 0x31));
}

// o[0 .. 8 chunks) = inverse * sum over s of p[s] * v[s][0 .. 8 chunks): two accumulators per
// chunk (even and odd s), so that the chains of dependent multiply-adds are half as long.
__attribute__((target(TARGET), always_inline)) static inline void weighted_sum(const float *v, size_t stride, int tokens,
    const float *p, int chunks, __m256 inverse, float *o) {
    __m256 even[8], odd[8];
    for (int c = 0; c < chunks; c++) even[c] = odd[c] = _mm256_setzero_ps();
    int s = 0;
    for (; s + 2 <= tokens; s += 2) {
        const __m256 p0 = _mm256_set1_ps(p[s]), p1 = _mm256_set1_ps(p[s + 1]);
        const float *v0 = v + (size_t)s * stride, *v1 = v0 + stride;
        for (int c = 0; c < chunks; c++) {
            even[c] = _mm256_fmadd_ps(p0, _mm256_loadu_ps(v0 + 8 * c), even[c]);
            odd[c] = _mm256_fmadd_ps(p1, _mm256_loadu_ps(v1 + 8 * c), odd[c]);
        }
    }
    if (s < tokens) {
        const __m256 p0 = _mm256_set1_ps(p[s]);
        for (int c = 0; c < chunks; c++) even[c] = _mm256_fmadd_ps(p0, _mm256_loadu_ps(v + (size_t)s * stride + 8 * c), even[c]);
    }
    for (int c = 0; c < chunks; c++) _mm256_storeu_ps(o + 8 * c, _mm256_mul_ps(_mm256_add_ps(even[c], odd[c]), inverse));
}

// The attention jobs for heads of 8 * chunks values (chunks a constant where inlined, so that
// the query and the eight keys' accumulators stay in registers).
__attribute__((target(TARGET), always_inline)) static inline void attention_jobs(const float *q, const float *k, const float *v,
    float *out, size_t stride, int tokens, int heads, int chunks, int job0, int job1, float *scores) {
    const int head_dim = 8 * chunks;
    const __m256 scale = _mm256_set1_ps(1.0f / sqrtf((float)head_dim));
    const __m256 lanes = _mm256_setr_ps(0, 1, 2, 3, 4, 5, 6, 7);
    for (int job = job0; job < job1; job++) {
        const int t = job / heads, h = job % heads;
        const float *qr = q + (size_t)t * stride + (size_t)h * head_dim;
        __m256 qv[8];
        for (int c = 0; c < chunks; c++) qv[c] = _mm256_loadu_ps(qr + 8 * c);
        // Scores, eight keys at a time (keys past the last repeat it; their lanes are dropped).
        float best = -INFINITY;
        for (int s0 = 0; s0 < tokens; s0 += 8) {
            __m256 acc[8];
            for (int j = 0; j < 8; j++) {
                const int s = s0 + j < tokens ? s0 + j : tokens - 1;
                const float *kr = k + (size_t)s * stride + (size_t)h * head_dim;
                acc[j] = _mm256_mul_ps(qv[0], _mm256_loadu_ps(kr));
                for (int c = 1; c < chunks; c++) acc[j] = _mm256_fmadd_ps(qv[c], _mm256_loadu_ps(kr + 8 * c), acc[j]);
            }
            _mm256_storeu_ps(scores + s0, _mm256_mul_ps(hsum8x8(acc), scale));
        }
        for (int s = 0; s < tokens; s++) best = scores[s] > best ? scores[s] : best;
        // Softmax: e^(score - max), lanes past the last key zero.
        __m256 sum = _mm256_setzero_ps();
        const __m256 m = _mm256_set1_ps(best), count = _mm256_set1_ps((float)tokens);
        for (int s0 = 0; s0 < tokens; s0 += 8) {
            const __m256 live = _mm256_cmp_ps(_mm256_add_ps(lanes, _mm256_set1_ps((float)s0)), count, _CMP_LT_OQ);
            const __m256 e = _mm256_and_ps(live, exp8(_mm256_sub_ps(_mm256_loadu_ps(scores + s0), m)));
            _mm256_storeu_ps(scores + s0, e);
            sum = _mm256_add_ps(sum, e);
        }
        // out = the weighted sum of the values.
        weighted_sum(v + (size_t)h * head_dim, stride, tokens, scores, chunks, _mm256_set1_ps(1.0f / hsum(sum)),
                     out + (size_t)t * stride + (size_t)h * head_dim);
    }
}

__attribute__((target(TARGET))) static void attention_avx2(const float *q, const float *k, const float *v, float *out,
    size_t stride, int tokens, int heads, int head_dim, int job0, int job1, float *scores) {
#define HEAD_CASE(n) case n: attention_jobs(q, k, v, out, stride, tokens, heads, n, job0, job1, scores); break;
    switch (head_dim / 8) { HEAD_CASE(1) HEAD_CASE(2) HEAD_CASE(3) HEAD_CASE(4) HEAD_CASE(5) HEAD_CASE(6) HEAD_CASE(7) HEAD_CASE(8) }
#undef HEAD_CASE
}

int lk_encoder_attention(const float *q, const float *k, const float *v, float *out, size_t stride, int tokens, int heads,
                         int head_dim, int job0, int job1, float *scores) {
    if (!has_avx2() || head_dim % 8 != 0 || head_dim < 8 || head_dim > 64 || tokens < 1) return -1;
    attention_avx2(q, k, v, out, stride, tokens, heads, head_dim, job0, job1, scores);
    return 0;
}

#else
int lk_encoder_add_bias(float *x, size_t stride, int tokens, int columns, const float *bias) {
    (void)x; (void)stride; (void)tokens; (void)columns; (void)bias;
    return -1;
}
int lk_encoder_layer_norm(float *x, const float *residual, const float *residual_bias, size_t stride, int tokens, int columns,
                          const float *weight, const float *bias, float epsilon) {
    (void)x; (void)residual; (void)residual_bias; (void)stride; (void)tokens; (void)columns; (void)weight; (void)bias; (void)epsilon;
    return -1;
}
int lk_encoder_bias_gelu(float *x, size_t stride, int tokens, int column0, int column1, const float *bias) {
    (void)x; (void)stride; (void)tokens; (void)column0; (void)column1; (void)bias;
    return -1;
}
int lk_encoder_attention(const float *q, const float *k, const float *v, float *out, size_t stride, int tokens, int heads,
                         int head_dim, int job0, int job1, float *scores) {
    (void)q; (void)k; (void)v; (void)out; (void)stride; (void)tokens; (void)heads; (void)head_dim; (void)job0; (void)job1; (void)scores;
    return -1;
}
#endif
