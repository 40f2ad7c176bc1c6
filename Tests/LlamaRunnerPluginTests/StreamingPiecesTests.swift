import Testing
@testable import TandemLlama

/// Stop sequences on streamed text, and the checksum used to verify model files.
struct StreamingPiecesTests {
    func run(_ stops: [String], _ pieces: [String]) -> (sent: String, stopped: Bool) {
        var filter = StopSequenceFilter(stops)
        var sent = ""
        for piece in pieces {
            switch filter.push(piece) {
            case .text(let text): sent += text
            case .stopped(let text): return (sent + text, true)
            }
        }
        return (sent + filter.flush(), false)
    }

    @Test func stopSequenceSplitAcrossPiecesIsNeverSent() {
        #expect(run(["END"], ["abc E", "N", "D more"]) == ("abc ", true))
        #expect(run(["\n\n"], ["line\n", "\nnext"]) == ("line", true))
        #expect(run(["stop"], ["st", "ep"]) == ("step", false))
        #expect(run(["é!"], ["café", "!"]) == ("caf", true))
        #expect(run(["b", "abc"], ["xab"]) == ("xa", true))
        #expect(run([], ["free"]) == ("free", false))
    }

    @Test func heldTextIsReleasedOnceItCannotMatch() {
        var filter = StopSequenceFilter(["<end>"])
        #expect(filter.push("a <e") == .text("a "))
        #expect(filter.push("x") == .text("<ex"))
    }

    @Test func sha256MatchesKnownDigests() {
        func digest(_ text: String, chunk: Int) -> String {
            var hasher = SHA256()
            let bytes = Array(text.utf8)
            var start = 0
            repeat {
                let end = min(start + chunk, bytes.count)
                hasher.update(Array(bytes[start..<end]))
                start = end
            } while start < bytes.count
            return hasher.finish()
        }
        for chunk in [1, 3, 64, 1000] {
            #expect(digest("", chunk: chunk) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
            #expect(digest("abc", chunk: chunk) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
            #expect(digest("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", chunk: chunk)
                    == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
            #expect(digest(String(repeating: "a", count: 1000), chunk: chunk)
                    == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
        }
    }
}
