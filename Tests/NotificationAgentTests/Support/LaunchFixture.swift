import DBus
import Foundation
@testable import NotificationAgent
import UserNotificationsTesting

/// A private bus, a connection for the agent's side and a data folder whose
/// `applications/` holds the test's desktop entries.
struct LaunchFixture {
    let bus: TestBus
    let connection: DBusConnection
    let folder: TemporaryFolder

    init(withServiceDirectory: Bool = false) async throws {
        bus = try await TestBus(withServiceDirectory: withServiceDirectory)
        connection = try await DBusConnection.connect(to: .address(bus.address))
        folder = try TemporaryFolder()
    }

    /// The launcher, its desktop entries looked up in this folder alone.
    func launcher(environment extra: [String: String] = [:]) -> ApplicationLauncher {
        var environment = ["PATH": "/usr/bin:/bin", "HOME": folder.path, "XDG_DATA_HOME": folder.path, "XDG_DATA_DIRS": "/nonexistent"]
        environment.merge(extra) { $1 }
        return ApplicationLauncher(environment: environment, connection: connection, timeout: .seconds(10))
    }

    /// Writes `applications/<appID>.desktop`.
    @discardableResult
    func writeEntry(_ appID: String, _ text: String) throws -> String {
        try folder.write(text, to: "applications/\(appID).desktop")
    }

    /// Waits up to 10 s for `path` to exist, then returns its lines.
    func waitForLines(_ path: String) async throws -> [String] {
        let deadline = ContinuousClock.now + .seconds(10)
        while !FileManager.default.fileExists(atPath: path), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        return try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }
}

/// `argument` as one quoted argument of an Exec value written in a file: the quoting rules'
/// escapes, `%%` for a percent sign, then the string type's `\\` for each backslash and `\n`
/// for each line break.
func execQuoted(_ argument: String) -> String {
    var quoted = ""
    for character in argument {
        switch character {
        case "\"", "`", "$", "\\": quoted += "\\\(character)"
        case "%": quoted += "%%"
        default: quoted.append(character)
        }
    }
    let escaped = quoted.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
    return "\"" + escaped + "\""
}
