/// Why the loader refused a file (or the whole plugins folder). The host keeps going without it;
/// `tandem backends` lists every rejection with its code and message.
public struct PluginRejection: Error, Hashable, Sendable, CustomStringConvertible {
    /// A stable, extensible reason code (a struct rather than an enum, so new reasons do not
    /// break callers that switch over the known ones).
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let name: String
        private init(_ name: String) { self.name = name }

        /// The folder or the file is writable by group or others, or owned by another user.
        public static let insecurePermissions = Code("insecurePermissions")
        /// The file (or folder) could not be opened, read or examined.
        public static let unreadable = Code("unreadable")
        /// Zero bytes: typically an interrupted copy.
        public static let emptyFile = Code("emptyFile")
        /// Does not start with the ELF magic.
        public static let notELF = Code("notELF")
        /// An ELF file for another class, byte order or machine.
        public static let wrongArchitecture = Code("wrongArchitecture")
        /// An ELF file that is not a shared object (an executable, an object file).
        public static let notSharedObject = Code("notSharedObject")
        /// The file is shorter than its headers or segments claim (mapping it would SIGBUS).
        public static let truncated = Code("truncated")
        /// The system loader refused it; the message is the real `dlerror()` text.
        public static let openFailed = Code("openFailed")
        /// The object needs a symbol nothing provides (it would kill the host at first call).
        public static let unresolvedSymbol = Code("unresolvedSymbol")
        /// No `tandem_plugin_entry_v1` function.
        public static let missingEntrySymbol = Code("missingEntrySymbol")
        /// No ABI version both sides speak, or the plugin chose one outside the offer.
        public static let incompatibleABI = Code("incompatibleABI")
        /// The plugin's answer broke the ABI: a struct too small, a NULL table or function, a bad id.
        public static let invalidAnswer = Code("invalidAnswer")
        /// The plugin's entry reported a failure.
        public static let initFailed = Code("initFailed")
        /// An earlier file (in sorted order) already provides this plugin id.
        public static let duplicateID = Code("duplicateID")
        /// Loading it (its constructors or its entry) killed the process that tried: an isolated
        /// host loads plugins in a child first, so this is a rejection, not a dead host.
        public static let crashed = Code("crashed")

        static let all: [Code] = [
            .insecurePermissions, .unreadable, .emptyFile, .notELF, .wrongArchitecture, .notSharedObject, .truncated,
            .openFailed, .unresolvedSymbol, .missingEntrySymbol, .incompatibleABI, .invalidAnswer, .initFailed,
            .duplicateID, .crashed,
        ]

        /// The code named `name`, as a child reports it.
        init?(name: String) {
            guard let match = Self.all.first(where: { $0.name == name }) else { return nil }
            self = match
        }

        public var description: String { name }
    }

    public let code: Code
    /// Absolute path of the refused file or folder.
    public let path: String
    /// What exactly was wrong, for people.
    public let message: String

    public init(_ code: Code, path: String, _ message: String) {
        self.code = code
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(code): \(message)" }
}
