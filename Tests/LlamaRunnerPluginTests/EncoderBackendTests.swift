import Foundation
import PluginFixtures
import Tandem
import Testing

/// `tandem.llama` with an encoder file (multilingual-e5-small): an embeddings-only local backend,
/// through the real plugin and, for routing and `tandem embed`, the real host and binary.
@Suite(.serialized) struct EncoderBackendTests {
    static let modelPath = RunnerPlugin.packageRoot + "/models/multilingual-e5-small.Q4_0.gguf"
    static let shared: Result<PluginBackend, BackendFailure> = Result { () throws(BackendFailure) in
        try RunnerPlugin.plugin().openModel(backendID: "embedder", settings: ["model": modelPath, "threads": "2"])
    }
    /// EmbeddingGemma-300m (architecture gemma-embedding) with its model card's prompt for
    /// sentence similarity, as the repo's tandem.json configures it.
    static let embeddingGemma: Result<PluginBackend, BackendFailure> = Result { () throws(BackendFailure) in
        try RunnerPlugin.plugin().openModel(backendID: "embeddinggemma", settings: [
            "model": RunnerPlugin.packageRoot + "/models/embeddinggemma-300m.Q8_0.gguf", "threads": "2",
            "embedding_prefix": "task: sentence similarity | query: ",
        ])
    }

    struct Reference: Decodable {
        struct Item: Decodable { let text: String; let vector: [Float] }
        let items: [Item]
    }

    static func cosine(_ a: [Float], _ b: [Float]) -> Float { zip(a, b).reduce(0) { $0 + $1.0 * $1.1 } }

    @Test func opensAsALocalEmbeddingsOnlyModelNamedAfterTheFile() throws {
        let info = try Self.shared.get().info
        #expect(info.id == "multilingual-e5-small-q4_0")
        #expect(info.kind == .local)
        #expect(info.capabilities == [.embeddings, .embeddingsOnly, .deterministic])
        #expect(info.embeddingDimensions == 384)
        #expect(info.contextLength == 512)
        #expect(try Self.shared.get().availability(locale: "pt-BR") == .available)
    }

    @Test func embedsLikeTheReferenceEngineWithTheQueryPrefix() throws {
        let reference = try JSONDecoder().decode(Reference.self, from: Data(contentsOf: URL(
            fileURLWithPath: RunnerPlugin.packageRoot + "/Tests/Reference/multilingual-e5-small/reference.json")))
        let items = Array(reference.items.filter { !$0.text.isEmpty }.prefix(12))
        let vectors = try Self.shared.get().embed(items.map(\.text), cancellation: CancellationToken())
        #expect(vectors.count == items.count)
        for (item, vector) in zip(items, vectors) {
            #expect(Self.cosine(item.vector, vector) >= 0.99, "\(item.text)")
        }
    }

    @Test func theEmptyTextIsTheZeroVectorAndEmojiOrHugeTextsEmbed() throws {
        let huge = Array(repeating: "Wort", count: 10_000).joined(separator: " ")
        let head = Array(repeating: "Wort", count: 700).joined(separator: " ")
        let vectors = try Self.shared.get().embed(["", "🎉🙂🌍", huge, head], cancellation: CancellationToken())
        #expect(vectors[0] == [Float](repeating: 0, count: 384))
        for v in vectors[1...] { #expect(abs(v.reduce(0) { $0 + $1 * $1 } - 1) < 1e-4) }
        // A text past 512 tokens is cut: only its head is read.
        #expect(vectors[2] == vectors[3])
    }

    /// The plugin embeds a request's texts together (several per encoder pass); each vector is
    /// the one that text gets alone, bit for bit, and empty texts keep their places.
    @Test func aRequestsTextsEmbedAsEachWouldAlone() throws {
        let backend = try Self.shared.get()
        let texts = ["Olá mundo", "", "A cat is sleeping on the warm windowsill.", Array(repeating: "Wort", count: 700).joined(separator: " "), "Hallo"]
        let together = try backend.embed(texts, cancellation: CancellationToken())
        let alone = try texts.map { try backend.embed([$0], cancellation: CancellationToken())[0] }
        #expect(together == alone)
        #expect(together[1] == [Float](repeating: 0, count: 384))
        let cancelled = CancellationToken()
        cancelled.cancel()
        #expect { try backend.embed(texts, cancellation: cancelled) } throws: { error in
            (error as? BackendFailure)?.status == .cancelled
        }
    }

    /// A text's embedding and its token states come from one pass, in either order (the novelty
    /// gate asks for both): each equals what a pass of its own gives, bit for bit.
    @Test func embeddingAndTokenStatesOfOneTextShareItsPass() throws {
        let backend = try Self.shared.get()
        let (a, b) = ("Carry the spare key to your neighbour before the rain.", "Bake two loaves on Saturday.")
        let vector = try backend.embed([a], cancellation: CancellationToken())[0]
        let statesAfterEmbed = try backend.tokenEmbeddings(a, cancellation: CancellationToken())
        _ = try backend.embed([b], cancellation: CancellationToken())
        let statesAlone = try backend.tokenEmbeddings(a, cancellation: CancellationToken())
        let vectorAfterStates = try backend.embed([a], cancellation: CancellationToken())[0]
        _ = try backend.tokenEmbeddings(b, cancellation: CancellationToken())
        #expect(statesAfterEmbed == statesAlone)
        #expect(vectorAfterStates == vector)
        #expect(try backend.embed([a, b], cancellation: CancellationToken())[0] == vector)
    }

    @Test func generateIsRefusedNamingTheModel() throws {
        let request = BackendRequest(messages: [Message(role: .user, content: "Hello")])
        #expect { try Self.shared.get().collect(request) } throws: { error in
            guard let failure = error as? BackendFailure else { return false }
            return failure.status == .unsupportedOption && failure.message.contains("multilingual-e5-small-q4_0 is an embedding model")
        }
    }

    @Test func thePrefixSettingChangesWhatIsEmbedded() throws {
        let passage = try RunnerPlugin.plugin().openModel(
            backendID: "passages", settings: ["model": Self.modelPath, "threads": "1", "embedding_prefix": "passage: "])
        let text = "A cat is sleeping on the warm windowsill."
        let q = try Self.shared.get().embed([text], cancellation: CancellationToken())[0]
        let p = try passage.embed([text], cancellation: CancellationToken())[0]
        #expect(q != p)
        #expect(Self.cosine(q, p) > 0.9)
        #expect {
            try RunnerPlugin.open(["embedding_prefix": "passage: "])
        } throws: { error in
            (error as? BackendFailure)?.message.contains("embedding_prefix: applies only to an embedding model") == true
        }
    }

    /// A cut or missing file cannot say it is an encoder; `embedding_prefix` does. The backend is
    /// then embeddings-only (routing passes it over) and its availability names the problem.
    @Test func aCorruptOrMissingFileIsUnavailableWithTheReason() throws {
        let folder = try RunnerPlugin.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/e5.gguf"
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: Self.modelPath))
        try handle.readData(ofLength: 30 << 20).write(to: URL(fileURLWithPath: path))
        for (file, expected) in [(path, "partial: tensor"), (folder + "/absent.gguf", "missing: no file at \(folder)/absent.gguf")] {
            let backend = try RunnerPlugin.plugin().openModel(backendID: "cut", settings: ["model": file, "embedding_prefix": "query: "])
            #expect(backend.info.capabilities == [.embeddingsOnly])
            guard case .unavailable(.modelNotReady, let detail, _) = backend.availability(locale: nil) else {
                Issue.record("\(file) is available")
                continue
            }
            #expect(detail.contains(expected), "\(detail)")
            #expect { try backend.collect(BackendRequest(messages: [Message(role: .user, content: "Hello")])) } throws: { error in
                (error as? BackendFailure)?.message.contains("is an embedding model") == true
            }
        }
    }

    /// Beside the chat model, the encoder does not count as a second local backend: a mode
    /// routes over the backends that generate. `tandem embed` finds the encoder by itself.
    @Test func routingPassesOverTheEncoderAndEmbedFindsIt() throws {
        let folder = try RunnerPlugin.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try TestConfig(routing: .mode("local-only"), backends: [
            "local": .init(plugin: "tandem.llama", settings: ["model": .string(RunnerPlugin.modelPath), "context": 256, "threads": 1]),
            "embedder": .init(plugin: "tandem.llama", settings: ["model": .string(Self.modelPath), "threads": 1]),
        ]).write(to: folder + "/tandem.json")
        let host = TandemHost.open(try TandemConfig.load(from: folder + "/tandem.json"))
        #expect(try host.hybridModel().primary.id == "local")

        let text = try runBuilt(["--config", folder + "/tandem.json", "embed", "Hallo Welt", "Olá mundo"])
        #expect(text.status == 0, "\(text.stderr)")
        let lines = text.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { $0.split(separator: " ").count == 384 })
        let json = try runBuilt(["--config", folder + "/tandem.json", "embed", "--json", "Hallo Welt"])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
        #expect(object["backend"] as? String == "embedder")
        #expect(object["model"] as? String == "multilingual-e5-small-q4_0")
        #expect((object["vectors"] as? [[Double]])?.first?.count == 384)
        let first = lines[0].split(separator: " ").map { Float($0)! }
        #expect(Self.cosine(first, (object["vectors"] as! [[Double]])[0].map(Float.init)) > 0.99999)

        let wrong = try runBuilt(["--config", folder + "/tandem.json", "embed", "--backend", "nope", "x"])
        #expect(wrong.status == 3 && wrong.stderr.contains("unknown backend id \"nope\""), "\(wrong.stderr)")
        let none = try runBuilt(["--config", folder + "/tandem.json", "embed"])
        #expect(none.status == 2 && none.stderr.contains("no text given"), "\(none.stderr)")
    }
}
