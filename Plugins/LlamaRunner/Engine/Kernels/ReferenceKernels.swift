/// Plain scalar dot products of one quantised weight row with one quantised activation row,
/// from the blocks as `BlockDecoding` reads them. The optimised kernels must agree with these.
enum ReferenceKernels {
    static func dot(_ type: TensorType, _ w: UnsafeRawPointer, _ x: QuantizedActivations, token: Int) -> Float {
        precondition(BlockDecoding.decodes(type), "\(type.name) has no integer kernel")
        let blocks = x.blocksPerToken
        let q = x.qs + token * x.columns, ds = x.scales + 2 * token * blocks
        var total: Float = 0
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: 32) { wq in
            for b in 0..<blocks {
                // value = d × q + m, so w · x = d × dx × Σ q × qx + m × sx (sx = dx × Σ qx).
                let (d, m) = BlockDecoding.decode(type, w + b * type.blockBytes, wq.baseAddress!)
                var isum = 0
                for j in 0..<32 { isum += Int(wq[j]) * Int(q[32 * b + j]) }
                total += d * ds[2 * b] * Float(isum) + m * ds[2 * b + 1]
            }
        }
        return total
    }
}
