import CTandemABI
import Tandem
import Testing

extension ConformanceSuite {
    /// The entry answers each offer on its own: a version inside the overlap, or INCOMPATIBLE.
    @Suite struct Negotiation {
        /// Calls the entry with an offer and struct sizes; returns the status and the response.
        private func offer(
            _ plugin: LoadedPlugin, min: UInt32, max: UInt32, requestSize: StructSize = .exact, responseSize: StructSize = .exact
        ) -> (status: tandem_status, response: SizedStruct<tandem_load_response>, message: String) {
            let request = SizedStruct(
                tandem_load_request(struct_size: 0, min_abi: min, max_abi: max, host: plugin.host, plugin_path: nil),
                size: requestSize.bytes(tandem_load_request.self, smallerEndsAt: end(of: \tandem_load_request.max_abi)))
            let response = SizedStruct(
                tandem_load_response(), size: responseSize.bytes(tandem_load_response.self, smallerEndsAt: end(of: \tandem_load_response.plugin_version)))
            let (status, failure) = BackendFailure.capture { error in plugin.entry(request.pointer, response.pointer, error) }
            return (status, response, failure.message)
        }

        private static let current = TANDEM_ABI_CURRENT

        @Test(arguments: ConformanceEnvironment.pluginIDs)
        func anOfferAroundThePluginsVersionIsAcceptedWithAVersionInside(_ id: String) throws {
            let plugin = try ConformanceEnvironment.plugin(id)
            let (status, response, message) = offer(plugin, min: tandem_abi_version(0, 1), max: tandem_abi_version(1, 0xFFFF))
            #expect(status == TANDEM_OK, "\(message)")
            let answer = response.value
            #expect((tandem_abi_version(0, 1)...tandem_abi_version(1, 0xFFFF)).contains(answer.abi_version))
            #expect(answer.plugin_id.map { String(cString: $0) } == plugin.id)
            #expect(answer.plugin != nil)
            #expect(response.guardIntact)
        }

        @Test(arguments: ConformanceEnvironment.pluginIDs)
        func anOfferAboveThePluginsRangeIsIncompatible(_ id: String) throws {
            let (status, response, message) = offer(try ConformanceEnvironment.plugin(id), min: tandem_abi_version(2, 0), max: tandem_abi_version(3, 5))
            #expect(status == TANDEM_E_INCOMPATIBLE)
            #expect(!message.isEmpty)
            #expect(response.guardIntact)
        }

        @Test(arguments: ConformanceEnvironment.pluginIDs)
        func anOfferBelowThePluginsRangeIsIncompatible(_ id: String) throws {
            let (status, _, message) = offer(try ConformanceEnvironment.plugin(id), min: tandem_abi_version(0, 1), max: tandem_abi_version(0, 9))
            #expect(status == TANDEM_E_INCOMPATIBLE)
            #expect(!message.isEmpty)
        }

        @Test(arguments: ConformanceEnvironment.pluginIDs)
        func anInvertedRangeIsRefused(_ id: String) throws {
            let (status, _, _) = offer(try ConformanceEnvironment.plugin(id), min: Self.current, max: tandem_abi_version(0, 1))
            #expect(status == TANDEM_E_INCOMPATIBLE || status == TANDEM_E_INVALID_ARGUMENT)
        }

        @Test(arguments: ConformanceEnvironment.pluginIDs, [StructSize.smaller, .larger])
        func aRequestOfAnotherSizeIsAccepted(_ id: String, size: StructSize) throws {
            let (status, response, message) = offer(try ConformanceEnvironment.plugin(id), min: Self.current, max: Self.current, requestSize: size)
            #expect(status == TANDEM_OK, "\(message)")
            #expect(response.value.abi_version == Self.current)
        }

        @Test(arguments: ConformanceEnvironment.pluginIDs)
        func aLargerResponseIsFilledAndItsUnknownTailLeftAlone(_ id: String) throws {
            let (status, response, message) = offer(try ConformanceEnvironment.plugin(id), min: Self.current, max: Self.current, responseSize: .larger)
            #expect(status == TANDEM_OK, "\(message)")
            #expect(response.value.plugin != nil)
            #expect(response.guardIntact)
        }

        /// A response too small for the table pointer cannot carry an answer: refused, untouched past its size.
        @Test(arguments: ConformanceEnvironment.pluginIDs)
        func aResponseTooSmallForTheAnswerIsRefused(_ id: String) throws {
            let (status, response, _) = offer(try ConformanceEnvironment.plugin(id), min: Self.current, max: Self.current, responseSize: .smaller)
            #expect(status != TANDEM_OK)
            #expect(response.guardIntact)
        }

        @Test(arguments: ConformanceEnvironment.pluginIDs)
        func nullArgumentsAreRefusedNotFollowed(_ id: String) throws {
            let plugin = try ConformanceEnvironment.plugin(id)
            var response = tandem_load_response()
            response.struct_size = UInt32(MemoryLayout<tandem_load_response>.size)
            #expect(plugin.entry(nil, &response, nil) != TANDEM_OK)
            var request = tandem_load_request(
                struct_size: UInt32(MemoryLayout<tandem_load_request>.size), min_abi: Self.current, max_abi: Self.current,
                host: plugin.host, plugin_path: nil)
            #expect(plugin.entry(&request, nil, nil) != TANDEM_OK)
            #expect(plugin.entry(&request, &response, nil) == TANDEM_OK)  // the error pointer is optional
        }
    }
}
