import Foundation
import NotificationAgent
import Testing

/// `SystemdWakeTimer`: what it asks of `systemd-run`, and how it ends when that fails.
@Suite("The systemd timer that wakes an agent run by systemd")
struct SystemdWakeTimerTests {
    @Test("service unit names are taken; anything else is not")
    func unitNames() {
        for good in ["desktopnotifications-agent.service", "a.service", "app-x\\x2dy@1.service", "a:b_c.service"] {
            #expect(SystemdWakeTimer(unit: good) != nil, "\(good)")
        }
        for bad in ["", ".service", "a.timer", "a", "-a.service", ".a.service", "a b.service", "a/b.service", "é.service",
                    "a\u{1B}.service", String(repeating: "a", count: 248) + ".service"] {
            #expect(SystemdWakeTimer(unit: bad) == nil, "\(bad)")
        }
        #expect(SystemdWakeTimer(unit: "desktopnotifications-agent.service")?.timerUnit == "desktopnotifications-agent.timer")
    }

    @Test("the due time is a UTC calendar event rounded up to the second")
    func calendarEvent() throws {
        #expect(SystemdWakeTimer.calendarEvent(for: Date(timeIntervalSince1970: 1_800_000_000)) == "2027-01-15 08:00:00 UTC")
        #expect(SystemdWakeTimer.calendarEvent(for: Date(timeIntervalSince1970: 1_800_000_000.2)) == "2027-01-15 08:00:01 UTC")
        let timer = try #require(SystemdWakeTimer(unit: "x.service"))
        #expect(timer.arguments(for: Date(timeIntervalSince1970: 1_800_000_000)) == [
            "--user", "--unit=x.service", "--on-calendar=2027-01-15 08:00:00 UTC",
            "--timer-property=AccuracySec=1s", "--timer-property=RemainAfterElapse=no",
        ])
    }

    @Test("no systemd-run on PATH, and a systemd-run that hangs even through SIGTERM: typed errors, in bounded time")
    func failures() async throws {
        let empty = try TemporaryFolder(prefix: "no-systemd")
        var timer = try #require(SystemdWakeTimer(unit: "x.service"))
        timer.timeout = .seconds(1)
        await #expect(throws: SystemdWakeTimer.Failure.programMissing("systemd-run")) {
            try await timer.arm(at: Date(), environment: ["PATH": empty.path])
        }
        let hanging = try TemporaryFolder(prefix: "hanging-systemd")
        try await hanging.writeExecutable("#!/bin/sh\ntrap '' TERM\nexec sleep 60\n", to: "systemd-run")
        let started = ContinuousClock.now
        await #expect(throws: SystemdWakeTimer.Failure.timedOut) {
            try await timer.arm(at: Date(), environment: ["PATH": hanging.path])
        }
        let took = ContinuousClock.now - started
        #expect(took >= .seconds(1) && took < .seconds(10), "\(took)")
    }

    @Test("a systemd-run that fails, and one ended by a signal: each told as what happened, with what it printed")
    func exitAndSignal() async throws {
        let folder = try TemporaryFolder(prefix: "failing-systemd")
        let timer = try #require(SystemdWakeTimer(unit: "x.service"))
        try await folder.writeExecutable("#!/bin/sh\necho 'Failed to connect to bus' >&2\nexit 3\n", to: "systemd-run")
        await #expect(throws: SystemdWakeTimer.Failure.failed(status: 3, message: "Failed to connect to bus")) {
            try await timer.arm(at: Date(), environment: ["PATH": folder.path])
        }
        try await folder.writeExecutable("#!/bin/sh\necho 'about to go' >&2\nkill -KILL $$\n", to: "systemd-run")
        do {
            try await timer.arm(at: Date(), environment: ["PATH": folder.path])
            Issue.record("a systemd-run ended by SIGKILL was taken as a success")
        } catch {
            #expect(error == .killed(signal: SIGKILL, message: "about to go"))
            #expect(error.description == "systemd-run was ended by signal 9: about to go")
        }
    }
}
