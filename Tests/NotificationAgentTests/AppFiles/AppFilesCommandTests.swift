import Foundation
@testable import NotificationAgent
import Testing
import UserNotificationsTesting

@Suite("notify app-files")
struct AppFilesCommandTests {
    static let appID = "org.example.Files-App"
    let folder: TemporaryFolder
    let program: String

    init() async throws {
        folder = try TemporaryFolder()
        program = try await folder.writeExecutable("#!/bin/sh\n", to: "bin/my app%1")
    }

    /// Runs the built `notify app-files` with `arguments` and `XDG_DATA_HOME` in the folder.
    func run(_ arguments: [String]) async throws -> CommandResult {
        let environment = ["PATH": "/usr/bin:/bin", "HOME": folder.path, "XDG_DATA_HOME": "\(folder.path)/data"]
        return try await ChildProcess(executable: try BuiltProduct.url(named: "notify"), arguments: ["app-files"] + arguments, environment: environment)
            .result(timeout: .seconds(15))
    }

    func text(_ relativePath: String) -> String? {
        try? String(contentsOfFile: "\(folder.path)/\(relativePath)", encoding: .utf8)
    }

    @Test("--dbus-activatable writes the desktop entry and the service file, which the agent's parser and the bus read back")
    func activatable() async throws {
        let result = try await run([
            "--id", Self.appID, "--exec", program, "--name", "Files App", "--icon", "dialog-information", "--dbus-activatable",
            "--output-dir", "\(folder.path)/out",
        ])
        #expect(result.status == .exited(0), "\(result.standardError)")
        let entryPath = "\(folder.path)/out/applications/\(Self.appID).desktop"
        let servicePath = "\(folder.path)/out/dbus-1/services/\(Self.appID).service"
        #expect(result.standardOutput == "wrote \(entryPath)\nwrote \(servicePath)\n")
        let quoted = "\"\(program.replacingOccurrences(of: "%", with: "%%"))\""
        #expect(text("out/applications/\(Self.appID).desktop") == """
            [Desktop Entry]
            Type=Application
            Name=Files App
            Exec=\(quoted)
            Icon=dialog-information
            DBusActivatable=true
            X-GNOME-UsesNotifications=true

            """)
        #expect(text("out/dbus-1/services/\(Self.appID).service") == "[D-BUS Service]\nName=\(Self.appID)\nExec='\(program)'\n")
        let entry = try DesktopEntry(parsing: Array(try #require(text("out/applications/\(Self.appID).desktop")).utf8))
        #expect(entry.isDBusActivatable && entry.name == "Files App" && entry.type == "Application")
        #expect(try entry.commandLine()?.expanded(with: .init()) == [program])
        #expect(text("data/applications/\(Self.appID).desktop") == nil)
    }

    @Test("without --dbus-activatable: the desktop entry alone, under XDG_DATA_HOME, named after the id")
    func execOnly() async throws {
        let result = try await run(["--id", Self.appID, "--exec", program])
        #expect(result.status == .exited(0), "\(result.standardError)")
        let entry = try #require(text("data/applications/\(Self.appID).desktop"))
        #expect(entry.contains("Name=\(Self.appID)\n") && !entry.contains("DBusActivatable") && !entry.contains("Icon="))
        #expect(entry.contains("X-GNOME-UsesNotifications=true\n"))
        #expect(!FileManager.default.fileExists(atPath: "\(folder.path)/data/dbus-1"))
    }

    @Test("invalid ids, programs and values are refused and nothing is written")
    func validation() async throws {
        let plain = try folder.write("not a program\n", to: "bin/plain")
        let cases: [([String], String)] = [
            (["--id", "../evil", "--exec", program], "invalid app id"),
            (["--id", "org..example", "--exec", program], "invalid app id"),
            (["--id", "org.example.9app", "--exec", program, "--dbus-activatable"], "well-known bus name"),
            (["--id", Self.appID, "--exec", "bin/app"], "not an absolute path"),
            (["--id", Self.appID, "--exec", "/nonexistent/app"], "not a file"),
            (["--id", Self.appID, "--exec", "\(folder.path)/bin"], "not a file"),
            (["--id", Self.appID, "--exec", plain], "not executable"),
            (["--id", Self.appID, "--exec", program, "--name", "two\nlines"], "control character"),
        ]
        for (arguments, message) in cases {
            let result = try await run(arguments)
            #expect(result.status == .exited(1), "\(arguments)")
            #expect(result.standardError.contains(message), "\(arguments): \(result.standardError)")
        }
        #expect(!FileManager.default.fileExists(atPath: "\(folder.path)/data"))
    }

    @Test("a file with other content is not replaced without --force; the same content is left unchanged")
    func overwrite() async throws {
        let arguments = ["--id", Self.appID, "--exec", program, "--dbus-activatable"]
        #expect(try await run(arguments).status == .exited(0))
        let entryPath = "\(folder.path)/data/applications/\(Self.appID).desktop"
        let first = text("data/applications/\(Self.appID).desktop")
        let same = try await run(arguments)
        #expect(same.status == .exited(0) && same.standardOutput.hasPrefix("unchanged \(entryPath)\n"))
        let renamed = try await run(arguments + ["--name", "Renamed"])
        #expect(renamed.status == .exited(1) && renamed.standardError.contains("exists with other content"))
        #expect(text("data/applications/\(Self.appID).desktop") == first)
        let forced = try await run(arguments + ["--name", "Renamed", "--force"])
        #expect(forced.status == .exited(0) && forced.standardOutput.hasPrefix("wrote \(entryPath)\n"))
        #expect(forced.standardOutput.contains("unchanged \(folder.path)/data/dbus-1/services/\(Self.appID).service\n"))
        #expect(text("data/applications/\(Self.appID).desktop")?.contains("Name=Renamed\n") == true)
    }
}
