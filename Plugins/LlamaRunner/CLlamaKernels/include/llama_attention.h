// One query head's attention over `n` cached positions, in AVX2.
#ifndef LLAMA_ATTENTION_H
#define LLAMA_ATTENTION_H

#include <stddef.h>

// scores[j] = scale * (q . keys[j * stride ...]), softmax over j < n, then
// out[0..<head_dim] = sum over j of scores[j] * values[j * stride ...]. Every sum in the same
// order and rounding as the engine's Swift code (VectorOps.dot: sixteen lanes of separate multiply
// and add, then halves added pairwise down to one, then the tail in order; softmax and the
// weighted sum element by element in position order), so both give the same bits.
// Returns 0, or -1 without AVX2 (nothing written).
int lk_attend(const float *q, const float *keys, const float *values, size_t stride, int n, int head_dim, float scale,
              float *scores, float *out);

#endif
