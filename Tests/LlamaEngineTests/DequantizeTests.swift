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
}
