/// Plain scalar dot products of one quantised weight row with one quantised activation row,
/// written straight from the block layouts. The optimised kernels must agree with these.
enum ReferenceKernels {
    static func dot(_ type: TensorType, _ w: UnsafeRawPointer, _ x: QuantizedActivations, token: Int) -> Float {
        let blocks = x.blocksPerToken
        let q = x.qs + token * x.columns, ds = x.scales + 2 * token * blocks
        var total: Float = 0
        if BlockDecoding.decodes(type) {
            return withUnsafeTemporaryAllocation(of: Int32.self, capacity: 32) { wq in
                for b in 0..<blocks {
                    let (d, m) = BlockDecoding.decode(type, w + b * type.blockBytes, wq.baseAddress!)
                    var isum = 0
                    for j in 0..<32 { isum += Int(wq[j]) * Int(q[32 * b + j]) }
                    total += d * ds[2 * b] * Float(isum) + m * ds[2 * b + 1]
                }
                return total
            }
        }
        for b in 0..<blocks {
            var isum = 0
            switch type {
            case .q4_0:
                let p = w + b * 18
                for j in 0..<16 {
                    let byte = p.load(fromByteOffset: 2 + j, as: UInt8.self)
                    isum += (Int(byte & 0xF) - 8) * Int(q[32 * b + j]) + (Int(byte >> 4) - 8) * Int(q[32 * b + j + 16])
                }
                total += Dequantize.half(p, 0) * ds[2 * b] * Float(isum)
            case .q4_1:
                let p = w + b * 20
                for j in 0..<16 {
                    let byte = p.load(fromByteOffset: 4 + j, as: UInt8.self)
                    isum += Int(byte & 0xF) * Int(q[32 * b + j]) + Int(byte >> 4) * Int(q[32 * b + j + 16])
                }
                total += Dequantize.half(p, 0) * ds[2 * b] * Float(isum) + Dequantize.half(p, 2) * ds[2 * b + 1]
            case .q8_0:
                let p = w + b * 34
                for j in 0..<32 { isum += Int(p.load(fromByteOffset: 2 + j, as: Int8.self)) * Int(q[32 * b + j]) }
                total += Dequantize.half(p, 0) * ds[2 * b] * Float(isum)
            default:
                preconditionFailure("\(type.name) has no integer kernel")
            }
        }
        return total
    }
}
