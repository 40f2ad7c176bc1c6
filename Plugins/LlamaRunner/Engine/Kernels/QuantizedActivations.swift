import CLlamaKernels
import Synchronization

/// Activations quantised to 8-bit blocks of 32 values, as llama.cpp does before every weight
/// product: per block a scale `d` (max |x| / 127) and `s` = d × (sum of the quants), which the
/// Q4_1 kernel needs for the weight minimum. `d` and `s` are stored side by side (`scales[2b]`,
/// `scales[2b + 1]`) so a kernel multiplies both by the weight's (scale, minimum) in one
/// instruction. Buffers are allocated once and reused.
public final class QuantizedActivations: @unchecked Sendable {
    public let capacity: Int
    public private(set) var tokens = 0
    public private(set) var columns = 0
    public let qs: UnsafeMutablePointer<Int8>
    /// Per block of every token: d, then s.
    public let scales: UnsafeMutablePointer<Float>
    /// The quants rearranged for the batched kernel (`batchedTiles`), one slot per weight type a
    /// product group uses (Q, K and V may differ in type, and so in layout, in one group).
    private let tileSlots = (0..<4).map { _ in TileSlot() }

    /// A slot's state: `TileSlot.free`, `packing(type)` while one thread fills it, or the type
    /// it holds. Only `prepare` (between products) frees a slot, so a thread reading a slot's
    /// tiles never sees them rewritten.
    private final class TileSlot: @unchecked Sendable {
        static let free: Int32 = -1
        static func packing(_ type: Int32) -> Int32 { -2 - type }
        let state = Atomic<Int32>(free)
        /// Written only by the thread that moved the slot from free to packing.
        var buffer: UnsafeMutableRawPointer?
        var bytes = 0
        deinit { buffer?.deallocate() }
    }

    /// Room for `capacity` values (tokens × columns), columns a multiple of 32.
    public init(capacity: Int) {
        self.capacity = capacity
        qs = .allocate(capacity: capacity + 64)
        scales = .allocate(capacity: 2 * (capacity / 32 + 1))
    }

    deinit {
        qs.deallocate()
        scales.deallocate()
    }

    public var blocksPerToken: Int { columns / 32 }

    /// Quantises `tokens` rows of `columns` floats (row stride `stride`).
    public func quantize(_ x: UnsafePointer<Float>, tokens: Int, columns: Int, stride: Int) {
        prepare(tokens: tokens, columns: columns)
        quantizeBlocks(x, stride: stride, blocks: 0..<columns / 32)
    }

    /// Sets the shape for `quantizeBlocks`, which threads then call on their own blocks.
    public func prepare(tokens: Int, columns: Int) {
        precondition(columns % 32 == 0 && tokens * columns <= capacity)
        self.tokens = tokens
        self.columns = columns
        for slot in tileSlots { slot.state.store(TileSlot.free, ordering: .relaxed) }  // published by the pool's next job
    }

    /// The quants rearranged into the batched kernel's tiles for weights of ggml type `type`
    /// (`lk_gemm_pack_tiles`): made once per quantisation, by the first of the threads sharing a
    /// product to ask, while the others spin for the few microseconds it takes (a lock put them
    /// to sleep, and waking them cost more than the packing), so the product's row chunks do not
    /// each rearrange them. Nil where that kernel does not take the type, or when every slot
    /// holds another type (the kernel then packs per call). Ask only once every block is quantised.
    func batchedTiles(for type: Int32) -> UnsafeRawPointer? {
        for slot in tileSlots {
            var state = slot.state.load(ordering: .acquiring)
            while state == TileSlot.packing(type) { state = slot.state.load(ordering: .acquiring) }
            if state == type { return UnsafeRawPointer(slot.buffer) }
        }
        for slot in tileSlots where slot.state.compareExchange(expected: TileSlot.free, desired: TileSlot.packing(type),
                                                                ordering: .acquiring).exchanged {
            let needed = lk_gemm_tiles_bytes(Int32(columns), Int32(tokens))
            if needed > slot.bytes {
                slot.buffer?.deallocate()
                slot.buffer = .allocate(byteCount: needed, alignment: 64)
                slot.bytes = needed
            }
            var x = lk_activations(qs: qs, scales: scales, tokens: Int32(tokens), columns: Int32(columns))
            guard lk_gemm_pack_tiles(type, &x, slot.buffer, slot.bytes) == 0 else {
                slot.state.store(TileSlot.free, ordering: .releasing)
                return nil
            }
            slot.state.store(type, ordering: .releasing)
            return UnsafeRawPointer(slot.buffer)
        }
        return nil
    }

    /// Quantises blocks `blocks` (of 32 columns) of the tokens `only` (default: every token), in
    /// the shape set by `prepare`; disjoint block or token ranges may be quantised concurrently.
    /// With `intrinsics`, the C kernel (CLlamaKernels) does it; the Swift code below gives the
    /// same bits everywhere else.
    public func quantizeBlocks(_ x: UnsafePointer<Float>, stride: Int, blocks: Range<Int>, only: Range<Int>? = nil,
                               intrinsics: Bool = MatMul.implementation.usesIntrinsics) {
        let perToken = columns / 32
        let rows = only ?? 0..<tokens
        if intrinsics, lk_quantize_q8(x + rows.lowerBound * stride, stride, Int32(rows.count), Int32(columns), Int32(blocks.lowerBound),
                                      Int32(blocks.upperBound), qs + rows.lowerBound * columns,
                                      scales + 2 * rows.lowerBound * perToken) == 0 {
            return
        }
        for t in rows {
            for b in blocks {
                Self.quantizeBlock(x + t * stride + b * 32, qs + t * columns + b * 32, scales + 2 * (t * perToken + b))
            }
        }
    }

    /// Follows llama.cpp's rounding so results track the reference: quants are x × 127 / max|x|
    /// rounded half to even, d = max|x| / 127 is stored rounded to half precision (its Q8_0/Q8_1
    /// blocks hold fp16), and s = d × (sum of the quants) is formed from that rounded d, then
    /// rounded. (Forming s from the unrounded d, as llama.cpp's source reads, moved two clear
    /// teacher-forced steps of the reference data and raised the prompt-logit RMS: measured.) Rounding uses the float trick (adding 1.5 × 2^23
    /// rounds to an integer in the low mantissa bits) because Swift's float-to-int conversions
    /// do not vectorise; bit casts cannot trap, so NaN or infinite inputs (broken weights) give
    /// meaningless quants but never a crash.
    @inline(__always) static func quantizeBlock(_ x: UnsafePointer<Float>, _ q: UnsafeMutablePointer<Int8>, _ ds: UnsafeMutablePointer<Float>) {
        let raw = UnsafeRawPointer(x)
        let v0 = raw.loadUnaligned(as: SIMD16<Float>.self), v1 = raw.loadUnaligned(fromByteOffset: 64, as: SIMD16<Float>.self)
        let absMask = SIMD16<UInt32>(repeating: 0x7FFF_FFFF)
        let a0 = unsafeBitCast(unsafeBitCast(v0, to: SIMD16<UInt32>.self) & absMask, to: SIMD16<Float>.self)
        let a1 = unsafeBitCast(unsafeBitCast(v1, to: SIMD16<UInt32>.self) & absMask, to: SIMD16<Float>.self)
        let amax = max(a0.max(), a1.max())
        let inv: Float = amax != 0 ? 127 / amax : 0
        let magic = SIMD16<Float>(repeating: 12_582_912)  // 1.5 × 2^23
        let i0 = unsafeBitCast(v0 * inv + magic, to: SIMD16<Int32>.self) &- 0x4B40_0000
        let i1 = unsafeBitCast(v1 * inv + magic, to: SIMD16<Int32>.self) &- 0x4B40_0000
        UnsafeMutableRawPointer(q).storeBytes(of: SIMD16<Int8>(truncatingIfNeeded: i0), as: SIMD16<Int8>.self)
        UnsafeMutableRawPointer(q).storeBytes(of: SIMD16<Int8>(truncatingIfNeeded: i1), toByteOffset: 16, as: SIMD16<Int8>.self)
        let d = Float(Float16(amax / 127))
        ds[0] = d
        ds[1] = Float(Float16(d * Float((i0 &+ i1).wrappedSum())))
    }
}
