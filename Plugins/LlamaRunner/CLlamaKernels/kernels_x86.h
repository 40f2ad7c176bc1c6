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

// ---- The K-quants on the file's rows: Q2_K (10), Q3_K (11), Q4_K (12), Q5_K (13), Q6_K (14) ----
// Not llama.cpp's order (its K-quant vec_dot takes 256-value activation blocks) but lk_gemm's
// (llama_gemm.h): each (row, token) adds every 32-value block's exact integer sum (one per 16
// values where the scales are per 16: Q2_K, Q3_K, Q6_K) in float, block after block, with the
// same products, so these give the AVX-512 panel kernels' results bit for bit. The sums are
// exact in any order, so the CPU without AVX-512 gets the same bits from a row layout.

// One superblock of one row, decoded: block u's 32 values as unsigned magnitudes `mag[u]` and,
// for the signed types, the values themselves in `sign[u]` (whose signs move onto the
// activations, as for Q4_0); d[h][u] = d * scale of block u's half h (h = 0 only where the scale
// covers 32 values), m[h][u] = -dmin * minimum.
typedef struct {
    __m256i mag[8], sign[8];
    float d[2][8], m[2][8];
} KERNEL(kq_block);

__attribute__((target(TARGET), always_inline)) static inline float KERNEL(half1)(const uint8_t *p) {
    uint16_t h;
    memcpy(&h, p, sizeof h);
    return _cvtsh_ss(h);
}

__attribute__((target(TARGET), always_inline)) static inline __m256i KERNEL(bits_at)(__m256i v, int shift, int mask) {
    return _mm256_and_si256(_mm256_srli_epi16(v, shift), _mm256_set1_epi8((char)mask));
}

// The layouts are lk_blocks.h's; block u = 4h + i of the 2-bit types holds bits 2i, 2i + 1 of
// qs bytes 32h..32h+31.
__attribute__((target(TARGET), always_inline)) static inline void KERNEL(kq_load)(int type, const uint8_t *p, KERNEL(kq_block) *w) {
    __m256i q[8];
    switch (type) {
    case 10: {
        const lk_block_q2_K *b = (const lk_block_q2_K *)p;
        for (int h = 0; h < 2; h++) {
            const __m256i bits = _mm256_loadu_si256((const __m256i *)(b->qs + 32 * h));
            for (int i = 0; i < 4; i++) q[4 * h + i] = KERNEL(bits_at)(bits, 2 * i, 3);
        }
        // Scale 2u + h is block u's half h: the even bytes, then the odd ones; scale in the low
        // nibble, minimum in the high.
        const __m128i halves = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)b->scales),
                                                _mm_setr_epi8(0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15));
        const __m256 d = _mm256_set1_ps(KERNEL(half1)(p + LK_Q2_K_D)), dmin = _mm256_set1_ps(KERNEL(half1)(p + LK_Q2_K_DMIN));
        for (int h = 0; h < 2; h++) {
            const __m256i bytes = _mm256_cvtepu8_epi32(h ? _mm_unpackhi_epi64(halves, halves) : halves);
            _mm256_storeu_ps(w->d[h], _mm256_mul_ps(d, _mm256_cvtepi32_ps(_mm256_and_si256(bytes, _mm256_set1_epi32(15)))));
            _mm256_storeu_ps(w->m[h], _mm256_sub_ps(_mm256_setzero_ps(), _mm256_mul_ps(dmin, _mm256_cvtepi32_ps(_mm256_srli_epi32(bytes, 4)))));
        }
        break;
    }
    case 11: {
        const lk_block_q3_K *b = (const lk_block_q3_K *)p;
        const __m256i high = _mm256_loadu_si256((const __m256i *)b->hmask);
        for (int h = 0; h < 2; h++) {
            const __m256i bits = _mm256_loadu_si256((const __m256i *)(b->qs + 32 * h));
            for (int i = 0; i < 4; i++)  // q's third bit: bit u of hmask[l]
                q[4 * h + i] = _mm256_or_si256(KERNEL(bits_at)(bits, 2 * i, 3), _mm256_slli_epi16(KERNEL(bits_at)(high, 4 * h + i, 1), 2));
        }
        const float d = KERNEL(half1)(p + LK_Q3_K_D);
        for (int s = 0; s < 16; s++) {
            const int low = s < 8 ? b->scales[s] & 15 : b->scales[s - 8] >> 4;
            const int top = (b->scales[8 + s % 4] >> (2 * (s / 4))) & 3;
            w->d[s % 2][s / 2] = d * (float)((low | top << 4) - 32);
        }
        break;
    }
    case 12:
    case 13: {
        _Static_assert(LK_Q5_K_D == LK_Q4_K_D && LK_Q5_K_DMIN == LK_Q4_K_DMIN && LK_Q5_K_SCALES == LK_Q4_K_SCALES, "Q5_K's fields as Q4_K's");
        const uint8_t *qs = p + (type == 13 ? LK_Q5_K_QS : LK_Q4_K_QS), *sc = p + LK_Q4_K_SCALES;
        for (int g = 0; g < 4; g++) {  // blocks 2g, 2g + 1: low and high nibbles of bytes 32g..32g+31
            const __m256i bits = _mm256_loadu_si256((const __m256i *)(qs + 32 * g));
            q[2 * g] = KERNEL(bits_at)(bits, 0, 15);
            q[2 * g + 1] = KERNEL(bits_at)(bits, 4, 15);
        }
        if (type == 13) {  // the fifth bit of block j's value l: bit j of qh[l]
            const __m256i fifth = _mm256_loadu_si256((const __m256i *)(p + LK_Q5_K_QH));
            for (int j = 0; j < 8; j++) q[j] = _mm256_or_si256(q[j], _mm256_slli_epi16(KERNEL(bits_at)(fifth, j, 1), 4));
        }
        // ggml's get_scale_min_k4, eight lanes at once: lanes j < 4 take the low six bits of
        // bytes j (scales) and j + 4 (minimums); lanes j >= 4 a nibble of byte j + 4 and the top
        // two bits of bytes j - 4 and j.
        uint32_t b03, b47, b811;
        memcpy(&b03, sc, 4);
        memcpy(&b47, sc + 4, 4);
        memcpy(&b811, sc + 8, 4);
        const uint64_t s03 = b03, s47 = b47, s811 = b811;
        const __m256i b_sc = _mm256_cvtepu8_epi32(_mm_cvtsi64_si128((long long)(s03 | s811 << 32)));   // j < 4: byte j; else j + 4
        const __m256i b_mn = _mm256_cvtepu8_epi32(_mm_cvtsi64_si128((long long)(s47 | s811 << 32)));   // j < 4: byte j + 4; else j + 4
        const __m256i top_sc = _mm256_cvtepu8_epi32(_mm_cvtsi64_si128((long long)(s03 << 32)));         // j >= 4: byte j - 4
        const __m256i top_mn = _mm256_cvtepu8_epi32(_mm_cvtsi64_si128((long long)(s47 << 32)));         // j >= 4: byte j
        const __m256i first = _mm256_setr_epi32(-1, -1, -1, -1, 0, 0, 0, 0);
        const __m256i scale = _mm256_blendv_epi8(
            _mm256_or_si256(_mm256_and_si256(b_sc, _mm256_set1_epi32(15)), _mm256_slli_epi32(_mm256_srli_epi32(top_sc, 6), 4)),
            _mm256_and_si256(b_sc, _mm256_set1_epi32(63)), first);
        const __m256i minimum = _mm256_blendv_epi8(
            _mm256_or_si256(_mm256_srli_epi32(b_mn, 4), _mm256_slli_epi32(_mm256_srli_epi32(top_mn, 6), 4)),
            _mm256_and_si256(b_mn, _mm256_set1_epi32(63)), first);
        _mm256_storeu_ps(w->d[0], _mm256_mul_ps(_mm256_set1_ps(KERNEL(half1)(p + LK_Q4_K_D)), _mm256_cvtepi32_ps(scale)));
        _mm256_storeu_ps(w->m[0], _mm256_sub_ps(_mm256_setzero_ps(),
            _mm256_mul_ps(_mm256_set1_ps(KERNEL(half1)(p + LK_Q4_K_DMIN)), _mm256_cvtepi32_ps(minimum))));
        break;
    }
    default: {  // 14
        const lk_block_q6_K *b = (const lk_block_q6_K *)p;
        for (int h = 0; h < 2; h++) {  // block 4h + i: low (i < 2) or high nibbles of ql, bits 2i, 2i + 1 of qh
            const __m256i ql[2] = {_mm256_loadu_si256((const __m256i *)(b->ql + 64 * h)),
                                   _mm256_loadu_si256((const __m256i *)(b->ql + 64 * h + 32))};
            const __m256i qh = _mm256_loadu_si256((const __m256i *)(b->qh + 32 * h));
            for (int i = 0; i < 4; i++)
                q[4 * h + i] = _mm256_or_si256(KERNEL(bits_at)(ql[i % 2], i < 2 ? 0 : 4, 15), _mm256_slli_epi16(KERNEL(bits_at)(qh, 2 * i, 3), 4));
        }
        // Scale 2u + h is block u's half h: the even bytes, then the odd ones.
        const __m128i halves = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)b->scales),
                                                _mm_setr_epi8(0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15));
        const __m256 d = _mm256_set1_ps(KERNEL(half1)(p + LK_Q6_K_D));
        _mm256_storeu_ps(w->d[0], _mm256_mul_ps(d, _mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(halves))));
        _mm256_storeu_ps(w->d[1], _mm256_mul_ps(d, _mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(_mm_unpackhi_epi64(halves, halves)))));
        break;
    }
    }
    for (int u = 0; u < 8; u++) {
        if (KQ_OFFSET(type)) {
            w->sign[u] = _mm256_sub_epi8(q[u], _mm256_set1_epi8(KQ_OFFSET(type)));
            w->mag[u] = _mm256_sign_epi8(w->sign[u], w->sign[u]);
        } else {
            w->mag[u] = q[u];
        }
    }
}

// Eight vectors of eight int32 partial sums (lane k: values 4k..4k+3 of a block) -> their two
// 16-value sums as floats: sums[u][0], sums[u][1]; with `whole`, the 32-value sum in sums[u][0].
__attribute__((target(TARGET), always_inline)) static inline void KERNEL(kq_reduce)(const __m256i p[8], int whole, float sums[8][2]) {
    // Lane u < 4 of each result: block u's (or u + 4's) first 16 values; lane 4 + u: its second 16.
    const __m256i lo = _mm256_hadd_epi32(_mm256_hadd_epi32(p[0], p[1]), _mm256_hadd_epi32(p[2], p[3]));
    const __m256i hi = _mm256_hadd_epi32(_mm256_hadd_epi32(p[4], p[5]), _mm256_hadd_epi32(p[6], p[7]));
    float f[16];
    if (whole) {
        const __m256i all = _mm256_add_epi32(_mm256_permute2x128_si256(lo, hi, 0x20), _mm256_permute2x128_si256(lo, hi, 0x31));
        _mm256_storeu_ps(f, _mm256_cvtepi32_ps(all));
        for (int u = 0; u < 8; u++) sums[u][0] = f[u];
    } else {
        _mm256_storeu_ps(f, _mm256_cvtepi32_ps(lo));
        _mm256_storeu_ps(f + 8, _mm256_cvtepi32_ps(hi));
        for (int u = 0; u < 8; u++) {
            sums[u][0] = f[8 * (u / 4) + u % 4];
            sums[u][1] = f[8 * (u / 4) + 4 + u % 4];
        }
    }
}

// Q2_K's minimums multiply d times each 16 activations' exact sum: for one superblock of one
// token, half h of block u at half_sx[8h + u]. Formed once per token and superblock, not per row.
__attribute__((target(TARGET), always_inline)) static inline void KERNEL(kq_half_sx)(const int8_t *xq, const float *xds, float *half_sx) {
    __m256i xs[8];
    for (int u = 0; u < 8; u++) xs[u] = DOT_U8S8(_mm256_set1_epi8(1), _mm256_loadu_si256((const __m256i *)(xq + 32 * u)));
    float sums[8][2];
    KERNEL(kq_reduce)(xs, 0, sums);
    for (int u = 0; u < 8; u++)
        for (int h = 0; h < 2; h++) half_sx[8 * h + u] = xds[2 * u] * sums[u][h];
}

// One superblock of `chains` (row, token) pairs: w[c] against the 256 activations at xq[c] with
// their blocks' (d, s) pairs at xds[c] (and Q2_K's kq_half_sx at hsx[c]); acc[c] continues each
// chain.
__attribute__((target(TARGET), always_inline)) static inline void KERNEL(kq_step)(int type, int chains,
    const KERNEL(kq_block) *const w[KQ_CHAINS], const int8_t *const xq[KQ_CHAINS], const float *const xds[KQ_CHAINS],
    const float *const hsx[KQ_CHAINS], float acc[KQ_CHAINS]) {
    float sums[KQ_CHAINS][8][2];
    for (int c = 0; c < chains; c++) {
        __m256i p[8];
        for (int u = 0; u < 8; u++) {
            const __m256i a = _mm256_loadu_si256((const __m256i *)(xq[c] + 32 * u));
            p[u] = DOT_U8S8(w[c]->mag[u], KQ_OFFSET(type) ? _mm256_sign_epi8(a, w[c]->sign[u]) : a);
        }
        KERNEL(kq_reduce)(p, !KQ_HALVES(type), sums[c]);
    }
    // The chains side by side: each one's additions stay in order.
    for (int u = 0; u < 8; u++)
        for (int c = 0; c < chains; c++) {
            const float dx = xds[c][2 * u];
            float a = fmaf(sums[c][u][0], w[c]->d[0][u] * dx, acc[c]);
            if (KQ_HALVES(type)) a = fmaf(sums[c][u][1], w[c]->d[1][u] * dx, a);
            if (type == 10) {
                a = fmaf(w[c]->m[0][u], hsx[c][u], a);
                a = fmaf(w[c]->m[1][u], hsx[c][8 + u], a);
            } else if (KQ_MIN(type)) {
                a = fmaf(w[c]->m[0][u], xds[c][2 * u + 1], a);
            }
            acc[c] = a;
        }
}

// One token: KQ_CHAINS rows side by side, prefetching PREFETCH_DISTANCE ahead. Several tokens:
// blocks of KQ_ROW_BLOCK rows (kept in cache) against KQ_CHAINS tokens at a time, each row's
// superblock decoded once per pair of tokens.
__attribute__((target(TARGET), always_inline)) static inline void KERNEL(kq_body)(int type, const uint8_t *wt, size_t row_bytes,
    int row0, int row1, const lk_activations *x, float *out, size_t out_stride) {
    const int supers = x->columns / LK_QK_K, blocks = x->columns / 32;
    const size_t bb = kq_block_bytes(type);
    KERNEL(kq_block) wb[KQ_CHAINS];
    const KERNEL(kq_block) *w[KQ_CHAINS];
    const int8_t *xq[KQ_CHAINS];
    const float *xds[KQ_CHAINS], *hsx[KQ_CHAINS] = {0};
    float acc[KQ_CHAINS];
    // Q2_K's half sums of the tokens in hand (16 floats per superblock and token).
    float half_sx[type == 10 ? KQ_CHAINS * supers * 16 : 1];
    if (x->tokens == 1) {
        if (type == 10)
            for (int s = 0; s < supers; s++) KERNEL(kq_half_sx)(x->qs + s * LK_QK_K, x->scales + 2 * 8 * s, half_sx + 16 * s);
        for (int r = row0; r < row1; r += KQ_CHAINS) {
            const int chains = row1 - r < KQ_CHAINS ? row1 - r : KQ_CHAINS;
            for (int c = 0; c < KQ_CHAINS; c++) { w[c] = &wb[c]; acc[c] = 0; }
            for (int s = 0; s < supers; s++) {
                for (int c = 0; c < chains; c++) {
                    const uint8_t *p = wt + (size_t)(r + c) * row_bytes + s * bb;
                    for (size_t k = 0; k < bb; k += 64) _mm_prefetch((const char *)p + PREFETCH_DISTANCE + k, _MM_HINT_T0);
                    KERNEL(kq_load)(type, p, &wb[c]);
                    xq[c] = x->qs + s * LK_QK_K;
                    xds[c] = x->scales + 2 * 8 * s;
                    if (type == 10) hsx[c] = half_sx + 16 * s;
                }
                if (chains == KQ_CHAINS) KERNEL(kq_step)(type, KQ_CHAINS, w, xq, xds, hsx, acc);
                else KERNEL(kq_step)(type, 1, w, xq, xds, hsx, acc);
            }
            for (int c = 0; c < chains; c++) out[r + c] = acc[c];
        }
        return;
    }
    for (int r0 = row0; r0 < row1; r0 += KQ_ROW_BLOCK) {
        const int r1 = row1 - r0 < KQ_ROW_BLOCK ? row1 : r0 + KQ_ROW_BLOCK;
        for (int t0 = 0; t0 < x->tokens; t0 += KQ_CHAINS) {
            const int chains = x->tokens - t0 < KQ_CHAINS ? x->tokens - t0 : KQ_CHAINS;
            if (type == 10)
                for (int c = 0; c < chains; c++)
                    for (int s = 0; s < supers; s++) {
                        const size_t block = (size_t)(t0 + c) * blocks + 8 * s;
                        KERNEL(kq_half_sx)(x->qs + block * 32, x->scales + 2 * block, half_sx + 16 * ((size_t)c * supers + s));
                    }
            for (int r = r0; r < r1; r++) {
                const uint8_t *row = wt + (size_t)r * row_bytes;
                for (int c = 0; c < KQ_CHAINS; c++) { w[c] = &wb[0]; acc[c] = 0; }
                for (int s = 0; s < supers; s++) {
                    KERNEL(kq_load)(type, row + s * bb, &wb[0]);
                    for (int c = 0; c < chains; c++) {
                        const size_t block = (size_t)(t0 + c) * blocks + 8 * s;
                        xq[c] = x->qs + block * 32;
                        xds[c] = x->scales + 2 * block;
                        if (type == 10) hsx[c] = half_sx + 16 * ((size_t)c * supers + s);
                    }
                    if (chains == KQ_CHAINS) KERNEL(kq_step)(type, KQ_CHAINS, w, xq, xds, hsx, acc);
                    else KERNEL(kq_step)(type, 1, w, xq, xds, hsx, acc);
                }
                for (int c = 0; c < chains; c++) out[(size_t)(t0 + c) * out_stride + r] = acc[c];
            }
        }
    }
}

__attribute__((target(TARGET))) static void KERNEL(kq)(int type, const uint8_t *w, size_t row_bytes, int row0, int row1,
    const lk_activations *x, float *out, size_t out_stride) {
    switch (type) {
    case 10: KERNEL(kq_body)(10, w, row_bytes, row0, row1, x, out, out_stride); break;
    case 11: KERNEL(kq_body)(11, w, row_bytes, row0, row1, x, out, out_stride); break;
    case 12: KERNEL(kq_body)(12, w, row_bytes, row0, row1, x, out, out_stride); break;
    case 13: KERNEL(kq_body)(13, w, row_bytes, row0, row1, x, out, out_stride); break;
    case 14: KERNEL(kq_body)(14, w, row_bytes, row0, row1, x, out, out_stride); break;
    }
}
