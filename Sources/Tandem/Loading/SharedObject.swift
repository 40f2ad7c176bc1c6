import CLTDL
import CTandemABI
import Glibc

/// Opens a plugin's shared object through libltdl and finds its entry function.
///
/// libltdl alone is not enough: it reports every failure as "file not found"
/// and binds lazily, so an unresolved symbol would kill the host at the first call. A
/// `dlopen(RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE)` preflight runs first: it resolves every
/// symbol now and gives the real `dlerror()` text. Every object stays resident: nothing is ever
/// closed (a Swift plugin that is unloaded crashes the host later inside the runtime).
///
/// - Note: libltdl is not thread-safe; callers hold `PluginLoader`'s process-wide lock.
enum SharedObject {
    private nonisolated(unsafe) static var initialized = false

    /// Returns the entry function of the object at `path` (absolute), loaded and resident.
    static func openEntry(_ path: String) throws(PluginRejection) -> tandem_plugin_entry_fn {
        try preflight(path)
        if !initialized {
            guard lt_dlinit() == 0 else { throw PluginRejection(.openFailed, path: path, "lt_dlinit failed: \(ltdlError())") }
            initialized = true
        }
        var advise: lt_dladvise?
        guard lt_dladvise_init(&advise) == 0 else { throw PluginRejection(.openFailed, path: path, "lt_dladvise_init failed: \(ltdlError())") }
        defer { lt_dladvise_destroy(&advise) }
        lt_dladvise_local(&advise)      // symbols stay private to the plugin (RTLD_LOCAL)
        lt_dladvise_resident(&advise)   // never unmapped, even by a stray lt_dlclose
        guard let handle = lt_dlopenadvise(path, advise) else {
            throw PluginRejection(.openFailed, path: path, "libltdl: \(ltdlError())")
        }
        guard let symbol = lt_dlsym(handle, TANDEM_ENTRY_SYMBOL) else {
            throw PluginRejection(.missingEntrySymbol, path: path, "no function \(TANDEM_ENTRY_SYMBOL) is exported (\(ltdlError()))")
        }
        return unsafeBitCast(symbol, to: tandem_plugin_entry_fn.self)
    }

    /// Binds every symbol now, so an unresolved one is an error here rather than a dead host later.
    private static func preflight(_ path: String) throws(PluginRejection) {
        _ = dlerror()
        guard dlopen(path, tandem_rtld_preflight_flags) != nil else {
            let text = dlerror().map { String(cString: $0) } ?? "unknown dlopen failure"
            let code: PluginRejection.Code = text.contains("undefined symbol") ? .unresolvedSymbol : .openFailed
            throw PluginRejection(code, path: path, text)
        }
        // The preflight handle is deliberately kept: RTLD_NODELETE keeps the object mapped anyway.
    }

    private static func ltdlError() -> String {
        lt_dlerror().map { String(cString: $0) } ?? "no detail"
    }
}
