import Testing
import TandemLlama

/// The checksum that verifies model files against their pinned digest.
struct SHA256Tests {
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
