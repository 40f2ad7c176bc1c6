import Foundation
import Testing
@testable import Tandem

/// The config file: shape, key paths in errors, unknown keys, where it is found.
@Suite struct ConfigTests {
    static let valid = """
        {
          "plugins_dir": "plugins.d",
          "backends": {
            "local": {"plugin": "tandem.fake", "settings": {"kind": "local", "token_delay_ms": 5, "hang": false,
                                                             "ratio": 0.5, "list": [1, "a"], "nested": {"b": 1, "a": true}}},
            "cloud": {"plugin": "tandem.fake"}
          },
          "mode": "prefer-cloud",
          "store": "/var/lib/tandem/library.sqlite",
          "fallback": {"also_on": ["rateLimited", "serverError", "notConfigured", "unknown"]}
        }
        """

    func parse(_ text: String) throws(ConfigError) -> TandemConfig {
        try TandemConfig.parse(Data(text.utf8), file: "/etc/tandem/tandem.json")
    }

    func failure(_ text: String) -> ConfigError? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error
        }
    }

    /// The folder plugins anchor relative path settings to: absolute even for `--config tandem.json`.
    @Test func directoryIsTheConfigFilesAbsoluteFolder() throws {
        let cwd = FileManager.default.currentDirectoryPath
        func directory(_ file: String) throws -> String { try TandemConfig.parse(Data(Self.valid.utf8), file: file).directory }
        #expect(try directory("/etc/tandem/tandem.json") == "/etc/tandem")
        #expect(try directory("/tandem.json") == "/")
        #expect(try directory("tandem.json") == cwd)
        #expect(try directory("./tandem.json") == cwd)
        #expect(try directory("proj/tandem.json") == cwd + "/proj")
    }

    @Test func readsEveryKeyAndFlattensSettingsToText() throws {
        let config = try parse(Self.valid)
        #expect(config.pluginsDirectory == "/etc/tandem/plugins.d", "relative to the config file")
        #expect(config.routing == .mode(.preferCloud))
        #expect(config.store == "/var/lib/tandem/library.sqlite")
        // Error codes and availability reasons; `unknown` and `rateLimited` are both and widen both.
        #expect(config.fallbackPolicy == FallbackPolicy(
            additionalCloudFailures: [.rateLimited, .serverError, .unknown],
            additionalCloudUnavailability: [.notConfigured, .unknown, .rateLimited]))
        #expect(config.backends["cloud"] == TandemConfig.BackendEntry(plugin: "tandem.fake", settings: [:]))
        #expect(config.backends["local"]?.settings == [
            "kind": "local", "token_delay_ms": "5", "hang": "false", "ratio": "0.5", "list": #"[1,"a"]"#,
            "nested": #"{"a":true,"b":1}"#,
        ])
    }

    /// Each backend runs in a child process unless its entry opts into the host's process.
    @Test func isolationDefaultsToProcessAndUnknownValuesNameTheirKeyPath() throws {
        let config = try parse("""
            {"plugins_dir": "p", "backends": {"a": {"plugin": "x"}, "b": {"plugin": "y", "isolation": "in-process"},
             "c": {"plugin": "z", "isolation": "process"}}, "primary": "a"}
            """)
        #expect(config.backends["a"]?.isolation == .process)
        #expect(config.backends["b"]?.isolation == .inProcess)
        #expect(config.backends["c"]?.isolation == .process)
        let unknown = failure(#"{"plugins_dir": "p", "backends": {"a": {"plugin": "x", "isolation": "sandbox"}}, "primary": "a"}"#)
        #expect(unknown?.code == .invalidValue)
        #expect(unknown?.keyPath == "backends.a.isolation")
        #expect(unknown?.message == #"unknown isolation "sandbox" (expected "process" or "in-process")"#)
        let wrongType = failure(#"{"plugins_dir": "p", "backends": {"a": {"plugin": "x", "isolation": true}}, "primary": "a"}"#)
        #expect(wrongType?.code == .wrongType)
        #expect(wrongType?.keyPath == "backends.a.isolation")
    }

    @Test func explicitPrimaryAndSecondary() throws {
        let config = try parse("""
            {"plugins_dir": "p", "backends": {"a": {"plugin": "x"}, "b": {"plugin": "y"}}, "primary": "b", "secondary": "a"}
            """)
        #expect(config.routing == .explicit(primary: "b", secondary: "a"))
        #expect(config.fallbackPolicy == .default)
        #expect(config.store == nil)
        let single = try parse(#"{"plugins_dir": "p", "backends": {"a": {"plugin": "x"}}, "primary": "a"}"#)
        #expect(single.routing == .explicit(primary: "a", secondary: nil))
    }

    /// Listing backends, availability and embeddings need no routing; routing without it is the
    /// config error that names `mode`.
    @Test func routingIsOptionalUntilSomethingRoutes() throws {
        let config = try parse(#"{"plugins_dir": "p", "backends": {}}"#)
        #expect(config.routing == nil)
        let error = #expect(throws: ConfigError.self) { try TandemHost.open(config).hybridModel() }
        #expect(error?.code == .missingKey)
        #expect(error?.keyPath == "mode")
        #expect(error?.file == "/etc/tandem/tandem.json")
        #expect(error?.message == "missing (expected mode, or primary with an optional secondary)")
        // An override is routed (here to no backend at all, which is its own error).
        let override = #expect(throws: ConfigError.self) { try TandemHost.open(config).hybridModel(routing: .mode(.localOnly)) }
        #expect(override?.message.contains("local-only needs a backend of kind local") == true, "\(String(describing: override))")
    }

    @Test(arguments: [
        ("{", ConfigError.Code.malformedJSON, "", "malformed JSON"),
        ("[]", .wrongType, "", "expected an object, found an array"),
        (#"{"plugins_dir": "p", "backends": {}, "mode": "prefer-local", "modes": 1}"#, .unknownKey, "modes", "unknown key"),
        (#"{"backends": {}, "mode": "prefer-local"}"#, .missingKey, "plugins_dir", "missing"),
        (#"{"plugins_dir": 3, "backends": {}, "mode": "prefer-local"}"#, .wrongType, "plugins_dir", "expected a string, found a number"),
        (#"{"plugins_dir": "p", "mode": "prefer-local"}"#, .missingKey, "backends", "missing"),
        (#"{"plugins_dir": "p", "backends": [], "mode": "prefer-local"}"#, .wrongType, "backends", "expected an object, found an array"),
        (#"{"plugins_dir": "p", "backends": {"a": {"plugin": true}}, "mode": "prefer-local"}"#, .wrongType, "backends.a.plugin", "expected a string, found a boolean"),
        (#"{"plugins_dir": "p", "backends": {"a": {"settings": {}}}, "mode": "prefer-local"}"#, .missingKey, "backends.a.plugin", "missing"),
        (#"{"plugins_dir": "p", "backends": {"a": {"plugin": "x", "setings": {}}}, "mode": "prefer-local"}"#, .unknownKey, "backends.a.setings", "unknown key"),
        (#"{"plugins_dir": "p", "backends": {"a": {"plugin": "x", "settings": []}}, "mode": "prefer-local"}"#, .wrongType, "backends.a.settings", "expected an object"),
        (#"{"plugins_dir": "p", "backends": {"a": {"plugin": "x", "settings": {"k": null}}}, "mode": "prefer-local"}"#, .wrongType, "backends.a.settings.k", "found null"),
        (#"{"plugins_dir": "p", "backends": {}, "mode": "prefer-lokal"}"#, .invalidValue, "mode", #"unknown mode "prefer-lokal""#),
        (#"{"plugins_dir": "p", "backends": {}, "mode": 1}"#, .wrongType, "mode", "expected a string"),
        (#"{"plugins_dir": "p", "backends": {"a": {"plugin": "x"}}, "primary": "z"}"#, .invalidValue, "primary", #"unknown backend id "z" (configured: a)"#),
        (#"{"plugins_dir": "p", "backends": {"a": {"plugin": "x"}}, "primary": "a", "secondary": "b"}"#, .invalidValue, "secondary", "unknown backend id"),
        (#"{"plugins_dir": "p", "backends": {"a": {"plugin": "x"}}, "primary": "a", "secondary": "a"}"#, .invalidValue, "secondary", "must differ"),
        (#"{"plugins_dir": "p", "backends": {"a": {"plugin": "x"}}, "primary": "a", "mode": "local-only"}"#, .invalidValue, "mode", "not both"),
        (#"{"plugins_dir": "p", "backends": {}, "mode": "local-only", "secondary": "a"}"#, .invalidValue, "secondary", "needs primary"),
        (#"{"plugins_dir": "p", "backends": {}, "mode": "local-only", "store": false}"#, .wrongType, "store", "expected a string"),
        (#"{"plugins_dir": "p", "backends": {}, "mode": "local-only", "fallback": {"also_on": "rateLimited"}}"#, .wrongType, "fallback.also_on", "expected an array"),
        (#"{"plugins_dir": "p", "backends": {}, "mode": "local-only", "fallback": {"also_on": ["ratelimited"]}}"#, .invalidValue, "fallback.also_on[0]",
         #"unknown name "ratelimited": expected an availability reason (deviceNotEligible, notEnabled, modelNotReady, unsupportedLocale, notConfigured, offline, unknown, rateLimited) or an error code (unknown, incompatible"#),
        (#"{"plugins_dir": "p", "backends": {}, "mode": "local-only", "fallback": {"also_on": ["offline", "ok"]}}"#, .invalidValue, "fallback.also_on[1]", #"unknown name "ok""#),
        (#"{"plugins_dir": "p", "backends": {}, "mode": "local-only", "fallback": {"also_on": ["cancelled"]}}"#, .invalidValue, "fallback.also_on[0]", "cancelled is refused: cancellation never falls back"),
        (#"{"plugins_dir": "p", "backends": {}, "mode": "local-only", "fallback": {"always": true}}"#, .unknownKey, "fallback.always", "unknown key"),
    ])
    func badConfigNamesFileKeyPathAndExpectation(text: String, code: ConfigError.Code, keyPath: String, message: String) {
        let error = failure(text)
        #expect(error?.code == code, "\(error.map(String.init(describing:)) ?? "no error")")
        #expect(error?.keyPath == keyPath)
        #expect(error?.file == "/etc/tandem/tandem.json")
        #expect(error?.message.contains(message) == true, "\(error?.message ?? "")")
        #expect(error?.description.hasPrefix("/etc/tandem/tandem.json: ") == true)
    }

    /// The parser's offset of the first bad byte, as a line and column a person can go to.
    @Test func malformedJSONNamesTheLineColumnAndByte() {
        let error = failure("{\n  \"plugins_dir\": \"p\",\n  \"backends\": {,}\n}")
        #expect(error?.code == .malformedJSON)
        #expect(error?.message.hasPrefix("malformed JSON at line 3, column 16 (byte 39): expected a property name") == true, "\(error?.message ?? "")")
        #expect(error?.description.hasPrefix("/etc/tandem/tandem.json: malformed JSON at line 3") == true)
    }

    @Test func missingFileIsNotFound() throws {
        #expect(throws: ConfigError.self) { try TandemConfig.load(from: "/nonexistent/tandem.json") }
    }

    @Test func locationOrderIsFlagThenEnvironmentThenBinaryThenWorkingDirectory() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-config-\(UUID())").path
        let binary = folder + "/bin", work = folder + "/work"
        try FileManager.default.createDirectory(atPath: binary, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func resolve(_ explicit: String?, _ env: [String: String]) throws(ConfigError) -> String {
            try ConfigLocation.resolve(explicit: explicit, environment: env, executableDirectory: binary, workingDirectory: work)
        }
        #expect(throws: ConfigError.self) { try resolve(nil, [:]) }
        #expect(FileManager.default.createFile(atPath: work + "/tandem.json", contents: Data()))
        #expect(try resolve(nil, [:]) == work + "/tandem.json")
        #expect(FileManager.default.createFile(atPath: binary + "/tandem.json", contents: Data()))
        #expect(try resolve(nil, [:]) == binary + "/tandem.json")
        #expect(try resolve(nil, ["TANDEM_CONFIG": "/x.json"]) == "/x.json")
        #expect(try resolve("/flag.json", ["TANDEM_CONFIG": "/x.json"]) == "/flag.json")
    }
}
