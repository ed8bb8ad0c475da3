import Foundation

/// How strictly replies are held to the spec while they decode into generated types.
///
/// OpenAI's servers, Azure OpenAI, OpenAI-compatible providers, proxies and older API versions
/// send replies that differ from the spec in small ways: a member the spec marks required is
/// left out, a constant such as `object: "chat.completion.chunk"` has another value, a member
/// has a value of another type. In ``lenient`` mode (the default) such a reply still decodes, and
/// every difference is recorded in the ``SpecDeviations`` of the object it was found in; in
/// ``strict`` mode it throws `DecodingError`, for users who want spec drift to fail loudly.
///
/// The mode is set per client with ``OpenAIClient/Configuration/decodingMode``; for a
/// `JSONDecoder` of your own, set `userInfo[.openAIDecodingMode]`.
public enum DecodingMode: Sendable, Hashable {
    /// A member that is missing, `null` where the schema does not allow it, or of another type
    /// reads as its placeholder (`""`, `0`, `false`, `[]`, `[:]`, `.null`, an open enum with the
    /// raw value `""`, a union's `unknown(.null)`, an object whose members are all placeholders),
    /// or as `nil` when the member is optional; a constant with another value is not enforced.
    /// Each case is recorded in the enclosing object's ``SpecDeviationReporting/specDeviations``.
    ///
    /// Union variants are still chosen strictly: a discriminator value selects its case, and a
    /// union without one tries each case with its own constants and required members enforced,
    /// so a value lands in `unknown(_:)` rather than in a case it does not fit.
    case lenient
    /// Every required member must be present and not `null`, every constant must have its value
    /// and every member must fit its type; otherwise decoding throws `DecodingError` naming the
    /// coding path. A value decodes in strict mode exactly when lenient mode records no deviation.
    ///
    /// In both modes a required array or dictionary that is absent or `null` reads as empty and is
    /// no deviation: replies routinely leave out empty collections.
    case strict
}

extension CodingUserInfoKey {
    /// The ``DecodingMode`` of a `JSONDecoder` that decodes generated types; ``DecodingMode/lenient``
    /// when absent.
    ///
    /// ```swift
    /// let decoder = JSONDecoder()
    /// decoder.userInfo[.openAIDecodingMode] = DecodingMode.strict
    /// ```
    public static let openAIDecodingMode = CodingUserInfoKey(rawValue: "OpenAI.DecodingMode")!
}

extension CodingUserInfoKey {
    /// The JSON names (`Set<String>`) of request body members that the SDK set because the caller
    /// left them unset, given to the decoder of that request's reply; for example
    /// `encoding_format`, which makes ``EmbeddingVector`` decode base64 vectors into floats.
    public static let openAIDefaultedRequestMembers = CodingUserInfoKey(rawValue: "OpenAI.DefaultedRequestMembers")!
}
