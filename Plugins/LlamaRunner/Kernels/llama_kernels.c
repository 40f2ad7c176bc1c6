#include "llama_kernels.h"

#if defined(__x86_64__)
#include <immintrin.h>

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

#define TOKEN_TILE 4

// One kernel body per instruction set: DOT_U8S8(u, s) sums products of unsigned and signed
// bytes into eight int32 lanes (groups of four).
#define DEFINE_KERNELS(SUFFIX, TARGET, DOT_U8S8)                                                    \
    __attribute__((target(TARGET))) static inline float hsum_##SUFFIX(__m256 v) {                 \
        __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));              \
        s = _mm_add_ps(s, _mm_movehl_ps(s, s));                                                     \
        s = _mm_add_ss(s, _mm_movehdup_ps(s));                                                      \
        return _mm_cvtss_f32(s);                                                                    \
    }                                                                                               \
    __attribute__((target(TARGET))) static inline __m256i nibbles_##SUFFIX(const uint8_t *p) {      \
        __m128i raw = _mm_loadu_si128((const __m128i *)p);                                          \
        __m256i both = _mm256_set_m128i(_mm_srli_epi16(raw, 4), raw);                               \
        return _mm256_and_si256(both, _mm256_set1_epi8(0x0F));                                      \
    }                                                                                               \
    /* Q4_1: w = d*q + m, so w.x = dw*dx*sum(q*qx) + m*sx. Q4_0: w = d*(q-8), summed exactly as  \
       signed bytes with the |w| / sign(x, w) trick. */                                            \
    __attribute__((target(TARGET))) static void q4_##SUFFIX(int is_q4_1, const uint8_t *w, size_t row_bytes, \
        int row0, int row1, const lk_activations *x, float *out, size_t out_stride) {               \
        const int blocks = x->columns / 32, bb = is_q4_1 ? 20 : 18, qoff = is_q4_1 ? 4 : 2;           \
        for (int r = row0; r < row1; r++) {                                                         \
            const uint8_t *row = w + (size_t)r * row_bytes;                                         \
            for (int t0 = 0; t0 < x->tokens; t0 += TOKEN_TILE) {                                    \
                const int nt = x->tokens - t0 < TOKEN_TILE ? x->tokens - t0 : TOKEN_TILE;           \
                __m256 acc[TOKEN_TILE];                                                             \
                float extra[TOKEN_TILE];                                                            \
                for (int j = 0; j < TOKEN_TILE; j++) { acc[j] = _mm256_setzero_ps(); extra[j] = 0; } \
                for (int b = 0; b < blocks; b++) {                                                  \
                    const uint8_t *p = row + b * bb;                                                \
                    const float dw = _cvtsh_ss(*(const uint16_t *)p);                               \
                    const float mw = is_q4_1 ? _cvtsh_ss(*(const uint16_t *)(p + 2)) : 0;           \
                    __m256i q = nibbles_##SUFFIX(p + qoff);                                         \
                    if (!is_q4_1) q = _mm256_sub_epi8(q, _mm256_set1_epi8(8));                      \
                    const __m256i uq = is_q4_1 ? q : _mm256_sign_epi8(q, q);                        \
                    for (int j = 0; j < nt; j++) {                                                  \
                        const size_t xb = (size_t)(t0 + j) * blocks + b;                            \
                        __m256i a = _mm256_loadu_si256((const __m256i *)(x->qs + xb * 32));         \
                        if (!is_q4_1) a = _mm256_sign_epi8(a, q);                                   \
                        const __m256 prod = _mm256_cvtepi32_ps(DOT_U8S8(uq, a));                    \
                        acc[j] = _mm256_fmadd_ps(_mm256_set1_ps(dw * x->d[xb]), prod, acc[j]);      \
                        extra[j] += mw * x->s[xb];                                                  \
                    }                                                                               \
                }                                                                                   \
                for (int j = 0; j < nt; j++) out[(size_t)(t0 + j) * out_stride + r] = hsum_##SUFFIX(acc[j]) + extra[j]; \
            }                                                                                       \
        }                                                                                           \
    }                                                                                               \
    /* Q8_0: signed weights; |w| (unsigned) times x with w's sign (signed) keeps u8 x s8 products. */ \
    __attribute__((target(TARGET))) static void q8_0_##SUFFIX(const uint8_t *w, size_t row_bytes,    \
        int row0, int row1, const lk_activations *x, float *out, size_t out_stride) {               \
        const int blocks = x->columns / 32;                                                         \
        for (int r = row0; r < row1; r++) {                                                         \
            const uint8_t *row = w + (size_t)r * row_bytes;                                         \
            for (int t0 = 0; t0 < x->tokens; t0 += TOKEN_TILE) {                                    \
                const int nt = x->tokens - t0 < TOKEN_TILE ? x->tokens - t0 : TOKEN_TILE;           \
                __m256 acc[TOKEN_TILE];                                                             \
                for (int j = 0; j < TOKEN_TILE; j++) acc[j] = _mm256_setzero_ps();                  \
                for (int b = 0; b < blocks; b++) {                                                  \
                    const uint8_t *p = row + b * 34;                                                \
                    const float dw = _cvtsh_ss(*(const uint16_t *)p);                               \
                    const __m256i q = _mm256_loadu_si256((const __m256i *)(p + 2));                 \
                    const __m256i aq = _mm256_sign_epi8(q, q);                                      \
                    for (int j = 0; j < nt; j++) {                                                  \
                        const size_t xb = (size_t)(t0 + j) * blocks + b;                            \
                        const __m256i a = _mm256_loadu_si256((const __m256i *)(x->qs + xb * 32));   \
                        const __m256 prod = _mm256_cvtepi32_ps(DOT_U8S8(aq, _mm256_sign_epi8(a, q))); \
                        acc[j] = _mm256_fmadd_ps(_mm256_set1_ps(dw * x->d[xb]), prod, acc[j]);      \
                    }                                                                               \
                }                                                                                   \
                for (int j = 0; j < nt; j++) out[(size_t)(t0 + j) * out_stride + r] = hsum_##SUFFIX(acc[j]); \
            }                                                                                       \
        }                                                                                           \
    }

#define DOT_AVX2(u, s) _mm256_madd_epi16(_mm256_maddubs_epi16((u), (s)), _mm256_set1_epi16(1))
#define DOT_VNNI(u, s) _mm256_dpbusd_epi32(_mm256_setzero_si256(), (u), (s))

DEFINE_KERNELS(avx2, "avx2,fma,f16c", DOT_AVX2)
DEFINE_KERNELS(vnni, "avx2,fma,f16c,avx512vnni,avx512vl", DOT_VNNI)

int lk_matmul(int type, int features, const uint8_t *weights, size_t row_bytes, int row0, int row1,
              const lk_activations *x, float *out, size_t out_stride) {
    const int have = lk_cpu_features();
    if ((features & have) != features || features == 0) return -1;
    const int vnni = features & LK_AVX512VNNI;
    switch (type) {
    case 2:
    case 3:
        if (vnni) q4_vnni(type == 3, weights, row_bytes, row0, row1, x, out, out_stride);
        else q4_avx2(type == 3, weights, row_bytes, row0, row1, x, out, out_stride);
        return 0;
    case 8:
        if (vnni) q8_0_vnni(weights, row_bytes, row0, row1, x, out, out_stride);
        else q8_0_avx2(weights, row_bytes, row0, row1, x, out, out_stride);
        return 0;
    default:
        return -1;
    }
}

#else
int lk_cpu_features(void) { return 0; }
int lk_matmul(int type, int features, const uint8_t *weights, size_t row_bytes, int row0, int row1,
              const lk_activations *x, float *out, size_t out_stride) {
    (void)type; (void)features; (void)weights; (void)row_bytes; (void)row0; (void)row1; (void)x; (void)out; (void)out_stride;
    return -1;
}
#endif
