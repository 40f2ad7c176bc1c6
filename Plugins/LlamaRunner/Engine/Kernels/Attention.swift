import CLlamaKernels

/// One query head's attention over `count` positions (keys and values `stride` floats apart):
/// scaled dot products, softmax, the weighted sum of the values. With the C kernels it runs in
/// AVX2 (`llama_attention.h`) with the same bits as the Swift code below.
enum Attention {
    static func attend(
        query q: UnsafePointer<Float>, keys: UnsafePointer<Float>, values: UnsafePointer<Float>, stride: Int, count n: Int,
        headDim hd: Int, scores: UnsafeMutablePointer<Float>, out: UnsafeMutablePointer<Float>,
        intrinsics: Bool = MatMul.implementation.usesIntrinsics
    ) {
        let scale = 1 / Float(hd).squareRoot()
        if intrinsics, lk_attend(q, keys, values, stride, Int32(n), Int32(hd), scale, scores, out) == 0 { return }
        for j in 0..<n { scores[j] = VectorOps.dot(q, keys + j * stride, hd) * scale }
        VectorOps.softmax(scores, n)
        out.update(repeating: 0, count: hd)
        for j in 0..<n { VectorOps.axpy(scores[j], values + j * stride, out, hd) }
    }
}
