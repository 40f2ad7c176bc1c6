import TandemPluginKit

/// How the next token is chosen for one request, resolved from the options:
///
/// - `greedy` when the sampling mode is greedy or the temperature is 0;
/// - otherwise temperature (default 0.8), then top-k (the option, default 40 in top-k mode, off
///   otherwise), then top-p (the option, default 0.95 in top-p mode and when no mode is set, off in
///   top-k mode unless given), then one draw from a generator seeded by `seed` (a random seed
///   when none is given, so only seeded requests repeat).
struct SamplingPlan: Equatable, Sendable {
    var greedy: Bool
    var temperature: Float
    var topK: Int?
    var topP: Float?
    var seed: UInt64

    static let defaultTemperature: Float = 0.8
    static let defaultTopK = 40
    static let defaultTopP: Float = 0.95

    init(_ options: BackendOptions) {
        temperature = options.temperature ?? Self.defaultTemperature
        greedy = options.sampling == .greedy || temperature == 0
        switch options.sampling {
        case .topK?:
            topK = options.topK ?? Self.defaultTopK
            topP = options.topP
        case .topP?, nil:
            topK = options.topK
            topP = options.topP ?? Self.defaultTopP
        case .greedy?:
            topK = nil
            topP = nil
        }
        seed = options.seed ?? UInt64.random(in: .min ... .max)
    }
}
