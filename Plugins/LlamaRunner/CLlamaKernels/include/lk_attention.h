// One query head's attention over the f16 KV cache, in one call (AVX-512): the engine's loop of
// lk_dot_half, softmax and lk_axpy_half (HalfVectorOps.attend) with a vectorised softmax.
#ifndef LK_ATTENTION_H
#define LK_ATTENTION_H

#include <stddef.h>
#include <stdint.h>

// Positions first .. first + n - 1 of a ring of `cells` cells: position p's key is
// keys + (p mod cells) * stride, its value values + (p mod cells) * stride (`head_dim` halves
// each, the head's offset already added). Writes
//   scores[j] = (q . key_j) * scale, each dot in lk_dot_half's order;
//   then the softmax of scores in place: the maximum subtracted, lk_exp (lk_activations.h), summed in
//   sixteen lanes, each multiplied by 1 / sum;
//   out[i] = sum over j in order of scores[j] * value_j[i] (from 0; product rounded, then added).
// Returns 0, or -1 (nothing written) without AVX-512 or when head_dim is not a multiple of 16.
int lk_attend_half(const float *q, const uint16_t *keys, const uint16_t *values, size_t stride, int cells,
                   int first, int n, int head_dim, float scale, float *scores, float *out);

#endif
