@testable import OpenAI
@testable import OpenAIAdmin
@testable import OpenAIRuntime

/// The documented 2xx JSON reply type of any operation of the spec, whichever module its method is
/// compiled in (`OpenAI` or `OpenAIAdmin`); `nil` when its reply is not JSON.
func replyType(of operationID: String) -> (any Decodable.Type)? {
    OperationResponseTypes.responseType(of: operationID) ?? AdminOperationResponseTypes.responseType(of: operationID)
}
