import LlamaEngine

/// A small deterministic random generator (tests must be reproducible): the runner engine's
/// SplitMix64, so there is one implementation of it.
typealias SplitMix64 = SeededGenerator
