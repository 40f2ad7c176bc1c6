// The block layouts of the quantised GGUF tensor types, as ggml defines them (its block_* structs
// in ggml-common.h): the one description of each type that the C kernels and the Swift engine
// (TensorType, the dequantisers, the reference and SIMD kernels) read their sizes and field
// offsets from. Half floats are stored as their 16 bits. A row of a tensor is a whole number of
// blocks, back to back.
#ifndef LK_BLOCKS_H
#define LK_BLOCKS_H

#include <stddef.h>
#include <stdint.h>

// Q5_0 (ggml type 6): 32 values q in 0..31, value = d * (q - 16). Value j's low four bits are
// the low nibble of qs[j] (j < 16) or the high nibble of qs[j - 16]; its fifth bit is bit j of
// qh read as a little-endian 32-bit word.
#define LK_Q5_0_VALUES 32
typedef struct {
    uint16_t d;
    uint8_t qh[4];
    uint8_t qs[LK_Q5_0_VALUES / 2];
} lk_block_q5_0;
_Static_assert(sizeof(lk_block_q5_0) == 2 + 4 + LK_Q5_0_VALUES / 2, "lk_block_q5_0: wrong size or padding");

// Sizes and field offsets as constants Swift can import.
enum {
    LK_Q5_0_BYTES = sizeof(lk_block_q5_0),
    LK_Q5_0_D = offsetof(lk_block_q5_0, d),
    LK_Q5_0_QH = offsetof(lk_block_q5_0, qh),
    LK_Q5_0_QS = offsetof(lk_block_q5_0, qs),
};

#endif
