import Foundation
import JSONModel
import LlamaEngine

/// `tokenize FILE TEXT [--bos] [--json]`: ids and pieces; special tokens are parsed; no BOS is
/// added unless --bos asks for it (and the model uses one).
enum TokenizeCommand {
    static func run(_ args: inout Arguments) throws {
        let path = try args.positional("FILE")
        let addBos = args.flag("--bos")
        let json = args.flag("--json")
        let text = try args.positional("TEXT")
        try args.finish()
        let tokenizer = try Tokenizer(gguf: GGUFFile(path: path))
        let ids = tokenizer.encode(text, addSpecial: addBos, parseSpecial: true)
        let pieces = ids.map { tokenizer.piece($0) }
        if json {
            let rendered = pieces.map { bytes in
                String(validating: bytes, as: UTF8.self).map { JSONValue.string($0).jsonText } ?? "[\(bytes.map(String.init).joined(separator: ","))]"
            }
            print("{\"ids\": \(ids), \"pieces\": [\(rendered.joined(separator: ", "))]}")
        } else {
            for (id, bytes) in zip(ids, pieces) {
                let shown = String(validating: bytes, as: UTF8.self).map { "\"\($0)\"" } ?? "bytes \(bytes)"
                print("\(id)\t\(shown)")
            }
        }
    }
}
