// The AVX-512 VNNI panel kernels: 16-row panels of weights in a register layout (lane i = row i),
// for the batched (prompt) product and, on weights packed once at load time, the one-token
// (generation) product. The layouts and summation orders are described in gemm_vnni.c.
#ifndef LLAMA_GEMM_H
#define LLAMA_GEMM_H

#include "llama_kernels.h"

// Whether lk_gemm and lk_gemm_packed take this ggml type code: 2 (Q4_0), 6 (Q5_0), 7 (Q5_1),
// 8 (Q8_0), and the K-quants 10 (Q2_K), 11 (Q3_K), 12 (Q4_K), 13 (Q5_K), 14 (Q6_K). Not Q4_1: the default
// model's prompts keep llama.cpp's summation order, bit for bit (with this kernel on Q4_1, and an
// AVX2 attention since removed, one of its teacher-forced reference steps flipped).
int lk_gemm_supports(int type);

// Bytes of scratch lk_gemm and lk_gemm_packed need for rows of `columns` values and up to `tokens` tokens.
size_t lk_gemm_scratch_bytes(int columns, int tokens);

// out[t * out_stride + r] = weight row r . activation row t, for r in [row0, row1), every token,
// with the activations laid out as for lk_matmul. Each (row, token) sums every 32-value block
// (16 for the scales of Q2_K, Q3_K and Q6_K) exactly in integers, then adds the blocks in order in
// float (dw*dx*isum, plus mw*sx for the minimum per 32 values of Q4_K and Q5_K, or per 16 values
// mw*dx*(the 16 activations' integer sum) for Q2_K's), so results depend
// neither on the row range nor on the number of tokens, but differ from lk_matmul's (which keeps
// llama.cpp's eight float lanes per block) by float rounding.
// `scratch` (lk_gemm_scratch_bytes, any alignment) is the calling thread's own.
// Returns 0, or -1 when the type is not supported or the CPU lacks AVX-512 VNNI (nothing written).
int lk_gemm(int type, const uint8_t *weights, size_t row_bytes, int row0, int row1, const lk_activations *x,
            float *out, size_t out_stride, void *scratch, size_t scratch_bytes);

// Packed weights: a matrix rearranged once into 16-row panels, so that no product rearranges rows
// per call. Types: those of lk_gemm_supports plus 3 (Q4_1) and 20 (IQ4_NL), on a CPU
// with AVX-512 VNNI (0 otherwise).
int lk_packed_supports(int type);

// Bytes of the packed form of `rows` rows of `columns` values (rows rounded up to whole panels),
// or 0 when the type is not packed or `columns` is not a whole number of its blocks.
size_t lk_packed_bytes(int type, int rows, int columns);

// Packs the matrix (rows of `row_bytes` bytes in the file's layout) into `packed`
// (lk_packed_bytes, any alignment; 64-byte alignment makes every register load aligned).
// Returns 0, or -1 when the type is not packed (nothing written). The weights are only read.
int lk_pack(int type, const uint8_t *weights, size_t row_bytes, int rows, int columns, uint8_t *packed);

// The activations rearranged into the batched kernel's tiles once for a whole product, instead
// of once per call (a product split over threads in chunks of rows rearranged them per chunk: 8%
// of a sentence encoder's pass at 2 threads, perf). Bytes for `tokens` tokens of `columns` values:
size_t lk_gemm_tiles_bytes(int columns, int tokens);
// Rearranges x for products on weights of `type` into `tiles` (lk_gemm_tiles_bytes, any
// alignment), which records the type's layout and x's shape and quants pointer. Returns 0, or -1
// when lk_gemm would refuse the type (nothing written). The caller keeps x unchanged while the
// tiles are in use.
int lk_gemm_pack_tiles(int type, const lk_activations *x, void *tiles, size_t tiles_bytes);
// lk_gemm on packed weights: the same results bit for bit. `tiles`: NULL, or x rearranged by
// lk_gemm_pack_tiles for a type of the same layout (-1 if it was packed for another layout or
// activations, nothing written); only read, so threads share it.
int lk_gemm_packed(int type, const uint8_t *packed, int row0, int row1, const lk_activations *x, const void *tiles,
                   float *out, size_t out_stride, void *scratch, size_t scratch_bytes);

// Bytes of scratch lk_gemv_packed needs for rows of `columns` values.
size_t lk_gemv_scratch_bytes(int columns);

// One token (x->tokens == 1) against packed weights: out[r] for r in [row0, row1). The 32-value
// types give lk_matmul's results bit for bit (llama.cpp's order); the K-quants give lk_gemm's.
// `scratch` (lk_gemv_scratch_bytes, any alignment) is the calling thread's own. Returns 0, or -1
// when the type is not packed or x has several tokens (nothing written). Thread-safe: callers
// split rows.
int lk_gemv_packed(int type, const uint8_t *packed, int row0, int row1, const lk_activations *x, float *out,
                   void *scratch, size_t scratch_bytes);

#endif
