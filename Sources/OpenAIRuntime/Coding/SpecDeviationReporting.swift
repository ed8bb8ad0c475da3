/// A generated object type that records how the JSON it was decoded from differed from its schema.
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
