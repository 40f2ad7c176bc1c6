/// Zeroed float buffers allocated together and freed together: the scratch of a forward pass,
/// made once per session or model so nothing is allocated per token.
final class FloatScratch {
    private var buffers: [UnsafeMutablePointer<Float>] = []

    /// A new zeroed buffer of `count` floats, freed with this object.
    func make(_ count: Int) -> UnsafeMutablePointer<Float> {
        let p = UnsafeMutablePointer<Float>.allocate(capacity: count)
        p.initialize(repeating: 0, count: count)
        buffers.append(p)
        return p
    }

    deinit { for p in buffers { p.deallocate() } }
}
