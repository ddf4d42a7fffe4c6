import DBus
import Foundation
@testable import NotificationAgent
import Testing
import UserNotificationsTesting

/// What `notify app-files` writes is what starts the app: the real `dbus-daemon` reads the
/// service file and starts the program with the words given, the agent's Exec parser and its
/// launcher read the desktop entry back to the same words.
@Suite("notify app-files: the bus and the agent start the program with the words given")
struct AppFilesStartTests {
    static let appID = "org.example.Quoted"
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    /// Words that each quoting rule treats specially: empty, spaces, both quotes, backslashes
    /// (`\s` among them), the shell's and the Exec key's reserved characters, field codes, `=`,
    /// dashes and non-ASCII text, and a quote and a backslash followed by a combining mark.
    static let awkwardArguments = [
        "", "two words", "it's", #"back\slash"#, #"a\sb"#, #"trailing\"#, #""quoted""#, "$HOME", "`date`", "%u", "%%", "100%",
        "#hash", "a=b", "--flag", "-x", "~", "*?", "é ü", "  lead", "semi;colon", "pipe|amp&", "(paren)", "<in>", "x''y",
        "\"\u{301}", "\\\u{301}x",
    ]

    /// Writes a program at `bin/<name>` that records its `argv` (NUL-separated) in `marker`
    /// and exits with 3, so that the bus answers the activation at once (`ChildExited`). The
    /// marker appears whole (written beside it, then renamed): a test that waits for it never
    /// reads the file the shell has created and not yet written.
    func recorder(_ name: String, marker: String) async throws -> String {
        try await folder.writeExecutable(
            "#!/bin/sh\nprintf '%s\\000' \"$0\" \"$@\" > '\(marker).part' && mv '\(marker).part' '\(marker)'\nexit 3\n",
            to: "bin/\(name)")
    }

    /// The words recorded in `marker`, or `nil` when it was not written.
    func recorded(_ marker: String) -> [String]? {
        guard let data = FileManager.default.contents(atPath: marker) else { return nil }
        return Array(data.split(separator: 0, omittingEmptySubsequences: false).dropLast().map { String(decoding: $0, as: UTF8.self) })
    }

    /// Runs the built `notify app-files` with `arguments`, writing under `data/`.
    func appFiles(_ arguments: [String]) async throws -> CommandResult {
        let environment = ["PATH": "/usr/bin:/bin", "HOME": folder.path, "XDG_DATA_HOME": "\(folder.path)/data"]
        return try await ChildProcess(
            executable: try BuiltProduct.url(named: "notify"), arguments: ["app-files"] + arguments, environment: environment
        ).result(timeout: .seconds(15))
    }

    /// Puts the service file `notify app-files` wrote for `id` in `bus`'s service folder and has
    /// the bus start it; returns the D-Bus error name of `StartServiceByName`.
    func activate(_ id: String, on bus: TestBus) async throws -> String? {
        let service = try #require(bus.serviceDirectory).appendingPathComponent("\(id).service")
        try? FileManager.default.removeItem(at: service)
        try FileManager.default.copyItem(atPath: "\(folder.path)/data/dbus-1/services/\(id).service", toPath: service.path)
        let connection = try await DBusConnection.connect(to: .address(bus.address))
        _ = try await connection.callBus("ReloadConfig")
        var errorName: String?
        do {
            _ = try await connection.callBus("StartServiceByName", [.string(id), .uint32(0)], timeout: .seconds(20))
        } catch let error as DBusError {
            errorName = error.remoteName
        }
        await connection.close()
        return errorName
    }

    @Test("a backslash in the program's path reaches the bus as a backslash: \\s is not read as a space, which ran another program")
    func backslashInProgram() async throws {
        let bus = try await TestBus(withServiceDirectory: true)
        let marker = "\(folder.path)/ran"
        let decoy = "\(folder.path)/decoy"
        let program = try await recorder(#"tool\sx"#, marker: marker)
        _ = try await recorder("tool x", marker: decoy)
        let written = try await appFiles(["--id", Self.appID, "--exec", program, "--dbus-activatable"])
        #expect(written.status == .exited(0), "\(written.standardError)")
        #expect(try await activate(Self.appID, on: bus) == "org.freedesktop.DBus.Error.Spawn.ChildExited")
        #expect(recorded(marker) == [program])
        #expect(recorded(decoy) == nil)
    }

    @Test("a single quote in the program's path is quoted so that the bus reads the file (with '\\'' it ignored it)")
    func singleQuoteInProgram() async throws {
        let bus = try await TestBus(withServiceDirectory: true)
        let marker = "\(folder.path)/ran"
        let program = try await recorder("it's the app", marker: marker)
        let written = try await appFiles(["--id", Self.appID, "--exec", program, "--dbus-activatable"])
        #expect(written.status == .exited(0), "\(written.standardError)")
        #expect(try await activate(Self.appID, on: bus) == "org.freedesktop.DBus.Error.Spawn.ChildExited")
        #expect(recorded(marker) == [program])
    }

    @Test("--arg words reach the program as given, started by the bus from the service file and by the agent from the entry's Exec")
    func argumentsRoundTrip() async throws {
        let bus = try await TestBus(withServiceDirectory: true)
        let marker = "\(folder.path)/ran"
        let program = try await recorder(#"my 'odd' \s "app" $1 %f é"#, marker: marker)
        let words = [program] + Self.awkwardArguments
        let written = try await appFiles(
            ["--id", Self.appID, "--exec", program, "--dbus-activatable"] + Self.awkwardArguments.flatMap { ["--arg", $0] })
        #expect(written.status == .exited(0), "\(written.standardError)")

        #expect(try await activate(Self.appID, on: bus) == "org.freedesktop.DBus.Error.Spawn.ChildExited")
        #expect(recorded(marker) == words)

        let entryText = try String(contentsOfFile: "\(folder.path)/data/applications/\(Self.appID).desktop", encoding: .utf8)
        let entry = try DesktopEntry(parsing: Array(entryText.utf8))
        #expect(try entry.commandLine()?.expanded(with: .init(files: ["/f"], urls: ["u:"], icon: "i", name: "n")) == words)

        // The agent's launcher starts the entry's Exec (the entry without DBusActivatable).
        try FileManager.default.removeItem(atPath: marker)
        let plain = try await appFiles(["--id", Self.appID, "--exec", program, "--force"] + Self.awkwardArguments.flatMap { ["--arg", $0] })
        #expect(plain.status == .exited(0), "\(plain.standardError)")
        let connection = try await DBusConnection.connect(to: .address(bus.address))
        let launcher = ApplicationLauncher(
            environment: ["PATH": "/usr/bin:/bin", "HOME": folder.path, "XDG_DATA_HOME": "\(folder.path)/data", "XDG_DATA_DIRS": "/nonexistent"],
            connection: connection)
        let launch = try await launcher.launch(appID: Self.appID, action: "open", parameter: nil, activationToken: nil)
        guard case .spawned(_, let arguments) = launch else {
            Issue.record("launched \(launch), not by Exec")
            return
        }
        #expect(arguments == words)
        let deadline = ContinuousClock.now + .seconds(10)
        while recorded(marker) == nil, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(recorded(marker) == words)
        await connection.close()
    }

    @Test("each word written by desktopExec and serviceExec reads back alone, whatever it holds")
    func quotingReadsBack() throws {
        // A combining mark after a quote, a backslash, a space or a percent sign does not hide it.
        let combining = ["\"\u{301}", "\\\u{301}", " \u{301}", "%\u{301}", "'\u{301}", "#\u{301}", "=\u{301}"]
        for word in Self.awkwardArguments + combining + ["plain", "/usr/bin/app", "ünïcödé", "\\", "'", "\"", "%"] {
            let line = ApplicationFiles.desktopExec(["/bin/app", word])
            let entry = try DesktopEntry(parsing: Array("[Desktop Entry]\nType=Application\nName=A\nExec=\(line)\n".utf8))
            #expect(try entry.commandLine()?.expanded(with: .init()) == ["/bin/app", word], "\(word.debugDescription): Exec=\(line)")
            // The service file's line escapes nothing dbus-daemon does not know: only \\ follows a backslash.
            let service = ApplicationFiles.serviceExec(["/bin/app", word])
            var scalars = service.unicodeScalars.makeIterator()
            while let scalar = scalars.next() {
                if scalar == "\\" { #expect(scalars.next() == "\\", "\(word.debugDescription): Exec=\(service)") }
            }
        }
    }

    @Test("a program path with = is refused at write time, with nothing written (the agent refuses to launch it)")
    func equalsInProgram() async throws {
        let program = try await recorder("app=1", marker: "\(folder.path)/ran")
        let result = try await appFiles(["--id", Self.appID, "--exec", program])
        #expect(result.status == .exited(1))
        #expect(result.standardError.contains("\"=\""), "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: "\(folder.path)/data"))
        // What the agent does with such an entry: it refuses the program.
        let entry = try DesktopEntry(parsing: Array("[Desktop Entry]\nType=Application\nName=A\nExec=\(ApplicationFiles.desktopExec([program]))\n".utf8))
        #expect(throws: DesktopEntryError.self) { try entry.commandLine() }
    }

    @Test("an argument with a control character is refused")
    func controlCharacterInArgument() async throws {
        let program = try await recorder("app", marker: "\(folder.path)/ran")
        let result = try await appFiles(["--id", Self.appID, "--exec", program, "--arg", "two\nlines"])
        #expect(result.status == .exited(1) && result.standardError.contains("invalid argument"), "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: "\(folder.path)/data"))
    }

    @Test("--no-display writes NoDisplay=true; without it the entry has no NoDisplay key")
    func noDisplay() async throws {
        let program = try await recorder("app", marker: "\(folder.path)/ran")
        #expect(try await appFiles(["--id", Self.appID, "--exec", program]).status == .exited(0))
        let path = "\(folder.path)/data/applications/\(Self.appID).desktop"
        #expect(try !String(contentsOfFile: path, encoding: .utf8).contains("NoDisplay"))
        #expect(try await appFiles(["--id", Self.appID, "--exec", program, "--no-display", "--force"]).status == .exited(0))
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("\nNoDisplay=true\n"))
        #expect(try DesktopEntry(parsing: Array(text.utf8)).type == "Application")
    }

    @Test("the README's sample desktop entry is what its notify app-files command writes")
    func readmeSample() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let command = "notify app-files --id org.example.Hello --exec /usr/local/bin/Hello --name Hello --icon face-smile --dbus-activatable"
        #expect(readme.contains("`\(command)`"))
        let block = try #require(readme.components(separatedBy: "```ini\n").dropFirst().first?.components(separatedBy: "```").first)
        let files = try ApplicationFiles(
            checkingValuesOf: "org.example.Hello", program: "/usr/local/bin/Hello", arguments: [], name: "Hello", icon: "face-smile",
            isDBusActivatable: true, noDisplay: false)
        #expect(block == files.desktopEntry)
    }
}
