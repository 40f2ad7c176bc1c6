import Foundation
import LlamaEngine

/// `inspect FILE`: metadata and tensor table, like llama.cpp's gguf-dump, after the same check
/// the runner's load makes (`ModelCheck`): a file the runner refuses is refused here, with the
/// same message.
enum InspectCommand {
    static func run(_ args: inout Arguments) throws {
        let path = try args.positional("FILE")
        try args.finish()
        let file = try GGUFFile(path: path)
        let checked = try ModelCheck.check(file)
        print("GGUF v\(file.version), \(file.metadata.count) metadata entries, \(file.tensors.count) tensors, alignment \(file.alignment), data at byte \(file.dataOffset)")
        print("checked: \(checked.architecture), tokenizer \(checked.tokenizerKind) with \(checked.vocabularySize) tokens, \(checked.checkedTensors) tensors of the expected shapes")
        for key in file.metadataKeys {
            print("  \(key) = \(file.metadata[key]!.summary)")
        }
        for (i, t) in file.tensors.enumerated() {
            let dims = t.dimensions.map(String.init).joined(separator: " x ")
            func pad(_ s: String, _ n: Int) -> String { s.padding(toLength: max(n, s.count), withPad: " ", startingAt: 0) }
            print(String(format: "  %4d ", i) + pad(t.name, 28) + " " + pad(t.type.name, 5) + " " + pad(dims, 16) + String(format: " %10d bytes at %d", t.byteCount, t.fileOffset))
        }
    }
}
