/// The names the generator makes up where the spec gives none, one rule per role: the types of an
/// operation's inline schemas, of a dictionary's values and of a webhook's payload, and the
/// variants of an operation's method. Translation and rendering ask here, so a suffix is decided
/// once. ``TypeNames`` then makes each type name unique (`Object`, `Value`, `2`, `3`, …), and
/// ``Naming/itemTypeName(_:)`` names an array's items.
enum SynthesizedNames {
    // MARK: Types

    /// The type of an operation's inline `application/json` request body: `<Stem>Request`
    /// (`CreateWidgetRequest`), where the stem is the method's name in UpperCamelCase.
    static func requestBody(stem: String) -> String { stem + "Request" }

    /// The type of an operation's inline `multipart/form-data` request body: `<Stem>Form`.
    static func multipartBody(stem: String) -> String { stem + "Form" }

    /// The type of an operation's inline `text/event-stream` event: `<Stem>Event`.
    static func streamEvent(stem: String) -> String { stem + "Event" }

    /// The type of an operation's inline JSON reply: `<Stem>Response`.
    static func response(stem: String) -> String { stem + "Response" }

    /// The type of an inline query, path or header parameter schema: `<Stem><Parameter>`
    /// (`ListFilesOrder`).
    static func parameter(stem: String, parameter: String) -> String { stem + Naming.upperCamel(parameter) }

    /// The type of the values of a dictionary (`additionalProperties` with a schema):
    /// `<Name>Value` for the dictionary named `name`.
    static func dictionaryValue(of name: String) -> String { name + "Value" }

    /// The type of a webhook's inline payload: `Webhook<Name>` (`WebhookBatchCompleted` for
    /// `batch.completed`).
    static func webhookPayload(webhook: String) -> String { "Webhook" + Naming.upperCamel(webhook) }

    // MARK: Methods

    /// The auto-paging variant of a list method: `<method>Pages` (`listPages`), returning
    /// `CursorPages`.
    static func pagesMethod(_ method: String) -> String { method + "Pages" }

    /// The streaming variant of a method whose reply may be server-sent events: `<method>Stream`
    /// (`createStream`), returning `OpenAIStream`.
    static func streamMethod(_ method: String) -> String { method + "Stream" }
}
