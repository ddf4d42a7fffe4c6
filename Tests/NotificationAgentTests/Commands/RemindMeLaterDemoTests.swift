import Foundation
import Testing
import UserNotificationsTesting

/// `make demo-agent`'s script, run as a person would: the terminal presenter shows the
/// reminder, `1` typed clicks Done, and the example started again by the agent prints the
/// response. Its input is a pipe written once the reminder shows.
@Suite("The RemindMeLater demo through the agent")
struct RemindMeLaterDemoTests {
    @Test("the reminder shows in the terminal; typing 1 relaunches the example, which prints the response")
    func demo() async throws {
        let bin = try BuiltProduct.url(named: "notify").deletingLastPathComponent().path
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let script = root.appendingPathComponent("examples/RemindMeLater/demo-agent.sh").path
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("remind-demo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // The feeder types 1 once the presenter shows the reminder, and keeps the input open
        // until the relaunched example has printed (each wait bounded to 30 s).
        let driver = """
            cd '\(folder.path)'
            wait_for() { tries=0; until grep -q "$1" output 2>/dev/null; do tries=$((tries + 1)); [ "$tries" -lt 300 ] || return 1; sleep 0.1; done; }
            { wait_for 'You asked to be reminded' && echo 1 && wait_for 'printed:'; sleep 1; } \\
                | REMIND_AFTER=1 DEMO_WAIT_TENTHS=300 '\(script)' '\(bin)' >output 2>&1
            status=$?
            cat output
            exit "$status"
            """
        let process = try ChildProcess(executable: URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", driver], environment: ProcessInfo.processInfo.environment)
        let result = try await process.result(timeout: .seconds(60))
        #expect(result.status == .exited(0), "\(result.standardOutput)\(result.standardError)")
        #expect(result.standardOutput.contains("Scheduled \"Stretch your legs\""))
        #expect(result.standardOutput.contains("Relaunched by a click: action done on \"Stretch your legs\" (stretch)"))
    }
}
