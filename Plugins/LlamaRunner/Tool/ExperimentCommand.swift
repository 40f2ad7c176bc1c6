import Foundation
import LlamaEngine

/// Scratch: per line, log P(line | prefix) for each prefix. stdin: lines; args: FILE PREFIXFILE...
enum ExperimentCommand {
    static func run(_ args: inout Arguments) throws {
        let path = try args.positional("FILE")
        let prefixFile = try args.positional("PREFIXES")
        let linesFile = try args.positional("LINES")
        let threads = try args.intOption("-t", "--threads", default: 2)
        try args.finish()
        let model = try LlamaModel(path: path, threads: threads)
        let tok = model.tokenizer
        let prefixes = try String(contentsOfFile: prefixFile, encoding: .utf8).components(separatedBy: "\n====\n")
        let lines = try String(contentsOfFile: linesFile, encoding: .utf8).split(separator: "\n").map(String.init)
        let sessions = prefixes.map { _ in LlamaSession(model: model, contextLength: 2048) }
        for line in lines {
            var out: [String] = []
            for (pi, p) in prefixes.enumerated() {
                let session = sessions[pi]
                let pre = tok.encode(p, addSpecial: true, parseSpecial: true)
                let full = tok.encode(p + line, addSpecial: true, parseSpecial: true)
                var k = 0
                while k < pre.count && k < full.count && pre[k] == full[k] { k += 1 }
                let kept = session.keepSharedPrefix(of: full)
                var sum = 0.0
                var n = 0
                let start = kept
                try session.evaluate(Array(full[start...]), outputs: .allLogits) { i, logits in
                    let pos = start + i  // logits predict token pos+1
                    guard pos + 1 < full.count, pos + 1 >= k else { return }
                    var m: Float = -.infinity
                    for v in logits { m = max(m, v) }
                    var s = 0.0
                    for v in logits { s += exp(Double(v - m)) }
                    sum += Double(logits[Int(full[pos + 1])] - m) - log(s)
                    n += 1
                }
                out.append(String(format: "%.4f %d", sum, n))
            }
            print(out.joined(separator: "\t") + "\t" + line)
        }
    }
}
