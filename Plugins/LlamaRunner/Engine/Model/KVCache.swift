#if canImport(Glibc)
import Glibc
#endif

/// Keys and values of the processed positions, per layer: `[layer][cell][kvDim]` half-precision
/// values (IEEE bits), as llama.cpp's default f16 cache holds them: half the memory of float32.
/// A global layer has one cell per position of the context. A sliding-window layer only ever
/// reads the last `window` positions, so it keeps a ring of `window + batch - 1` cells
/// (position p in cell p mod cells): the keys of a whole forward chunk are stored before its
/// first token attends, and that token still needs the window before it.
/// The memory is reserved but only touched pages become resident, so a short conversation costs
/// little even with a long context.
final class KVCache {
    let kvDim: Int
    /// Cells per layer, and where each layer's cells start (in cells).
    let cells: [Int]
    private let firstCell: [Int]
    /// The lowest position whose cell has not been reused since it was stored: every position
    /// from here on that was stored is still readable in every layer.
    private(set) var oldestIntact = 0
    let keys: UnsafeMutablePointer<UInt16>
    let values: UnsafeMutablePointer<UInt16>
    private let bytes: Int

    /// `window` nil: every layer global. Otherwise `sliding[l]` says which layers use the ring.
    init(layers: Int, contextLength: Int, kvDim: Int, window: Int?, sliding: [Bool], batch: Int) {
        self.kvDim = kvDim
        let ring = window.map { min(contextLength, $0 + batch - 1) } ?? contextLength
        cells = (0..<layers).map { sliding[$0] ? ring : contextLength }
        var start = 0
        firstCell = cells.map { n in defer { start += n }; return start }
        bytes = max(1, start * kvDim * MemoryLayout<UInt16>.size)
        func reserve(_ n: Int) -> UnsafeMutablePointer<UInt16> {
            let p = mmap(nil, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
            precondition(p != MAP_FAILED, "cannot reserve \(n) bytes for the KV cache")
            return p!.bindMemory(to: UInt16.self, capacity: n / 2)
        }
        keys = reserve(bytes)
        values = reserve(bytes)
    }

    deinit {
        munmap(keys, bytes)
        munmap(values, bytes)
    }

    /// Stores one position's keys and values, rounded to half precision.
    func store(layer: Int, position: Int, key k: UnsafePointer<Float>, value v: UnsafePointer<Float>) {
        write(layer: layer, position: position, key: k, value: v)
        stored(layer: layer, through: position)
    }

    /// `store` without its bookkeeping: the positions of one chunk (distinct cells, as a ring
    /// holds a whole chunk) may be written from several threads at once, and then recorded
    /// once by `stored(layer:through:)`.
    func write(layer: Int, position: Int, key k: UnsafePointer<Float>, value v: UnsafePointer<Float>) {
        HalfVectorOps.store(k, key(layer: layer, position: position), kvDim)
        HalfVectorOps.store(v, value(layer: layer, position: position), kvDim)
    }

    /// Records that `layer` holds every position up to `last`.
    func stored(layer: Int, through last: Int) {
        oldestIntact = max(oldestIntact, last - cells[layer] + 1)
    }

    /// Whether every stored position from `position` on is still readable (a ring may have
    /// reused the cells of earlier ones for later positions).
    func holds(from position: Int) -> Bool { position >= oldestIntact }

    /// Forgets everything (cells are rewritten before they are read again).
    func clear() { oldestIntact = 0 }

    /// Layer `layer`'s first key and value cells: position p is at cell p mod `cells[layer]`.
    @inline(__always) func cellBase(layer: Int) -> (keys: UnsafeMutablePointer<UInt16>, values: UnsafeMutablePointer<UInt16>) {
        (keys + firstCell[layer] * kvDim, values + firstCell[layer] * kvDim)
    }

    @inline(__always) func key(layer: Int, position: Int) -> UnsafeMutablePointer<UInt16> {
        keys + (firstCell[layer] + position % cells[layer]) * kvDim
    }

    @inline(__always) func value(layer: Int, position: Int) -> UnsafeMutablePointer<UInt16> {
        values + (firstCell[layer] + position % cells[layer]) * kvDim
    }
}
