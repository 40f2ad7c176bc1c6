@testable import CloudHTTPSCore
import Foundation
import TandemBridge
import TandemPluginKit
import Testing

@Suite struct SettingsTests {
    func openFailure(_ change: (inout [String: String]) -> Void) -> BackendFailure? {
        var values = ModelFactory.settings(.gemini, token: "x")
        change(&values)
        do { _ = try ModelFactory.open(values); return nil } catch { return error }
    }

    @Test func badSettingsAreNamed() {
        #expect(openFailure { $0["temprature"] = "1" }?.message == "unknown setting \"temprature\"")
        #expect(openFailure { $0["dialect"] = "anthropic" }?.message.contains("expected one of gemini, openai") == true)
        #expect(openFailure { $0["dialect"] = nil }?.message.contains("dialect is required") == true)
        #expect(openFailure { $0["model"] = nil }?.message.contains("model is required") == true)
        #expect(openFailure { $0["model"] = "../etc" }?.message.contains("not a Gemini model id") == true)
        #expect(openFailure { $0["base_url"] = "http://example.com/v1beta" }?.message.contains("only allowed for a loopback host") == true)
        #expect(openFailure { $0["base_url"] = "ftp://example.com" }?.message.contains("expected an https:// URL") == true)
        #expect(openFailure { $0["base_url"] = "https://user:pw@example.com/v1beta" }?.message.contains("without credentials") == true)
        #expect(openFailure { $0["api_key_file"] = "/tmp/k" }?.message.contains("exclude each other") == true)
        #expect(openFailure { $0["ca_file"] = "/nonexistent/ca.pem" }?.message.contains("ca_file") == true)
        #expect(openFailure { $0["connect_timeout_ms"] = "0" }?.message.contains("connect_timeout_ms") == true)
        #expect(openFailure { $0["max_attempts"] = "many" }?.message.contains("max_attempts") == true)
        #expect(openFailure { $0["max_tokens_field"] = "max_tokens" }?.message.contains("only to the openai dialect") == true)
        #expect(openFailure { $0["api_key_required"] = "false"; $0["api_key_env"] = nil }?.message.contains("always needs a key") == true)
        #expect(openFailure { _ in } == nil)
    }

    @Test func endpointsAndDefaults() throws {
        #expect(try Endpoint("http://127.0.0.1:8080/v1/").baseURL == "http://127.0.0.1:8080/v1")
        #expect(try Endpoint("http://localhost:11434/v1").isLoopback)
        #expect(try Endpoint("http://[::1]:8000/v1").isLoopback)
        #expect(try !Endpoint("https://generativelanguage.googleapis.com/v1beta").isLoopback)
        var parsed = PluginSettings(["dialect": "openai", "model": "gpt-4o-mini"])
        let settings = try CloudSettings(&parsed)
        #expect(settings.endpoint.baseURL == "https://api.openai.com/v1")
        #expect(settings.key.origin == .environment("OPENAI_API_KEY"))
        #expect(settings.embeddingDimensions == 1536)
    }

    /// ca_file and api_key_file are paths: relative ones are relative to the config's folder,
    /// absolute ones are kept, and a missing file is named as resolved, with the setting.
    @Test func pathSettingsAreRelativeToTheConfigFolder() throws {
        let folder = NSTemporaryDirectory() + "tandem-cloud-settings-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder + "/tls", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        FileManager.default.createFile(atPath: folder + "/tls/ca.pem", contents: Data("-----BEGIN CERTIFICATE-----\n".utf8))
        func open(_ values: [String: String]) throws(BackendFailure) -> CloudSettings {
            var parsed = PluginSettings(["dialect": "openai", "model": "gpt-4o-mini"].merging(values) { $1 }, configDirectory: folder)
            return try CloudSettings(&parsed)
        }

        let relative = try open(["ca_file": "tls/ca.pem", "api_key_file": "./keys/openai.key"])
        #expect(relative.caFile == folder + "/tls/ca.pem")
        #expect(relative.key.origin == .file(folder + "/keys/openai.key"))
        let absolute = try open(["ca_file": folder + "/tls/ca.pem", "api_key_file": "/etc/tandem/openai.key"])
        #expect(absolute.caFile == folder + "/tls/ca.pem")
        #expect(absolute.key.origin == .file("/etc/tandem/openai.key"))

        do {
            _ = try open(["ca_file": "ca.pem"])
            Issue.record("a missing ca_file was accepted")
        } catch {
            #expect(error.status == .invalidArgument)
            #expect(error.message == "setting ca_file \"ca.pem\" (relative to the config folder \(folder)): \(folder)/ca.pem is not a readable file")
        }
    }
}
