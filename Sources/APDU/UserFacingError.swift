/// An error a person will read: what failed, and what to do about it.
///
/// Every error type in cardscan conforms, so the command line can print
/// `error: <message>` and `hint: <hint>` the same way whatever layer failed.
public protocol UserFacingError: Error, CustomStringConvertible {
    /// One sentence: what failed and where.
    var message: String { get }
    /// What the user can do about it, when there is something to do.
    var hint: String? { get }
}

extension UserFacingError {
    public var hint: String? { nil }
    public var description: String {
        if let hint { return "\(message)\nhint: \(hint)" }
        return message
    }
}
