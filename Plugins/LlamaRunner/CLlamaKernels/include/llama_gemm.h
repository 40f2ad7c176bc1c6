// The batched (prompt) product for AVX-512 VNNI: many tokens against 16-row panels of weights,
// each weight block reused across every token of the call (see gemm_vnni.c for the layout).
#ifndef LLAMA_GEMM_H
#define LLAMA_GEMM_H

#include "llama_kernels.h"

// Whether lk_gemm takes this ggml type code: 2 (Q4_0), 6 (Q5_0), 8 (Q8_0), 12 (Q4_K), 14 (Q6_K).
// Not Q4_1: the default model's prompts keep llama.cpp's summation order, bit for bit (with this
// kernel on Q4_1, and an AVX2 attention since removed, one of its teacher-forced reference steps
// flipped).
int lk_gemm_supports(int type);

// Bytes of scratch lk_gemm needs for rows of `columns` values and up to `tokens` tokens.
size_t lk_gemm_scratch_bytes(int columns, int tokens);

// out[t * out_stride + r] = weight row r . activation row t, for r in [row0, row1), every token,
// with the activations laid out as for lk_matmul. Each (row, token) sums every 32-value block
// (16 for Q6_K's scales) exactly in integers, then adds the blocks in order in float (dw*dx*isum,
// plus mw*sx for Q4_K's minimum per 32 values), so results depend
// neither on the row range nor on the number of tokens, but differ from lk_matmul's (which keeps
// llama.cpp's eight float lanes per block) by float rounding.
// `scratch` (lk_gemm_scratch_bytes, any alignment) is the calling thread's own.
// Returns 0, or -1 when the type is not supported or the CPU lacks AVX-512 VNNI (nothing written).
int lk_gemm(int type, const uint8_t *weights, size_t row_bytes, int row0, int row1, const lk_activations *x,
            float *out, size_t out_stride, void *scratch, size_t scratch_bytes);

#endif
