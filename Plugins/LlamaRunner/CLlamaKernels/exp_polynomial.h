// e^r for |r| <= ln 2 / 2 at any vector width, one definition for the kernels that take e^x
// (exp8 in encoder_ops.c, exp16 in exp_avx512.h): P is the intrinsics prefix (_mm256_ or
// _mm512_), x the argument and n = round(x / ln 2) as vectors. r = x - n ln 2 with ln 2 split in
// two so that n ln 2 is exact, then Cephes' expf polynomial (relative error about 1e-7); the
// caller multiplies by 2^n. A GNU statement expression, so it yields the vector.
#ifndef LK_EXP_POLYNOMIAL_H
#define LK_EXP_POLYNOMIAL_H

#define LK_EXP_REDUCED(P, x, n) ({                                                   \
    __typeof__(x) lk_r = P##fnmadd_ps(n, P##set1_ps(0.693359375f), x);               \
    lk_r = P##fnmadd_ps(n, P##set1_ps(-2.12194440e-4f), lk_r);                       \
    __typeof__(x) lk_y = P##set1_ps(1.9875691500e-4f);                               \
    lk_y = P##fmadd_ps(lk_y, lk_r, P##set1_ps(1.3981999507e-3f));                    \
    lk_y = P##fmadd_ps(lk_y, lk_r, P##set1_ps(8.3334519073e-3f));                    \
    lk_y = P##fmadd_ps(lk_y, lk_r, P##set1_ps(4.1665795894e-2f));                    \
    lk_y = P##fmadd_ps(lk_y, lk_r, P##set1_ps(1.6666665459e-1f));                    \
    lk_y = P##fmadd_ps(lk_y, lk_r, P##set1_ps(5.0000001201e-1f));                    \
    P##fmadd_ps(lk_y, P##mul_ps(lk_r, lk_r), P##add_ps(lk_r, P##set1_ps(1.0f)));     \
})

#endif
