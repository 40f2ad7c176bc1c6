import Glibc

/// The current `errno` (or `code`) as text, for messages that name what the system refused.
func errnoText(_ code: Int32 = errno) -> String {
    String(cString: strerror(code))
}
