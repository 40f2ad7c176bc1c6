// x86 intrinsics kernels for the local runner's engine: integer dot products of 2- to 8-bit
// weight blocks with 8-bit activation blocks. Each is compiled for one instruction set with a function
// attribute and chosen at run time from lk_cpu_features(); the engine's Swift SIMD kernels are the
// portable fallback.
#ifndef LLAMA_KERNELS_H
#define LLAMA_KERNELS_H

#include <stddef.h>
#include <stdint.h>

enum {
    LK_AVX2 = 1,        // AVX2 + FMA + F16C
    LK_AVX512VNNI = 2,  // AVX-512 VNNI + VL (256-bit vpdpbusd)
};

// The features of this CPU among the above (0 on other architectures).
int lk_cpu_features(void);

// Quantised activations: `tokens` rows of `columns` int8 values; per 32-value block a scale d
// and s = d * (sum of the block's values), stored side by side: scales[2b] = d, scales[2b+1] = s
// for block b counted over every token. Borrowed for the duration of one lk_matmul call.
typedef struct {
    const int8_t *qs;
    const float *scales;
    int tokens;
    int columns;
} lk_activations;

// ggml type codes accepted: 2 (Q4_0), 3 (Q4_1), 6 (Q5_0), 7 (Q5_1), 8 (Q8_0), 20 (IQ4_NL), and
// the K-quants 10 (Q2_K), 11 (Q3_K), 12 (Q4_K), 13 (Q5_K), 14 (Q6_K) with `columns` a multiple
// of 256.
// out[t * out_stride + r] = weight row r . activation row t, for r in [row0, row1), every token.
// Each (row, token) sum runs block by block, in llama.cpp's order for the 32-value types and in
// lk_gemm's for the K-quants (their results bit for bit: llama_gemm.h), so results do not depend
// on the row range or on how many tokens are in the batch.
// `features` selects the instruction set (one of the LK_* values the CPU has). Returns 0, or -1
// when the type or feature is not supported (nothing written). Thread-safe: callers split rows.
int lk_matmul(int type, int features, const uint8_t *weights, size_t row_bytes, int row0, int row1,
              const lk_activations *x, float *out, size_t out_stride);

// Quantises blocks [block0, block1) of every token to the layout above, as llama.cpp's AVX2
// quantize_row_q8_1 does: quants round(x * 127 / max|x|) (half to even), d = max|x| / 127 rounded
// to half precision, s = d * (sum of the quants) rounded to half precision. Tokens are rows of `columns`
// floats, `stride` floats apart. Returns 0, or -1 without AVX2 (nothing written). Disjoint block
// ranges may be quantised from several threads at once.
int lk_quantize_q8(const float *x, size_t stride, int tokens, int columns, int block0, int block1,
                   int8_t *qs, float *scales);

// The f16 KV cache: IEEE half values as bits (uint16_t), as llama.cpp's f16 cache stores them.
// lk_float_to_half: dst[i] = src[i] rounded to half (to nearest, ties to even); returns 0, or -1
// without F16C (nothing written). The two products below need LK_AVX2 (lk_cpu_features());
// callers check.
int lk_float_to_half(const float *src, uint16_t *dst, size_t n);
// x . y in float32: a 16-lane accumulator (lane l sums the products i = l mod 16 of the whole
// groups of 16, each product rounded, then added), its lanes summed in order, then the rest.
float lk_dot_half(const float *x, const uint16_t *y, size_t n);
// y[i] += a * x[i] in float32 (product rounded, then added).
void lk_axpy_half(float a, const uint16_t *x, float *y, size_t n);

#endif
