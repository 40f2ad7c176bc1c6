import CTandemABI

/// Calls a plugin's entry with the host's offer and validates the answer, as the OpenXR loader
/// does: a plugin that says OK but hands back a version outside the offer, a NULL table, a
/// missing required function or a malformed id is refused, never trusted.
enum PluginNegotiation {
    struct Answer {
        let abiVersion: UInt32
        let id: String
        let name: String
        let version: String
        let table: UnsafePointer<tandem_plugin>
    }

    /// `[A-Za-z0-9._-]`, 1 to 64 bytes, as the header specifies.
    static func isValidPluginID(_ id: String) -> Bool {
        let bytes = Array(id.utf8)
        return (1...64).contains(bytes.count) && bytes.allSatisfy { b in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(b) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(b)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) || b == UInt8(ascii: ".") || b == UInt8(ascii: "_")
                || b == UInt8(ascii: "-")
        }
    }

    static func negotiate(
        entry: tandem_plugin_entry_fn, path: String, host: UnsafePointer<tandem_host>, offer: ClosedRange<UInt32>
    ) throws(PluginRejection) -> Answer {
        func reject(_ code: PluginRejection.Code, _ message: String) -> PluginRejection {
            PluginRejection(code, path: path, message)
        }
        var response = tandem_load_response()
        response.struct_size = UInt32(MemoryLayout<tandem_load_response>.size)
        let (status, failure) = path.withCString { cPath in
            var request = tandem_load_request(
                struct_size: UInt32(MemoryLayout<tandem_load_request>.size), min_abi: offer.lowerBound,
                max_abi: offer.upperBound, host: host, plugin_path: cPath)
            return BackendFailure.capture { error in entry(&request, &response, error) }
        }
        let offerText = "\(versionText(offer.lowerBound))–\(versionText(offer.upperBound))"
        switch status {
        case TANDEM_OK: break
        case TANDEM_E_INCOMPATIBLE:
            throw reject(.incompatibleABI, "no common ABI version (host offers \(offerText)): \(detail(failure))")
        default:
            throw reject(.initFailed, "entry returned \(failure.status.name) (\(status)): \(detail(failure))")
        }
        guard offer.contains(response.abi_version) else {
            throw reject(.incompatibleABI, "plugin chose ABI \(versionText(response.abi_version)), outside the offered \(offerText)")
        }
        guard let cID = response.plugin_id else { throw reject(.invalidAnswer, "plugin_id is NULL") }
        let id = String(cString: cID)
        guard isValidPluginID(id) else {
            throw reject(.invalidAnswer, "plugin id \"\(id)\" is not 1 to 64 characters of [A-Za-z0-9._-]")
        }
        guard let cName = response.plugin_name else { throw reject(.invalidAnswer, "\(id): plugin_name is NULL") }
        guard let cVersion = response.plugin_version else { throw reject(.invalidAnswer, "\(id): plugin_version is NULL") }
        guard let table = response.plugin else { throw reject(.invalidAnswer, "\(id): the plugin table is NULL") }
        guard structHasField(table, structSize: table.pointee.struct_size, \.open_model) else {
            throw reject(.invalidAnswer, "\(id): plugin table struct_size \(table.pointee.struct_size) is too small")
        }
        guard table.pointee.open_model != nil else { throw reject(.invalidAnswer, "\(id): open_model is NULL") }
        return Answer(
            abiVersion: response.abi_version, id: id, name: String(cString: cName), version: String(cString: cVersion),
            table: table)
    }

    static func versionText(_ version: UInt32) -> String {
        "\(tandem_abi_major(version)).\(tandem_abi_minor(version))"
    }

    private static func detail(_ failure: BackendFailure) -> String {
        failure.message.isEmpty ? "no message" : failure.message
    }
}
