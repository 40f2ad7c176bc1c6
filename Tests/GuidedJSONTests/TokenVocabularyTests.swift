import Testing
import GuidedJSON

@Suite struct TokenVocabularyTests {
    @Test func rejectsUnusableEndTokens() {
        #expect(throws: GuidedJSONError.self) { try TokenVocabulary(tokens: [[0x61]], endOfGenerationTokens: []) }
        #expect(throws: GuidedJSONError.self) { try TokenVocabulary(tokens: [[0x61]], endOfGenerationTokens: [1]) }
    }
}
