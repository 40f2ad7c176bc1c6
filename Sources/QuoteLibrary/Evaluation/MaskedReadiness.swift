/// Applies an evaluation readiness state on top of what the configured backends report: a side
/// marked "available" keeps its real answer, any other value forces it unavailable.
struct MaskedReadiness: Readiness {
    let base: Readiness
    let state: EvaluationProtocol.ReadinessState

    func report(locale: String) async -> ReadinessReport {
        let real = await base.report(locale: locale)
        func mask(_ side: SideAvailability, _ forced: String) -> SideAvailability {
            forced == SideAvailability.available.reason ? side : .unavailable(forced)
        }
        return ReadinessReport(primary: mask(real.primary, state.primary), secondary: mask(real.secondary, state.secondary),
                               judge: mask(real.judge, state.judge), embedder: mask(real.embedder, state.embedder))
    }
}
