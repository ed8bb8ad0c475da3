import Foundation
import OpenAIRuntime

extension AudioTranscriptionsAPI.CreateResponseValue {
    /// The transcribed text, whatever the reply's shape (`json`, `diarized_json`, `verbose_json`);
    /// for a shape this SDK does not know, its `text` member or the reply itself when it is a
    /// string; `nil` when there is neither.
    public var text: String? {
        switch self {
        case .json(let reply): reply.text
        case .diarizedJSON(let reply): reply.text
        case .verboseJSON(let reply): reply.text
        case .unknown(let value): value["text"]?.stringValue ?? value.stringValue
        }
    }
}

extension AudioTranslationsAPI.CreateResponseValue {
    /// The translated text, whatever the reply's shape (`json`, `verbose_json`); for a shape this
    /// SDK does not know, its `text` member or the reply itself when it is a string.
    public var text: String? {
        switch self {
        case .json(let reply): reply.text
        case .verboseJSON(let reply): reply.text
        case .unknown(let value): value["text"]?.stringValue ?? value.stringValue
        }
    }
}
