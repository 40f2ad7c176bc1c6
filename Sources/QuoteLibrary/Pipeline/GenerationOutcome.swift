/// The result of one generation attempt: its run record, every gate verdict reached, and the
/// stored quote when it was accepted.
public struct GenerationOutcome: Sendable {
    public let run: GenerationRun
    public let gates: [GateResult]
    public let quote: StoredQuote?
    /// False when even the run record could not be written (e.g. the disk is full).
    public let runRecorded: Bool
}
