import Foundation
import LlamaEngine

/// `token-states FILE OUT [-t THREADS]`: for every line of standard input (a text, tokenised as
/// `embed` tokenises it, start and end tokens included), the encoder's last hidden state of each
/// token, unpooled, written to OUT as little-endian records: Int32 token count n, n Int32 token
/// ids, n × dimensions Float32 states. For scripts/novelty-token-alignment.py, which measures
/// token-level alignment between quotes on the gate's own encoder.
enum TokenStatesCommand {
    static func run(_ args: inout Arguments) throws {
        let path = try args.positional("FILE")
        let output = try args.positional("OUT")
        let threads = try args.intOption("-t", "--threads", default: LlamaModel.availableCores)
        try args.finish()
        let model = try loadSentenceEncoder(path: path, threads: threads)
        var bytes = Data()
        var number = 0
        while let line = readLine(strippingNewline: true) {
            number += 1
            let ids = model.tokens(for: line)
            let states: [[Float]]
            do { states = try model.tokenStates(tokens: ids, shouldCancel: { false }) } catch {
                throw UsageError(description: "standard input line \(number): \(error)")
            }
            append(Int32(ids.count), to: &bytes)
            for id in ids { append(id, to: &bytes) }
            for state in states { for value in state { append(value.bitPattern, to: &bytes) } }
        }
        guard FileManager.default.createFile(atPath: output, contents: bytes) else {
            throw UsageError(description: "cannot write \(output)")
        }
        FileHandle.standardError.write(Data("\(number) texts, \(model.dimensions) dimensions: \(output)\n".utf8))
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to data: inout Data) {
        withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
    }
}
