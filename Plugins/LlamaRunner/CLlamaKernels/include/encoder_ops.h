// The sentence encoder's (BERT-family) steps around its matrix products, in AVX2 + FMA: bias
// adds, post-LayerNorm with its residual, bias + exact-erf GELU, and bidirectional attention. The
// engine's Swift code (Encoder/EncoderVectorOps.swift, EncoderModel.attend) is the portable
// fallback and computes the same functions (to float rounding: these sum in 8 lanes).
// Every function returns 0, or -1 when the CPU lacks AVX2 + FMA (nothing written). Rows are
// `stride` floats apart; disjoint rows or columns may be processed from several threads at once.
#ifndef ENCODER_OPS_H
#define ENCODER_OPS_H

#include <stddef.h>

// x[t][c] += bias[c] for t < tokens, c < columns.
int lk_encoder_add_bias(float *x, size_t stride, int tokens, int columns, const float *bias);

// For t < tokens: x[t] = LayerNorm(x[t] + residual[t] + residual_bias) * weight + bias over
// `columns` values (mean and variance of the row, epsilon added to the variance). `residual` and
// `residual_bias` may be NULL (nothing added); both use x's stride.
int lk_encoder_layer_norm(float *x, const float *residual, const float *residual_bias, size_t stride, int tokens, int columns,
                          const float *weight, const float *bias, float epsilon);

// x[t][c] = GELU(x[t][c] + bias[c]) for t < tokens and c in [column0, column1): the exact form
// x/2 * (1 + erf(x/sqrt 2)), erf as the same rational function the Swift code uses.
int lk_encoder_bias_gelu(float *x, size_t stride, int tokens, int column0, int column1, const float *bias);

// Attention without a mask, jobs [job0, job1) of tokens * heads (job = token * heads + head):
// out[t][h] = softmax(q[t][h] . k[s][h] / sqrt(head_dim) over every s) weighted sum of v[s][h],
// where [t][h] is the head_dim values of head h in row t (q, k, v, out: `stride` floats apart).
// head_dim a multiple of 8 up to 64 (-1 otherwise); `scores` is the calling thread's own, tokens + 8 floats.
int lk_encoder_attention(const float *q, const float *k, const float *v, float *out, size_t stride, int tokens, int heads,
                         int head_dim, int job0, int job1, float *scores);

#endif
