import CTandemABI
import Tandem

/// One generation straight through the C ABI, with nothing of the host in between: the
/// baseline the routing overhead is measured against.
final class DirectCall {
    private let model: UnsafePointer<tandem_model>
    private let request: BackendRequest
    private let versionBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: 256)

    /// Timestamps the stream callback fills in (read through `user_data`).
    private final class Observation {
        var firstEvent: UInt64 = 0
        var events = 0
    }

    init(model: UnsafePointer<tandem_model>, request: BackendRequest) {
        self.model = model
        self.request = request
    }

    deinit {
        versionBuffer.deallocate()
        model.pointee.destroy?(model)
    }

    /// Runs one generation; returns (nanoseconds to the first event, to the end).
    func run() -> (first: UInt64, total: UInt64) {
        let observation = Observation()
        let start = Clock.nanoseconds()
        let status = request.withCRequest { cRequest -> tandem_status in
            var stream = tandem_stream(
                struct_size: UInt32(MemoryLayout<tandem_stream>.size),
                user_data: Unmanaged.passUnretained(observation).toOpaque(),
                on_event: { userData, _ in
                    let observation = Unmanaged<Observation>.fromOpaque(userData!).takeUnretainedValue()
                    if observation.events == 0 { observation.firstEvent = Clock.nanoseconds() }
                    observation.events += 1
                    return TANDEM_CONTINUE
                })
            var result = tandem_result()
            result.struct_size = UInt32(MemoryLayout<tandem_result>.size)
            result.model_version = versionBuffer
            result.model_version_capacity = 256
            return model.pointee.generate!(model, cRequest, &stream, nil, &result, nil)
        }
        let end = Clock.nanoseconds()
        precondition(status == TANDEM_OK && observation.events > 0, "direct generate failed: \(status)")
        return (observation.firstEvent - start, end - start)
    }
}
