// lk_attention.h. One call per (token, head) instead of one per cached position: the query and
// the output accumulator stay in registers, 16 lanes wide. Every lane runs the same operations in
// the same order as lk_dot_half and lk_axpy_half (multiply, round, add; no fused multiply-add),
// so the results are bit for bit those of the per-position loop.
#include "lk_attention.h"
#include "llama_kernels.h"

#if defined(__x86_64__)
#include <immintrin.h>
#include <math.h>

#define TARGET "avx2,fma,f16c,avx512f"

__attribute__((target(TARGET))) static inline __m512 load_half16(const uint16_t *p) {
    return _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)p));
}

// How many positions ahead the score loop prefetches keys. The weights streamed through the
// caches between two tokens evict the cache rows, and one head reads only head_dim of each row's
// kv_dim halves, so the keys' reads stalled on memory (a third of this function's time in a
// profile of SmolLM2 decode); each step also prefetches the value row the second loop reads.
enum { PREFETCH_AHEAD = 8 };

__attribute__((target(TARGET))) static inline void prefetch_row(const uint16_t *p, int head_dim) {
    const char *c = (const char *)p;
    for (int off = 0; off < 2 * head_dim; off += 64) _mm_prefetch(c + off, _MM_HINT_T0);
    _mm_prefetch(c + 2 * head_dim - 1, _MM_HINT_T0);  // the row may start mid-line
}

// The scores, their softmax, and the weighted sum of values, for head dims that are multiples of
// 16: 64 columns (four registers) at a time, every position per pass.
__attribute__((target(TARGET))) static void attend_avx512(const float *q, const uint16_t *keys, const uint16_t *values,
    size_t stride, int cells, int first, int n, int head_dim, float scale, float *scores, float *out) {
    const int vectors = head_dim / 16;
    int cell = first % cells, ahead = cell;
    for (int j = 0; j < PREFETCH_AHEAD && j < n; j++) {
        prefetch_row(keys + (size_t)ahead * stride, head_dim);
        if (++ahead == cells) ahead = 0;
    }
    for (int j = 0; j < n; j++) {
        if (j + PREFETCH_AHEAD < n) prefetch_row(keys + (size_t)ahead * stride, head_dim);
        if (++ahead == cells) ahead = 0;
        prefetch_row(values + (size_t)cell * stride, head_dim);
        const uint16_t *k = keys + (size_t)cell * stride;
        __m512 acc = _mm512_setzero_ps();
        for (int v = 0; v < vectors; v++)
            acc = _mm512_add_ps(acc, _mm512_mul_ps(_mm512_loadu_ps(q + 16 * v), load_half16(k + 16 * v)));
        float lanes[16];
        _mm512_storeu_ps(lanes, acc);
        float total = 0;
        for (int l = 0; l < 16; l++) total += lanes[l];
        scores[j] = total * scale;
        if (++cell == cells) cell = 0;
    }

    float maximum = -INFINITY;
    for (int j = 0; j < n; j++) maximum = scores[j] > maximum ? scores[j] : maximum;
    float sum = 0;
    for (int j = 0; j < n; j++) {
        const float e = expf(scores[j] - maximum);
        scores[j] = e;
        sum += e;
    }
    const float inverse = 1 / sum;
    for (int j = 0; j < n; j++) scores[j] *= inverse;

    for (int c = 0; c < vectors; c += 4) {
        const int live = vectors - c < 4 ? vectors - c : 4;
        __m512 o0 = _mm512_setzero_ps(), o1 = o0, o2 = o0, o3 = o0;
        cell = first % cells;
        for (int j = 0; j < n; j++) {
            const uint16_t *v = values + (size_t)cell * stride + 16 * c;
            const __m512 a = _mm512_set1_ps(scores[j]);
            o0 = _mm512_add_ps(o0, _mm512_mul_ps(a, load_half16(v)));
            if (live > 1) o1 = _mm512_add_ps(o1, _mm512_mul_ps(a, load_half16(v + 16)));
            if (live > 2) o2 = _mm512_add_ps(o2, _mm512_mul_ps(a, load_half16(v + 32)));
            if (live > 3) o3 = _mm512_add_ps(o3, _mm512_mul_ps(a, load_half16(v + 48)));
            if (++cell == cells) cell = 0;
        }
        _mm512_storeu_ps(out + 16 * c, o0);
        if (live > 1) _mm512_storeu_ps(out + 16 * c + 16, o1);
        if (live > 2) _mm512_storeu_ps(out + 16 * c + 32, o2);
        if (live > 3) _mm512_storeu_ps(out + 16 * c + 48, o3);
    }
}

static int has_avx512f(void) {
    static int cached = -1;  // a benign race: every thread computes the same value
    if (cached < 0) {
        __builtin_cpu_init();
        cached = (lk_cpu_features() & LK_AVX2) && __builtin_cpu_supports("avx512f");
    }
    return cached;
}

int lk_attend_half(const float *q, const uint16_t *keys, const uint16_t *values, size_t stride, int cells,
                   int first, int n, int head_dim, float scale, float *scores, float *out) {
    if (!has_avx512f() || head_dim <= 0 || head_dim % 16 != 0 || n <= 0 || cells <= 0) return -1;
    attend_avx512(q, keys, values, stride, cells, first, n, head_dim, scale, scores, out);
    return 0;
}

#else
int lk_attend_half(const float *q, const uint16_t *keys, const uint16_t *values, size_t stride, int cells,
                   int first, int n, int head_dim, float scale, float *scores, float *out) {
    (void)q; (void)keys; (void)values; (void)stride; (void)cells; (void)first; (void)n; (void)head_dim; (void)scale;
    (void)scores; (void)out;
    return -1;
}
#endif
