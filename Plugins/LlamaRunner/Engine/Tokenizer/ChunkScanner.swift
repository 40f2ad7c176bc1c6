/// The scanners behind `PreTokenizer.Pass`, over one chunk `[start, end)` of a code point
/// buffer. Outside the chunk every position reads as "no class", so patterns such as
/// `\s+(?!\S)` treat the chunk end like the end of the text, as llama.cpp does.
struct ChunkScanner {
    let scalars: UnsafeBufferPointer<UInt32>
    let classes: UnsafeBufferPointer<UInt8>
    let start: Int
    let end: Int

    private static let outOfRange = UInt32.max
    private static let letter = ScalarClass.letter.rawValue
    private static let number = ScalarClass.number.rawValue
    private static let whitespace = ScalarClass.whitespace.rawValue
    private static let punctuation = ScalarClass.punctuation.rawValue

    @inline(__always) private func cls(_ position: Int) -> UInt8 {
        position < end ? classes[position] : 0
    }

    @inline(__always) private func scalar(_ position: Int) -> UInt32 {
        position < end ? scalars[position] : Self.outOfRange
    }

    // MARK: Passes that match a pattern and keep the text between matches as chunks too.

    /// Splits the chunk at every match (matches and the gaps between them become chunks).
    func splitMatches(into ends: inout [Int], matchLength: (Int) -> Int) {
        var position = start
        var gapStart = start
        while position < end {
            let length = matchLength(position)
            if length == 0 {
                position += 1
                continue
            }
            if position > gapStart { ends.append(position) }
            position += length
            ends.append(position)
            gapStart = position
        }
        if end > gapStart { ends.append(end) }
    }

    func singleNumber(at position: Int) -> Int {
        classes[position] & Self.number != 0 ? 1 : 0
    }

    func numberRun(at position: Int) -> Int {
        var next = position
        while cls(next) & Self.number != 0 { next += 1 }
        return next - position
    }

    func asciiDigitTriple(at position: Int) -> Int {
        for offset in 0..<3 {
            let value = scalar(position + offset)
            if value < 0x30 || value > 0x39 { return 0 }
        }
        return 3
    }

    func punctuationRun(at position: Int) -> Int {
        var next = position
        while next < end {
            let value = scalars[next]
            let isExtra = value == 0x24 || value == 0x2B || value == 0x3C || value == 0x3D || value == 0x3E
                || value == 0x5E || value == 0x7E || value == 0x7C
            guard isExtra || classes[next] & Self.punctuation != 0 else { break }
            next += 1
        }
        return next - position
    }

    // MARK: GPT-2 pattern

    /// `'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+`
    func splitGPT2(into ends: inout [Int]) {
        var position = start
        func emit(_ newEnd: Int) {
            if newEnd > (ends.last ?? -1) && newEnd > start { ends.append(newEnd) }
            position = newEnd
        }
        while position < end {
            let value = scalars[position]
            if let length = contractionLength(at: position, caseInsensitive: false) {
                emit(position + length)
                continue
            }
            let isSpace = value == 0x20
            let classes2 = isSpace ? cls(position + 1) : classes[position]
            // ` ?\p{L}+`, ` ?\p{N}+`, ` ?[^\s\p{L}\p{N}]+`
            let runClass: UInt8?
            if classes2 & Self.letter != 0 {
                runClass = Self.letter
            } else if classes2 & Self.number != 0 {
                runClass = Self.number
            } else if classes2 & (Self.whitespace | Self.letter | Self.number) == 0 && classes2 != 0 {
                runClass = 0
            } else {
                runClass = nil
            }
            if let runClass {
                var next = isSpace ? position + 1 : position
                if runClass == 0 {
                    while true {
                        let c = cls(next)
                        guard c & (Self.whitespace | Self.letter | Self.number) == 0 && c != 0 else { break }
                        next += 1
                    }
                } else {
                    while cls(next) & runClass != 0 { next += 1 }
                }
                emit(next)
                continue
            }
            emitWhitespace(at: position, emit: emit)
        }
    }

    /// `\s+(?!\S)|\s+`, and a single code point when nothing else matched.
    @inline(__always)
    private func emitWhitespace(at position: Int, emit: (Int) -> Void) {
        var count = 0
        while cls(position + count) & Self.whitespace != 0 { count += 1 }
        if count > 1 && position + count < end {
            emit(position + count - 1)
        } else if count > 0 {
            emit(position + count)
        } else {
            emit(position + 1)
        }
    }

    /// `'s|'t|'re|'ve|'m|'ll|'d` at `position` (optionally ASCII case-insensitive).
    @inline(__always)
    private func contractionLength(at position: Int, caseInsensitive: Bool) -> Int? {
        guard scalars[position] == 0x27, position + 1 < end else { return nil }
        func lower(_ value: UInt32) -> UInt32 {
            caseInsensitive && value >= 0x41 && value <= 0x5A ? value + 0x20 : value
        }
        let next = lower(scalars[position + 1])
        if next == 0x73 || next == 0x74 || next == 0x6D || next == 0x64 { return 2 }  // s t m d
        guard position + 2 < end else { return nil }
        let nextNext = lower(scalars[position + 2])
        if (next == 0x72 && nextNext == 0x65) || (next == 0x76 && nextNext == 0x65) || (next == 0x6C && nextNext == 0x6C) {
            return 3  // re ve ll
        }
        return nil
    }

    // MARK: Llama 3 pattern

    func splitLlama3(into ends: inout [Int], maxDigits: Int) {
        var position = start
        func emit(_ newEnd: Int) {
            if newEnd > (ends.last ?? -1) && newEnd > start { ends.append(newEnd) }
            position = newEnd
        }
        while position < end {
            let value = scalars[position]
            let classes0 = classes[position]
            if let length = contractionLength(at: position, caseInsensitive: true) {
                emit(position + length)
                continue
            }
            let isLineBreak = value == 0x0D || value == 0x0A
            // `[^\r\n\p{L}\p{N}]?\p{L}+`
            if !isLineBreak && classes0 & Self.number == 0
                && (classes0 & Self.letter != 0 || cls(position + 1) & Self.letter != 0) {
                var next = position + 1
                while cls(next) & Self.letter != 0 { next += 1 }
                emit(next)
                continue
            }
            // `\p{N}{1,maxDigits}`
            if classes0 & Self.number != 0 {
                var next = position
                var runStart = position
                while cls(next) & Self.number != 0 {
                    next += 1
                    if next - runStart >= maxDigits {
                        emit(next)
                        runStart = next
                    }
                }
                emit(next)
                continue
            }
            // ` ?[^\s\p{L}\p{N}]+[\r\n]*`
            let isSpace = value == 0x20
            let classes2 = isSpace ? cls(position + 1) : classes0
            if classes2 & (Self.whitespace | Self.letter | Self.number) == 0 && classes2 != 0 {
                var next = isSpace ? position + 1 : position
                while true {
                    let c = cls(next)
                    guard c & (Self.whitespace | Self.letter | Self.number) == 0 && c != 0 else { break }
                    next += 1
                }
                while scalar(next) == 0x0D || scalar(next) == 0x0A { next += 1 }
                emit(next)
                continue
            }
            // `\s*[\r\n]+`
            var count = 0
            var lastLineBreakEnd = 0
            while cls(position + count) & Self.whitespace != 0 {
                let c = scalars[position + count]
                if c == 0x0D || c == 0x0A { lastLineBreakEnd = position + count + 1 }
                count += 1
            }
            if lastLineBreakEnd > 0 {
                emit(lastLineBreakEnd)
                continue
            }
            emitWhitespace(at: position, emit: emit)
        }
    }
}
