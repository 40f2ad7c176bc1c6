import Foundation
import Testing
@testable import LlamaEngine
import LlamaFuzz

/// Thousands of mutated and truncated copies of a small valid model: each must load (and then
/// run a token) or fail with a GGUFError. A crash or hang fails the whole run.
@Suite struct GGUFFuzzTests {
    @Test func mutatedAndTruncatedFilesLoadOrFailCleanly() throws {
        let dir = SyntheticGGUF.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let original = SyntheticGGUF.tinyLlama().encoded()
        // Find where the tensor data starts: mutations focus on the header, where the parsing is.
        let headerEnd = try GGUFFile(path: SyntheticGGUF.write(original, in: dir)).dataOffset
        var rng = SeededGenerator(seed: 2024)
        var loaded = 0, rejected = 0
        var codes: [GGUFError.Code: Int] = [:]
        for round in 0..<3000 {
            var bytes = original
            switch round % 4 {
            case 0:  // truncate anywhere
                bytes.removeLast(Int(rng.next() % UInt64(bytes.count)))
            case 1:  // flip a few bytes in the header
                for _ in 0..<(1 + Int(rng.next() % 4)) { bytes[Int(rng.next() % UInt64(headerEnd))] ^= UInt8(1 << (rng.next() % 8)) }
            case 2:  // overwrite 8 header bytes with an extreme value
                let at = Int(rng.next() % UInt64(headerEnd - 8))
                let value: UInt64 = [UInt64.max, 1 << 63, 1 << 32, 0, 0xFFFF_FFFF][Int(rng.next() % 5)]
                for i in 0..<8 { bytes[at + i] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(i))) }
            default:  // random bytes anywhere, then maybe truncate
                for _ in 0..<(1 + Int(rng.next() % 16)) { bytes[Int(rng.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: rng.next()) }
                if rng.next() % 2 == 0 { bytes.removeLast(Int(rng.next() % 64)) }
            }
            let path = SyntheticGGUF.write(bytes, in: dir, name: "fuzz.gguf")
            do {
                let model = try LlamaModel(path: path, threads: 1)
                let session = LlamaSession(model: model, contextLength: 8)
                try session.evaluate([0, Int32(model.vocabularySize - 1)]) { _, _ in }
                loaded += 1
            } catch let error as GGUFError {
                codes[error.code, default: 0] += 1
                rejected += 1
            }
        }
        print("fuzz: \(loaded) loaded, \(rejected) rejected: \(codes.sorted { $0.value > $1.value }.map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", "))")
        #expect(loaded + rejected == 3000)
        #expect(rejected > 1000)
        #expect(codes.count >= 5)
    }
}
