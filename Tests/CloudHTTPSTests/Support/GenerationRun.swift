import CloudHTTPSCore
import TandemBridge
import TandemPluginKit

/// One generation through the Swift PluginModel API with a recording host.
struct GenerationRun {
    var result: Result<BackendResult, BackendFailure>
    var recorder: EventRecorder

    var failure: BackendFailure? { if case .failure(let f) = result { f } else { nil } }
    var value: BackendResult? { try? result.get() }

    static func run(
        _ model: CloudModel, _ request: BackendRequest, recorder: EventRecorder = EventRecorder(), cancel: TestCancelToken = TestCancelToken()
    ) -> GenerationRun {
        let result = recorder.withStream { stream in
            cancel.withToken { token in
                Result { () throws(BackendFailure) in
                    try model.generate(request, events: PluginEventSink(stream), cancellation: PluginCancellation(token))
                }
            }
        }
        return GenerationRun(result: result, recorder: recorder)
    }
}
