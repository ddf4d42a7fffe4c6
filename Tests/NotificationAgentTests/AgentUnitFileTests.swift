import Foundation
import Testing
import UserNotificationsTesting

/// The agent's systemd user unit, `packaging/desktopnotifications-agent.service.in`, as
/// `make install` and the Debian package install it.
@Suite("the agent's systemd user unit")
struct AgentUnitFileTests {
    static let template = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("packaging/desktopnotifications-agent.service.in")

    /// The `Key=Value` lines of `section`, in order.
    static func keys(_ text: String, in section: String) -> [String] {
        var current = ""
        var lines: [String] = []
        for line in text.split(separator: "\n").map(String.init) where !line.hasPrefix("#") {
            if line.hasPrefix("[") { current = line } else if current == "[\(section)]" { lines.append(line) }
        }
        return lines
    }

    @Test("an agent that crashes or is killed is started again (Restart=on-failure), not only when an app next calls it")
    func restartsAfterAFailure() throws {
        let text = try String(contentsOf: Self.template, encoding: .utf8)
        let service = Self.keys(text, in: "Service")
        #expect(service.contains("Restart=on-failure"))
        #expect(service.contains("RestartSec=2s"))
        // A crash loop stops: five starts within a minute at most.
        let unit = Self.keys(text, in: "Unit")
        #expect(unit.contains("StartLimitIntervalSec=60s") && unit.contains("StartLimitBurst=5"))
        // The agent's own exits (idle, a timer armed, a signal, the bus gone) are clean and not restarted.
        #expect(service.contains("Type=dbus") && service.contains("BusName=org.desktopnotifications.Agent"))
    }

    @Test("systemd reads the installed unit without a warning (systemd-analyze verify)")
    func systemdVerifies() async throws {
        let analyze = try ToolRequirement.require("systemd-analyze")
        let folder = try TemporaryFolder()
        let bindir = try BuiltProduct.url(named: "notify").deletingLastPathComponent().path
        let text = try String(contentsOf: Self.template, encoding: .utf8).replacingOccurrences(of: "@bindir@", with: bindir)
        let unit = try folder.write(text, to: "desktopnotifications-agent.service")
        let result = try await ChildProcess(
            executable: analyze, arguments: ["verify", "--man=no", unit], environment: ProcessInfo.processInfo.environment
        ).result(timeout: .seconds(30))
        #expect(result.status == .exited(0), "\(result.standardError)")
        #expect(result.standardError.isEmpty, "\(result.standardError)")
    }
}
