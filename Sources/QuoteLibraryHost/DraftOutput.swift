import Foundation
import JSONModel

/// Reads the draft model's output: the `{"quote": "…"}` object the draft prompt asks for, both
/// finished (to hand the sentence to the gates) and while it streams (to show the sentence, not
/// the JSON around it).
enum DraftOutput {
    /// The sentence of a finished output. Output that is not the asked-for object (truncated
    /// JSON, prose from a model without guided output) is returned as it is: the deterministic
    /// gate then rejects it with its reason, and the run records the raw draft.
    static func sentence(in output: String) -> String {
        let trimmed = output.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.hasPrefix("{"),
              let object = (try? JSONValue(parsing: trimmed))?.objectValue,
              object.count == 1, let quote = object["quote"]?.stringValue
        else { return output }
        return quote
    }

    /// The sentence streamed so far: the text of the `quote` string up to the last complete
    /// character, or the output itself when it is not JSON.
    static func partialSentence(in output: String) -> String {
        guard output.drop(while: \.isWhitespace).hasPrefix("{") else { return output }
        guard let key = output.range(of: "\"quote\"") else { return "" }
        var rest = output[key.upperBound...].drop(while: { $0.isWhitespace || $0 == ":" })
        guard rest.first == "\"" else { return "" }
        rest = rest.dropFirst()
        var sentence = ""
        var escaped = false
        for character in rest {
            if escaped {
                switch character {
                case "n": sentence.append(" ")
                case "t": sentence.append(" ")
                case "u": return sentence  // a \u escape: show the text before it until the object is complete
                default: sentence.append(character)
                }
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "\"" {
                break
            } else {
                sentence.append(character)
            }
        }
        return sentence
    }

    /// The JSON object inside a reply from a model without guided output (which may wrap it in a
    /// code fence or a sentence): from the first `{` to the last `}`; the text itself otherwise.
    static func jsonObjectText(in output: String) -> String {
        guard let open = output.firstIndex(of: "{"), let close = output.lastIndex(of: "}"), open < close else { return output }
        return String(output[open...close])
    }
}
