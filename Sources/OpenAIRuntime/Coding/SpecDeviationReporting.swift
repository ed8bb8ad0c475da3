/// A generated object type that records how the JSON it was decoded from differed from its schema.
///
/// Every generated struct also keeps the members of its JSON object that its schema does not declare,
/// in the order received, in a property `undeclaredMembers` (a ``JSONObject``): what a server sends
/// beyond the spec (`reasoning_content`, `citations`, `x_groq`, …). Encoding writes them back after the
/// declared members, so a value decoded and encoded again keeps every member; set them on a request to
/// send what the spec does not declare. (It is no requirement of this protocol: a requirement costs
/// every generated type a witness, and build time; ``SpecDeviationReport`` lists them by path.)
///
/// ```swift
/// let completion = try await client.chat.completions.create(request)
/// let citations = try completion.undeclaredMembers["citations"]?.decode(as: [String].self)
/// ```
///
/// Every generated struct conforms. Use it in generic code that logs spec drift:
///
/// ```swift
/// func logDrift(_ value: some SpecDeviationReporting) {
///     if !value.specDeviations.isEmpty { print("spec drift: \(value.specDeviations)") }
/// }
/// ```
public protocol SpecDeviationReporting {
    /// The members the JSON lacked or sent with another type or value; empty for a value that
    /// matches its schema and for every value created in code.
    var specDeviations: SpecDeviations { get }
}
