/// Writes one draft for a request. Implementations honour task cancellation (the budget cancels
/// them) and may report partial text while streaming; partial text is interface text only.
public protocol DraftWriter: Sendable {
    func write(_ request: DraftRequest, partial: @escaping @Sendable (String) -> Void) async throws -> DraftAnswer
}
