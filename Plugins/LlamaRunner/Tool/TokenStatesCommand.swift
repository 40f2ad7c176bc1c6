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
        guard FileManager.default.createFile(atPath: output, contents: nil), let file = FileHandle(forWritingAtPath: output) else {
            throw UsageError(description: "cannot write \(output)")
        }
        defer { try? file.close() }
        // One record at a time: a Data grown past 2 GiB by appends comes back corrupt on this platform's Foundation
        // (past its 2^31st byte), which broke scripts/register-model.py once the labelled lines' states passed it.
        var number = 0
        while let line = readLine(strippingNewline: true) {
            number += 1
            let ids = model.tokens(for: line)
            let states: [[Float]]
            do { states = try model.tokenStates(tokens: ids, shouldCancel: { false }) } catch {
                throw UsageError(description: "standard input line \(number): \(error)")
            }
            var record = Data()
            append(Int32(ids.count), to: &record)
            for id in ids { append(id, to: &record) }
            for state in states { for value in state { append(value.bitPattern, to: &record) } }
            do { try file.write(contentsOf: record) } catch {
                throw UsageError(description: "cannot write \(output) at standard input line \(number): \(error)")
            }
        }
        FileHandle.standardError.write(Data("\(number) texts, \(model.dimensions) dimensions: \(output)\n".utf8))
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to data: inout Data) {
        withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
    }
}
