/// A string while rendering, knowing which of its bytes came from message content.
///
/// The prompt's tokenizer must not read control tokens (`<|im_end|>`) out of what a user or a
/// tool wrote, only out of what the template wrote. So every string remembers the UTF-8 ranges
/// copied from message content: concatenation and output keep them exactly; any other operation
/// (filters, methods, slicing) marks its whole result as content when any input held content,
/// which may hide a template's own token in a string it built from content (rare) but never
/// lets content through as template text.
struct TemplateString {
    private(set) var text: String
    /// UTF-8 offsets into `text` that came from message content; sorted, disjoint, not touching.
    private(set) var contentRanges: [Range<Int>]

    /// Text the template itself wrote (literals, `bos_token`, numbers it printed).
    init(_ text: String) {
        self.text = text
        contentRanges = []
    }

    /// Text of a message's content.
    init(content text: String) {
        self.text = text
        contentRanges = text.isEmpty ? [] : [0..<text.utf8.count]
    }

    /// `text` computed from `sources`: content as a whole when any of them holds content.
    init(_ text: String, derivedFrom sources: [TemplateValue]) {
        if sources.contains(where: \.holdsContent) {
            self.init(content: text)
        } else {
            self.init(text)
        }
    }

    var holdsContent: Bool { !contentRanges.isEmpty }

    mutating func append(_ other: TemplateString) {
        let shift = text.utf8.count
        text += other.text
        for range in other.contentRanges {
            let moved = (range.lowerBound + shift)..<(range.upperBound + shift)
            if let last = contentRanges.last, last.upperBound == moved.lowerBound {
                contentRanges[contentRanges.count - 1] = last.lowerBound..<moved.upperBound
            } else {
                contentRanges.append(moved)
            }
        }
    }

    /// Python's `separator.join(items)`, each item as `str()` renders it.
    static func joined(_ items: [TemplateValue], separator: TemplateString) -> TemplateString {
        var result = TemplateString("")
        for (index, item) in items.enumerated() {
            if index > 0 { result.append(separator) }
            result.append(item.renderedString)
        }
        return result
    }

    static func + (left: TemplateString, right: TemplateString) -> TemplateString {
        var joined = left
        joined.append(right)
        return joined
    }
}
