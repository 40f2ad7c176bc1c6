import Foundation
import JSONModel

/// A locally built llama.cpp `llama-bench`, run between our own runs so both see the same load
/// on a shared machine. Each call runs one repetition and reports its tokens/s.
struct LlamaBenchBaseline {
    let executable: String
    let model: String
    let threads: Int

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// One pp and one tg measurement (`-r 1`, llama-bench's own warm-up included).
    func measure(prompt: Int, generate: Int) throws -> (pp: Double, tg: Double) {
        let output = try run(["-m", model, "-t", "\(threads)", "-p", "\(prompt)", "-n", "\(generate)", "-r", "1", "-o", "json"])
        guard let rows = (try? JSONValue(parsing: output))?.arrayValue else {
            throw Failure(description: "\(executable): output is not llama-bench's JSON array")
        }
        func rate(_ isPrompt: Bool) throws -> Double {
            let row = rows.first { ($0[isPrompt ? "n_prompt" : "n_gen"]?.integerValue ?? 0) > 0 && ($0[isPrompt ? "n_gen" : "n_prompt"]?.integerValue ?? 1) == 0 }
            guard let value = row?["avg_ts"]?.numberValue else {
                throw Failure(description: "\(executable): no \(isPrompt ? "pp" : "tg") row with avg_ts in its JSON")
            }
            return value
        }
        return (try rate(true), try rate(false))
    }

    /// Process start → exit of one `prompt`-token evaluation without warm-up: llama.cpp's cold
    /// time to first token, slightly over (it also frees the model before exiting).
    func coldFirstToken(prompt: Int) throws -> Double {
        let start = Date()
        _ = try run(["-m", model, "-t", "\(threads)", "-p", "\(prompt)", "-n", "0", "-r", "1", "--no-warmup", "-o", "json"])
        return Date().timeIntervalSince(start)
    }

    private func run(_ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { throw Failure(description: "cannot start \(executable): \(error)") }
        let data = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "\(executable) \(arguments.joined(separator: " ")) exited with status \(process.terminationStatus)")
        }
        return data
    }
}
