// The batched (prompt) product for AVX-512 VNNI (the API is in include/llama_gemm.h).
//
// The one-token kernels (kernels_x86.h) produce eight partial sums per block and per (row, token)
// and must add them across lanes, as llama.cpp's vec_dot does; over a prompt that is most of the
// work. Here a 512-bit register holds 16 rows instead: lane i is row i, so one vpdpbusd multiplies
// four values of 16 rows by the same four activation bytes (broadcast from memory) and each lane
// ends the block holding its row's exact integer sum. Per 32-value block and token that is 8
// vpdpbusd, one conversion and one or two FMAs for 16 rows, with no horizontal sums.
//
// The weights stay in the file's layout; each call rearranges its 16-row panels into that
// register layout (a transpose of 16 rows' bytes, then nibble unpacking) in the caller's scratch,
// once per panel, and then runs every token against it, so the rearrangement is paid once per
// prompt chunk.
//
// Signed weights need vpdpbusd's unsigned operand, so the panel holds every value as an unsigned
// byte u = w + offset (Q4_0: nibble q = w + 8; Q5_0: q = w + 16; Q6_K: q = w + 32; Q8_0: w + 128;
// Q4_K: q itself, the minimum being a separate term) and the sum starts at
// -offset * (sum of the activation block), which is exact: the per-block activation sums are
// computed once per call. Q4_K and Q6_K superblocks become eight 32-value blocks, each with its
// scale (and minimum) as floats; Q6_K's two scales per block are kept apart (two integer sums).
//
// Field offsets follow ggml's block_* structs (ggml-common.h).
#include "llama_gemm.h"

#if defined(__x86_64__)
#include <immintrin.h>
#include <string.h>

#define TARGET "avx2,fma,f16c,avx512f,avx512bw,avx512vl,avx512vnni"
// Rows per panel (one per 32-bit lane of a 512-bit register).
#define PANEL 16
// Tokens whose accumulators stay in registers while one panel block is read.
#define TILE 8

// One 32-value block of a 16-row panel: q[k] lane i = row i's values 4k..4k+3 as unsigned bytes;
// d[0] the rows' scales (d[1] the second 16 values' scales where they differ, Q6_K), m their
// minimums (Q4_K; zero otherwise). 704 bytes, 64-byte aligned.
typedef struct {
    __m512i q[8];
    __m512 d[2], m;
} panel_block;

// One 32-value block of the activations of a tile of TILE tokens, packed so that the tile loop
// reads everything at fixed offsets from one pointer: token j's 32 quants, scale d, sum s, and
// the starting values of its integer sums (-offset * the activations' sums).
typedef struct {
    int8_t q[TILE][32];
    float dx[TILE], sx[TILE];
    int32_t start[2][TILE];
} tile_block;

typedef struct {
    int block_bytes;   // bytes of one block of the file's layout
    int block_values;  // values in it: 32, or 256 (K-quants)
    int offset;        // subtracted from every unsigned weight byte
    int has_min;       // w = d*q + m (the activation block's s = dx * sum(qx) carries m)
    int halves;        // each 16 values of a 32-value block have their own scale
} type_layout;

static int layout_of(int type, type_layout *l) {
    switch (type) {
    case 2: *l = (type_layout){18, 32, 8, 0, 0}; return 0;      // Q4_0
    case 6: *l = (type_layout){22, 32, 16, 0, 0}; return 0;     // Q5_0
    case 8: *l = (type_layout){34, 32, 128, 0, 0}; return 0;    // Q8_0
    case 12: *l = (type_layout){144, 256, 0, 1, 0}; return 0;   // Q4_K
    case 14: *l = (type_layout){210, 256, 32, 0, 1}; return 0;  // Q6_K
    default: return -1;
    }
}

int lk_gemm_supports(int type) {
    type_layout l;
    return layout_of(type, &l) == 0;
}

static int gemm_cpu(void) {
    static int cached = -1;  // a benign race: every thread computes the same value
    if (cached < 0) {
        __builtin_cpu_init();
        cached = (lk_cpu_features() & LK_AVX512VNNI) && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
    }
    return cached;
}

size_t lk_gemm_scratch_bytes(int columns, int tokens) {
    const size_t units = (size_t)(columns / 32);
    const size_t tiles = ((size_t)tokens + TILE - 1) / TILE;
    return 64 + units * sizeof(panel_block) + tiles * units * sizeof(tile_block);
}

// Dwords at base + idx[i] for the live rows (others zero).
__attribute__((target(TARGET), always_inline)) static inline __m512i gather(const uint8_t *base, __m512i idx, __mmask16 live) {
    return _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), live, idx, base, 1);
}

// The half float in the low (or high) 16 bits of every lane, as floats.
__attribute__((target(TARGET), always_inline)) static inline __m512 low_halves(__m512i v) {
    return _mm512_cvtph_ps(_mm512_cvtepi32_epi16(v));
}
__attribute__((target(TARGET), always_inline)) static inline __m512 high_halves(__m512i v) {
    return _mm512_cvtph_ps(_mm512_cvtepi32_epi16(_mm512_srli_epi32(v, 16)));
}

// Byte `i` of every lane, unsigned (as int32 lanes).
__attribute__((target(TARGET), always_inline)) static inline __m512i byte_of(__m512i v, int i) {
    return _mm512_and_si512(_mm512_srli_epi32(v, 8 * i), _mm512_set1_epi32(0xFF));
}

__attribute__((target(TARGET), always_inline)) static inline __m512i mask8(__m512i v, int m) {
    return _mm512_and_si512(v, _mm512_set1_epi8((char)m));
}

// 16 bytes at offset `at` of each of the 16 rows, transposed: out[k] lane i = row i's dword k.
// Plain loads and in-lane shuffles (gathers cost several times more on some cores): a[g] holds
// rows g, 4 + g, 8 + g, 12 + g in its four 128-bit lanes, and a 4x4 dword transpose within the
// lanes puts row 4L + g at dword 4L + g.
__attribute__((target(TARGET), always_inline)) static inline void transpose_rows(const uint8_t *const rows[PANEL], size_t at,
    __m512i out[4]) {
    __m512i a[4];
    for (int g = 0; g < 4; g++) {
        __m512i v = _mm512_castsi128_si512(_mm_loadu_si128((const __m128i *)(rows[g] + at)));
        v = _mm512_inserti32x4(v, _mm_loadu_si128((const __m128i *)(rows[4 + g] + at)), 1);
        v = _mm512_inserti32x4(v, _mm_loadu_si128((const __m128i *)(rows[8 + g] + at)), 2);
        a[g] = _mm512_inserti32x4(v, _mm_loadu_si128((const __m128i *)(rows[12 + g] + at)), 3);
    }
    const __m512i t0 = _mm512_unpacklo_epi32(a[0], a[1]), t1 = _mm512_unpackhi_epi32(a[0], a[1]);
    const __m512i t2 = _mm512_unpacklo_epi32(a[2], a[3]), t3 = _mm512_unpackhi_epi32(a[2], a[3]);
    out[0] = _mm512_unpacklo_epi64(t0, t2);
    out[1] = _mm512_unpackhi_epi64(t0, t2);
    out[2] = _mm512_unpacklo_epi64(t1, t3);
    out[3] = _mm512_unpackhi_epi64(t1, t3);
}

// Q4_0 / Q5_0 nibbles at offset `at`: 16 bytes, byte j holding value j (low nibble) and j + 16 (high).
__attribute__((target(TARGET), always_inline)) static inline void split_nibbles(const uint8_t *const rows[PANEL], size_t at,
    panel_block *out) {
    __m512i g[4];
    transpose_rows(rows, at, g);
    for (int k = 0; k < 4; k++) {
        out->q[k] = mask8(g[k], 0x0F);
        out->q[4 + k] = mask8(_mm512_srli_epi16(g[k], 4), 0x0F);
    }
}

// Q4_K superblock (d, dmin, 12 bytes of 6-bit scales and minimums, 128 nibble bytes) as 8 blocks:
// block 2g and 2g + 1 are the low and high nibbles of bytes 32g..32g+31; w = d*sc*q - dmin*mn.
__attribute__((target(TARGET), always_inline)) static inline void load_q4_k(const uint8_t *const rows[PANEL], size_t at,
    __m512i idx, __mmask16 live, panel_block *out) {
    const uint8_t *p = rows[0] + at;
    const __m512i dd = gather(p, idx, live);
    const __m512 d = low_halves(dd), dmin = high_halves(dd);
    const __m512i s0 = gather(p + 4, idx, live), s1 = gather(p + 8, idx, live), s2 = gather(p + 12, idx, live);
    const __m512i six = _mm512_set1_epi32(63), four = _mm512_set1_epi32(15);
    for (int j = 0; j < 8; j++) {
        __m512i sc, mn;
        if (j < 4) {
            sc = _mm512_and_si512(byte_of(s0, j), six);
            mn = _mm512_and_si512(byte_of(s1, j), six);
        } else {
            const __m512i hi = byte_of(s2, j - 4);
            sc = _mm512_or_si512(_mm512_and_si512(hi, four), _mm512_slli_epi32(_mm512_srli_epi32(byte_of(s0, j - 4), 6), 4));
            mn = _mm512_or_si512(_mm512_srli_epi32(hi, 4), _mm512_slli_epi32(_mm512_srli_epi32(byte_of(s1, j - 4), 6), 4));
        }
        out[j].d[0] = _mm512_mul_ps(d, _mm512_cvtepi32_ps(sc));
        out[j].d[1] = _mm512_setzero_ps();
        out[j].m = _mm512_sub_ps(_mm512_setzero_ps(), _mm512_mul_ps(dmin, _mm512_cvtepi32_ps(mn)));
    }
    for (int g = 0; g < 4; g++) {
        __m512i v[8];
        transpose_rows(rows, at + 16 + 32 * g, v);
        transpose_rows(rows, at + 16 + 32 * g + 16, v + 4);
        for (int k = 0; k < 8; k++) {
            out[2 * g].q[k] = mask8(v[k], 0x0F);
            out[2 * g + 1].q[k] = mask8(_mm512_srli_epi16(v[k], 4), 0x0F);
        }
    }
}

// Q6_K superblock (128 bytes of low nibbles, 64 of high 2-bit pairs, 16 signed scales, d) as 8
// blocks; in each half h of 128 values, block 4h + i takes the low (i < 2) or high nibbles of
// ql[64h + 32(i % 2) + l] and bits 2i, 2i + 1 of qh[32h + l]; each 16 values have a scale.
// w = d*sc*(q - 32).
__attribute__((target(TARGET), always_inline)) static inline void load_q6_k(const uint8_t *const rows[PANEL], size_t at,
    __m512i idx, __mmask16 live, panel_block *out) {
    const uint8_t *p = rows[0] + at;
    const __m512 d = low_halves(gather(p + 208, idx, live));
    __m512i sc[4];
    for (int k = 0; k < 4; k++) sc[k] = gather(p + 192 + 4 * k, idx, live);
    for (int j = 0; j < 16; j++) {
        // Scale j sign-extended from byte j % 4 of dword j / 4.
        const __m512i v = _mm512_srai_epi32(_mm512_slli_epi32(sc[j / 4], 24 - 8 * (j % 4)), 24);
        out[j / 2].d[j % 2] = _mm512_mul_ps(d, _mm512_cvtepi32_ps(v));
    }
    for (int h = 0; h < 2; h++) {
        __m512i ql0[8], ql1[8], qh[8];
        for (int i = 0; i < 2; i++) {
            transpose_rows(rows, at + 64 * h + 16 * i, ql0 + 4 * i);
            transpose_rows(rows, at + 64 * h + 32 + 16 * i, ql1 + 4 * i);
            transpose_rows(rows, at + 128 + 32 * h + 16 * i, qh + 4 * i);
        }
        panel_block *b = out + 4 * h;
        for (int k = 0; k < 8; k++) {
            b[0].q[k] = _mm512_or_si512(mask8(ql0[k], 0x0F), mask8(_mm512_slli_epi16(qh[k], 4), 0x30));
            b[1].q[k] = _mm512_or_si512(mask8(ql1[k], 0x0F), mask8(_mm512_slli_epi16(qh[k], 2), 0x30));
            b[2].q[k] = _mm512_or_si512(mask8(_mm512_srli_epi16(ql0[k], 4), 0x0F), mask8(qh[k], 0x30));
            b[3].q[k] = _mm512_or_si512(mask8(_mm512_srli_epi16(ql1[k], 4), 0x0F), mask8(_mm512_srli_epi16(qh[k], 2), 0x30));
        }
    }
    for (int j = 0; j < 8; j++) out[j].m = _mm512_setzero_ps();
}

// Blocks of the panel's rows (rows[i]; rows past the matrix repeat the first, and only the live
// lanes are stored) in the panel layout, `units` 32-value blocks. The small per-block fields
// (scales, minimums) are gathered at idx[i] from the first row.
__attribute__((target(TARGET))) static void load_panel(int type, const type_layout *l, const uint8_t *const rows[PANEL],
    int units, __m512i idx, __mmask16 live, panel_block *panel) {
    const int per_block = l->block_values / 32;
    for (int b = 0; b < units / per_block; b++) {
        const size_t at = (size_t)b * l->block_bytes;
        const uint8_t *p = rows[0] + at;
        panel_block *out = panel + (size_t)b * per_block;
        switch (type) {
        case 2:  // Q4_0: d, 16 nibble bytes
            out->d[0] = low_halves(gather(p, idx, live));
            out->d[1] = out->m = _mm512_setzero_ps();
            split_nibbles(rows, at + 2, out);
            break;
        case 6: {  // Q5_0: d, the fifth bits (bit j of a little-endian word for value j), 16 nibble bytes
            out->d[0] = low_halves(gather(p, idx, live));
            out->d[1] = out->m = _mm512_setzero_ps();
            split_nibbles(rows, at + 6, out);
            const __m512i high = gather(p + 2, idx, live);
            for (int k = 0; k < 8; k++) {
                // Bits 4k..4k+3 (values 4k..4k+3) to bit 4 of bytes 0..3: the multiply copies bit i
                // to bit 8i (bits 7i + i; the four shifted copies do not overlap).
                const __m512i four = _mm512_and_si512(_mm512_srli_epi32(high, 4 * k), _mm512_set1_epi32(0xF));
                const __m512i spread = _mm512_and_si512(_mm512_mullo_epi32(four, _mm512_set1_epi32(0x00204081)), _mm512_set1_epi32(0x01010101));
                out->q[k] = _mm512_or_si512(out->q[k], _mm512_slli_epi32(spread, 4));
            }
            break;
        }
        case 8: {  // Q8_0: d, 32 signed bytes
            out->d[0] = low_halves(gather(p, idx, live));
            out->d[1] = out->m = _mm512_setzero_ps();
            transpose_rows(rows, at + 2, out->q);
            transpose_rows(rows, at + 18, out->q + 4);
            for (int k = 0; k < 8; k++) out->q[k] = _mm512_xor_si512(out->q[k], _mm512_set1_epi8((char)0x80));
            break;
        }
        case 12: load_q4_k(rows, at, idx, live, out); break;
        case 14: load_q6_k(rows, at, idx, live, out); break;
        }
    }
}

// The panel against the `nt` tokens of one tile (a compile-time constant where this is inlined):
// one register accumulator per token, blocks added in order.
__attribute__((target(TARGET), always_inline)) static inline void tile(const panel_block *panel, const tile_block *xb, int units,
    int has_min, int halves, int nt, float *out, size_t out_stride, __mmask16 live) {
    __m512 acc[TILE];
    for (int j = 0; j < nt; j++) acc[j] = _mm512_setzero_ps();
    for (int u = 0; u < units; u++) {
        const panel_block *w = panel + u;
        const tile_block *a = xb + u;
#pragma clang loop unroll(full)
        for (int j = 0; j < nt; j++) {
            __m512i s[2];
            s[0] = _mm512_set1_epi32(a->start[0][j]);
            if (halves) s[1] = _mm512_set1_epi32(a->start[1][j]);
            for (int k = 0; k < 8; k++) {
                int32_t four;
                memcpy(&four, a->q[j] + 4 * k, sizeof four);
                const int h = halves && k >= 4;
                s[h] = _mm512_dpbusd_epi32(s[h], w->q[k], _mm512_set1_epi32(four));
            }
            const __m512 dx = _mm512_set1_ps(a->dx[j]);
            acc[j] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(s[0]), _mm512_mul_ps(w->d[0], dx), acc[j]);
            if (halves) acc[j] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(s[1]), _mm512_mul_ps(w->d[1], dx), acc[j]);
            if (has_min) acc[j] = _mm512_fmadd_ps(w->m, _mm512_set1_ps(a->sx[j]), acc[j]);
        }
    }
    for (int j = 0; j < nt; j++) _mm512_mask_storeu_ps(out + (size_t)j * out_stride, live, acc[j]);
}

// Every tile size and type family as its own instantiation, so the accumulators stay in registers.
__attribute__((target(TARGET))) static void run_tile(const panel_block *panel, const tile_block *xb, int units,
    const type_layout *l, int nt, float *out, size_t out_stride, __mmask16 live) {
#define TILE_CASE(n, min, halves) case n: tile(panel, xb, units, min, halves, n, out, out_stride, live); break;
#define TILE_CASES(min, halves) switch (nt) { \
    TILE_CASE(1, min, halves) TILE_CASE(2, min, halves) TILE_CASE(3, min, halves) TILE_CASE(4, min, halves) \
    TILE_CASE(5, min, halves) TILE_CASE(6, min, halves) TILE_CASE(7, min, halves) TILE_CASE(8, min, halves) }
    if (l->halves) TILE_CASES(0, 1)
    else if (l->has_min) TILE_CASES(1, 0)
    else TILE_CASES(0, 0)
#undef TILE_CASES
#undef TILE_CASE
}

// The activations packed tile by tile (tiles[tile * units + u]), with the sums' starting values:
// per half block with `halves`, else the whole block's in start[0].
__attribute__((target(TARGET))) static void pack_activations(const lk_activations *x, int offset, int halves, tile_block *tiles) {
    const int units = x->columns / 32;
    const __m256i flip = _mm256_set1_epi8((char)0x80);
    for (int t = 0; t < x->tokens; t++)
        for (int u = 0; u < units; u++) {
            tile_block *b = tiles + (size_t)(t / TILE) * units + u;
            const int j = t % TILE;
            const size_t block = (size_t)t * units + u;
            const __m256i v = _mm256_loadu_si256((const __m256i *)(x->qs + block * 32));
            _mm256_storeu_si256((__m256i *)b->q[j], v);
            b->dx[j] = x->scales[2 * block];
            b->sx[j] = x->scales[2 * block + 1];
            // Sums of (q + 128) as unsigned bytes, eight at a time, by sums of absolute differences from zero.
            const __m256i sad = _mm256_sad_epu8(_mm256_xor_si256(v, flip), _mm256_setzero_si256());
            const __m128i lo = _mm256_castsi256_si128(sad), hi = _mm256_extracti128_si256(sad, 1);
            const int64_t first = _mm_cvtsi128_si64(lo) + _mm_extract_epi64(lo, 1) - 16 * 128;
            const int64_t second = _mm_cvtsi128_si64(hi) + _mm_extract_epi64(hi, 1) - 16 * 128;
            b->start[0][j] = (int32_t)(-offset * (halves ? first : first + second));
            b->start[1][j] = (int32_t)(-offset * second);
        }
}

__attribute__((target(TARGET))) static void gemm(int type, const type_layout *l, const uint8_t *weights, size_t row_bytes,
    int row0, int row1, const lk_activations *x, float *out, size_t out_stride, panel_block *panel, tile_block *tiles) {
    const int units = x->columns / 32;
    pack_activations(x, l->offset, l->halves, tiles);
    const __m512i idx = _mm512_mullo_epi32(_mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                                           _mm512_set1_epi32((int)row_bytes));
    for (int r = row0; r < row1; r += PANEL) {
        const int n = row1 - r < PANEL ? row1 - r : PANEL;
        const __mmask16 live = (__mmask16)((1u << n) - 1);
        const uint8_t *rows[PANEL];
        for (int i = 0; i < PANEL; i++) rows[i] = weights + (size_t)(r + (i < n ? i : 0)) * row_bytes;
        load_panel(type, l, rows, units, idx, live, panel);
        for (int t0 = 0; t0 < x->tokens; t0 += TILE) {
            const int nt = x->tokens - t0 < TILE ? x->tokens - t0 : TILE;
            run_tile(panel, tiles + (size_t)(t0 / TILE) * units, units, l, nt, out + (size_t)t0 * out_stride + r, out_stride, live);
        }
    }
}

int lk_gemm(int type, const uint8_t *weights, size_t row_bytes, int row0, int row1, const lk_activations *x,
            float *out, size_t out_stride, void *scratch, size_t scratch_bytes) {
    type_layout l;
    if (layout_of(type, &l) != 0 || !gemm_cpu() || x->columns % l.block_values != 0 ||
        scratch_bytes < lk_gemm_scratch_bytes(x->columns, x->tokens)) return -1;
    if (row_bytes * (PANEL - 1) > INT32_MAX) return -1;  // gather offsets are 32-bit
    panel_block *panel = (panel_block *)(((uintptr_t)scratch + 63) & ~(uintptr_t)63);
    gemm(type, &l, weights, row_bytes, row0, row1, x, out, out_stride, panel, (tile_block *)(panel + x->columns / 32));
    return 0;
}

#else
int lk_gemm_supports(int type) { (void)type; return 0; }
size_t lk_gemm_scratch_bytes(int columns, int tokens) { (void)columns; (void)tokens; return 0; }
int lk_gemm(int type, const uint8_t *weights, size_t row_bytes, int row0, int row1, const lk_activations *x,
            float *out, size_t out_stride, void *scratch, size_t scratch_bytes) {
    (void)type; (void)weights; (void)row_bytes; (void)row0; (void)row1; (void)x; (void)out; (void)out_stride;
    (void)scratch; (void)scratch_bytes;
    return -1;
}
#endif
