@testable import CloudHTTPSCore
import JSONModel
import Testing

@Suite struct SSEParserTests {
    /// Parses `bytes` delivered as the given chunks; returns events and the stray text.
    static func parse(_ chunks: [ArraySlice<UInt8>]) -> (events: [SSEEvent], stray: String, partial: Bool) {
        var parser = SSEParser()
        var events: [SSEEvent] = []
        for chunk in chunks {
            let result = parser.feed(Array(chunk)) { (event: SSEEvent) in events.append(event) }
            if case .failure = result { Issue.record("unexpected overflow") }
        }
        return (events, String(decoding: parser.strayText, as: UTF8.self), parser.hasPartialEvent)
    }

    @Test(arguments: ["gemini", "openai"])
    func everySplitPointGivesTheSameEvents(name: String) {
        let bytes = Array((name == "gemini" ? RecordedStreams.gemini : RecordedStreams.openai).utf8)
        let whole = Self.parse([bytes[...]])
        #expect(whole.events.count == (name == "gemini" ? 3 : 8))
        #expect(!whole.partial)
        for split in 0...bytes.count {
            let parts = Self.parse([bytes[..<split], bytes[split...]])
            #expect(parts.events == whole.events, "split at byte \(split) of \(name)")
        }
        // Three pieces at every pair of a coarse grid, and one byte at a time.
        for a in stride(from: 0, through: bytes.count, by: 37) {
            for b in stride(from: a, through: bytes.count, by: 53) {
                #expect(Self.parse([bytes[..<a], bytes[a..<b], bytes[b...]]).events == whole.events)
            }
        }
        #expect(Self.parse(bytes.map { [$0][...] }).events == whole.events)
    }

    @Test func geminiEventsCarryTheirJSONIntact() throws {
        let events = Self.parse([Array(RecordedStreams.gemini.utf8)[...]]).events
        #expect(events.allSatisfy { $0.name.isEmpty })
        let last = try JSONValue(parsing: events[2].data, keepingNumberText: true)
        #expect(last["candidates"]?[0]?["content"]?["parts"]?[0]?["text"]?.stringValue == "Zürich 🇨🇭")
    }

    @Test func openAICommentsAreSkippedAndEventNamesKept() {
        let events = Self.parse([Array(RecordedStreams.openai.utf8)[...]]).events
        #expect(events.map(\.name) == ["", "", "message", "", "", "", "", ""])
        #expect(events.last?.text == "[DONE]")
    }

    @Test func lineEndingsLFCRLFAndCRAreEquivalent() {
        let lf = Self.parse([Array("event: a\ndata: 1\ndata: 2\n\n".utf8)[...]]).events
        let crlf = Self.parse([Array("event: a\r\ndata: 1\r\ndata: 2\r\n\r\n".utf8)[...]]).events
        let cr = Self.parse([Array("event: a\rdata: 1\rdata: 2\r\r".utf8)[...]]).events
        #expect(lf == [SSEEvent(name: "a", data: Array("1\n2".utf8))])
        #expect(crlf == lf)
        #expect(cr == lf)
    }

    @Test func fieldsWithoutSpaceAfterColonAndEmptyData() {
        let events = Self.parse([Array("data:x\n\ndata\n\ndata: \n\nid: 7\nretry: 10\n\n".utf8)[...]]).events
        #expect(events == [SSEEvent(data: Array("x".utf8)), SSEEvent(data: []), SSEEvent(data: [])])
    }

    @Test func nonSSELinesAreKeptAsStrayText() {
        let body = "data: {\"a\":1}\r\n\r\n{\n  \"error\": {\n    \"code\": 500\n  }\n}\n"
        let parsed = Self.parse([Array(body.utf8)[...]])
        #expect(parsed.events.count == 1)
        #expect(parsed.stray == "{\n  \"error\": {\n    \"code\": 500\n  }\n}")
    }

    @Test func anEventWithoutItsBlankLineIsPartial() {
        let parsed = Self.parse([Array("data: {\"a\":1}\r\n\r\ndata: {\"b\"".utf8)[...]])
        #expect(parsed.events.count == 1)
        #expect(parsed.partial)
    }

    @Test func anOversizedEventIsRefused() {
        var parser = SSEParser(maxEventBytes: 64)
        let result = parser.feed(Array(("data: " + String(repeating: "x", count: 100)).utf8)) { (_: SSEEvent) in }
        guard case .failure(let overflow) = result else { Issue.record("no overflow"); return }
        #expect(overflow.limit == 64)
    }
}
