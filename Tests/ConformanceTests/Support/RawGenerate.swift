import CTandemABI
import Glibc
import Tandem

/// What one direct `generate` call returned, with the buffers the plugin wrote.
struct RawOutcome {
    let status: tandem_status
    /// nil when the result pointer was NULL.
    let result: tandem_result?
    let modelVersion: String
    let errorMessage: String
    let resultGuardIntact: Bool
    let errorGuardIntact: Bool
    let versionGuardIntact: Bool
    let errorGuardBytesIntact: Bool
}

/// A request that leaves room for several tokens, so that stopping and cancelling happen mid-way.
let conformancePrompt = BackendRequest(messages: [
    .system("You repeat what you are told."),
    .user("Please repeat these words back to me one by one: apple banana cherry damson elderberry fig grape"),
])

/// Calls the model's `generate` directly with the given struct sizes. A nil size means the
/// argument is NULL.
func rawGenerate(
    _ model: UnsafePointer<tandem_model>, _ request: BackendRequest = conformancePrompt, layout: RequestLayout = RequestLayout(),
    stream: RecordingStream? = RecordingStream(), streamSize: StructSize = .exact,
    cancel: TestCancel? = TestCancel(), cancelSize: StructSize = .exact,
    resultSize: StructSize? = .exact, errorSize: StructSize? = .exact, errorCapacity: Int = 1024, versionCapacity: Int = 256
) -> RawOutcome {
    let guardByte = SizedStruct<tandem_result>.guardByte
    let version = UnsafeMutablePointer<CChar>.allocate(capacity: versionCapacity + 16)
    let message = UnsafeMutablePointer<CChar>.allocate(capacity: errorCapacity + 16)
    defer { version.deallocate(); message.deallocate() }
    version.initialize(repeating: CChar(bitPattern: guardByte), count: versionCapacity + 16)
    message.initialize(repeating: CChar(bitPattern: guardByte), count: errorCapacity + 16)
    // Empty until written; the bytes past each capacity are a guard zone.
    if versionCapacity > 0 { version[0] = 0 }
    if errorCapacity > 0 { message[0] = 0 }

    var resultValue = tandem_result()
    resultValue.finish = -1
    resultValue.model_version = version
    resultValue.model_version_capacity = versionCapacity
    let result = resultSize.map { SizedStruct(resultValue, size: $0.bytes(tandem_result.self, smallerEndsAt: end(of: \tandem_result.finish))) }
    var errorValue = tandem_error()
    errorValue.message = message
    errorValue.message_capacity = errorCapacity
    let error = errorSize.map { SizedStruct(errorValue, size: $0.bytes(tandem_error.self, smallerEndsAt: end(of: \tandem_error.message_capacity))) }
    let cStream = stream?.cStream(streamSize)
    let cCancel = cancel?.cToken(cancelSize)

    let status = withRawRequest(request, layout) { cRequest in
        model.pointee.generate!(model, cRequest, cStream.map { UnsafePointer($0.pointer) }, cCancel.map { UnsafePointer($0.pointer) },
                                result?.pointer, error?.pointer)
    }
    let versionWritten = result.map { $0.size >= end(of: \tandem_result.model_version_capacity) } ?? false
    return RawOutcome(
        status: status, result: result?.value,
        modelVersion: versionCapacity == 0 ? "" : strnlen(version, versionCapacity) < versionCapacity ? String(cString: version) : "<not NUL-terminated>",
        errorMessage: errorCapacity == 0 ? "" : strnlen(message, errorCapacity) < errorCapacity ? String(cString: message) : "<not NUL-terminated>",
        resultGuardIntact: result?.guardIntact ?? true, errorGuardIntact: error?.guardIntact ?? true,
        versionGuardIntact: (versionCapacity..<(versionCapacity + 16)).allSatisfy { UInt8(bitPattern: version[$0]) == guardByte }
            && (!versionWritten || strnlen(version, versionCapacity) < versionCapacity),
        errorGuardBytesIntact: (errorCapacity..<(errorCapacity + 16)).allSatisfy { UInt8(bitPattern: message[$0]) == guardByte })
}
