import TandemBridge

extension BackendRequest {
    static func prompt(_ text: String, options: BackendOptions = BackendOptions()) -> BackendRequest {
        BackendRequest(messages: [.system("Be brief."), .user(text)], options: options)
    }
}
