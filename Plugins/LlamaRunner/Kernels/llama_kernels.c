#include "llama_kernels.h"

#if defined(__x86_64__)
#include <immintrin.h>
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
