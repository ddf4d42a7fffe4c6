import DBus
import Foundation
import Testing
@testable import NotificationAgent

@Suite("ApplicationLauncher: Exec, a detached process with the activation token")
struct ApplicationLauncherExecTests {
    /// A shell script that writes what the launched program sees to `marker`, one line each:
    /// the two token variables, its arguments, its session and parent, and its standard input.
    private static func recorder(_ marker: String) -> String {
        let script = #"set -- "$XDG_ACTIVATION_TOKEN" "$DESKTOP_STARTUP_ID" "$*" "$(cut -d' ' -f6 /proc/$$/stat)" "#
            + #""$(cut -d' ' -f4 /proc/$$/stat)" "$(readlink /proc/$$/fd/0)" "$$"; "#
            + #"printf '%s\n' "$@" > '\#(marker).tmp' && mv '\#(marker).tmp' '\#(marker)'"#
        return "/bin/sh -c \(execQuoted(script)) launched %c %i %f %U"
    }

    @Test("starts Exec in its own session, stdin on /dev/null, not our child, with the token in its environment")
    func startsExecWithToken() async throws {
        let fixture = try await LaunchFixture()
        let marker = "\(fixture.folder.path)/marker"
        try fixture.writeEntry("org.example.Exec", """
            [Desktop Entry]
            Type=Application
            Name=Exec Test
            Icon=exec-icon
            Exec=\(Self.recorder(marker))
            """)
        let launch = try await fixture.launcher().launch(
            appID: "org.example.Exec", action: ApplicationLauncher.notificationResponseAction,
            parameter: .string("ignored by Exec"), activationToken: "token-42")
        guard case .spawned(let pid, let arguments) = launch else {
            Issue.record("expected a spawn, got \(launch)")
            return
        }
        #expect(arguments == ["/bin/sh", "-c", arguments[2], "launched", "Exec Test", "--icon", "exec-icon"])
        let lines = try await fixture.waitForLines(marker)
        #expect(lines.count == 8)
        guard lines.count == 8 else { return }
        #expect(lines[0] == "token-42")
        #expect(lines[1] == "token-42")
        #expect(lines[2] == "Exec Test --icon exec-icon")
        #expect(lines[3] != "\(getsid(0))")
        #expect(lines[4] != "\(getpid())")
        #expect(lines[5] == "/dev/null")
        #expect(lines[6] == "\(pid)")
    }

    @Test("without a token the variables are removed, even when the agent's environment has them")
    func noTokenRemovesVariables() async throws {
        let fixture = try await LaunchFixture()
        let marker = "\(fixture.folder.path)/marker"
        try fixture.writeEntry("org.example.Exec", "[Desktop Entry]\nType=Application\nExec=\(Self.recorder(marker))\n")
        let launcher = fixture.launcher(environment: ["XDG_ACTIVATION_TOKEN": "stale", "DESKTOP_STARTUP_ID": "stale"])
        try await launcher.launch(appID: "org.example.Exec", action: "x", parameter: nil, activationToken: nil)
        let lines = try await fixture.waitForLines(marker)
        #expect(lines.prefix(3) == ["", "", ""])
    }

    @Test("a program that cannot start is a typed error with its errno")
    func spawnFailures() async throws {
        let fixture = try await LaunchFixture()
        let launcher = fixture.launcher()
        try fixture.writeEntry("org.example.Missing", "[Desktop Entry]\nType=Application\nExec=/nonexistent/program --x\n")
        await #expect(throws: ApplicationLaunchError.spawnFailed(program: "/nonexistent/program", errno: ENOENT)) {
            try await launcher.launch(appID: "org.example.Missing", action: "x", parameter: nil, activationToken: nil)
        }
        try fixture.writeEntry("org.example.NotOnPath", "[Desktop Entry]\nType=Application\nExec=no-such-program-here\n")
        await #expect(throws: ApplicationLaunchError.spawnFailed(program: "no-such-program-here", errno: ENOENT)) {
            try await launcher.launch(appID: "org.example.NotOnPath", action: "x", parameter: nil, activationToken: nil)
        }
        let plain = try fixture.folder.write("#!/bin/sh\n", to: "not-executable")
        try fixture.writeEntry("org.example.NoMode", "[Desktop Entry]\nType=Application\nExec=\(plain)\n")
        await #expect(throws: ApplicationLaunchError.spawnFailed(program: plain, errno: EACCES)) {
            try await launcher.launch(appID: "org.example.NoMode", action: "x", parameter: nil, activationToken: nil)
        }
    }

    @Test("an entry without Exec, not an application, or with a broken Exec is a typed error")
    func entryErrors() async throws {
        let fixture = try await LaunchFixture()
        let launcher = fixture.launcher()
        let noExec = try fixture.writeEntry("org.example.NoExec", "[Desktop Entry]\nType=Application\nName=N\n")
        await #expect(throws: ApplicationLaunchError.noExec(path: noExec)) {
            try await launcher.launch(appID: "org.example.NoExec", action: "x", parameter: nil, activationToken: nil)
        }
        let link = try fixture.writeEntry("org.example.Link", "[Desktop Entry]\nType=Link\nURL=https://example.org\n")
        await #expect(throws: ApplicationLaunchError.notAnApplication(path: link, type: "Link")) {
            try await launcher.launch(appID: "org.example.Link", action: "x", parameter: nil, activationToken: nil)
        }
        let broken = try fixture.writeEntry("org.example.Broken", "[Desktop Entry]\nType=Application\nExec=app %z\n")
        await #expect(throws: ApplicationLaunchError.invalidDesktopEntry(path: broken, .invalidFieldCode("%z", line: 3))) {
            try await launcher.launch(appID: "org.example.Broken", action: "x", parameter: nil, activationToken: nil)
        }
    }
}
