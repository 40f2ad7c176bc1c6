/// Streams written the way each server frames them (Gemini's `data:` events of whole
/// responses, OpenAI's `data:` chunks ending in `data: [DONE]`), used by the split-point tests
/// and the bench.
enum RecordedStreams {
    /// Gemini: `data: <json>` + CRLF CRLF, no [DONE], usage and modelVersion on every chunk.
    static let gemini = """
    data: {"candidates":[{"content":{"role":"model","parts":[{"text":"Thinking it over","thought":true}]},"index":0}],"usageMetadata":{"promptTokenCount":7,"totalTokenCount":7},"modelVersion":"gemini-2.5-flash","responseId":"r1"}\r
    \r
    data: {"candidates":[{"content":{"role":"model","parts":[{"text":"Grüße aus "}]},"index":0}],"usageMetadata":{"promptTokenCount":7,"totalTokenCount":7},"modelVersion":"gemini-2.5-flash","responseId":"r1"}\r
    \r
    data: {"candidates":[{"content":{"role":"model","parts":[{"text":"Zürich 🇨🇭"}]},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":7,"candidatesTokenCount":5,"thoughtsTokenCount":11,"totalTokenCount":23},"modelVersion":"gemini-2.5-flash","responseId":"r1"}\r
    \r

    """

    /// OpenAI: `data: <json>` + LF LF, a comment, tool-call fragments, a usage chunk, [DONE].
    static let openai = """
    : keep-alive

    data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"gpt-4o-mini-2024-07-18","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}],"usage":null}

    data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"gpt-4o-mini-2024-07-18","choices":[{"index":0,"delta":{"content":"Héllo"},"finish_reason":null}],"usage":null,"obfuscation":"ab"}

    event: message
    data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"gpt-4o-mini-2024-07-18","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_9","type":"function","function":{"name":"lookup","arguments":""}}]},"finish_reason":null}]}

    data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"gpt-4o-mini-2024-07-18","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\\"q\\":"}}]},"finish_reason":null}]}

    data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"gpt-4o-mini-2024-07-18","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\\"x\\"}"}}]},"finish_reason":null}]}

    data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"gpt-4o-mini-2024-07-18","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}

    data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"gpt-4o-mini-2024-07-18","choices":[],"usage":{"prompt_tokens":9,"completion_tokens":6,"total_tokens":15}}

    data: [DONE]


    """
}
