/// The parameters of a generated method, in call order: a fact of the IR that the renderer prints,
/// and from which symbol links (`create(_:options:)`) and calls take their labels.
public struct MethodSignature: Hashable, Sendable {
    /// One parameter: `label name: Type = default`.
    public struct Parameter: Hashable, Sendable {
        /// The argument label (`vectorStoreID`, `` `default` ``, `_` for an unlabeled body).
        public var label: String
        /// The parameter's local name when it differs from the label (`body` after `_`,
        /// `destination` after `to`).
        public var localName: String?
        /// The type as Swift spells it, `?` included for an optional parameter.
        public var type: String
        /// The default argument, if any (`nil`, `RequestOptions()`).
        public var defaultValue: String?

        /// The parameter as declared: `_ body: CreateResponse`, `limit: Swift.Int? = nil`.
        public var declaration: String {
            label + (localName.map { " " + $0 } ?? "") + ": " + type + (defaultValue.map { " = " + $0 } ?? "")
        }

        /// The name the method's body uses for it.
        public var name: String { localName ?? label }
    }

    public var parameters: [Parameter]

    /// The labels as a symbol link or selector writes them: `vectorStoreID:_:options:`.
    public var selector: String { parameters.map { $0.label + ":" }.joined() }
}

extension OperationDecl {
    /// The query and header parameters in the order methods take them: required ones first, then
    /// those with a default, each group in spec order.
    public var queryAndHeaderParameters: [OperationParameter] {
        let others = parameters.filter { $0.location != .path }
        return others.filter(\.required) + others.filter { !$0.required }
    }

    /// The parameters of a method of this operation, in call order: path parameters, the body (as
    /// `body`, after `bodyLabel`), query and header parameters (``queryAndHeaderParameters``, but
    /// the stream flag of a streaming variant), `options`.
    ///
    /// - Parameters:
    ///   - body: The request body the method takes, if any.
    ///   - streaming: For the streaming variant: its query flag is set by the method, not passed.
    ///   - bodyLabel: `_`, or `multipart` for the form variant of an operation that takes JSON too.
    public func signature(body: RequestBodyKind?, streaming: StreamingInfo? = nil, bodyLabel: String = "_")
        -> MethodSignature
    {
        typealias Parameter = MethodSignature.Parameter
        var result: [Parameter] = []
        for parameter in parameters where parameter.location == .path {
            result.append(Parameter(label: parameter.name, type: parameter.type.swift))
        }
        if let body {
            let type: String =
                switch body {
                case .json(let type), .multipart(let type): type.swift
                case .text: "Swift.String"
                }
            let required = bodyRequired || streaming != nil
            result.append(
                Parameter(
                    label: bodyLabel, localName: "body", type: required ? type : type + "?",
                    defaultValue: required ? nil : "nil"))
        }
        for parameter in queryAndHeaderParameters where parameter.wireName != streaming?.queryFlag {
            result.append(
                Parameter(
                    label: parameter.name, type: parameter.type.swift + (parameter.required ? "" : "?"),
                    defaultValue: parameter.required ? nil : "nil"))
        }
        result.append(Parameter(label: "options", type: "RequestOptions", defaultValue: "RequestOptions()"))
        return MethodSignature(parameters: result)
    }
}
