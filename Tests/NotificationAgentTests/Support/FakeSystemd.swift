import Foundation

/// Stand-ins for `systemctl` and `systemd-run` in a folder for `PATH`: each records its
/// arguments and exits with the status it was made with (`systemd-run` printing `message` on
/// its standard error). The machines that run the tests have no user service manager to arm a
/// real timer with; what the agent asks of one is what these check.
final class FakeSystemd: Sendable {
    let folder: TemporaryFolder
    private let record: String

    /// One recorded call: the program's name and its arguments.
    struct Call: Equatable {
        let program: String
        let arguments: [String]
    }

    init(runStatus: Int32 = 0, message: String = "") async throws {
        folder = try TemporaryFolder(prefix: "fake-systemd")
        record = folder.path + "/calls"
        for (program, status, text) in [("systemctl", 0, ""), ("systemd-run", runStatus, message)] {
            // One line per word, then an empty line: NUL-free words without newlines, as the agent's are.
            let script = """
                #!/bin/sh
                { echo '\(program)'; for word in "$@"; do printf '%s\\n' "$word"; done; echo; } >> '\(record)'
                \(text.isEmpty ? "" : "printf '%s\\n' '\(text)' >&2")
                exit \(status)

                """
            try await folder.writeExecutable(script, to: program)
        }
    }

    /// `PATH` with the stand-ins first.
    var path: String { folder.path + ":/usr/bin:/bin" }

    /// The calls so far, in order.
    var calls: [Call] {
        guard let text = try? String(contentsOfFile: record, encoding: .utf8) else { return [] }
        return text.components(separatedBy: "\n\n").compactMap { block in
            let lines = block.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            guard let program = lines.first, !program.isEmpty else { return nil }
            return Call(program: program, arguments: Array(lines.dropFirst()))
        }
    }
}
