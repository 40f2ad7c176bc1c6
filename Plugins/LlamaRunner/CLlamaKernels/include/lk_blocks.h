// The block layouts of the quantised GGUF tensor types, as ggml defines them (its block_* structs
// in ggml-common.h): the one description of each type. The C kernels read fields through these
// structs; the Swift engine (TensorType, BlockDecoding, the dequantisers, the reference and SIMD
// kernels) reads its block sizes and field offsets from the constants below, and a test checks
// them against the PyPI `gguf` package's sizes. Half floats are stored as their 16 bits. A row of
// a tensor is a whole number of blocks, back to back.
#ifndef LK_BLOCKS_H
#define LK_BLOCKS_H

#include <stddef.h>
#include <stdint.h>

// Each type: its values per block, its struct, a check that the struct has no padding (as ggml's
// static_asserts), then its size and field offsets as constants Swift can import.
#define LK_BLOCK_CHECK(type, bytes) _Static_assert(sizeof(type) == (bytes), #type ": wrong size or padding")

// Q4_0 (ggml type 2): 32 values q in 0..15, value = d * (q - 8). Value j < 16 is the low nibble of
// qs[j], value j + 16 its high nibble.
#define LK_Q4_0_VALUES 32
typedef struct {
    uint16_t d;
    uint8_t qs[LK_Q4_0_VALUES / 2];
} lk_block_q4_0;
LK_BLOCK_CHECK(lk_block_q4_0, 2 + LK_Q4_0_VALUES / 2);
enum { LK_Q4_0_BYTES = sizeof(lk_block_q4_0), LK_Q4_0_D = offsetof(lk_block_q4_0, d), LK_Q4_0_QS = offsetof(lk_block_q4_0, qs) };

// Q4_1 (ggml type 3): as Q4_0 with a minimum, value = d * q + m.
#define LK_Q4_1_VALUES 32
typedef struct {
    uint16_t d, m;
    uint8_t qs[LK_Q4_1_VALUES / 2];
} lk_block_q4_1;
LK_BLOCK_CHECK(lk_block_q4_1, 4 + LK_Q4_1_VALUES / 2);
enum {
    LK_Q4_1_BYTES = sizeof(lk_block_q4_1),
    LK_Q4_1_D = offsetof(lk_block_q4_1, d),
    LK_Q4_1_M = offsetof(lk_block_q4_1, m),
    LK_Q4_1_QS = offsetof(lk_block_q4_1, qs),
};

// Q5_0 (ggml type 6): 32 values q in 0..31, value = d * (q - 16). Value j's low four bits as in
// Q4_0; its fifth bit is bit j of qh read as a little-endian 32-bit word.
#define LK_Q5_0_VALUES 32
typedef struct {
    uint16_t d;
    uint8_t qh[4];
    uint8_t qs[LK_Q5_0_VALUES / 2];
} lk_block_q5_0;
LK_BLOCK_CHECK(lk_block_q5_0, 2 + 4 + LK_Q5_0_VALUES / 2);
enum {
    LK_Q5_0_BYTES = sizeof(lk_block_q5_0),
    LK_Q5_0_D = offsetof(lk_block_q5_0, d),
    LK_Q5_0_QH = offsetof(lk_block_q5_0, qh),
    LK_Q5_0_QS = offsetof(lk_block_q5_0, qs),
};

// Q5_1 (ggml type 7): as Q5_0 with a minimum, value = d * q + m.
#define LK_Q5_1_VALUES 32
typedef struct {
    uint16_t d, m;
    uint8_t qh[4];
    uint8_t qs[LK_Q5_1_VALUES / 2];
} lk_block_q5_1;
LK_BLOCK_CHECK(lk_block_q5_1, 4 + 4 + LK_Q5_1_VALUES / 2);
enum {
    LK_Q5_1_BYTES = sizeof(lk_block_q5_1),
    LK_Q5_1_D = offsetof(lk_block_q5_1, d),
    LK_Q5_1_M = offsetof(lk_block_q5_1, m),
    LK_Q5_1_QH = offsetof(lk_block_q5_1, qh),
    LK_Q5_1_QS = offsetof(lk_block_q5_1, qs),
};

// Q8_0 (ggml type 8): 32 signed values, value = d * q.
#define LK_Q8_0_VALUES 32
typedef struct {
    uint16_t d;
    int8_t qs[LK_Q8_0_VALUES];
} lk_block_q8_0;
LK_BLOCK_CHECK(lk_block_q8_0, 2 + LK_Q8_0_VALUES);
enum { LK_Q8_0_BYTES = sizeof(lk_block_q8_0), LK_Q8_0_D = offsetof(lk_block_q8_0, d), LK_Q8_0_QS = offsetof(lk_block_q8_0, qs) };

// IQ4_NL (ggml type 20): 32 nibbles as Q4_0, each an index into the non-linear table
// lk_iq4_nl_table; value = d * table[q].
#define LK_IQ4_NL_VALUES 32
typedef struct {
    uint16_t d;
    uint8_t qs[LK_IQ4_NL_VALUES / 2];
} lk_block_iq4_nl;
LK_BLOCK_CHECK(lk_block_iq4_nl, 2 + LK_IQ4_NL_VALUES / 2);
enum { LK_IQ4_NL_BYTES = sizeof(lk_block_iq4_nl), LK_IQ4_NL_D = offsetof(lk_block_iq4_nl, d), LK_IQ4_NL_QS = offsetof(lk_block_iq4_nl, qs) };
// ggml's kvalues_iq4nl (defined in llama_kernels.c).
extern const int8_t lk_iq4_nl_table[16];

// The K-quants: super-blocks of 256 values in sub-blocks with their own scales.
#define LK_QK_K 256

// Q2_K (ggml type 10): 16 sub-blocks of 16; scales[i] holds sub-block i's scale (low nibble)
// and minimum (high nibble); value = d * scale * q - dmin * min, q two bits of qs: values
// 128h + 32j + l (l < 32) are bits 2j..2j+1 of qs[32h + l].
typedef struct {
    uint8_t scales[LK_QK_K / 16];
    uint8_t qs[LK_QK_K / 4];
    uint16_t d, dmin;
} lk_block_q2_K;
LK_BLOCK_CHECK(lk_block_q2_K, LK_QK_K / 16 + LK_QK_K / 4 + 4);
enum {
    LK_Q2_K_BYTES = sizeof(lk_block_q2_K),
    LK_Q2_K_SCALES = offsetof(lk_block_q2_K, scales),
    LK_Q2_K_QS = offsetof(lk_block_q2_K, qs),
    LK_Q2_K_D = offsetof(lk_block_q2_K, d),
    LK_Q2_K_DMIN = offsetof(lk_block_q2_K, dmin),
};

// Q3_K (ggml type 11): 16 sub-blocks of 16 with 6-bit scales s (value s - 32; low nibbles: bytes
// 0-7 of `scales` for sub-blocks 0-7, their high nibbles for 8-15; top two bits: bits
// 2(i/4)..2(i/4)+1 of byte 8 + i%4); value = d * (s - 32) * (q - 4), q's two low bits as Q2_K's,
// 4 added when bit j (as Q2_K's j, plus 4 for h = 1) of hmask[l] is set.
typedef struct {
    uint8_t hmask[LK_QK_K / 8];
    uint8_t qs[LK_QK_K / 4];
    uint8_t scales[12];
    uint16_t d;
} lk_block_q3_K;
LK_BLOCK_CHECK(lk_block_q3_K, LK_QK_K / 8 + LK_QK_K / 4 + 12 + 2);
enum {
    LK_Q3_K_BYTES = sizeof(lk_block_q3_K),
    LK_Q3_K_HMASK = offsetof(lk_block_q3_K, hmask),
    LK_Q3_K_QS = offsetof(lk_block_q3_K, qs),
    LK_Q3_K_SCALES = offsetof(lk_block_q3_K, scales),
    LK_Q3_K_D = offsetof(lk_block_q3_K, d),
};

// Q4_K (ggml type 12): 8 sub-blocks of 32, each with a 6-bit scale and minimum packed in
// `scales` (sub-blocks 0-3: low six bits of bytes j and j + 4; 4-7: nibbles of bytes j + 4 with
// the top two bits of bytes j - 4 and j); value = d * scale * q - dmin * min, q a nibble of qs:
// sub-blocks 2c and 2c + 1 share the 32 bytes qs[32c ..] (low, then high nibbles).
typedef struct {
    uint16_t d, dmin;
    uint8_t scales[12];
    uint8_t qs[LK_QK_K / 2];
} lk_block_q4_K;
LK_BLOCK_CHECK(lk_block_q4_K, 4 + 12 + LK_QK_K / 2);
enum {
    LK_Q4_K_BYTES = sizeof(lk_block_q4_K),
    LK_Q4_K_D = offsetof(lk_block_q4_K, d),
    LK_Q4_K_DMIN = offsetof(lk_block_q4_K, dmin),
    LK_Q4_K_SCALES = offsetof(lk_block_q4_K, scales),
    LK_Q4_K_QS = offsetof(lk_block_q4_K, qs),
};

// Q5_K (ggml type 13): Q4_K's scales and nibbles plus a fifth bit per value: bit 2c (low
// nibbles) or 2c + 1 (high nibbles) of qh[l] for value l of chunk c's pair of sub-blocks.
typedef struct {
    uint16_t d, dmin;
    uint8_t scales[12];
    uint8_t qh[LK_QK_K / 8];
    uint8_t qs[LK_QK_K / 2];
} lk_block_q5_K;
LK_BLOCK_CHECK(lk_block_q5_K, 4 + 12 + LK_QK_K / 8 + LK_QK_K / 2);
enum {
    LK_Q5_K_BYTES = sizeof(lk_block_q5_K),
    LK_Q5_K_D = offsetof(lk_block_q5_K, d),
    LK_Q5_K_DMIN = offsetof(lk_block_q5_K, dmin),
    LK_Q5_K_SCALES = offsetof(lk_block_q5_K, scales),
    LK_Q5_K_QH = offsetof(lk_block_q5_K, qh),
    LK_Q5_K_QS = offsetof(lk_block_q5_K, qs),
};

// Q6_K (ggml type 14): 16 sub-blocks of 16 with signed 8-bit scales; value = d * scale * (q - 32),
// q's low four bits in ql and its top two in qh.
typedef struct {
    uint8_t ql[LK_QK_K / 2];
    uint8_t qh[LK_QK_K / 4];
    int8_t scales[LK_QK_K / 16];
    uint16_t d;
} lk_block_q6_K;
LK_BLOCK_CHECK(lk_block_q6_K, LK_QK_K / 2 + LK_QK_K / 4 + LK_QK_K / 16 + 2);
enum {
    LK_Q6_K_BYTES = sizeof(lk_block_q6_K),
    LK_Q6_K_QL = offsetof(lk_block_q6_K, ql),
    LK_Q6_K_QH = offsetof(lk_block_q6_K, qh),
    LK_Q6_K_SCALES = offsetof(lk_block_q6_K, scales),
    LK_Q6_K_D = offsetof(lk_block_q6_K, d),
};

#endif
