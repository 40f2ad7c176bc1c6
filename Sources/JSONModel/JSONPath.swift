/// A location inside a JSON document or schema, written `$.items[2].name`.
public struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    public enum Component: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    public var components: [Component]

    public init(_ components: [Component] = []) {
        self.components = components
    }

    public static let root = JSONPath()

    public func appending(key: String) -> JSONPath {
        JSONPath(components + [.key(key)])
    }

    public func appending(index: Int) -> JSONPath {
        JSONPath(components + [.index(index)])
    }

    public var description: String {
        var text = "$"
        for component in components {
            switch component {
            case .index(let index):
                text += "[\(index)]"
            case .key(let key):
                if !key.isEmpty, key.unicodeScalars.allSatisfy({ $0.isASCIIIdentifierCharacter }) {
                    text += ".\(key)"
                } else {
                    text += "[\(JSONValue.string(key).jsonText)]"
                }
            }
        }
        return text
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIIIdentifierCharacter: Bool {
        switch value {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x5F, 0x24: true
        default: false
        }
    }
}
