import CLlamaKernels
#if canImport(Glibc)
import Glibc
#endif

/// Keys and values of every processed position, per layer: `[layer][position][kvDim]` floats.
/// The memory is reserved for the whole context but only touched pages become resident, so a
/// short conversation costs little even with a long context.
final class KVCache {
    let layers: Int
    let contextLength: Int
    let kvDim: Int
    let keys: UnsafeMutablePointer<Float>
    let values: UnsafeMutablePointer<Float>
    private let bytes: Int

    init(layers: Int, contextLength: Int, kvDim: Int) {
        self.layers = layers
        self.contextLength = contextLength
        self.kvDim = kvDim
        bytes = layers * contextLength * kvDim * MemoryLayout<Float>.size
        func reserve(_ n: Int) -> UnsafeMutablePointer<Float> {
            let p = mmap(nil, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
            precondition(p != MAP_FAILED, "cannot reserve \(n) bytes for the KV cache")
            return p!.bindMemory(to: Float.self, capacity: n / 4)
        }
        keys = reserve(bytes)
        values = reserve(bytes)
    }

    deinit {
        munmap(keys, bytes)
        munmap(values, bytes)
    }

    /// Stores one position's keys and values rounded to half precision, as llama.cpp's f16
    /// cache holds them, so attention sees the same values as the reference.
    func store(layer: Int, position: Int, key k: UnsafePointer<Float>, value v: UnsafePointer<Float>) {
        let kd = key(layer: layer, position: position), vd = value(layer: layer, position: position)
        if MatMul.implementation.usesIntrinsics, lk_round_to_half(k, kd, kvDim) == 0, lk_round_to_half(v, vd, kvDim) == 0 { return }
        for i in 0..<kvDim {
            kd[i] = Float(Float16(k[i]))
            vd[i] = Float(Float16(v[i]))
        }
    }

    @inline(__always) func key(layer: Int, position: Int) -> UnsafeMutablePointer<Float> {
        keys + (layer * contextLength + position) * kvDim
    }

    @inline(__always) func value(layer: Int, position: Int) -> UnsafeMutablePointer<Float> {
        values + (layer * contextLength + position) * kvDim
    }
}
