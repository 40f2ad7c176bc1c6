// The AVX-512 VNNI panel kernels (the API is in include/llama_gemm.h): the batched (prompt)
// product, and the one-token (generation) product on weights packed once at load time.
//
// The one-token kernels of kernels_x86.h produce eight partial sums per block and per (row,
// token) and must add them across lanes, as llama.cpp's vec_dot does. Here a 512-bit register
// holds 16 rows instead: lane i is row i, so one vpdpbusd multiplies four values of 16 rows by the
// same four activation bytes (broadcast from memory) and each lane ends the block holding its
// row's exact integer sum. Per 32-value block and token that is 8 vpdpbusd for 16 rows.
//
// The register layout is reached in two steps, each written once:
//   pack:   16 rows of the file's blocks -> a packed panel: the rows' bytes transposed into
//           64-byte registers (lane i = row i), their small fields (fifth bits, 6-bit scales)
//           as bytes, their half floats side by side. Same size as the rows (K-quants a little
//           more). lk_pack does it once per matrix; lk_gemm on the file's rows does it per call.
//   expand: a packed panel's block -> unsigned bytes u = w + offset per lane and float scales
//           (Q4_0: nibble q = w + 8; Q5_0: q = w + 16; Q3_K: q = w + 4; Q6_K: q = w + 32; Q8_0 and
//           IQ4_NL: w + 128; Q4_1, Q5_1, Q2_K, Q4_K, Q5_K: q itself, the minimum being a separate
//           term). Q8_0 is packed as u already, so the batched product reads its packed panels
//           directly (no expanded copy: 5% of a sentence encoder's pass, `make bench-embed`).
// A sum starts at -offset * (sum of the activations it covers), which is exact.
//
// Summation orders. The batched kernel and the K-quants' one-token kernel add each block's exact
// integer sum (two for Q2_K, Q3_K and Q6_K, one per 16 values) in float, block after block. The 32-value types'
// one-token kernel keeps llama.cpp's eight lanes per row (lane k = values 4k..4k+3 of each block,
// exactly vpdpbusd k's sum) and adds them as kernels_x86.h's hsum does, so it gives lk_matmul's
// results bit for bit.
//
// Field offsets follow ggml's block_* structs (lk_blocks.h).
#include "llama_gemm.h"
#include "lk_blocks.h"

#if defined(__x86_64__)
#include <immintrin.h>
#include <string.h>

#define TARGET "avx2,fma,f16c,avx512f,avx512bw,avx512vl,avx512vnni"
// Rows per panel (one per 32-bit lane of a 512-bit register).
#define PANEL 16
// Tokens whose accumulators stay in registers while one panel block is read.
#define TILE 8
// How far ahead of the registers being read the one-token kernel prefetches (bytes): the
// hardware prefetcher alone leaves it waiting on memory (measured with `make bench-llama`).
#define PREFETCH 4096

// One 32-value block of a 16-row panel, expanded: q[k] lane i = row i's values 4k..4k+3 as
// unsigned bytes; d[0] the rows' scales (d[1] the second 16 values' scales where they differ:
// Q2_K, Q3_K, Q6_K), m[0] their minimums (m[1] the second 16 values', Q2_K; zero otherwise).
// 768 bytes, 64-byte aligned.
typedef struct {
    __m512i q[8];
    __m512 d[2], m[2];
} panel_block;

// One 32-value block of the activations of a tile of TILE tokens, packed so that the tile loop
// reads everything at fixed offsets from one pointer: token j's 32 quants, scale d, sum s, the
// starting values of its integer sums (-offset * the activations' sums), and d times each half's
// sum (Q2_K's minimums are per 16 values).
typedef struct {
    int8_t q[TILE][32];
    float dx[TILE], sx[TILE];
    int32_t start[2][TILE];
    float half_sx[2][TILE];
} tile_block;

// A type's file block and its packed form. A packed panel holds, for each group of `values`
// values (one block, or a K-quant superblock) in order, `regs` bytes of registers, `aux` bytes of
// small fields and `halves16` bytes of half floats: one stream, read front to back (with the half
// floats in a separate stream, the one-token kernel waited on them; measured).
typedef struct {
    int block_bytes;   // bytes of one block of the file's layout
    int values;        // values in it: 32, or 256 (K-quants)
    int regs, aux, halves16;
    int offset;        // subtracted from every unsigned weight byte
    int has_min;       // w = d*q + m (the activation block's s = dx * sum(qx) carries m)
    int halves;        // each 16 values of a 32-value block have their own scale
} type_layout;

static int layout_of(int type, type_layout *l) {
    switch (type) {
    case 2: *l = (type_layout){LK_Q4_0_BYTES, 32, 256, 0, 32, 8, 0, 0}; return 0;         // Q4_0: nibbles; d
    case 3: *l = (type_layout){LK_Q4_1_BYTES, 32, 256, 0, 64, 0, 1, 0}; return 0;         // Q4_1: nibbles; d, m
    case 6: *l = (type_layout){LK_Q5_0_BYTES, 32, 256, 64, 32, 16, 0, 0}; return 0;       // Q5_0: nibbles; fifth bits; d
    case 7: *l = (type_layout){LK_Q5_1_BYTES, 32, 256, 64, 64, 0, 1, 0}; return 0;        // Q5_1: nibbles; fifth bits; d, m
    case 8: *l = (type_layout){LK_Q8_0_BYTES, 32, 512, 0, 32, 128, 0, 0}; return 0;       // Q8_0: bytes; d
    case 20: *l = (type_layout){LK_IQ4_NL_BYTES, 32, 256, 0, 32, 128, 0, 0}; return 0;    // IQ4_NL: nibbles; d
    case 10: *l = (type_layout){LK_Q2_K_BYTES, 256, 1024, 512, 64, 0, 1, 1}; return 0;    // Q2_K: 2-bit values; scales, mins; d, dmin
    case 11: *l = (type_layout){LK_Q3_K_BYTES, 256, 1536, 256, 32, 4, 0, 1}; return 0;    // Q3_K: 2-bit values, high bits; scales; d
    case 12: *l = (type_layout){LK_Q4_K_BYTES, 256, 2048, 256, 64, 0, 1, 0}; return 0;    // Q4_K: nibbles; scales, mins; d, dmin
    case 13: *l = (type_layout){LK_Q5_K_BYTES, 256, 2560, 256, 64, 0, 1, 0}; return 0;    // Q5_K: nibbles, fifth bits; scales, mins; d, dmin
    case 14: *l = (type_layout){LK_Q6_K_BYTES, 256, 3072, 256, 32, 32, 0, 1}; return 0;   // Q6_K: low, high bits; scales; d
    default: return -1;
    }
}

static inline size_t panel_bytes(const type_layout *l, int columns) {
    return (size_t)(columns / l->values) * (size_t)(l->regs + l->aux + l->halves16);
}

static int vnni512(void) {
    static int cached = -1;  // a benign race: every thread computes the same value
    if (cached < 0) {
        __builtin_cpu_init();
        cached = (lk_cpu_features() & LK_AVX512VNNI) && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
    }
    return cached;
}

// Not Q4_1 or IQ4_NL: the default model (Q4_1) keeps llama.cpp's summation order over prompts
// (see llama_gemm.h).
int lk_gemm_supports(int type) {
    return type == 2 || type == 6 || type == 7 || type == 8 || (type >= 10 && type <= 14);
}

int lk_packed_supports(int type) {
    type_layout l;
    return vnni512() && layout_of(type, &l) == 0;
}

size_t lk_packed_bytes(int type, int rows, int columns) {
    type_layout l;
    if (layout_of(type, &l) != 0 || columns % l.values != 0) return 0;
    return (size_t)((rows + PANEL - 1) / PANEL) * panel_bytes(&l, columns);
}

size_t lk_gemm_scratch_bytes(int columns, int tokens) {
    const size_t units = (size_t)(columns / 32);
    const size_t tiles = ((size_t)tokens + TILE - 1) / TILE;
    // An expanded panel, the activations' tiles, and one packed panel (at most 17 bytes per
    // column: Q8_0's 544 per 32).
    return 128 + units * sizeof(panel_block) + tiles * units * sizeof(tile_block) + 17 * (size_t)columns;
}

__attribute__((target(TARGET), always_inline)) static inline __m512i load(const uint8_t *p) {
    return _mm512_loadu_si512((const void *)p);
}

// ---- pack: the file's rows -> a packed panel ----

// Dwords at base + idx[i] for the live rows (others zero).
__attribute__((target(TARGET), always_inline)) static inline __m512i gather(const uint8_t *base, __m512i idx, __mmask16 live) {
    return _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), live, idx, base, 1);
}

// Byte `i` of every lane, unsigned (as int32 lanes).
__attribute__((target(TARGET), always_inline)) static inline __m512i byte_of(__m512i v, int i) {
    return _mm512_and_si512(_mm512_srli_epi32(v, 8 * i), _mm512_set1_epi32(0xFF));
}

__attribute__((target(TARGET), always_inline)) static inline __m512i mask8(__m512i v, int m) {
    return _mm512_and_si512(v, _mm512_set1_epi8((char)m));
}

// The low (or high) 16 bits of every lane, stored as 16 half floats.
__attribute__((target(TARGET), always_inline)) static inline void store_low_halves(uint8_t *dst, __m512i v) {
    _mm256_storeu_si256((__m256i *)dst, _mm512_cvtepi32_epi16(v));
}
__attribute__((target(TARGET), always_inline)) static inline void store_high_halves(uint8_t *dst, __m512i v) {
    store_low_halves(dst, _mm512_srli_epi32(v, 16));
}

// 16 bytes at offset `at` of each of the 16 rows, transposed and stored as 4 registers: register
// k lane i = row i's dword k. Plain loads and in-lane shuffles (gathers cost several times more on
// some cores): a[g] holds rows g, 4 + g, 8 + g, 12 + g in its four 128-bit lanes, and a 4x4 dword
// transpose within the lanes puts row 4L + g at dword 4L + g.
__attribute__((target(TARGET), always_inline)) static inline void transpose_rows(const uint8_t *const rows[PANEL], size_t at,
    uint8_t *dst) {
    __m512i a[4];
    for (int g = 0; g < 4; g++) {
        __m512i v = _mm512_castsi128_si512(_mm_loadu_si128((const __m128i *)(rows[g] + at)));
        v = _mm512_inserti32x4(v, _mm_loadu_si128((const __m128i *)(rows[4 + g] + at)), 1);
        v = _mm512_inserti32x4(v, _mm_loadu_si128((const __m128i *)(rows[8 + g] + at)), 2);
        a[g] = _mm512_inserti32x4(v, _mm_loadu_si128((const __m128i *)(rows[12 + g] + at)), 3);
    }
    const __m512i t0 = _mm512_unpacklo_epi32(a[0], a[1]), t1 = _mm512_unpackhi_epi32(a[0], a[1]);
    const __m512i t2 = _mm512_unpacklo_epi32(a[2], a[3]), t3 = _mm512_unpackhi_epi32(a[2], a[3]);
    _mm512_storeu_si512(dst, _mm512_unpacklo_epi64(t0, t2));
    _mm512_storeu_si512(dst + 64, _mm512_unpackhi_epi64(t0, t2));
    _mm512_storeu_si512(dst + 128, _mm512_unpacklo_epi64(t1, t3));
    _mm512_storeu_si512(dst + 192, _mm512_unpackhi_epi64(t1, t3));
}

// One group of the panel's rows (rows[i]; rows past the matrix repeat the first, and their lanes
// are zero in the gathered fields) at byte `at` of each row, into the packed panel's group g.
__attribute__((target(TARGET), always_inline)) static inline void pack_group(int type, const type_layout *l,
    const uint8_t *const rows[PANEL], size_t at, __m512i idx, __mmask16 live, uint8_t *regs, uint8_t *aux, uint8_t *halves) {
    const uint8_t *p = rows[0] + at;
    switch (type) {
    case 2:   // Q4_0: d, 16 nibble bytes (byte j: value j low, value j + 16 high)
    case 20:  // IQ4_NL: the same, the nibbles indexing the table
        store_low_halves(halves, gather(p + LK_Q4_0_D, idx, live));
        transpose_rows(rows, at + LK_Q4_0_QS, regs);
        break;
    case 3: {  // Q4_1: d and m side by side, nibbles
        const __m512i dm = gather(p + LK_Q4_1_D, idx, live);
        store_low_halves(halves, dm);
        store_high_halves(halves + 32, dm);
        transpose_rows(rows, at + LK_Q4_1_QS, regs);
        break;
    }
    case 6:  // Q5_0: d, the fifth bits (bit j of a little-endian word for value j), nibbles
        store_low_halves(halves, gather(p + LK_Q5_0_D, idx, live));
        _mm512_storeu_si512(aux, gather(p + LK_Q5_0_QH, idx, live));
        transpose_rows(rows, at + LK_Q5_0_QS, regs);
        break;
    case 7: {  // Q5_1: d, m, fifth bits, nibbles
        const __m512i dm = gather(p + LK_Q5_1_D, idx, live);
        store_low_halves(halves, dm);
        store_high_halves(halves + 32, dm);
        _mm512_storeu_si512(aux, gather(p + LK_Q5_1_QH, idx, live));
        transpose_rows(rows, at + LK_Q5_1_QS, regs);
        break;
    }
    case 8:  // Q8_0: d, 32 signed bytes, stored as the unsigned u = w + 128 the kernels read
        store_low_halves(halves, gather(p + LK_Q8_0_D, idx, live));
        transpose_rows(rows, at + LK_Q8_0_QS, regs);
        transpose_rows(rows, at + LK_Q8_0_QS + 16, regs + 256);
        for (int k = 0; k < 8; k++) _mm512_storeu_si512(regs + 64 * k, _mm512_xor_si512(load(regs + 64 * k), _mm512_set1_epi8((char)0x80)));
        break;
    case 10: {  // Q2_K: d, dmin, 16 bytes of 4-bit scales (low) and minimums (high), 64 bytes of 2-bit values
        const __m512i dd = gather(p + LK_Q2_K_D, idx, live);  // d and dmin side by side
        store_low_halves(halves, dd);
        store_high_halves(halves + 32, dd);
        for (int k = 0; k < 4; k++) {
            const __m512i sc = gather(p + LK_Q2_K_SCALES + 4 * k, idx, live);
            for (int b = 0; b < 4; b++) {
                const __m512i s = byte_of(sc, b);
                _mm_storeu_si128((__m128i *)(aux + 16 * (4 * k + b)), _mm512_cvtepi32_epi8(_mm512_and_si512(s, _mm512_set1_epi32(15))));
                _mm_storeu_si128((__m128i *)(aux + 256 + 16 * (4 * k + b)), _mm512_cvtepi32_epi8(_mm512_srli_epi32(s, 4)));
            }
        }
        for (int i = 0; i < 4; i++) transpose_rows(rows, at + LK_Q2_K_QS + 16 * i, regs + 256 * i);
        break;
    }
    case 11: {  // Q3_K: 32 bytes of high bits, 64 of 2-bit values, 12 of 6-bit scales, d
        // d is the block's last two bytes: read the dword ending there, not one past the block.
        store_high_halves(halves, gather(p + LK_Q3_K_D - 2, idx, live));
        const uint8_t *s = p + LK_Q3_K_SCALES;
        const __m512i low_bytes[2] = {gather(s, idx, live), gather(s + 4, idx, live)}, high_bytes = gather(s + 8, idx, live);
        for (int i = 0; i < 16; i++) {  // scale i, less 32, as a signed byte
            const __m512i b = byte_of(low_bytes[i % 8 / 4], i % 4);
            const __m512i low = i < 8 ? _mm512_and_si512(b, _mm512_set1_epi32(15)) : _mm512_srli_epi32(b, 4);
            const __m512i high = _mm512_and_si512(_mm512_srli_epi32(byte_of(high_bytes, i % 4), 2 * (i / 4)), _mm512_set1_epi32(3));
            const __m512i sc = _mm512_sub_epi32(_mm512_or_si512(low, _mm512_slli_epi32(high, 4)), _mm512_set1_epi32(32));
            _mm_storeu_si128((__m128i *)(aux + 16 * i), _mm512_cvtepi32_epi8(sc));
        }
        for (int i = 0; i < 4; i++) transpose_rows(rows, at + LK_Q3_K_QS + 16 * i, regs + 256 * i);
        for (int i = 0; i < 2; i++) transpose_rows(rows, at + LK_Q3_K_HMASK + 16 * i, regs + 1024 + 256 * i);
        break;
    }
    case 12:    // Q4_K: d, dmin, 12 bytes of 6-bit scales and minimums, 128 nibble bytes
    case 13: {  // Q5_K: the same fields (at the same offsets), then 32 bytes of fifth bits
        _Static_assert(LK_Q5_K_D == LK_Q4_K_D && LK_Q5_K_DMIN == LK_Q4_K_DMIN && LK_Q5_K_SCALES == LK_Q4_K_SCALES, "Q5_K's fields as Q4_K's");
        const __m512i dd = gather(p + LK_Q4_K_D, idx, live);  // d and dmin side by side
        store_low_halves(halves, dd);
        store_high_halves(halves + 32, dd);
        const uint8_t *s = p + LK_Q4_K_SCALES;
        const __m512i s0 = gather(s, idx, live), s1 = gather(s + 4, idx, live), s2 = gather(s + 8, idx, live);
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
            _mm_storeu_si128((__m128i *)(aux + 16 * j), _mm512_cvtepi32_epi8(sc));
            _mm_storeu_si128((__m128i *)(aux + 128 + 16 * j), _mm512_cvtepi32_epi8(mn));
        }
        // Blocks 2g and 2g + 1 are the low and high nibbles of bytes 32g..32g+31.
        const size_t qs = type == 13 ? LK_Q5_K_QS : LK_Q4_K_QS;
        for (int g = 0; g < 4; g++) {
            transpose_rows(rows, at + qs + 32 * g, regs + 512 * g);
            transpose_rows(rows, at + qs + 32 * g + 16, regs + 512 * g + 256);
        }
        if (type == 13)
            for (int i = 0; i < 2; i++) transpose_rows(rows, at + LK_Q5_K_QH + 16 * i, regs + 2048 + 256 * i);
        break;
    }
    case 14: {  // Q6_K: 128 bytes of low nibbles, 64 of high 2-bit pairs, 16 signed scales, d
        // d is the block's last two bytes, as in Q3_K: the dword ending there, so a matrix's last
        // block (the file's last bytes, perhaps) is never read past.
        store_high_halves(halves, gather(p + LK_Q6_K_D - 2, idx, live));
        for (int k = 0; k < 4; k++) {
            const __m512i sc = gather(p + LK_Q6_K_SCALES + 4 * k, idx, live);
            for (int b = 0; b < 4; b++)
                _mm_storeu_si128((__m128i *)(aux + 16 * (4 * k + b)), _mm512_cvtepi32_epi8(byte_of(sc, b)));
        }
        // Each half h of 128 values: ql bytes 64h..64h+31, 64h+32..64h+63, qh bytes 32h..32h+31.
        for (int h = 0; h < 2; h++) {
            uint8_t *r = regs + 1536 * h;
            for (int i = 0; i < 2; i++) {
                transpose_rows(rows, at + LK_Q6_K_QL + 64 * h + 16 * i, r + 256 * i);
                transpose_rows(rows, at + LK_Q6_K_QL + 64 * h + 32 + 16 * i, r + 512 + 256 * i);
                transpose_rows(rows, at + LK_Q6_K_QH + 32 * h + 16 * i, r + 1024 + 256 * i);
            }
        }
        break;
    }
    }
}

__attribute__((target(TARGET))) static void pack_panel(int type, const type_layout *l, const uint8_t *weights, size_t row_bytes,
    int row, int rows_total, int columns, uint8_t *dst) {
    const int n = rows_total - row < PANEL ? rows_total - row : PANEL;
    const __mmask16 live = (__mmask16)((1u << n) - 1);
    const __m512i idx = _mm512_mullo_epi32(_mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                                           _mm512_set1_epi32((int)row_bytes));
    const uint8_t *rows[PANEL];
    for (int i = 0; i < PANEL; i++) rows[i] = weights + (size_t)(row + (i < n ? i : 0)) * row_bytes;
    const size_t group_bytes = (size_t)(l->regs + l->aux + l->halves16);
    for (int g = 0; g < columns / l->values; g++) {
        uint8_t *regs = dst + (size_t)g * group_bytes;
        pack_group(type, l, rows, (size_t)g * l->block_bytes, idx, live, regs, regs + l->regs, regs + l->regs + l->aux);
    }
}

int lk_pack(int type, const uint8_t *weights, size_t row_bytes, int rows, int columns, uint8_t *packed) {
    type_layout l;
    if (!lk_packed_supports(type) || layout_of(type, &l) != 0 || columns % l.values != 0) return -1;
    if (row_bytes * (PANEL - 1) > INT32_MAX) return -1;  // gather offsets are 32-bit
    const size_t bytes = panel_bytes(&l, columns);
    for (int r = 0; r < rows; r += PANEL) pack_panel(type, &l, weights, row_bytes, r, rows, columns, packed + (size_t)(r / PANEL) * bytes);
    return 0;
}

// ---- expand: a packed panel's 32-value block -> unsigned bytes and float scales ----

__attribute__((target(TARGET), always_inline)) static inline __m512 halves_at(const uint8_t *p) {
    return _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)p));
}

// Block `unit` of a packed panel: w->q, w->d, w->m as panel_block describes.
__attribute__((target(TARGET), always_inline)) static inline void expand(int type, const type_layout *l, const uint8_t *panel,
    int unit, panel_block *w) {
    const int g = unit * 32 / l->values, j = unit % (l->values / 32);
    const uint8_t *regs = panel + (size_t)g * (l->regs + l->aux + l->halves16);
    const uint8_t *aux = regs + l->regs, *halves = aux + l->aux;
    w->d[1] = w->m[0] = w->m[1] = _mm512_setzero_ps();
    switch (type) {
    case 2: case 3: case 6: case 7: case 20:
        for (int k = 0; k < 4; k++) {
            const __m512i n = load(regs + 64 * k);
            w->q[k] = mask8(n, 0x0F);
            w->q[4 + k] = mask8(_mm512_srli_epi16(n, 4), 0x0F);
        }
        if (type == 6 || type == 7) {
            // Fifth bits 4k..4k+3 (values 4k..4k+3) to bit 4 of bytes 0..3, by a 16-entry table.
            const __m512i spread = _mm512_setr_epi32(0x00000000, 0x00000010, 0x00001000, 0x00001010, 0x00100000, 0x00100010,
                0x00101000, 0x00101010, 0x10000000, 0x10000010, 0x10001000, 0x10001010, 0x10100000, 0x10100010, 0x10101000, 0x10101010);
            const __m512i qh = load(aux);
            for (int k = 0; k < 8; k++)
                w->q[k] = _mm512_or_si512(w->q[k], _mm512_permutexvar_epi32(_mm512_srli_epi32(qh, 4 * k), spread));
        }
        if (type == 20) {
            const __m512i table = _mm512_broadcast_i32x4(_mm_add_epi8(_mm_loadu_si128((const __m128i *)lk_iq4_nl_table), _mm_set1_epi8((char)0x80)));
            for (int k = 0; k < 8; k++) w->q[k] = _mm512_shuffle_epi8(table, w->q[k]);
        }
        w->d[0] = halves_at(halves);
        if (l->has_min) w->m[0] = halves_at(halves + 32);
        break;
    case 8:  // packed as u already
        for (int k = 0; k < 8; k++) w->q[k] = load(regs + 64 * k);
        w->d[0] = halves_at(halves);
        break;
    case 10: case 11: {  // block j = 4h + i: bits 2i, 2i + 1 of qs bytes 32h..32h+31
        const uint8_t *r = regs + 512 * (j / 4);
        for (int k = 0; k < 8; k++) w->q[k] = mask8(_mm512_srli_epi16(load(r + 64 * k), 2 * (j % 4)), 3);
        const __m512 d = halves_at(halves);
        if (type == 10) {  // w = d*sc*q - dmin*mn, per 16 values
            const __m512 dmin = halves_at(halves + 32);
            for (int h = 0; h < 2; h++) {
                const __m512 sc = _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(aux + 16 * (2 * j + h)))));
                const __m512 mn = _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(aux + 256 + 16 * (2 * j + h)))));
                w->d[h] = _mm512_mul_ps(d, sc);
                w->m[h] = _mm512_sub_ps(_mm512_setzero_ps(), _mm512_mul_ps(dmin, mn));
            }
        } else {  // w = d*sc*(q - 4), q's third bit bit j of the high-bit bytes
            for (int k = 0; k < 8; k++) {
                const __mmask64 high = _mm512_test_epi8_mask(load(regs + 1024 + 64 * k), _mm512_set1_epi8((char)(1 << j)));
                w->q[k] = _mm512_mask_add_epi8(w->q[k], high, w->q[k], _mm512_set1_epi8(4));
            }
            for (int h = 0; h < 2; h++)
                w->d[h] = _mm512_mul_ps(d, _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(_mm_loadu_si128((const __m128i *)(aux + 16 * (2 * j + h))))));
        }
        break;
    }
    case 12: case 13: {  // w = d*sc*q - dmin*mn; Q5_K: q's fifth bit bit j of the fifth-bit bytes
        const uint8_t *r = regs + 512 * (j / 2);
        for (int k = 0; k < 8; k++) w->q[k] = j % 2 ? mask8(_mm512_srli_epi16(load(r + 64 * k), 4), 0x0F) : mask8(load(r + 64 * k), 0x0F);
        if (type == 13)
            for (int k = 0; k < 8; k++) {
                const __mmask64 high = _mm512_test_epi8_mask(load(regs + 2048 + 64 * k), _mm512_set1_epi8((char)(1 << j)));
                w->q[k] = _mm512_mask_add_epi8(w->q[k], high, w->q[k], _mm512_set1_epi8(16));
            }
        const __m512 sc = _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(aux + 16 * j))));
        const __m512 mn = _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(aux + 128 + 16 * j))));
        w->d[0] = _mm512_mul_ps(halves_at(halves), sc);
        w->m[0] = _mm512_sub_ps(_mm512_setzero_ps(), _mm512_mul_ps(halves_at(halves + 32), mn));
        break;
    }
    case 14: {  // block j = 4h + i: low (i < 2) or high nibbles of ql0 / ql1, bits 2i, 2i + 1 of qh; w = d*sc*(q - 32)
        const uint8_t *r = regs + 1536 * (j / 4);
        const int i = j % 4;
        for (int k = 0; k < 8; k++) {
            const __m512i ql = load(r + (i % 2 ? 512 : 0) + 64 * k), qh = load(r + 1024 + 64 * k);
            const __m512i low = i < 2 ? mask8(ql, 0x0F) : mask8(_mm512_srli_epi16(ql, 4), 0x0F);
            const __m512i high = i == 0 ? _mm512_slli_epi16(qh, 4) : i == 1 ? _mm512_slli_epi16(qh, 2) : i == 2 ? qh : _mm512_srli_epi16(qh, 2);
            w->q[k] = _mm512_or_si512(low, mask8(high, 0x30));
        }
        const __m512 d = halves_at(halves);
        for (int h = 0; h < 2; h++)
            w->d[h] = _mm512_mul_ps(d, _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(_mm_loadu_si128((const __m128i *)(aux + 16 * (2 * j + h))))));
        break;
    }
    }
}

// The panel against the `nt` tokens of one tile (a compile-time constant where this is inlined):
// one register accumulator per token, blocks added in order.
// With `direct` (Q8_0, whose packed registers hold u already), the registers and scales are read
// from the packed panel itself, not from an expanded copy: each unit's group is `group` bytes,
// its scales after `regs` bytes of registers (type_layout).
__attribute__((target(TARGET), always_inline)) static inline void tile(const panel_block *panel, const uint8_t *direct,
    size_t group, size_t regs, const tile_block *xb, int units, int has_min, int halves, int nt, float *out, size_t out_stride,
    __mmask16 live, const char *ahead, const char *ahead_end, int ahead_lines) {
    __m512 acc[TILE];
    for (int j = 0; j < nt; j++) acc[j] = _mm512_setzero_ps();
    for (int u = 0; u < units; u++) {
        for (int i = 0; i < ahead_lines && ahead < ahead_end; i++, ahead += 64) _mm_prefetch(ahead, _MM_HINT_T1);
        panel_block direct_block;
        const panel_block *w = panel + u;
        if (direct) {
            const uint8_t *g = direct + (size_t)u * group;
            for (int k = 0; k < 8; k++) direct_block.q[k] = load(g + 64 * k);
            direct_block.d[0] = halves_at(g + regs);
            w = &direct_block;
        }
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
            if (has_min && halves) {
                acc[j] = _mm512_fmadd_ps(w->m[0], _mm512_set1_ps(a->half_sx[0][j]), acc[j]);
                acc[j] = _mm512_fmadd_ps(w->m[1], _mm512_set1_ps(a->half_sx[1][j]), acc[j]);
            } else if (has_min) {
                acc[j] = _mm512_fmadd_ps(w->m[0], _mm512_set1_ps(a->sx[j]), acc[j]);
            }
        }
    }
    for (int j = 0; j < nt; j++) _mm512_mask_storeu_ps(out + (size_t)j * out_stride, live, acc[j]);
}

// Every tile size and type family as its own instantiation, so the accumulators stay in registers.
__attribute__((target(TARGET))) static void run_tile(const panel_block *panel, const uint8_t *direct, const tile_block *xb, int units,
    const type_layout *l, int nt, float *out, size_t out_stride, __mmask16 live, const char *ahead, const char *ahead_end, int ahead_lines) {
    const size_t group = (size_t)(l->regs + l->aux + l->halves16), regs = (size_t)l->regs;
#define TILE_CASE(n, min, halves) \
    case n: tile(panel, NULL, 0, 0, xb, units, min, halves, n, out, out_stride, live, ahead, ahead_end, ahead_lines); break;
#define DIRECT_CASE(n) case n: tile(NULL, direct, group, regs, xb, units, 0, 0, n, out, out_stride, live, ahead, ahead_end, ahead_lines); break;
    if (direct) {
        switch (nt) { DIRECT_CASE(1) DIRECT_CASE(2) DIRECT_CASE(3) DIRECT_CASE(4) DIRECT_CASE(5) DIRECT_CASE(6) DIRECT_CASE(7) DIRECT_CASE(8) }
        return;
    }
#define TILE_CASES(min, halves) switch (nt) { \
    TILE_CASE(1, min, halves) TILE_CASE(2, min, halves) TILE_CASE(3, min, halves) TILE_CASE(4, min, halves) \
    TILE_CASE(5, min, halves) TILE_CASE(6, min, halves) TILE_CASE(7, min, halves) TILE_CASE(8, min, halves) }
    if (l->halves && l->has_min) TILE_CASES(1, 1)
    else if (l->halves) TILE_CASES(0, 1)
    else if (l->has_min) TILE_CASES(1, 0)
    else TILE_CASES(0, 0)
#undef TILE_CASES
#undef TILE_CASE
#undef DIRECT_CASE
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
            b->half_sx[0][j] = b->dx[j] * (float)first;
            b->half_sx[1][j] = b->dx[j] * (float)second;
        }
}

// The product over prompts: every 16-row panel expanded once into `expanded` (from `packed`, or
// from the file's rows through `panel`), then run against every tile of tokens (`tiles`, packed
// here unless `tiles_ready`).
__attribute__((target(TARGET))) static void gemm(int type, const type_layout *l, const uint8_t *weights, size_t row_bytes,
    const uint8_t *packed, int rows_total, int row0, int row1, const lk_activations *x, float *out, size_t out_stride,
    panel_block *expanded, const tile_block *tiles, int tiles_ready, uint8_t *panel) {
    const int units = x->columns / 32;
    const size_t bytes = panel_bytes(l, x->columns);
    if (!tiles_ready) pack_activations(x, l->offset, l->halves, (tile_block *)tiles);
    for (int p = row0 / PANEL; p * PANEL < row1; p++) {
        const uint8_t *source = packed ? packed + (size_t)p * bytes : panel;
        if (!packed) pack_panel(type, l, weights, row_bytes, p * PANEL, rows_total, x->columns, panel);
        const uint8_t *direct = packed && type == 8 ? source : NULL;
        if (!direct)
            for (int u = 0; u < units; u++) expand(type, l, source, u, expanded + u);
        // Lanes of rows in [row0, row1) only: a thread's range may cut a panel.
        const int first = p * PANEL < row0 ? row0 - p * PANEL : 0;
        const int end = row1 - p * PANEL < PANEL ? row1 - p * PANEL : PANEL;
        const __mmask16 live = (__mmask16)(((1u << end) - 1) & ~((1u << first) - 1));
        // The next packed panel is prefetched into L2 a few lines per unit across this panel's
        // tiles, so its read from memory overlaps the products (a pass reads every matrix once,
        // and without this the panel's expansion waited on memory: EmbeddingGemma at 1 thread
        // 30 -> 37 sentences/s, `make bench-embed`; all at once, or during the expansion, did not pay).
        const int tile_count = (x->tokens + TILE - 1) / TILE;
        const int lines = (int)((bytes + 63) / 64), per_tile = (lines + tile_count - 1) / tile_count;
        const int per_unit = (per_tile + units - 1) / units;
        const char *next = packed && (p + 1) * PANEL < row1 ? (const char *)packed + (size_t)(p + 1) * bytes : NULL;
        for (int t0 = 0; t0 < x->tokens; t0 += TILE) {
            const int nt = x->tokens - t0 < TILE ? x->tokens - t0 : TILE;
            const char *ahead = next ? next + (size_t)(t0 / TILE) * per_tile * 64 : NULL;
            const char *ahead_end = next ? (ahead + (size_t)per_tile * 64 < next + bytes ? ahead + (size_t)per_tile * 64 : next + bytes) : NULL;
            run_tile(expanded, direct, tiles + (size_t)(t0 / TILE) * units, units, l, nt, out + (size_t)t0 * out_stride + (size_t)p * PANEL,
                     out_stride, live, ahead, ahead_end, per_unit);
        }
    }
}

// Packed activation tiles begin with what they were packed for (lk_gemm_pack_tiles).
typedef struct {
    int offset, halves, tokens, columns;
    const int8_t *qs;
} tiles_header;

static inline tiles_header *tiles_header_at(void *tiles) { return (tiles_header *)(((uintptr_t)tiles + 63) & ~(uintptr_t)63); }
static inline tile_block *tiles_after(tiles_header *h) { return (tile_block *)((uint8_t *)h + 64); }

static int gemm_entry(int type, const uint8_t *weights, size_t row_bytes, const uint8_t *packed, int row0, int row1,
    const lk_activations *x, const void *ready_tiles, float *out, size_t out_stride, void *scratch, size_t scratch_bytes) {
    type_layout l;
    if (!lk_gemm_supports(type) || layout_of(type, &l) != 0 || !vnni512() || x->columns % l.values != 0 ||
        scratch_bytes < lk_gemm_scratch_bytes(x->columns, x->tokens)) return -1;
    if (!packed && row_bytes * (PANEL - 1) > INT32_MAX) return -1;  // gather offsets are 32-bit
    const int units = x->columns / 32;
    panel_block *expanded = (panel_block *)(((uintptr_t)scratch + 63) & ~(uintptr_t)63);
    tile_block *tiles = (tile_block *)(expanded + units);
    uint8_t *panel = (uint8_t *)(((uintptr_t)(tiles + (size_t)((x->tokens + TILE - 1) / TILE) * units) + 63) & ~(uintptr_t)63);
    if (ready_tiles) {
        tiles_header *h = tiles_header_at((void *)ready_tiles);
        if (h->offset != l.offset || h->halves != l.halves || h->tokens != x->tokens || h->columns != x->columns || h->qs != x->qs)
            return -1;
        tiles = tiles_after(h);
    }
    gemm(type, &l, weights, row_bytes, packed, row1, row0, row1, x, out, out_stride, expanded, tiles, ready_tiles != NULL, panel);
    return 0;
}

size_t lk_gemm_tiles_bytes(int columns, int tokens) {
    return 128 + ((size_t)tokens + TILE - 1) / TILE * (size_t)(columns / 32) * sizeof(tile_block);
}

int lk_gemm_pack_tiles(int type, const lk_activations *x, void *tiles, size_t tiles_bytes) {
    type_layout l;
    if (!lk_gemm_supports(type) || layout_of(type, &l) != 0 || !vnni512() || x->columns % l.values != 0 ||
        tiles_bytes < lk_gemm_tiles_bytes(x->columns, x->tokens)) return -1;
    tiles_header *h = tiles_header_at(tiles);
    *h = (tiles_header){l.offset, l.halves, x->tokens, x->columns, x->qs};
    pack_activations(x, l.offset, l.halves, tiles_after(h));
    return 0;
}

int lk_gemm(int type, const uint8_t *weights, size_t row_bytes, int row0, int row1, const lk_activations *x,
            float *out, size_t out_stride, void *scratch, size_t scratch_bytes) {
    return gemm_entry(type, weights, row_bytes, NULL, row0, row1, x, NULL, out, out_stride, scratch, scratch_bytes);
}

int lk_gemm_packed(int type, const uint8_t *packed, int row0, int row1, const lk_activations *x, const void *tiles,
                   float *out, size_t out_stride, void *scratch, size_t scratch_bytes) {
    return gemm_entry(type, NULL, 0, packed, row0, row1, x, tiles, out, out_stride, scratch, scratch_bytes);
}

// ---- one token against packed panels ----

// The lines PREFETCH bytes past the start of group g.
__attribute__((target(TARGET), always_inline)) static inline void prefetch_group(const type_layout *l, const uint8_t *panel, int g) {
    const size_t group_bytes = (size_t)(l->regs + l->aux + l->halves16);
    for (size_t k = 0; k < group_bytes; k += 64) _mm_prefetch((const char *)(panel + g * group_bytes + PREFETCH + k), _MM_HINT_T0);
}

// The 32-value types in llama.cpp's order: eight float lanes per row, added as kernels_x86.h's
// hsum adds them, then (Q4_1, Q5_1) the minimums' chain.
__attribute__((target(TARGET), always_inline)) static inline __m512 gemv_block_order(int type, const type_layout *l,
    const uint8_t *panel, int groups, const lk_activations *x, const int32_t *starts) {
    __m512 acc[8], extra = _mm512_setzero_ps();
    for (int k = 0; k < 8; k++) acc[k] = _mm512_setzero_ps();
    for (int u = 0; u < groups; u++) {
        panel_block w;
        prefetch_group(l, panel, u);
        expand(type, l, panel, u, &w);
        const __m512 dwdx = _mm512_mul_ps(w.d[0], _mm512_set1_ps(x->scales[2 * u]));
        const int8_t *xq = x->qs + 32 * u;
        for (int k = 0; k < 8; k++) {
            int32_t four;
            memcpy(&four, xq + 4 * k, sizeof four);
            const __m512i s = _mm512_dpbusd_epi32(_mm512_set1_epi32(starts[8 * u + k]), w.q[k], _mm512_set1_epi32(four));
            acc[k] = _mm512_fmadd_ps(dwdx, _mm512_cvtepi32_ps(s), acc[k]);
        }
        // A fused multiply-add, as compilers contract llama.cpp's `summs += m * s`.
        if (l->has_min) extra = _mm512_fmadd_ps(w.m[0], _mm512_set1_ps(x->scales[2 * u + 1]), extra);
    }
    const __m512 sum = _mm512_add_ps(_mm512_add_ps(_mm512_add_ps(acc[0], acc[4]), _mm512_add_ps(acc[2], acc[6])),
                                     _mm512_add_ps(_mm512_add_ps(acc[1], acc[5]), _mm512_add_ps(acc[3], acc[7])));
    return l->has_min ? _mm512_add_ps(sum, extra) : sum;
}

// The K-quants in the batched kernel's order: each block's exact integer sum(s), blocks in order.
__attribute__((target(TARGET), always_inline)) static inline __m512 gemv_exact_blocks(int type, const type_layout *l,
    const uint8_t *panel, int groups, const lk_activations *x, const int32_t *starts, const float *half_sx) {
    __m512 acc = _mm512_setzero_ps();
    const int units = x->columns / 32;
    for (int u = 0; u < units; u++) {
        panel_block w;
        if (u % 8 == 0) prefetch_group(l, panel, u / 8);
        expand(type, l, panel, u, &w);
        const int8_t *xq = x->qs + 32 * u;
        __m512i part[8];
        for (int k = 0; k < 8; k++) {
            int32_t four;
            memcpy(&four, xq + 4 * k, sizeof four);
            part[k] = _mm512_dpbusd_epi32(_mm512_setzero_si512(), w.q[k], _mm512_set1_epi32(four));
        }
        const int32_t *g = starts + 8 * u;
        const __m512i first = _mm512_add_epi32(_mm512_add_epi32(part[0], part[1]), _mm512_add_epi32(part[2], part[3]));
        const __m512i second = _mm512_add_epi32(_mm512_add_epi32(part[4], part[5]), _mm512_add_epi32(part[6], part[7]));
        const __m512 dx = _mm512_set1_ps(x->scales[2 * u]);
        if (l->halves) {
            const __m512i s0 = _mm512_add_epi32(first, _mm512_set1_epi32(g[0] + g[1] + g[2] + g[3]));
            const __m512i s1 = _mm512_add_epi32(second, _mm512_set1_epi32(g[4] + g[5] + g[6] + g[7]));
            acc = _mm512_fmadd_ps(_mm512_cvtepi32_ps(s0), _mm512_mul_ps(w.d[0], dx), acc);
            acc = _mm512_fmadd_ps(_mm512_cvtepi32_ps(s1), _mm512_mul_ps(w.d[1], dx), acc);
        } else {
            const int32_t all = g[0] + g[1] + g[2] + g[3] + g[4] + g[5] + g[6] + g[7];
            const __m512i s = _mm512_add_epi32(_mm512_add_epi32(first, second), _mm512_set1_epi32(all));
            acc = _mm512_fmadd_ps(_mm512_cvtepi32_ps(s), _mm512_mul_ps(w.d[0], dx), acc);
        }
        if (l->has_min && l->halves) {
            acc = _mm512_fmadd_ps(w.m[0], _mm512_set1_ps(half_sx[2 * u]), acc);
            acc = _mm512_fmadd_ps(w.m[1], _mm512_set1_ps(half_sx[2 * u + 1]), acc);
        } else if (l->has_min) {
            acc = _mm512_fmadd_ps(w.m[0], _mm512_set1_ps(x->scales[2 * u + 1]), acc);
        }
    }
    return acc;
}

__attribute__((target(TARGET), always_inline)) static inline void gemv_body(int type, const uint8_t *packed, int row0, int row1,
    const lk_activations *x, float *out, int32_t *starts) {
    type_layout l;
    layout_of(type, &l);
    const int units = x->columns / 32, groups = x->columns / l.values;
    const size_t bytes = panel_bytes(&l, x->columns);
    // The starting values: -offset * the sums of the activations' four-byte groups (vpdpbusd of
    // ones); for minimums per 16 values, d times each half's sum, as pack_activations forms them.
    float *half_sx = (float *)(starts + 8 * units);
    for (int u = 0; u < units; u++) {
        const __m256i v = _mm256_loadu_si256((const __m256i *)(x->qs + 32 * u));
        const __m256i sums = _mm256_dpbusd_epi32(_mm256_setzero_si256(), _mm256_set1_epi8(1), v);
        _mm256_storeu_si256((__m256i *)(starts + 8 * u), _mm256_mullo_epi32(sums, _mm256_set1_epi32(-l.offset)));
        if (l.has_min && l.halves) {
            int32_t g[8];
            _mm256_storeu_si256((__m256i *)g, sums);
            half_sx[2 * u] = x->scales[2 * u] * (float)(g[0] + g[1] + g[2] + g[3]);
            half_sx[2 * u + 1] = x->scales[2 * u] * (float)(g[4] + g[5] + g[6] + g[7]);
        }
    }
    for (int p = row0 / PANEL; p * PANEL < row1; p++) {
        const uint8_t *panel = packed + (size_t)p * bytes;
        const __m512 r = l.values == 32 ? gemv_block_order(type, &l, panel, groups, x, starts)
                                        : gemv_exact_blocks(type, &l, panel, groups, x, starts, half_sx);
        const int first = p * PANEL < row0 ? row0 - p * PANEL : 0;
        const int end = row1 - p * PANEL < PANEL ? row1 - p * PANEL : PANEL;
        _mm512_mask_storeu_ps(out + (size_t)p * PANEL, (__mmask16)(((1u << end) - 1) & ~((1u << first) - 1)), r);
    }
}

// Each type as its own instantiation, so the type tests fold away.
__attribute__((target(TARGET))) static void gemv(int type, const uint8_t *packed, int row0, int row1, const lk_activations *x,
    float *out, int32_t *starts) {
    switch (type) {
    case 2: gemv_body(2, packed, row0, row1, x, out, starts); break;
    case 3: gemv_body(3, packed, row0, row1, x, out, starts); break;
    case 6: gemv_body(6, packed, row0, row1, x, out, starts); break;
    case 7: gemv_body(7, packed, row0, row1, x, out, starts); break;
    case 8: gemv_body(8, packed, row0, row1, x, out, starts); break;
    case 20: gemv_body(20, packed, row0, row1, x, out, starts); break;
    case 10: gemv_body(10, packed, row0, row1, x, out, starts); break;
    case 11: gemv_body(11, packed, row0, row1, x, out, starts); break;
    case 12: gemv_body(12, packed, row0, row1, x, out, starts); break;
    case 13: gemv_body(13, packed, row0, row1, x, out, starts); break;
    case 14: gemv_body(14, packed, row0, row1, x, out, starts); break;
    }
}

int lk_gemv_packed(int type, const uint8_t *packed, int row0, int row1, const lk_activations *x, float *out,
                   void *scratch, size_t scratch_bytes) {
    type_layout l;
    if (!lk_packed_supports(type) || layout_of(type, &l) != 0 || x->tokens != 1 || x->columns % l.values != 0 ||
        scratch_bytes < lk_gemv_scratch_bytes(x->columns)) return -1;
    gemv(type, packed, row0, row1, x, out, (int32_t *)(((uintptr_t)scratch + 63) & ~(uintptr_t)63));
    return 0;
}

// Eight starting values and two half sums per 32 columns.
size_t lk_gemv_scratch_bytes(int columns) { return 64 + (size_t)columns * sizeof(int32_t) / 4 + (size_t)columns / 32 * 2 * sizeof(float); }

#else
int lk_gemm_supports(int type) { (void)type; return 0; }
int lk_packed_supports(int type) { (void)type; return 0; }
size_t lk_packed_bytes(int type, int rows, int columns) { (void)type; (void)rows; (void)columns; return 0; }
size_t lk_gemm_scratch_bytes(int columns, int tokens) { (void)columns; (void)tokens; return 0; }
size_t lk_gemv_scratch_bytes(int columns) { (void)columns; return 0; }
int lk_pack(int type, const uint8_t *weights, size_t row_bytes, int rows, int columns, uint8_t *packed) {
    (void)type; (void)weights; (void)row_bytes; (void)rows; (void)columns; (void)packed;
    return -1;
}
int lk_gemm(int type, const uint8_t *weights, size_t row_bytes, int row0, int row1, const lk_activations *x,
            float *out, size_t out_stride, void *scratch, size_t scratch_bytes) {
    (void)type; (void)weights; (void)row_bytes; (void)row0; (void)row1; (void)x; (void)out; (void)out_stride;
    (void)scratch; (void)scratch_bytes;
    return -1;
}
int lk_gemm_packed(int type, const uint8_t *packed, int row0, int row1, const lk_activations *x, const void *tiles,
                   float *out, size_t out_stride, void *scratch, size_t scratch_bytes) {
    (void)type; (void)packed; (void)row0; (void)row1; (void)x; (void)tiles; (void)out; (void)out_stride; (void)scratch;
    (void)scratch_bytes;
    return -1;
}
size_t lk_gemm_tiles_bytes(int columns, int tokens) { (void)columns; (void)tokens; return 0; }
int lk_gemm_pack_tiles(int type, const lk_activations *x, void *tiles, size_t tiles_bytes) {
    (void)type; (void)x; (void)tiles; (void)tiles_bytes;
    return -1;
}
int lk_gemv_packed(int type, const uint8_t *packed, int row0, int row1, const lk_activations *x, float *out,
                   void *scratch, size_t scratch_bytes) {
    (void)type; (void)packed; (void)row0; (void)row1; (void)x; (void)out; (void)scratch; (void)scratch_bytes;
    return -1;
}
#endif
