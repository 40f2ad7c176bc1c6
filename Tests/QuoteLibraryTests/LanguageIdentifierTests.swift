import Testing
@testable import QuoteLibrary

@Suite("Language identification")
struct LanguageIdentifierTests {
    @Test func labelledSetHasFiftySentencesPerLanguage() {
        let all = LanguageSamples.all
        #expect(all.count == 300)
        for language in LanguageProfiles.languages { #expect(all.filter { $0.language == language }.count == 50) }
    }

    @Test func accuracyOnTheLabelledSetIsAtLeastNinetyFivePercent() {
        let identifier = LanguageIdentifier.shared
        var misses: [String] = []
        for sample in LanguageSamples.all {
            let guess = identifier.identify(sample.text)
            if guess.language != sample.language { misses.append("\(sample.language)→\(guess.language ?? "?"): \(sample.text)") }
        }
        let accuracy = Double(LanguageSamples.all.count - misses.count) / Double(LanguageSamples.all.count)
        print("language identification accuracy: \(accuracy) (\(misses.count) misses)\n" + misses.joined(separator: "\n"))
        #expect(accuracy >= 0.95, "\(misses)")
    }

    @Test func textWithoutEvidenceIsNotGuessed() {
        #expect(LanguageIdentifier.shared.identify("").language == nil)
        #expect(LanguageIdentifier.shared.identify("12345 67").language == nil)
    }
}
