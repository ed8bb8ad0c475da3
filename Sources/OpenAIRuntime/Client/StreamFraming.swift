/// How a streaming operation's server-sent events carry its typed events.
package enum StreamFraming: Sendable {
    /// The `data` field is the event's JSON (Chat Completions, Completions, Responses, images,
    /// audio); a discriminator inside it (for example the Responses `type`) names the event.
    case data
    /// The `event` field names the event and `data` holds its payload; the typed event decodes
    /// from `{"event": <name>, "data": <payload>}` (the Assistants run stream), so the `event:`
    /// line alone decides which event it is.
    case eventNameAndData
}
