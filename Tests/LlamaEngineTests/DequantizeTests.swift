import Foundation
import Testing
@testable import LlamaEngine

/// Every dequantiser against `gguf.quants` on random blocks (fixtures from scripts/quant-fixtures.py,
/// which `make test` runs first).
@Suite struct DequantizeTests {
    static let fixtures = TestPaths.packageRoot + "/.build/fixtures/quants"

    @Test(arguments: TensorType.allCases)
    func matchesTheReferenceDequantizer(type: TensorType) throws {
        let raw = try Data(contentsOf: URL(fileURLWithPath: "\(Self.fixtures)/\(type.name).bin"))
        let expectedData = try Data(contentsOf: URL(fileURLWithPath: "\(Self.fixtures)/\(type.name).f32"))
        let count = raw.count / type.blockBytes * type.blockSize
        #expect(expectedData.count == count * 4)
        let expected = expectedData.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        var actual = [Float](repeating: .nan, count: count)
        raw.withUnsafeBytes { src in
            actual.withUnsafeMutableBufferPointer { Dequantize.row(type, src.baseAddress!, count: count, into: $0.baseAddress!) }
        }
        var mismatches = 0
        for i in 0..<count where abs(actual[i] - expected[i]) > 1e-6 * max(1, abs(expected[i])) { mismatches += 1 }
        #expect(mismatches == 0, "\(type.name): \(mismatches) of \(count) values differ")
    }

    /// The block layouts (`lk_blocks.h`, read by TensorType) against the `gguf` package's sizes.
    @Test func blockLayoutsMatchTheReferenceSizes() throws {
        let text = try String(contentsOfFile: "\(Self.fixtures)/layouts.txt", encoding: .utf8)
        var sizes: [String: (values: Int, bytes: Int)] = [:]
        for line in text.split(separator: "\n") {
            let f = line.split(separator: " ")
            sizes[String(f[0])] = (Int(f[1])!, Int(f[2])!)
        }
        for type in TensorType.allCases {
            let reference = try #require(sizes[type.name], "layouts.txt has no \(type.name)")
            #expect(type.blockSize == reference.values && type.blockBytes == reference.bytes,
                    "\(type.name): \(type.blockSize) values in \(type.blockBytes) bytes, gguf says \(reference.values) in \(reference.bytes)")
            #expect(type.halfFields.allSatisfy { $0 >= 0 && $0 + 2 <= type.blockBytes }, "\(type.name): a half field outside the block")
        }
    }
}
