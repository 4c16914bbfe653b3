/// A failure of the tool itself (bad arguments, a missing peer, a timeout), reported like a
/// `PlayerError`: one JSON line, exit status 2. Threading: a value type.
struct ToolFailure: Error {
    let code: String
    let message: String
}
