import Foundation
import LlamaEngine
import TandemPluginKit

/// `tandem.log_likelihood/1` (tandem_abi.h) on sessions of its own, so the chat's cached prefix is
/// left alone. A caller scores many texts after the same few contexts (the quote judge: each line
/// after two lists of examples), so a few sessions are kept, each holding the context it last
/// scored after, and a context is evaluated once while its session is kept.
final class ContinuationScorer: @unchecked Sendable {
    /// Sessions kept: the judge's two contexts of a language, twice over.
    static let sessionsKept = 4
    /// Positions of a new session: enough for a context of examples and a line, grown on demand.
    static let minimumPositions = 1024

    /// Least recently used first.
    private var sessions: [LlamaSession] = []

    /// The log-probability of `continuation` after `context` on `model`, whose effective context
    /// is `positions` tokens. One call at a time (the plugin's calls on a model never overlap).
    func logLikelihood(of continuation: String, after context: String, on model: LlamaModel, positions: Int,
                       cancellation: PluginCancellation) throws(BackendFailure) -> LogLikelihood {
        let tokenizer = model.tokenizer
        // Both texts are plain text: a control token's spelling in them is not a control token.
        let start: [Int32] = tokenizer.addsBos ? tokenizer.bosTokenId.map { [$0] } ?? [] : []
        let contextTokens = start + tokenizer.encode(context, addSpecial: false, parseSpecial: false)
        let tokens = start + tokenizer.encode(context + continuation, addSpecial: false, parseSpecial: false)
        var shared = 0
        while shared < contextTokens.count, shared < tokens.count, contextTokens[shared] == tokens[shared] { shared += 1 }
        guard shared < tokens.count else { throw BackendFailure(.invalidArgument, "the continuation has no tokens of its own") }
        guard shared >= 1 else {
            throw BackendFailure(.invalidArgument, "an empty context on \(model.modelVersion), which starts texts with no marker, leaves the first token unconditioned")
        }
        guard tokens.count <= positions else {
            var failure = BackendFailure(.exceededContextWindowSize, "context and continuation are \(tokens.count) tokens; the context window is \(positions)")
            failure.contextLimit = UInt64(positions)
            failure.contextRequested = UInt64(tokens.count)
            throw failure
        }
        let session = self.session(for: tokens, context: shared, on: model, positions: positions)
        let prefix = Array(tokens[..<shared])
        var total = 0.0
        do throws(LlamaError) {
            // The session keeps the context up to its last token, which is evaluated again with the
            // continuation: its logits give the continuation's first token.
            let kept = session.keepSharedPrefix(of: prefix)
            if kept < shared - 1 {
                try session.evaluate(Array(tokens[kept..<(shared - 1)]), shouldCancel: { cancellation.isCancelled }) { _, _ in }
            }
            try session.evaluate(Array(tokens[(shared - 1)...]), outputs: .allLogits, shouldCancel: { cancellation.isCancelled }) { i, logits in
                let next = shared + i
                guard next < tokens.count else { return }
                total += SoftmaxNormaliser(logits).logProbability(of: logits[Int(tokens[next])])
            }
        } catch {
            session.reset()
            throw BackendFailure(error.code == .cancelled ? .cancelled : .invalidArgument, error.detail)
        }
        // Each term is at most 0; a model file whose logits are not finite gives an answer no
        // probability has, refused by name.
        return try LogLikelihood.checked(value: total, tokens: tokens.count - shared, from: model.modelVersion)
    }

    /// The kept session holding the context (the first `context` of `tokens`, all but its last
    /// token at least) with room for `tokens`; else a new one while fewer than `sessionsKept` are
    /// kept; else the least recently used one. Most recently used last, so the judge's
    /// two example contexts stay while one-off contexts come and go.
    private func session(for tokens: [Int32], context: Int, on model: LlamaModel, positions: Int) -> LlamaSession {
        func holdsContext(_ session: LlamaSession) -> Bool {
            guard session.contextLength >= tokens.count, session.tokens.count >= context - 1 else { return false }
            return session.tokens[..<(context - 1)].elementsEqual(tokens[..<(context - 1)])
        }
        if let kept = sessions.firstIndex(where: holdsContext) {
            let session = sessions.remove(at: kept)
            sessions.append(session)
            return session
        }
        if sessions.count >= Self.sessionsKept {
            // Its cache is reused when it has room (the evaluation keeps what prefix it shares).
            let evicted = sessions.removeFirst()
            if evicted.contextLength >= tokens.count {
                sessions.append(evicted)
                return evicted
            }
        }
        var room = Self.minimumPositions
        while room < tokens.count { room *= 2 }
        let session = LlamaSession(model: model, contextLength: min(room, positions))
        sessions.append(session)
        return session
    }
}
