/// How likely a model finds a continuation after a context (tandem_abi.h,
/// `TANDEM_EXT_LOG_LIKELIHOOD`): the natural log of its probability, summed over its `tokens`.
public struct LogLikelihood: Sendable, Equatable {
    public let value: Double
    public let tokens: Int

    public init(value: Double, tokens: Int) {
        precondition(tokens >= 1 && value <= 0 && !value.isNaN, "a likelihood of at least one token, at most probability 1")
        (self.value, self.tokens) = (value, tokens)
    }
}
