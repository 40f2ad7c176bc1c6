/// What a streaming response looks like so far (see `JSONStreamParser.snapshot()`).
public struct JSONSnapshot: Sendable, Hashable {
    /// The partial document: every member and element complete so far, plus the string being
    /// written. Nil until the first container or string has started.
    public var value: JSONValue?
    /// True once the whole document has been generated.
    public var isComplete: Bool
    /// Where the next or current value goes (the property or element being written), nil when
    /// complete or before the document has started.
    public var activePath: JSONPath?
}
