/// How likely a model finds a continuation after a context (tandem_abi.h,
/// `TANDEM_EXT_LOG_LIKELIHOOD`): the natural log of its probability, summed over its `tokens`.
public struct LogLikelihood: Sendable, Equatable {
    public let value: Double
    public let tokens: Int

    public init(value: Double, tokens: Int) {
        precondition(tokens >= 1 && value <= 0 && value.isFinite, "a likelihood of at least one token, at most probability 1")
        (self.value, self.tokens) = (value, tokens)
    }

    /// A plugin's answer, checked before anything trusts it: a `decoding` failure naming
    /// `source` and what it answered when no probability can be that.
    public static func checked(value: Double, tokens: Int, from source: String) throws(BackendFailure) -> LogLikelihood {
        guard tokens >= 1, value <= 0, value.isFinite else {
            throw BackendFailure(.decoding, "\(source): log_likelihood answered \(value) over \(tokens) tokens "
                                 + "(a log-probability is finite and at most 0, over at least one token)")
        }
        return LogLikelihood(value: value, tokens: tokens)
    }
}
