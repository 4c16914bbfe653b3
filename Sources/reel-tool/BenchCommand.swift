import ArgumentParser

struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "bench", abstract: "Measure (not yet).")
    func run() throws { throw ToolFailure(code: "unimplemented", message: "bench") }
}
