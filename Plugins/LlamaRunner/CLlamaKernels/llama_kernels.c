#include "llama_kernels.h"
#include "lk_blocks.h"

#if defined(__x86_64__)
#include <immintrin.h>
#include <stddef.h>
#include <string.h>

static int detect_features(void) {
    __builtin_cpu_init();
    int f = 0;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("f16c")) f |= LK_AVX2;
    if ((f & LK_AVX2) && __builtin_cpu_supports("avx512vnni") && __builtin_cpu_supports("avx512vl")) f |= LK_AVX512VNNI;
    return f;
}

int lk_cpu_features(void) {
    static int cached = -1;  // a benign race: every thread computes the same value
    if (cached < 0) cached = detect_features();
    return cached;
}

// Tokens sharing one prepared weight block in the batched (prompt) kernels.
#define TOKEN_TILE 4
// How far ahead of the rows being read the one-token kernels prefetch (bytes).
#define PREFETCH_DISTANCE 4096

#define KERNEL(name) name##_avx2
#define TARGET "avx2,fma,f16c"
#define DOT_U8S8(u, s) _mm256_madd_epi16(_mm256_maddubs_epi16((u), (s)), _mm256_set1_epi16(1))
#include "kernels_x86.h"
#undef KERNEL
#undef TARGET
#undef DOT_U8S8

#define KERNEL(name) name##_vnni
#define TARGET "avx2,fma,f16c,avx512vnni,avx512vl"
#define DOT_U8S8(u, s) _mm256_dpbusd_epi32(_mm256_setzero_si256(), (u), (s))
#include "kernels_x86.h"
#undef KERNEL
#undef TARGET
#undef DOT_U8S8

int lk_matmul(int type, int features, const uint8_t *weights, size_t row_bytes, int row0, int row1,
              const lk_activations *x, float *out, size_t out_stride) {
    const int have = lk_cpu_features();
    if ((features & have) != features || features == 0) return -1;
    const int vnni = features & LK_AVX512VNNI;
    switch (type) {
    case 2:
    case 3:
    case 6:
        if (vnni) q4_vnni(type, weights, row_bytes, row0, row1, x, out, out_stride);
        else q4_avx2(type, weights, row_bytes, row0, row1, x, out, out_stride);
        return 0;
    case 8:
        if (vnni) q8_0_vnni(weights, row_bytes, row0, row1, x, out, out_stride);
        else q8_0_avx2(weights, row_bytes, row0, row1, x, out, out_stride);
        return 0;
    default:
        return -1;
    }
}

__attribute__((target("avx2,fma,f16c"))) static inline float round_half(float v) {
    return _cvtsh_ss(_cvtss_sh(v, _MM_FROUND_TO_NEAREST_INT));
}

__attribute__((target("avx2,fma,f16c"))) static void quantize_q8_avx2(const float *x, size_t stride, int tokens, int columns,
    int block0, int block1, int8_t *qs, float *scales) {
    const int blocks = columns / 32;
    const __m256 sign = _mm256_set1_ps(-0.0f);
    for (int t = 0; t < tokens; t++) {
        for (int b = block0; b < block1; b++) {
            const float *p = x + (size_t)t * stride + (size_t)b * 32;
            __m256 v[4];
            __m256 amax = _mm256_setzero_ps();
            for (int k = 0; k < 4; k++) {
                v[k] = _mm256_loadu_ps(p + 8 * k);
                amax = _mm256_max_ps(amax, _mm256_andnot_ps(sign, v[k]));
            }
            __m128 m4 = _mm_max_ps(_mm256_extractf128_ps(amax, 1), _mm256_castps256_ps128(amax));
            m4 = _mm_max_ps(m4, _mm_movehl_ps(m4, m4));
            m4 = _mm_max_ss(m4, _mm_movehdup_ps(m4));
            const float maximum = _mm_cvtss_f32(m4);
            const float d = maximum / 127.f;
            const __m256 scale = _mm256_set1_ps(maximum != 0.0f ? 127.f / maximum : 0.0f);
            __m256i q[4];
            for (int k = 0; k < 4; k++)
                q[k] = _mm256_cvtps_epi32(_mm256_round_ps(_mm256_mul_ps(v[k], scale), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
            const __m256i sum8 = _mm256_add_epi32(_mm256_add_epi32(q[0], q[1]), _mm256_add_epi32(q[2], q[3]));
            __m128i sum4 = _mm_add_epi32(_mm256_castsi256_si128(sum8), _mm256_extracti128_si256(sum8, 1));
            sum4 = _mm_add_epi32(sum4, _mm_shuffle_epi32(sum4, _MM_SHUFFLE(1, 0, 3, 2)));
            sum4 = _mm_add_epi32(sum4, _mm_shuffle_epi32(sum4, _MM_SHUFFLE(2, 3, 0, 1)));
            // Packing works per 128-bit lane; the permute puts the 32 bytes back in order.
            const __m256i packed = _mm256_packs_epi16(_mm256_packs_epi32(q[0], q[1]), _mm256_packs_epi32(q[2], q[3]));
            const __m256i ordered = _mm256_permutevar8x32_epi32(packed, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
            const size_t block = (size_t)t * blocks + b;
            _mm256_storeu_si256((__m256i *)(qs + block * 32), ordered);
            const float stored_d = round_half(d);
            scales[2 * block] = stored_d;
            scales[2 * block + 1] = round_half(stored_d * (float)_mm_cvtsi128_si32(sum4));
        }
    }
}

int lk_quantize_q8(const float *x, size_t stride, int tokens, int columns, int block0, int block1,
                   int8_t *qs, float *scales) {
    if (!(lk_cpu_features() & LK_AVX2)) return -1;
    quantize_q8_avx2(x, stride, tokens, columns, block0, block1, qs, scales);
    return 0;
}

__attribute__((target("avx2,fma,f16c"))) static void round_to_half_f16c(const float *src, float *dst, size_t n) {
    size_t i = 0;
    for (; i + 8 <= n; i += 8)
        _mm256_storeu_ps(dst + i, _mm256_cvtph_ps(_mm256_cvtps_ph(_mm256_loadu_ps(src + i), _MM_FROUND_TO_NEAREST_INT)));
    for (; i < n; i++) dst[i] = round_half(src[i]);
}

int lk_round_to_half(const float *src, float *dst, size_t n) {
    if (!(lk_cpu_features() & LK_AVX2)) return -1;
    round_to_half_f16c(src, dst, n);
    return 0;
}

#else
int lk_quantize_q8(const float *x, size_t stride, int tokens, int columns, int block0, int block1,
                   int8_t *qs, float *scales) {
    (void)x; (void)stride; (void)tokens; (void)columns; (void)block0; (void)block1; (void)qs; (void)scales;
    return -1;
}
int lk_round_to_half(const float *src, float *dst, size_t n) {
    (void)src; (void)dst; (void)n;
    return -1;
}
int lk_cpu_features(void) { return 0; }
int lk_matmul(int type, int features, const uint8_t *weights, size_t row_bytes, int row0, int row1,
              const lk_activations *x, float *out, size_t out_stride) {
    (void)type; (void)features; (void)weights; (void)row_bytes; (void)row0; (void)row1; (void)x; (void)out; (void)out_stride;
    return -1;
}
#endif
