import Foundation

/// A generated request type that can be sent as `multipart/form-data`.
package protocol MultipartFormEncodable {
    /// Appends this value's fields to `form`.
    func encode(to form: inout MultipartForm) throws
}
