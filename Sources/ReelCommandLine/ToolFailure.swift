/// A failure of the tool itself (bad arguments, a missing peer, a timeout), reported like a
/// `PlayerError`: one JSON line, exit status 2. Threading: a value type.
public struct ToolFailure: Error {
    public let code: String
    public let message: String

    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }
}
