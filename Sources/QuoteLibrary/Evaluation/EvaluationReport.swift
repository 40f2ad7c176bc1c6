import Foundation

/// The evaluation's JSON report and Markdown summary: acceptance rate, rejections per gate (in
/// all and per locale), timeouts, latency p50/p95 per terminal branch, per attempt and per pipeline stage
/// (nearest-rank percentiles), and the accepted lines.
public struct EvaluationReport: Codable, Sendable {
    public struct Record: Codable, Sendable {
        public let cell: EvaluationCell
        public let run: GenerationRun
    }

    public struct Latency: Codable, Equatable, Sendable {
        public let count: Int
        public let p50Milliseconds: Int
        public let p95Milliseconds: Int
    }

    public struct Summary: Codable, Equatable, Sendable {
        public let attempts: Int
        public let accepted: Int
        public let acceptanceRate: Double
        public let branches: [String: Int]
        public let rejectionsByGate: [String: Int]
        /// Per locale, its rejections per gate: which gate holds a model back in which language.
        public let rejectionsByLocale: [String: [String: Int]]
        public let timeouts: Int
        public let latencyByBranch: [String: Latency]
        /// Every attempt's whole time.
        public let attemptLatency: Latency
        /// Per stage (`StageTimings.Stage` names), over the attempts that reached it.
        public let latencyByStage: [String: Latency]
        /// The accepted lines, in run order.
        public let acceptedLines: [String]
        public let acceptanceByLocale: [String: Double]
        public let acceptanceByReadiness: [String: Double]
        public let noveltyNotProven: Int
        public let judgeFallbacks: Int
    }

    public let protocolVersion: Int
    public let cells: Int
    public let summary: Summary
    public let records: [Record]

    init(protocolVersion: Int, cells: Int, records: [Record]) {
        self.protocolVersion = protocolVersion
        self.cells = cells
        self.records = records
        self.summary = Self.summarise(records.map(\.run), records: records)
    }

    static func summarise(_ runs: [GenerationRun], records: [Record]) -> Summary {
        let accepted = runs.filter { $0.branch == .accepted }.count
        var branches: [String: Int] = [:]
        var gates: [String: Int] = [:]
        var latencies: [String: [Int]] = [:]
        for run in runs {
            branches[run.branch.rawValue, default: 0] += 1
            if run.branch == .rejected { gates[run.gate ?? "unknown", default: 0] += 1 }
            latencies[run.branch.rawValue, default: []].append(run.elapsedMilliseconds)
        }
        func latency(_ values: [Int]) -> Latency {
            Latency(count: values.count, p50Milliseconds: percentile(values, 50), p95Milliseconds: percentile(values, 95))
        }
        var stages: [String: Latency] = [:]
        for stage in StageTimings.Stage.allCases {
            let values = runs.compactMap { $0.timings[stage] }
            if !values.isEmpty { stages[stage.rawValue] = latency(values) }
        }
        func rate(_ subset: [GenerationRun]) -> Double {
            subset.isEmpty ? 0 : Double(subset.filter { $0.branch == .accepted }.count) / Double(subset.count)
        }
        let byLocale = Dictionary(grouping: records, by: \.cell.locale).mapValues { rate($0.map(\.run)) }
        let rejectionsByLocale = Dictionary(grouping: records.filter { $0.run.branch == .rejected }, by: \.cell.locale)
            .mapValues { group in group.reduce(into: [String: Int]()) { $0[$1.run.gate ?? "unknown", default: 0] += 1 } }
        let byReadiness = Dictionary(grouping: records, by: \.cell.readiness.name).mapValues { rate($0.map(\.run)) }
        return Summary(
            attempts: runs.count, accepted: accepted, acceptanceRate: rate(runs), branches: branches, rejectionsByGate: gates,
            rejectionsByLocale: rejectionsByLocale,
            timeouts: branches[TerminalBranch.timeout.rawValue] ?? 0,
            latencyByBranch: latencies.mapValues(latency), attemptLatency: latency(runs.map(\.elapsedMilliseconds)),
            latencyByStage: stages, acceptedLines: runs.filter { $0.branch == .accepted }.compactMap(\.draftText),
            acceptanceByLocale: byLocale, acceptanceByReadiness: byReadiness,
            noveltyNotProven: runs.filter { $0.branch == .accepted && !$0.noveltyProven }.count,
            judgeFallbacks: runs.filter { $0.judgeSource?.hasPrefix("fallback") == true }.count)
    }

    /// Nearest-rank percentile of a non-empty list (0 for an empty one).
    static func percentile(_ values: [Int], _ percent: Int) -> Int {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let rank = Int((Double(percent) / 100 * Double(sorted.count)).rounded(.up))
        return sorted[max(0, min(sorted.count - 1, rank - 1))]
    }

    public func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }

    public func markdown() -> String {
        let s = summary
        var lines = [
            "# Quote pipeline evaluation", "",
            "Protocol version \(protocolVersion): \(cells) cells, \(s.attempts) attempts.", "",
            "- Acceptance rate: \(Self.percent(s.acceptanceRate)) (\(s.accepted) of \(s.attempts))",
            "- Timeouts: \(s.timeouts)",
            "- Accepted without proven novelty: \(s.noveltyNotProven)",
            "- Judge fallbacks: \(s.judgeFallbacks)",
            "- Time per attempt: p50 \(s.attemptLatency.p50Milliseconds) ms, p95 \(s.attemptLatency.p95Milliseconds) ms", "",
            "## Terminal branches", "", "| branch | runs | p50 ms | p95 ms |", "|---|---:|---:|---:|",
        ]
        for branch in TerminalBranch.allCases {
            guard let latency = s.latencyByBranch[branch.rawValue] else { continue }
            lines.append("| \(branch.rawValue) | \(latency.count) | \(latency.p50Milliseconds) | \(latency.p95Milliseconds) |")
        }
        lines += ["", "## Time per stage", "", "| stage | attempts | p50 ms | p95 ms |", "|---|---:|---:|---:|"]
        for stage in StageTimings.Stage.allCases {
            guard let latency = s.latencyByStage[stage.rawValue] else { continue }
            lines.append("| \(stage.rawValue) | \(latency.count) | \(latency.p50Milliseconds) | \(latency.p95Milliseconds) |")
        }
        lines += ["", "## Rejections per gate", "", "| gate | rejections |", "|---|---:|"]
        lines += Self.inGateOrder(s.rejectionsByGate).map { "| \($0.gate) | \($0.count) |" }
        lines += ["", "## Acceptance by locale", "",
                  "| locale | attempts | accepted | acceptance | unavailable | rejected by | p50 ms per attempt that drafted |",
                  "|---|---:|---:|---:|---:|---|---:|"]
        for (locale, group) in Dictionary(grouping: records, by: \.cell.locale).sorted(by: { $0.key < $1.key }) {
            let runs = group.map(\.run)
            let drafted = runs.filter { $0.draftText != nil }.map(\.elapsedMilliseconds)
            lines.append("| \(locale) | \(runs.count) | \(runs.filter { $0.branch == .accepted }.count) | "
                         + "\(Self.percent(s.acceptanceByLocale[locale] ?? 0)) | \(runs.filter { $0.branch == .unavailable }.count) | "
                         + "\(Self.gateCounts(s.rejectionsByLocale[locale] ?? [:])) | "
                         + "\(drafted.isEmpty ? "–" : String(Self.percentile(drafted, 50))) |")
        }
        lines += ["", "## Acceptance by readiness state", "", "| state | acceptance |", "|---|---:|"]
        lines += s.acceptanceByReadiness.sorted { $0.key < $1.key }.map { "| \($0.key) | \(Self.percent($0.value)) |" }
        lines += ["", "## Accepted lines", ""]
        lines += s.acceptedLines.isEmpty ? ["(none)"] : s.acceptedLines.map { "- \($0)" }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Writes `report.json` and `summary.md` into `folder` (created if needed).
    public func write(to folder: String) throws {
        let url = URL(fileURLWithPath: folder)
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            try json().write(to: url.appendingPathComponent("report.json"), options: .atomic)
            try Data(markdown().utf8).write(to: url.appendingPathComponent("summary.md"), options: .atomic)
        } catch {
            throw EvaluationError("cannot write the evaluation report to \(folder): \(error.localizedDescription)")
        }
    }

    private static func percent(_ value: Double) -> String { String(format: "%.1f%%", value * 100) }

    /// Counts per gate in the pipeline's order (`GateName`), then any other name a run recorded.
    private static func inGateOrder(_ counts: [String: Int]) -> [(gate: String, count: Int)] {
        let order = GateName.allCases.map(\.rawValue)
        return order.compactMap { gate in counts[gate].map { (gate, $0) } }
            + counts.filter { !order.contains($0.key) }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// "length 28, judge 5", or "–" for none.
    private static func gateCounts(_ counts: [String: Int]) -> String {
        counts.isEmpty ? "–" : inGateOrder(counts).map { "\($0.gate) \($0.count)" }.joined(separator: ", ")
    }
}
