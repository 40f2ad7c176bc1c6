#include "llama_kernels.h"
#include "lk_blocks.h"

#if defined(__x86_64__)
#include <immintrin.h>
#include <math.h>
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

// The Q4_1 and Q5_1 kernels load a block's d and m with one 32-bit load.
_Static_assert(offsetof(lk_block_q4_1, m) == offsetof(lk_block_q4_1, d) + sizeof(uint16_t), "Q4_1: m does not follow d");
_Static_assert(offsetof(lk_block_q5_1, m) == offsetof(lk_block_q5_1, d) + sizeof(uint16_t), "Q5_1: m does not follow d");

const int8_t lk_iq4_nl_table[16] = {-127, -104, -83, -65, -49, -35, -22, -10, 1, 13, 25, 38, 53, 69, 89, 113};

// Sizes and field offsets of the 32-value block types by ggml code, from lk_blocks.h; constants
// in each kernel instantiation.
static inline size_t block_bytes(int type) {
    switch (type) {
    case 2: return sizeof(lk_block_q4_0);
    case 3: return sizeof(lk_block_q4_1);
    case 6: return sizeof(lk_block_q5_0);
    case 7: return sizeof(lk_block_q5_1);
    case 20: return sizeof(lk_block_iq4_nl);
    default: return sizeof(lk_block_q8_0);
    }
}
static inline size_t d_offset(int type) {
    switch (type) {
    case 2: return offsetof(lk_block_q4_0, d);
    case 3: return offsetof(lk_block_q4_1, d);
    case 6: return offsetof(lk_block_q5_0, d);
    case 7: return offsetof(lk_block_q5_1, d);
    case 20: return offsetof(lk_block_iq4_nl, d);
    default: return offsetof(lk_block_q8_0, d);
    }
}
static inline size_t qs_offset(int type) {
    switch (type) {
    case 2: return offsetof(lk_block_q4_0, qs);
    case 3: return offsetof(lk_block_q4_1, qs);
    case 6: return offsetof(lk_block_q5_0, qs);
    case 7: return offsetof(lk_block_q5_1, qs);
    case 20: return offsetof(lk_block_iq4_nl, qs);
    default: return offsetof(lk_block_q8_0, qs);
    }
}
static inline size_t qh_offset(int type) { return type == 7 ? offsetof(lk_block_q5_1, qh) : offsetof(lk_block_q5_0, qh); }

// The K-quants (kernels_x86.h's kq kernels): superblock sizes by ggml code, and which types have
// a scale per 16 values, a minimum, or an offset.
#define KQ_HALVES(type) ((type) == 10 || (type) == 11 || (type) == 14)
#define KQ_MIN(type) ((type) == 10 || (type) == 12 || (type) == 13)
// Subtracted from the unsigned quants to give the signed value (0: a separate minimum term).
#define KQ_OFFSET(type) ((type) == 11 ? 4 : (type) == 14 ? 32 : 0)
// Rows (one token) or tokens (a prompt) whose sums run side by side, as independent chains.
#define KQ_CHAINS 2
// Rows a prompt's token pairs run against before the next rows: their superblocks stay in cache.
#define KQ_ROW_BLOCK 16
static inline size_t kq_block_bytes(int type) {
    switch (type) {
    case 10: return sizeof(lk_block_q2_K);
    case 11: return sizeof(lk_block_q3_K);
    case 12: return sizeof(lk_block_q4_K);
    case 13: return sizeof(lk_block_q5_K);
    default: return sizeof(lk_block_q6_K);
    }
}

// Tokens sharing one prepared weight block in the batched (prompt) kernels.
#define TOKEN_TILE 4
// How far ahead of the rows being read the one-token kernels prefetch (bytes).
#define PREFETCH_DISTANCE 4096
// How far past the start of the next run of rows a multi-row kernel's prefetch reads.
#define RUN_PREFETCH_LEAD 2048

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
    case 7:
    case 20:
        if (vnni) q4_vnni(type, weights, row_bytes, row0, row1, x, out, out_stride);
        else q4_avx2(type, weights, row_bytes, row0, row1, x, out, out_stride);
        return 0;
    case 10:
    case 11:
    case 12:
    case 13:
    case 14:
        if (x->columns % LK_QK_K != 0) return -1;
        if (vnni) kq_vnni(type, weights, row_bytes, row0, row1, x, out, out_stride);
        else kq_avx2(type, weights, row_bytes, row0, row1, x, out, out_stride);
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

// The f16 KV cache (header). Eight lanes at a time with F16C; the 16-lane dot accumulator is two
// registers, reduced lane by lane in order, as the Swift reference does.
__attribute__((target("avx2,fma,f16c"))) static void float_to_half_f16c(const float *src, uint16_t *dst, size_t n) {
    size_t i = 0;
    for (; i + 8 <= n; i += 8)
        _mm_storeu_si128((__m128i *)(dst + i), _mm256_cvtps_ph(_mm256_loadu_ps(src + i), _MM_FROUND_TO_NEAREST_INT));
    for (; i < n; i++) dst[i] = _cvtss_sh(src[i], _MM_FROUND_TO_NEAREST_INT);
}

__attribute__((target("avx2,fma,f16c"))) static inline __m256 load_half8(const uint16_t *p) {
    return _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)p));
}

__attribute__((target("avx2,fma,f16c"))) static float dot_half_f16c(const float *x, const uint16_t *y, size_t n) {
    __m256 lo = _mm256_setzero_ps(), hi = _mm256_setzero_ps();
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        lo = _mm256_add_ps(lo, _mm256_mul_ps(_mm256_loadu_ps(x + i), load_half8(y + i)));
        hi = _mm256_add_ps(hi, _mm256_mul_ps(_mm256_loadu_ps(x + i + 8), load_half8(y + i + 8)));
    }
    float lanes[16];
    _mm256_storeu_ps(lanes, lo);
    _mm256_storeu_ps(lanes + 8, hi);
    float total = 0;
    for (int l = 0; l < 16; l++) total += lanes[l];
    for (; i < n; i++) { const float p = x[i] * _cvtsh_ss(y[i]); total += p; }
    return total;
}

__attribute__((target("avx2,fma,f16c"))) static void axpy_half_f16c(float a, const uint16_t *x, float *y, size_t n) {
    const __m256 va = _mm256_set1_ps(a);
    size_t i = 0;
    for (; i + 8 <= n; i += 8)
        _mm256_storeu_ps(y + i, _mm256_add_ps(_mm256_loadu_ps(y + i), _mm256_mul_ps(va, load_half8(x + i))));
    for (; i < n; i++) { const float p = a * _cvtsh_ss(x[i]); y[i] += p; }
}

int lk_float_to_half(const float *src, uint16_t *dst, size_t n) {
    if (!(lk_cpu_features() & LK_AVX2)) return -1;
    float_to_half_f16c(src, dst, n);
    return 0;
}

float lk_dot_half(const float *x, const uint16_t *y, size_t n) { return dot_half_f16c(x, y, n); }
void lk_axpy_half(float a, const uint16_t *x, float *y, size_t n) { axpy_half_f16c(a, x, y, n); }

#else
int lk_quantize_q8(const float *x, size_t stride, int tokens, int columns, int block0, int block1,
                   int8_t *qs, float *scales) {
    (void)x; (void)stride; (void)tokens; (void)columns; (void)block0; (void)block1; (void)qs; (void)scales;
    return -1;
}
int lk_float_to_half(const float *src, uint16_t *dst, size_t n) {
    (void)src; (void)dst; (void)n;
    return -1;
}
float lk_dot_half(const float *x, const uint16_t *y, size_t n) { (void)x; (void)y; (void)n; return 0; }
void lk_axpy_half(float a, const uint16_t *x, float *y, size_t n) { (void)a; (void)x; (void)y; (void)n; }
int lk_cpu_features(void) { return 0; }
int lk_matmul(int type, int features, const uint8_t *weights, size_t row_bytes, int row0, int row1,
              const lk_activations *x, float *out, size_t out_stride) {
    (void)type; (void)features; (void)weights; (void)row_bytes; (void)row0; (void)row1; (void)x; (void)out; (void)out_stride;
    return -1;
}
#endif
