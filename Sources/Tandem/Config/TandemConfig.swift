import Foundation
import JSONModel

/// The one JSON config file of a Tandem host.
///
///     {
///       "plugins_dir": "plugins.d",
///       "backends": {
///         "local": {"plugin": "tandem.fake", "settings": {"kind": "local"}},
///         "cloud": {"plugin": "tandem.fake", "settings": {"kind": "cloud"}, "isolation": "in-process"}
///       },
///       "mode": "prefer-local",
///       "store": "tandem.sqlite",
///       "fallback": {"also_on": ["rateLimited"]},
///       "quote": {"draft": "local", "draft_prompt": "instructions", "judge": "cloud", "judge_method": "scores", "embedder": "local",
///                 "escalate_on": ["length", "judge"],
///                 "word_frequencies": "models/word-frequencies"}
///     }
///
/// Either `mode` (resolved through the backends' kinds) or `primary` with an optional
/// `secondary`; neither is needed by what does not route (listing backends, availability,
/// embeddings), and routing without them is an error naming `mode`. Relative paths are relative to the config file's folder. Unknown keys are
/// errors.
public struct TandemConfig: Hashable, Sendable {
    /// How the hybrid pair is chosen.
    public enum Routing: Hashable, Sendable {
        case mode(RoutingMode)
        case explicit(primary: String, secondary: String?)
    }

    /// One configured backend: which plugin opens it, its settings flattened to text (strings
    /// as they are; numbers, booleans, arrays and objects as JSON text), and where it runs.
    public struct BackendEntry: Hashable, Sendable {
        public var plugin: String
        public var settings: [String: String]
        public var isolation: BackendIsolation = .process
    }

    /// The file this was read from.
    public var file: String
    /// The absolute folder of `file` (a relative `file` is taken from the working directory).
    /// Plugins resolve relative path settings against it (`tandem_host.config_directory`), as the
    /// host resolves `plugins_dir` and `store`.
    public var directory: String {
        let folder = (file as NSString).deletingLastPathComponent
        if folder.hasPrefix("/") { return folder }
        let workingDirectory = FileManager.default.currentDirectoryPath
        return folder.isEmpty || folder == "." ? workingDirectory : (workingDirectory as NSString).appendingPathComponent(folder)
    }
    public var pluginsDirectory: String
    /// Backend id → entry.
    public var backends: [String: BackendEntry]
    /// nil when the file gives neither `mode` nor `primary`.
    public var routing: Routing?
    /// Database path, when set.
    public var store: String?
    public var fallbackPolicy: FallbackPolicy
    /// The quote pipeline's own backends (`quote.judge`, `quote.embedder`); nil when unset.
    public var quote: QuoteBackends = QuoteBackends()
    /// The folder of the distinctiveness score's word-frequency tables (`quote.word_frequencies`;
    /// default `models/word-frequencies` next to the config file, where `make word-frequencies` puts them).
    public var wordFrequencies: String?
    public var wordFrequenciesDirectory: String {
        wordFrequencies ?? (directory as NSString).appendingPathComponent("models/word-frequencies")
    }

    /// Backend ids the quote pipeline uses besides the routed model, and how it asks for drafts.
    public struct QuoteBackends: Hashable, Sendable {
        /// Writes the drafts (the routed secondary still takes escalations); nil: the routed model.
        public var draft: String?
        /// How drafts are asked for: "instructions" (an instruction-tuned model) or "few-shot" (a
        /// base model continues a list of curated quotes); nil: "instructions".
        public var draftPrompt: String?
        public static let draftPromptStyles = ["instructions", "few-shot"]
        /// Judges drafts in its own session; nil: the draft's routed model judges.
        public var judge: String?
        /// How the judge judges: "scores" (it is asked for four 1–10 scores as JSON) or
        /// "likelihood" (its likelihood of the draft after good and after generic example lines;
        /// needs a backend offering tandem.log_likelihood/1); nil: "scores".
        public var judgeMethod: String?
        public static let judgeMethods = ["scores", "likelihood"]
        /// Embeds quotes for the novelty gate (needs the embeddings capability); nil: the
        /// model-free lexical embedder.
        public var embedder: String?
        /// The quote gates whose failure on a primary's draft sends the next attempt to the
        /// secondary (names checked by the quote binding); nil: every gate.
        public var escalateOn: [String]?
    }

    /// Reads and checks a config file.
    public static func load(from path: String) throws(ConfigError) -> TandemConfig {
        guard let data = FileManager.default.contents(atPath: path) else {
            let exists = FileManager.default.fileExists(atPath: path)
            throw ConfigError(exists ? .unreadable : .notFound, file: path, keyPath: "", exists ? "cannot be read" : "no such file")
        }
        return try parse(data, file: path)
    }

    /// Checks config text; `file` names it in errors and anchors relative paths.
    public static func parse(_ data: Data, file: String) throws(ConfigError) -> TandemConfig {
        let root: JSONValue
        do {
            root = try JSONValue(parsing: data)
        } catch {
            throw ConfigError(.malformedJSON, file: file, keyPath: "", "malformed JSON at \(Self.location(of: error.byteOffset, in: data)): \(error.message)")
        }
        var reader = ConfigReader(file: file)
        return try reader.config(root)
    }

    /// "line L, column C (byte B)" of a byte offset, lines and columns counted from 1 (columns in bytes).
    private static func location(of offset: Int, in data: Data) -> String {
        var line = 1, lineStart = 0
        for (index, byte) in data.prefix(offset).enumerated() where byte == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        return "line \(line), column \(offset - lineStart + 1) (byte \(offset))"
    }
}

/// Walks the decoded JSON, keeping the key path for errors.
private struct ConfigReader {
    let file: String

    func error(_ code: ConfigError.Code, _ path: String, _ message: String) -> ConfigError {
        ConfigError(code, file: file, keyPath: path, message)
    }

    func object(_ value: JSONValue, _ path: String, allowed: Set<String>) throws(ConfigError) -> JSONObject {
        guard case .object(let members) = value else {
            throw error(.wrongType, path, "expected an object, found \(JSONValue.kindName(value))")
        }
        if let unknown = members.keys.sorted().first(where: { !allowed.contains($0) }) {
            let known = allowed.sorted().joined(separator: ", ")
            throw error(.unknownKey, join(path, unknown), "unknown key (expected one of: \(known))")
        }
        return members
    }

    func string(_ value: JSONValue, _ path: String) throws(ConfigError) -> String {
        guard case .string(let text) = value else { throw error(.wrongType, path, "expected a string, found \(JSONValue.kindName(value))") }
        guard !text.isEmpty else { throw error(.invalidValue, path, "expected a non-empty string") }
        return text
    }

    /// An array of non-empty strings; an item of another kind is named by its index.
    func stringList(_ value: JSONValue, _ path: String) throws(ConfigError) -> [String] {
        guard case .array(let items) = value else { throw error(.wrongType, path, "expected an array of strings, found \(JSONValue.kindName(value))") }
        var strings: [String] = []
        for (index, item) in items.enumerated() { strings.append(try string(item, "\(path)[\(index)]")) }
        return strings
    }

    func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// A path relative to the config file's folder.
    func resolve(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        let folder = (file as NSString).deletingLastPathComponent
        return folder.isEmpty ? path : (folder as NSString).appendingPathComponent(path)
    }

    mutating func config(_ root: JSONValue) throws(ConfigError) -> TandemConfig {
        let top = try object(root, "", allowed: ["plugins_dir", "backends", "mode", "primary", "secondary", "store", "fallback", "quote"])
        guard let pluginsValue = top["plugins_dir"] else { throw error(.missingKey, "plugins_dir", "missing (expected a folder path)") }
        let pluginsDirectory = resolve(try string(pluginsValue, "plugins_dir"))

        guard let backendsValue = top["backends"] else {
            throw error(.missingKey, "backends", "missing (expected an object mapping backend ids to {plugin, settings})")
        }
        guard case .object(let backendMembers) = backendsValue else {
            throw error(.wrongType, "backends", "expected an object, found \(JSONValue.kindName(backendsValue))")
        }
        var backends: [String: TandemConfig.BackendEntry] = [:]
        for (id, value) in backendMembers.sorted(by: { $0.key < $1.key }) {
            backends[id] = try backend(value, "backends.\(id)")
        }

        let routing: TandemConfig.Routing?
        switch (top["mode"], top["primary"]) {
        case (.some, .some):
            throw error(.invalidValue, "mode", "give either mode or primary/secondary, not both")
        case (.some(let modeValue), nil):
            if top["secondary"] != nil { throw error(.invalidValue, "secondary", "secondary needs primary, not mode") }
            let name = try string(modeValue, "mode")
            guard let mode = RoutingMode(rawValue: name) else {
                let modes = RoutingMode.allCases.map(\.rawValue).joined(separator: ", ")
                throw error(.invalidValue, "mode", "unknown mode \"\(name)\" (expected one of: \(modes))")
            }
            routing = .mode(mode)
        case (nil, .some(let primaryValue)):
            let primary = try backendID(primaryValue, "primary", in: backends)
            let secondary = try top["secondary"].map { v throws(ConfigError) in try backendID(v, "secondary", in: backends) }
            if secondary == primary { throw error(.invalidValue, "secondary", "must differ from primary") }
            routing = .explicit(primary: primary, secondary: secondary)
        case (nil, nil):
            routing = nil
        }

        let store = try top["store"].map { v throws(ConfigError) in resolve(try string(v, "store")) }
        let policy = try top["fallback"].map { v throws(ConfigError) in try fallback(v, "fallback") } ?? .default
        var config = TandemConfig(
            file: file, pluginsDirectory: pluginsDirectory, backends: backends, routing: routing, store: store,
            fallbackPolicy: policy)
        if let quoteValue = top["quote"] {
            let members = try object(quoteValue, "quote",
                                     allowed: ["draft", "draft_prompt", "judge", "judge_method", "embedder", "escalate_on", "word_frequencies"])
            config.quote.draft = try members["draft"].map { v throws(ConfigError) in try backendID(v, "quote.draft", in: backends) }
            /// One of `choices`, named in the error when it is none of them.
            func choice(_ key: String, _ choices: [String], what: String) throws(ConfigError) -> String? {
                try members[key].map { v throws(ConfigError) in
                    let value = try string(v, "quote.\(key)")
                    guard choices.contains(value) else {
                        throw error(.invalidValue, "quote.\(key)", "unknown \(what) \"\(value)\" (expected \(choices.joined(separator: " or ")))")
                    }
                    return value
                }
            }
            config.quote.draftPrompt = try choice("draft_prompt", TandemConfig.QuoteBackends.draftPromptStyles, what: "style")
            config.quote.judgeMethod = try choice("judge_method", TandemConfig.QuoteBackends.judgeMethods, what: "method")
            config.wordFrequencies = try members["word_frequencies"].map { v throws(ConfigError) in
                resolve(try string(v, "quote.word_frequencies"))
            }
            config.quote.judge = try members["judge"].map { v throws(ConfigError) in try backendID(v, "quote.judge", in: backends) }
            config.quote.embedder = try members["embedder"].map { v throws(ConfigError) in
                try backendID(v, "quote.embedder", in: backends)
            }
            config.quote.escalateOn = try members["escalate_on"].map { v throws(ConfigError) in
                try stringList(v, "quote.escalate_on")
            }
        }
        return config
    }

    func backendID(_ value: JSONValue, _ path: String, in backends: [String: TandemConfig.BackendEntry]) throws(ConfigError) -> String {
        let id = try string(value, path)
        guard backends[id] != nil else {
            let known = backends.keys.sorted().joined(separator: ", ")
            throw error(.invalidValue, path, "unknown backend id \"\(id)\" (configured: \(known.isEmpty ? "none" : known))")
        }
        return id
    }

    func backend(_ value: JSONValue, _ path: String) throws(ConfigError) -> TandemConfig.BackendEntry {
        let members = try object(value, path, allowed: ["plugin", "settings", "isolation"])
        guard let pluginValue = members["plugin"] else { throw error(.missingKey, "\(path).plugin", "missing (expected a plugin id)") }
        let plugin = try string(pluginValue, "\(path).plugin")
        var settings: [String: String] = [:]
        if let settingsValue = members["settings"] {
            guard case .object(let pairs) = settingsValue else {
                throw error(.wrongType, "\(path).settings", "expected an object, found \(JSONValue.kindName(settingsValue))")
            }
            for (key, value) in pairs {
                switch value {
                case .string(let text): settings[key] = text
                case .null: throw error(.wrongType, "\(path).settings.\(key)", "expected a string, number, boolean, array or object, found null")
                // Other values reach the plugin as compact JSON text, keys sorted.
                default: settings[key] = value.jsonText(sortingKeys: true)
                }
            }
        }
        var isolation = BackendIsolation.process
        if let isolationValue = members["isolation"] {
            let name = try string(isolationValue, "\(path).isolation")
            guard let known = BackendIsolation(rawValue: name) else {
                let names = BackendIsolation.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")
                throw error(.invalidValue, "\(path).isolation", "unknown isolation \"\(name)\" (expected \(names))")
            }
            isolation = known
        }
        return TandemConfig.BackendEntry(plugin: plugin, settings: settings, isolation: isolation)
    }

    /// `fallback.also_on`: names of availability reasons and of ABI error codes (as in the
    /// header). A name that is both (`unknown`) widens both. `cancelled` is refused: cancellation
    /// never falls back.
    func fallback(_ value: JSONValue, _ path: String) throws(ConfigError) -> FallbackPolicy {
        let members = try object(value, path, allowed: ["also_on"])
        guard let list = members["also_on"] else { return .default }
        guard case .array(let items) = list else {
            throw error(.wrongType, "\(path).also_on", "expected an array of availability reason and error code names, found \(JSONValue.kindName(list))")
        }
        // In the header's order; `ok` and the size protocol's `bufferTooSmall` are no failures.
        let statuses = BackendStatus.known.reversed().filter { ![.ok, .cancelled, .bufferTooSmall].contains($0) }
        var policy = FallbackPolicy()
        for (index, item) in items.enumerated() {
            let name = try string(item, "\(path).also_on[\(index)]")
            guard name != BackendStatus.cancelled.name else {
                throw error(.invalidValue, "\(path).also_on[\(index)]", "cancelled is refused: cancellation never falls back")
            }
            let reason = AvailabilityReason(name: name)
            let status = statuses.first { $0.name == name }
            guard reason != nil || status != nil else {
                throw error(
                    .invalidValue, "\(path).also_on[\(index)]",
                    "unknown name \"\(name)\": expected an availability reason (\(AvailabilityReason.all.map(\.name).joined(separator: ", "))) or an error code (\(statuses.map(\.name).joined(separator: ", ")))")
            }
            if let reason { policy.additionalCloudUnavailability.insert(reason) }
            if let status { policy.additionalCloudFailures.insert(status) }
        }
        return policy
    }
}
