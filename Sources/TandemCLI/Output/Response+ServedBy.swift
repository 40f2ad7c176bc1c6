import Tandem

extension Response {
    /// The stderr line after an answer: the serving backend, its model version, and any fallback.
    var servedByText: String {
        var text = "served by \(servedBy), model \(rawResponse.modelVersion)"
        if let reason = fallback.reason {
            text += "; fallback from \(fallback.primaryID) (\(fallback.primaryTried ? "tried" : "not tried"): \(reason))"
        }
        return text
    }
}
