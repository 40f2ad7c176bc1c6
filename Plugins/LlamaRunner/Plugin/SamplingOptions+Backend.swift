import LlamaEngine
import TandemPluginKit

extension SamplingOptions {
    /// The engine's sampling for a request's options:
    ///
    /// - greedy (the argmax) when the mode is greedy or the temperature is 0;
    /// - top-k mode: k = the option, default 40; top-p only when given;
    /// - top-p mode: p = the option, default 0.95; top-k only when given (else the whole vocabulary);
    /// - no mode: llama.cpp's defaults, top-k 40 then top-p 0.95, unless the options say otherwise;
    /// - temperature default 0.8; the seed is the option's, else the backend's `seed` setting, else
    ///   a random one, so only seeded requests repeat unless the config fixes a seed.
    package init(_ options: BackendOptions, defaultSeed: UInt64? = nil) {
        let temperature = options.temperature ?? 0.8
        let seed = options.seed ?? defaultSeed ?? UInt64.random(in: .min ... .max)
        if options.sampling == .greedy || temperature == 0 {
            self = .greedy
            return
        }
        switch options.sampling {
        case .topK?: self.init(temperature: temperature, topK: options.topK ?? 40, topP: options.topP ?? 1, seed: seed)
        case .topP?: self.init(temperature: temperature, topK: options.topK ?? 0, topP: options.topP ?? 0.95, seed: seed)
        default: self.init(temperature: temperature, topK: options.topK ?? 40, topP: options.topP ?? 0.95, seed: seed)
        }
    }
}
