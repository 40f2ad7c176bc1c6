import Foundation

/// A Tandem config file as a test needs it, encoded by JSONEncoder (values with quotes or
/// backslashes stay valid JSON). `json` is the file's text.
public struct TestConfig: Encodable {
    /// A settings value: plugins get strings as they are and other values as JSON text.
    public enum Value: Encodable, Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral {
        case string(String)
        case integer(Int)
        case boolean(Bool)

        public init(stringLiteral value: String) { self = .string(value) }
        public init(integerLiteral value: Int) { self = .integer(value) }
        public init(booleanLiteral value: Bool) { self = .boolean(value) }

        public func encode(to encoder: Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .string(let text): try container.encode(text)
            case .integer(let number): try container.encode(number)
            case .boolean(let flag): try container.encode(flag)
            }
        }
    }

    public struct Backend: Encodable, Sendable {
        public var plugin: String
        public var settings: [String: Value]
        public var isolation: String?

        public init(plugin: String, settings: [String: Value] = [:], isolation: String? = nil) {
            self.plugin = plugin
            self.settings = settings
            self.isolation = isolation
        }

        /// The `tandem.fake` plugin with text settings.
        public static func fake(_ settings: [String: String], isolation: String? = nil) -> Backend {
            Backend(plugin: "tandem.fake", settings: settings.mapValues(Value.string), isolation: isolation)
        }
    }

    public enum Routing: Sendable {
        case mode(String)
        case primary(String, secondary: String? = nil)
    }

    /// The `quote` section.
    public struct Quote: Encodable, Sendable {
        public var judge: String?
        public var judgeMethod: String?
        public var escalateOn: [String]?
        public var embedder: String?
        public var wordFrequencies: String?

        public init(judge: String? = nil, judgeMethod: String? = nil, escalateOn: [String]? = nil, embedder: String? = nil,
                    wordFrequencies: String? = nil) {
            self.judge = judge
            self.judgeMethod = judgeMethod
            self.escalateOn = escalateOn
            self.embedder = embedder
            self.wordFrequencies = wordFrequencies
        }

        enum CodingKeys: String, CodingKey {
            case judge, embedder
            case judgeMethod = "judge_method"
            case escalateOn = "escalate_on"
            case wordFrequencies = "word_frequencies"
        }
    }

    public var pluginsDirectory: String
    public var routing: Routing
    public var backends: [String: Backend]
    public var store: String?
    public var quote: Quote?

    public init(pluginsDirectory: String = PackagePaths.plugins, routing: Routing, backends: [String: Backend],
                store: String? = nil, quote: Quote? = nil) {
        self.pluginsDirectory = pluginsDirectory
        self.routing = routing
        self.backends = backends
        self.store = store
        self.quote = quote
    }

    enum CodingKeys: String, CodingKey {
        case pluginsDirectory = "plugins_dir"
        case mode, primary, secondary, backends, store, quote
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(pluginsDirectory, forKey: .pluginsDirectory)
        switch routing {
        case .mode(let mode): try container.encode(mode, forKey: .mode)
        case .primary(let primary, let secondary):
            try container.encode(primary, forKey: .primary)
            try container.encodeIfPresent(secondary, forKey: .secondary)
        }
        try container.encode(backends, forKey: .backends)
        try container.encodeIfPresent(store, forKey: .store)
        try container.encodeIfPresent(quote, forKey: .quote)
    }

    /// The config's JSON text, keys sorted.
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding strings, numbers and booleans cannot fail.
        return String(decoding: try! encoder.encode(self), as: UTF8.self)
    }

    /// Writes `json` to `path`.
    public func write(to path: String) throws {
        try json.write(toFile: path, atomically: true, encoding: .utf8)
    }
}
