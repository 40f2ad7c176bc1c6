// The integer matrix kernels for one x86 instruction set. llama_kernels.c includes this file
// once per set, after defining:
//   KERNEL(name)    the name with the set's suffix
//   TARGET          the function attribute's target string
//   DOT_U8S8(u, s)  sums of products of unsigned and signed bytes, in groups of four, into eight
//                   int32 lanes
//
// Every (row, token) result is one chain summed block by block exactly as llama.cpp's vec_dot
// sums it (acc = fma(dw*dx, block products, acc); Q4_1 also sums fma(mw, sx, extra)), so the
// results match llama.cpp bit for bit whatever the tiling. Speed comes from doing less per block
// and from running several chains at once, never from reordering a sum.

// Block b's 32 quants from the 16 nibble bytes at p: low nibbles in lanes 0-15, high in 16-31.
// One broadcast load, then a per-dword shift of 0 or 4 (bits crossing into the next byte are
// masked off).
__attribute__((target(TARGET), always_inline)) static inline __m256i KERNEL(nibbles)(const uint8_t *p) {
    const __m256i raw = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)p));
    const __m256i shifted = _mm256_srlv_epi32(raw, _mm256_set_epi32(4, 4, 4, 4, 0, 0, 0, 0));
    return _mm256_and_si256(shifted, _mm256_set1_epi8(0x0F));
}

// The half float at p, as a float in all eight lanes. All lanes stay in use: when only lane 0 is,
// the compiler turns the load into a 16-bit insert that merges into whatever register it picks,
// an accumulator included, and two rows' sums become one dependency chain.
__attribute__((target(TARGET), always_inline)) static inline __m256 KERNEL(half8)(const uint8_t *p) {
    int16_t h;
    memcpy(&h, p, sizeof h);
    return _mm256_cvtph_ps(_mm_set1_epi16(h));
}

__attribute__((target(TARGET), always_inline)) static inline float KERNEL(hsum)(__m256 v) {
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    s = _mm_add_ss(s, _mm_movehdup_ps(s));
    return _mm_cvtss_f32(s);
}

// The 4- and 5-bit types share one kernel; `type` is the ggml code (2 Q4_0, 3 Q4_1, 6 Q5_0, 7 Q5_1,
// 20 IQ4_NL), a
// constant in each instantiation, so the tests on it fold away. A 5-bit block is a 4-bit one plus
// a word of fifth bits; the _1 types add a minimum m (value = d*q + m), the others are signed
// (value = d*(q - 8), d*(q - 16), or d*table[q] for IQ4_NL).
#define HAS_MIN(type) ((type) == 3 || (type) == 7)

// Bit j of the little-endian 32-bit word at p as 0x10 in byte j: the fifth bits of a 5-bit block.
// Byte j gets byte j/8 of the word, then keeps its bit j%8.
__attribute__((target(TARGET), always_inline)) static inline __m256i KERNEL(fifth_bits)(const uint8_t *p) {
    uint32_t word;
    memcpy(&word, p, sizeof word);
    const __m256i spread = _mm256_shuffle_epi8(_mm256_set1_epi32((int)word),
        _mm256_set_epi64x(0x0303030303030303, 0x0202020202020202, 0x0101010101010101, 0));
    const __m256i bit = _mm256_set1_epi64x((long long)0x8040201008040201ULL);
    return _mm256_and_si256(_mm256_cmpeq_epi8(_mm256_and_si256(spread, bit), bit), _mm256_set1_epi8(0x10));
}

// One 4/5-bit weight block, prepared once and used against every token of a tile: its quants as
// unsigned bytes (the signed types keep q - offset in `sign` and its magnitude in `u`, and move
// the signs onto the activations), Q4_1's (d, m) as floats in lanes 0 and 1 of `dm`, the signed
// types' d in every lane of `d`.
typedef struct {
    __m256i u, sign;
    __m128 dm;
    __m256 d;
} KERNEL(q4_block);

__attribute__((target(TARGET), always_inline)) static inline KERNEL(q4_block) KERNEL(q4_load)(int type, const uint8_t *p) {
    KERNEL(q4_block) w;
    __m256i q = KERNEL(nibbles)(p + qs_offset(type));
    if (type == 6 || type == 7) q = _mm256_or_si256(q, KERNEL(fifth_bits)(p + qh_offset(type)));
    if (HAS_MIN(type)) {
        w.u = w.sign = q;
        // d and m side by side (asserted in llama_kernels.c): both lanes used, a plain 32-bit load.
        w.dm = _mm_cvtph_ps(_mm_loadu_si32(p + d_offset(type)));
        w.d = _mm256_setzero_ps();
    } else {
        w.sign = type == 20 ? _mm256_shuffle_epi8(_mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)lk_iq4_nl_table)), q)
                            : _mm256_sub_epi8(q, _mm256_set1_epi8(type == 6 ? 16 : 8));
        w.u = _mm256_sign_epi8(w.sign, w.sign);
        w.dm = _mm_setzero_ps();
        w.d = KERNEL(half8)(p + d_offset(type));
    }
    return w;
}

// acc += dw*dx * (w . x) over one block; for Q4_1 also extra (lane 1) += mw*sx. `xds` points at
// the activation block's (d, s) pair, so for Q4_1 one instruction forms both products.
__attribute__((target(TARGET), always_inline)) static inline void KERNEL(q4_step)(int type, const KERNEL(q4_block) *w,
    const int8_t *xq, const float *xds, __m256 *acc, __m128 *extra) {
    __m256i a = _mm256_loadu_si256((const __m256i *)xq);
    if (!HAS_MIN(type)) a = _mm256_sign_epi8(a, w->sign);
    const __m256 prod = _mm256_cvtepi32_ps(DOT_U8S8(w->u, a));
    if (HAS_MIN(type)) {
        const __m128 xdxs = _mm_castpd_ps(_mm_load_sd((const double *)xds));
        *acc = _mm256_fmadd_ps(_mm256_broadcastss_ps(_mm_mul_ps(w->dm, xdxs)), prod, *acc);
        // A fused multiply-add, as compilers contract llama.cpp's `summs += m * s`.
        *extra = _mm_fmadd_ps(w->dm, xdxs, *extra);
    } else {
        *acc = _mm256_fmadd_ps(_mm256_mul_ps(w->d, _mm256_broadcast_ss(xds)), prod, *acc);
    }
}

__attribute__((target(TARGET), always_inline)) static inline float KERNEL(q4_result)(int type, __m256 acc, __m128 extra) {
    return HAS_MIN(type) ? KERNEL(hsum)(acc) + _mm_cvtss_f32(_mm_movehdup_ps(extra)) : KERNEL(hsum)(acc);
}

// Q4_1: w = d*q + m, so w.x = dw*dx*sum(q*qx) + m*sx. Q4_0: w = d*(q-8), summed exactly as signed
// bytes with the |w| / sign(x, w) trick.
// One token (generation): two rows at a time, two independent chains, while the weights of the
// rows a few kilobytes ahead are prefetched (two interleaved row streams defeat the hardware
// prefetcher on its own; measured with `make bench`). Several tokens (a prompt): each weight
// block is prepared once per tile of TOKEN_TILE tokens.
__attribute__((target(TARGET), always_inline)) static inline void KERNEL(q4_body)(int type, const uint8_t *w, size_t row_bytes,
    int row0, int row1, const lk_activations *x, float *out, size_t out_stride) {
    const int blocks = x->columns / 32, bb = (int)block_bytes(type);
    int r = row0;
    if (x->tokens == 1) {
        for (; r + 2 <= row1; r += 2) {
            const uint8_t *p0 = w + (size_t)r * row_bytes, *p1 = p0 + row_bytes;
            __m256 acc0 = _mm256_setzero_ps(), acc1 = _mm256_setzero_ps();
            __m128 extra0 = _mm_setzero_ps(), extra1 = _mm_setzero_ps();
            for (int b = 0; b < blocks; b++) {
                // Two rows of blocks of at most 24 bytes advance at most 48 a step: one line keeps ahead.
                _mm_prefetch((const char *)p0 + PREFETCH_DISTANCE + b * 64, _MM_HINT_T0);
                const KERNEL(q4_block) w0 = KERNEL(q4_load)(type, p0 + b * bb);
                const KERNEL(q4_block) w1 = KERNEL(q4_load)(type, p1 + b * bb);
                KERNEL(q4_step)(type, &w0, x->qs + b * 32, x->scales + 2 * b, &acc0, &extra0);
                KERNEL(q4_step)(type, &w1, x->qs + b * 32, x->scales + 2 * b, &acc1, &extra1);
            }
            out[r] = KERNEL(q4_result)(type, acc0, extra0);
            out[r + 1] = KERNEL(q4_result)(type, acc1, extra1);
        }
    }
    for (; r < row1; r++) {
        const uint8_t *row = w + (size_t)r * row_bytes;
        for (int t0 = 0; t0 < x->tokens; t0 += TOKEN_TILE) {
            const int nt = x->tokens - t0 < TOKEN_TILE ? x->tokens - t0 : TOKEN_TILE;
            __m256 acc[TOKEN_TILE];
            __m128 extra[TOKEN_TILE];
            for (int j = 0; j < TOKEN_TILE; j++) {
                acc[j] = _mm256_setzero_ps();
                extra[j] = _mm_setzero_ps();
            }
            for (int b = 0; b < blocks; b++) {
                const KERNEL(q4_block) wb = KERNEL(q4_load)(type, row + b * bb);
                for (int j = 0; j < nt; j++) {
                    const size_t xb = (size_t)(t0 + j) * blocks + b;
                    KERNEL(q4_step)(type, &wb, x->qs + xb * 32, x->scales + 2 * xb, &acc[j], &extra[j]);
                }
            }
            for (int j = 0; j < nt; j++) out[(size_t)(t0 + j) * out_stride + r] = KERNEL(q4_result)(type, acc[j], extra[j]);
        }
    }
}

// Each type as its own instantiation, so the type tests fold away.
__attribute__((target(TARGET))) static void KERNEL(q4)(int type, const uint8_t *w, size_t row_bytes, int row0, int row1,
    const lk_activations *x, float *out, size_t out_stride) {
    switch (type) {
    case 2: KERNEL(q4_body)(2, w, row_bytes, row0, row1, x, out, out_stride); break;
    case 3: KERNEL(q4_body)(3, w, row_bytes, row0, row1, x, out, out_stride); break;
    case 6: KERNEL(q4_body)(6, w, row_bytes, row0, row1, x, out, out_stride); break;
    case 7: KERNEL(q4_body)(7, w, row_bytes, row0, row1, x, out, out_stride); break;
    case 20: KERNEL(q4_body)(20, w, row_bytes, row0, row1, x, out, out_stride); break;
    }
}

// Q8_0: signed weights; |w| (unsigned) times x with w's sign (signed) keeps u8 x s8 products.
__attribute__((target(TARGET), always_inline)) static inline void KERNEL(q8_0_step)(const uint8_t *p, const int8_t *xq,
    const float *xds, __m256 *acc) {
    const __m256i q = _mm256_loadu_si256((const __m256i *)(p + offsetof(lk_block_q8_0, qs)));
    const __m256i a = _mm256_loadu_si256((const __m256i *)xq);
    const __m256 prod = _mm256_cvtepi32_ps(DOT_U8S8(_mm256_sign_epi8(q, q), _mm256_sign_epi8(a, q)));
    *acc = _mm256_fmadd_ps(_mm256_mul_ps(KERNEL(half8)(p + offsetof(lk_block_q8_0, d)), _mm256_broadcast_ss(xds)), prod, *acc);
}

__attribute__((target(TARGET))) static void KERNEL(q8_0)(const uint8_t *w, size_t row_bytes, int row0, int row1,
    const lk_activations *x, float *out, size_t out_stride) {
    const int blocks = x->columns / 32;
    int r = row0;
    if (x->tokens == 1) {
        // Four rows at a time, four independent chains sharing each activation load. The four
        // rows are one contiguous run of 4 * row_bytes; the software prefetch walks the run after
        // it, a little past its start, at the rate this one is read (4 * 34 bytes a step), so it
        // stays ahead whatever the row width (a fixed distance falls inside the current run once
        // rows are wide). The hardware prefetcher does not follow four interleaved row streams
        // (Engine README, "Speed").
        for (; r + 4 <= row1; r += 4) {
            const uint8_t *p0 = w + (size_t)r * row_bytes;
            const char *ahead = (const char *)p0 + 4 * row_bytes + RUN_PREFETCH_LEAD;
            __m256 acc0 = _mm256_setzero_ps(), acc1 = _mm256_setzero_ps(), acc2 = _mm256_setzero_ps(), acc3 = _mm256_setzero_ps();
            for (int b = 0; b < blocks; b++) {
                const char *line = ahead + b * 4 * sizeof(lk_block_q8_0);
                _mm_prefetch(line, _MM_HINT_T0);
                _mm_prefetch(line + 64, _MM_HINT_T0);
                _mm_prefetch(line + 128, _MM_HINT_T0);
                const uint8_t *block = p0 + b * sizeof(lk_block_q8_0);
                const int8_t *xq = x->qs + b * 32;
                const float *xds = x->scales + 2 * b;
                KERNEL(q8_0_step)(block, xq, xds, &acc0);
                KERNEL(q8_0_step)(block + row_bytes, xq, xds, &acc1);
                KERNEL(q8_0_step)(block + 2 * row_bytes, xq, xds, &acc2);
                KERNEL(q8_0_step)(block + 3 * row_bytes, xq, xds, &acc3);
            }
            out[r] = KERNEL(hsum)(acc0);
            out[r + 1] = KERNEL(hsum)(acc1);
            out[r + 2] = KERNEL(hsum)(acc2);
            out[r + 3] = KERNEL(hsum)(acc3);
        }
    }
    for (; r < row1; r++) {
        const uint8_t *row = w + (size_t)r * row_bytes;
        for (int t0 = 0; t0 < x->tokens; t0 += TOKEN_TILE) {
            const int nt = x->tokens - t0 < TOKEN_TILE ? x->tokens - t0 : TOKEN_TILE;
            __m256 acc[TOKEN_TILE];
            for (int j = 0; j < TOKEN_TILE; j++) acc[j] = _mm256_setzero_ps();
            for (int b = 0; b < blocks; b++)
                for (int j = 0; j < nt; j++) {
                    const size_t xb = (size_t)(t0 + j) * blocks + b;
                    KERNEL(q8_0_step)(row + b * sizeof(lk_block_q8_0), x->qs + xb * 32, x->scales + 2 * xb, &acc[j]);
                }
            for (int j = 0; j < nt; j++) out[(size_t)(t0 + j) * out_stride + r] = KERNEL(hsum)(acc[j]);
        }
    }
}
