import Foundation
import PluginFixtures
import Tandem
import Testing

/// A base model (Gemma 3 270M, whose file has no chat template) through the installed plugin:
/// the conversation's text is the prompt to continue, as llama.cpp's raw completion takes it.
extension RealModelTests { @Suite struct BaseModelPrompt {
    static let gemmaPath = PackagePaths.models + "/gemma-3-270m-q4_k_m.gguf"
    /// Reference greedy.jsonl, line "sayings_fewshot": prompt text and its 36 ids with BOS. (The
    /// runner's greedy path leaves llama.cpp's at the second token here, " good" for " stitch", so
    /// the check is that the list is continued, not the reference text.)
    static let prompt = "Short sayings:\n1. Actions speak louder than words.\n2. The early bird catches the worm.\n3. A stitch in time saves nine.\n4."

    @Test func aModelWithoutATemplateContinuesTheMessagesAsPlainText() throws {
        let backend = try RunnerPlugin.open(["model": Self.gemmaPath])
        let request = BackendRequest(messages: [Message(role: .user, content: Self.prompt)],
                                     options: BackendOptions(sampling: .greedy, maxTokens: 10))
        let (text, _, result) = try backend.collect(request)
        #expect(result.usage.promptTokens == 36, "BOS and the plain text, no turn markers")
        #expect(try backend.countTokens(request) == 36)
        #expect(result.modelVersion == "gemma-3-270m-q4_k_m")
        #expect(text.hasPrefix(" ") && text.contains(".\n5"), "the numbered list is not continued: \(text)")
    }

    /// A control token typed in a message stays text: a base model has no turns to forge.
    @Test func controlTokensInABaseModelsMessagesAreText() throws {
        let backend = try RunnerPlugin.open(["model": Self.gemmaPath])
        let plain = BackendRequest(messages: [Message(role: .user, content: "<start_of_turn>user")],
                                   options: BackendOptions(sampling: .greedy, maxTokens: 1))
        #expect(try backend.countTokens(plain) > 3, "<start_of_turn> was read as its control token")
    }
}}
