// lk_attention.h. One call per (token, head) instead of one per cached position: the query and
// the output accumulator stay in registers, 16 lanes wide. Every lane runs the same operations in
// the same order as lk_dot_half and lk_axpy_half (multiply, round, add; no fused multiply-add),
// so the scores before the softmax and the weighted sum are bit for bit those of the per-position
// loop; the softmax's exponential and sum are vectorised, within a few ulp of it.
#include "lk_attention.h"
#include "llama_kernels.h"

#if defined(__x86_64__)
#include <immintrin.h>
#include <math.h>

#define TARGET "avx2,fma,f16c,avx512f"
#include "exp_avx512.h"

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

// One position's score before its lane sum: lane l holds Σ_v q[16v + l] × k[16v + l], multiplied,
// rounded and added in lk_dot_half's order.
__attribute__((target(TARGET))) static inline __m512 score_lanes(const float *q, const uint16_t *k, int vectors) {
    __m512 acc = _mm512_setzero_ps();
    for (int v = 0; v < vectors; v++)
        acc = _mm512_add_ps(acc, _mm512_mul_ps(_mm512_loadu_ps(q + 16 * v), load_half16(k + 16 * v)));
    return acc;
}

// r[j] lane l becomes r[l] lane j.
__attribute__((target(TARGET))) static inline void transpose16(__m512 r[16]) {
    __m512 t[16];
    for (int i = 0; i < 8; i++) {
        t[2 * i] = _mm512_unpacklo_ps(r[2 * i], r[2 * i + 1]);
        t[2 * i + 1] = _mm512_unpackhi_ps(r[2 * i], r[2 * i + 1]);
    }
    for (int i = 0; i < 4; i++) {
        r[4 * i + 0] = _mm512_shuffle_ps(t[4 * i], t[4 * i + 2], 0x44);
        r[4 * i + 1] = _mm512_shuffle_ps(t[4 * i], t[4 * i + 2], 0xEE);
        r[4 * i + 2] = _mm512_shuffle_ps(t[4 * i + 1], t[4 * i + 3], 0x44);
        r[4 * i + 3] = _mm512_shuffle_ps(t[4 * i + 1], t[4 * i + 3], 0xEE);
    }
    for (int i = 0; i < 4; i++) {
        t[i] = _mm512_shuffle_f32x4(r[i], r[i + 4], 0x88);
        t[i + 4] = _mm512_shuffle_f32x4(r[i], r[i + 4], 0xDD);
        t[i + 8] = _mm512_shuffle_f32x4(r[i + 8], r[i + 12], 0x88);
        t[i + 12] = _mm512_shuffle_f32x4(r[i + 8], r[i + 12], 0xDD);
    }
    for (int i = 0; i < 8; i++) {
        r[i] = _mm512_shuffle_f32x4(t[i], t[i + 8], 0x88);
        r[i + 8] = _mm512_shuffle_f32x4(t[i], t[i + 8], 0xDD);
    }
}

// The softmax of x[0 .. n-1] in place, sixteen at a time (the last run masked).
__attribute__((target(TARGET))) static void softmax_avx512(float *x, int n) {
    __m512 maximum = _mm512_set1_ps(-INFINITY);
    for (int j = 0; j < n; j += 16) {
        const __mmask16 live = live_lanes(n - j);
        maximum = _mm512_mask_max_ps(maximum, live, maximum, _mm512_maskz_loadu_ps(live, x + j));
    }
    const __m512 top = _mm512_set1_ps(_mm512_reduce_max_ps(maximum));
    __m512 sum = _mm512_setzero_ps();
    for (int j = 0; j < n; j += 16) {
        const __mmask16 live = live_lanes(n - j);
        const __m512 e = exp16(_mm512_sub_ps(_mm512_maskz_loadu_ps(live, x + j), top));
        _mm512_mask_storeu_ps(x + j, live, e);
        sum = _mm512_mask_add_ps(sum, live, sum, e);
    }
    const __m512 inverse = _mm512_set1_ps(1 / _mm512_reduce_add_ps(sum));
    for (int j = 0; j < n; j += 16) {
        const __mmask16 live = live_lanes(n - j);
        _mm512_mask_storeu_ps(x + j, live, _mm512_mul_ps(_mm512_maskz_loadu_ps(live, x + j), inverse));
    }
}

// The scores, their softmax, and the weighted sum of values, for head dims that are multiples of
// 16: 64 columns (four registers) at a time, every position per pass.
//
// The scores come sixteen positions at a time (the last run padded with zeros): their lane
// vectors are transposed, so that one vector add per lane adds lane l of all sixteen, in the
// scalar sum's order (0 + lane 0 + lane 1 + …), the same bits. Summed one position at a time, the sixteen dependent scalar adds were the
// largest part of this function in a 128-token prompt's profile (Engine/README.md, "Speed").
__attribute__((target(TARGET))) static void attend_avx512(const float *q, const uint16_t *keys, const uint16_t *values,
    size_t stride, int cells, int first, int n, int head_dim, float scale, float *scores, float *out) {
    const int vectors = head_dim / 16;
    int cell = first % cells, ahead = cell;
    for (int j = 0; j < PREFETCH_AHEAD && j < n; j++) {
        prefetch_row(keys + (size_t)ahead * stride, head_dim);
        if (++ahead == cells) ahead = 0;
    }
    for (int j = 0; j < n; j += 16) {
        const int block = n - j < 16 ? n - j : 16;
        __m512 lanes[16];
        for (int p = 0; p < block; p++) {
            if (j + p + PREFETCH_AHEAD < n) prefetch_row(keys + (size_t)ahead * stride, head_dim);
            if (++ahead == cells) ahead = 0;
            prefetch_row(values + (size_t)cell * stride, head_dim);
            lanes[p] = score_lanes(q, keys + (size_t)cell * stride, vectors);
            if (++cell == cells) cell = 0;
        }
        for (int p = block; p < 16; p++) lanes[p] = _mm512_setzero_ps();  // a short last run
        transpose16(lanes);
        __m512 total = _mm512_setzero_ps();
        for (int l = 0; l < 16; l++) total = _mm512_add_ps(total, lanes[l]);
        _mm512_mask_storeu_ps(scores + j, live_lanes(block), _mm512_mul_ps(total, _mm512_set1_ps(scale)));
    }

    softmax_avx512(scores, n);

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
