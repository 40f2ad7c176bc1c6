import Foundation
import Testing
@testable import Tandem

/// From a config to a hybrid model: modes resolved through kinds, explicit pairs, backends that
/// cannot be opened.
@Suite struct HostTests {
    func host(_ backends: [String: [String: String]], routing: String, plugin: String = "tandem.fake") throws -> TandemHost {
        let entries = backends.sorted { $0.key < $1.key }.map { id, settings in
            let pairs = settings.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \"\($0.value)\"" }.joined(separator: ", ")
            return "\"\(id)\": {\"plugin\": \"\(plugin)\", \"settings\": {\(pairs)}}"
        }
        let text = #"{"plugins_dir": "\#(ModelFactory.pluginsDirectory)", "backends": {\#(entries.joined(separator: ", "))}, \#(routing)}"#
        return TandemHost.open(try TandemConfig.parse(Data(text.utf8), file: "/tmp/host-test.json"))
    }

    func configError(_ body: () throws -> Void) -> ConfigError? {
        do {
            try body()
            return nil
        } catch let error as ConfigError {
            return error
        } catch {
            Issue.record("unexpected \(error)")
            return nil
        }
    }

    @Test(arguments: RoutingMode.allCases)
    func modeIsResolvedThroughTheBackendsKinds(mode: RoutingMode) throws {
        let host = try host(["a": ["kind": "cloud"], "b": ["kind": "local"]], routing: #""mode": "\#(mode)""#)
        let model = try host.hybridModel()
        #expect(model.primary.kind == mode.primaryKind)
        #expect(model.secondary?.kind == mode.secondaryKind)
        #expect(model.primary.id == (mode.primaryKind == .local ? "b" : "a"))
    }

    @Test func explicitPairAndCommandLineOverride() throws {
        let host = try host(["a": ["kind": "local"], "b": ["kind": "local"]], routing: #""primary": "b", "secondary": "a""#)
        let model = try host.hybridModel()
        #expect(model.primary.id == "b" && model.secondary?.id == "a")
        let overridden = try host.hybridModel(routing: .explicit(primary: "a", secondary: nil))
        #expect(overridden.primary.id == "a" && overridden.secondary == nil)
        let unknown = configError { _ = try host.hybridModel(routing: .explicit(primary: "zz", secondary: nil)) }
        #expect(unknown?.keyPath == "primary")
        #expect(unknown?.message.contains("unknown backend id \"zz\"") == true)
    }

    @Test func ambiguousOrMissingKindIsAConfigError() throws {
        let twoLocals = try host(["a": ["kind": "local"], "b": ["kind": "local"], "c": ["kind": "cloud"]], routing: #""mode": "prefer-local""#)
        let ambiguous = configError { _ = try twoLocals.hybridModel() }
        #expect(ambiguous?.keyPath == "mode")
        #expect(ambiguous?.message.contains("found a, b: set primary/secondary instead") == true)

        let noCloud = try host(["a": ["kind": "local"]], routing: #""mode": "prefer-local""#)
        #expect(configError { _ = try noCloud.hybridModel() }?.message == "prefer-local needs a backend of kind cloud, found none")
        #expect(try noCloud.hybridModel(routing: .mode(.localOnly)).primary.id == "a")
    }

    /// A second local model kept for the quote pipeline (its judge, its drafter, or both) does not
    /// make the mode ambiguous; the only one of its kind takes part in routing as before.
    @Test func theQuotePipelinesOwnBackendsArePassedOverByAMode() throws {
        for quote in [#"{"judge": "a"}"#, #"{"draft": "a"}"#, #"{"judge": "a", "draft": "a"}"#] {
            let withQuoteModel = try host(["a": ["kind": "local"], "b": ["kind": "local"], "c": ["kind": "cloud"]],
                                          routing: #""mode": "prefer-local", "quote": "# + quote)
            let model = try withQuoteModel.hybridModel()
            #expect(model.primary.id == "b" && model.secondary?.id == "c", "\(quote)")
            #expect(try withQuoteModel.hybridModel(routing: .mode(.localOnly)).primary.id == "b", "\(quote)")
        }

        let bothQuoteModels = try host(["a": ["kind": "local"], "b": ["kind": "local"]],
                                       routing: #""mode": "local-only", "quote": {"judge": "a", "draft": "b"}"#)
        #expect(configError { _ = try bothQuoteModels.hybridModel() }?.message.contains("found a, b: set primary/secondary instead") == true)

        let onlyLocal = try host(["a": ["kind": "local"], "c": ["kind": "cloud"]], routing: #""mode": "prefer-local", "quote": {"judge": "a"}"#)
        #expect(try onlyLocal.hybridModel().primary.id == "a")
    }

    @Test func backendThatCannotOpenIsRecordedAndNamed() throws {
        let host = try host(["a": ["kind": "local", "replyy": "x"], "b": ["kind": "cloud"]], routing: #""primary": "a""#)
        #expect(host.models.keys.sorted() == ["b"])
        let failure = try #require(host.openFailures["a"])
        #expect(failure.keyPath == "backends.a.settings")
        #expect(failure.message.contains("replyy"))
        #expect(configError { _ = try host.hybridModel() } == failure)

        let missing = try self.host(["a": ["kind": "local"]], routing: #""primary": "a""#, plugin: "tandem.absent")
        #expect(missing.openFailures["a"]?.keyPath == "backends.a.plugin")
        #expect(missing.openFailures["a"]?.message.contains("no plugin \"tandem.absent\"") == true)
    }
}
