import DesktopNotificationsSupport
import Foundation
import Testing
import UserNotificationsTesting

@Suite("TestBus: a private dbus-daemon per suite")
struct TestBusTests {
    @Test("starts from the private-bus configuration and answers a dbus-send ping")
    func startsAndAnswersPing() async throws {
        let bus = try await TestBus()
        #expect(bus.address.hasPrefix("unix:"))
        #expect(bus.isRunning)
        #expect(Glibc.kill(bus.pid, 0) == 0)
        try await bus.ping()

        let names = try await bus.run("dbus-send", [
            "--session", "--print-reply=literal", "--dest=org.freedesktop.DBus",
            "/org/freedesktop/DBus", "org.freedesktop.DBus.ListNames",
        ]).check()
        #expect(names.standardOutput.contains("org.freedesktop.DBus"))

        let configuration = try String(contentsOf: bus.configurationFile, encoding: .utf8)
        #expect(configuration.contains("<type>session</type>"))
        #expect(!configuration.contains("<servicedir>"))
        await bus.stop()
    }

    @Test("the private-bus configuration has no service directories: nothing is activatable")
    func nothingActivatableWithoutServiceDirectory() async throws {
        let sessionConfiguration = PrivateBusConfiguration.text(listen: ["unix:tmpdir=/tmp"])
        #expect(sessionConfiguration.contains("<type>session</type>"))
        #expect(!sessionConfiguration.contains("<standard_session_servicedirs"))
        #expect(!sessionConfiguration.contains("<servicedir"))

        let bus = try await TestBus()
        let activatable = try await bus.run("dbus-send", [
            "--session", "--print-reply=literal", "--dest=org.freedesktop.DBus",
            "/org/freedesktop/DBus", "org.freedesktop.DBus.ListActivatableNames",
        ]).check()
        let names = activatable.standardOutput.split(whereSeparator: \.isWhitespace).filter { $0.contains(".") }
        #expect(names == ["org.freedesktop.DBus"])

        let notify = try await bus.run("dbus-send", [
            "--session", "--print-reply", "--dest=org.freedesktop.Notifications",
            "/org/freedesktop/Notifications", "org.freedesktop.Notifications.GetCapabilities",
        ])
        #expect(!notify.succeeded)
        #expect(notify.standardError.contains("org.freedesktop.DBus.Error.ServiceUnknown"))
        #expect(throws: HarnessError.self) {
            try bus.writeService(name: "org.example.Nothing", exec: "/bin/true")
        }
        await bus.stop()
    }

    @Test("activation runs the Exec line of a service file in the bus's own directory")
    func activationRunsService() async throws {
        let bus = try await TestBus(withServiceDirectory: true)
        let serviceDirectory = try #require(bus.serviceDirectory)
        let configuration = try String(contentsOf: bus.configurationFile, encoding: .utf8)
        #expect(configuration.contains("<servicedir>\(serviceDirectory.path)</servicedir>"))

        let marker = bus.directory.appendingPathComponent("activated")
        let script = bus.directory.appendingPathComponent("write-marker.sh")
        // Exit status 3: a service that exits with 0 counts as "forked into the background"
        // and the bus would wait service_start_timeout for it to take its name.
        try "#!/bin/sh\nprintf '%s' \"$DBUS_STARTER_BUS_TYPE\" > '\(marker.path)'\nexit 3\n"
            .write(to: script, atomically: true, encoding: .utf8)
        try await BuiltProduct.makeExecutable(atPath: script.path)
        let service = try bus.writeService(name: "org.example.HarnessMarker", exec: script.path)
        #expect(FileManager.default.fileExists(atPath: service.path))
        #expect(!FileManager.default.fileExists(atPath: marker.path))

        let call = try await bus.run("dbus-send", [
            "--session", "--print-reply", "--dest=org.example.HarnessMarker",
            "/org/example/HarnessMarker", "org.example.HarnessMarker.Poke",
        ])
        // The script exits without taking its name, so the bus reports a failed start...
        #expect(!call.succeeded)
        #expect(call.standardError.contains("org.freedesktop.DBus.Error.Spawn.ChildExited"))
        #expect(call.standardError.contains("exited with status 3"))
        // ...but it did run, started by this bus as a session-bus activation.
        let written = try String(contentsOf: marker, encoding: .utf8)
        #expect(written == "session")
        await bus.stop()
    }

    @Test("limits given to TestBus override those of the private-bus configuration")
    func limitsOverrideSessionConfiguration() async throws {
        let limited = try await TestBus(limits: ["max_message_size": 1024])
        let configuration = try String(contentsOf: limited.configurationFile, encoding: .utf8)
        #expect(configuration.contains("<limit name=\"max_message_size\">1024</limit>"))
        #expect(!configuration.contains("<limit name=\"max_message_size\">134217728</limit>"))
        let standard = try await TestBus()

        // The same 2 KB message: accepted by the standard bus, refused by the limited one.
        let update = [
            "--session", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
            "org.freedesktop.DBus.UpdateActivationEnvironment",
            "dict:string:string:HARNESS_PADDING," + String(repeating: "x", count: 2048),
        ]
        let accepted = try await standard.run("dbus-send", update)
        #expect(accepted.succeeded, "\(accepted.standardError)")
        let refused = try await limited.run("dbus-send", update)
        #expect(!refused.succeeded)

        // Small messages still pass on the limited bus.
        try await limited.ping()
        await limited.stop()
        await standard.stop()
    }

    @Test("a daemon that rejects its configuration fails the start with its own message")
    func brokenConfiguration() async throws {
        let error = await #expect(throws: HarnessError.self) {
            try await TestBus(configurationText: "<busconfig><type>session</type>")
        }
        guard case .startFailed(let program, _, let log)? = error else {
            Issue.record("expected startFailed, got \(String(describing: error))")
            return
        }
        #expect(program == "dbus-daemon")
        #expect(log.contains("bus.conf"))
    }

    @Test("stop() terminates the daemon by its PID and removes the bus directory")
    func stopTerminatesByPID() async throws {
        let bus = try await TestBus(withServiceDirectory: true)
        let pid = bus.pid
        await bus.stop()
        #expect(!bus.isRunning)
        #expect(bus.process.exitStatus == .exited(0) || bus.process.exitStatus == .signaled(SIGTERM))
        #expect(Glibc.kill(pid, 0) == -1 && errno == ESRCH)
        #expect(!FileManager.default.fileExists(atPath: bus.directory.path))
    }

    @Test("kill() kills the daemon by its PID: connected clients lose the bus")
    func killKillsByPID() async throws {
        let bus = try await TestBus()
        let monitor = try bus.spawn("dbus-monitor", ["--session", "type='signal',interface='org.example.Nobody'"])
        #expect(await monitor.waitForOutput(containing: "NameAcquired", timeout: .seconds(10)))
        #expect(monitor.isRunning)

        await bus.kill()
        #expect(bus.process.exitStatus == .signaled(SIGKILL))
        #expect(Glibc.kill(bus.pid, 0) == -1 && errno == ESRCH)
        #expect(await monitor.waitForExit(timeout: .seconds(10)) != nil)

        let ping = try await bus.run("dbus-send", [
            "--session", "--print-reply", "--dest=org.freedesktop.DBus",
            "/org/freedesktop/DBus", "org.freedesktop.DBus.Peer.Ping",
        ])
        #expect(!ping.succeeded)
    }

    @Test("the generated configuration lists the addresses, then the directory, then the limits with overrides in place")
    func generatedConfiguration() throws {
        let text = PrivateBusConfiguration.text(
            listen: ["unix:path=/tmp/a&b/bus", "unix:tmpdir=/tmp"],
            serviceDirectory: "/tmp/a&b/services",
            overriding: ["max_replies_per_connection": 10, "max_message_size": 4096, "max_extra_thing": 7]
        )
        let first = try #require(text.range(of: "<listen>unix:path=/tmp/a&amp;b/bus</listen>"))
        let second = try #require(text.range(of: "<listen>unix:tmpdir=/tmp</listen>"))
        let directory = try #require(text.range(of: "<servicedir>/tmp/a&amp;b/services</servicedir>"))
        let size = try #require(text.range(of: "<limit name=\"max_message_size\">4096</limit>"))
        let replies = try #require(text.range(of: "<limit name=\"max_replies_per_connection\">10</limit>"))
        let extra = try #require(text.range(of: "<limit name=\"max_extra_thing\">7</limit>"))
        #expect(first.upperBound <= second.lowerBound)
        #expect(second.upperBound <= directory.lowerBound)
        #expect(directory.upperBound <= size.lowerBound)
        #expect(size.upperBound <= replies.lowerBound)
        #expect(replies.upperBound <= extra.lowerBound)
        #expect(text.components(separatedBy: "max_message_size").count == 2)
        #expect(text.contains("<limit name=\"service_start_timeout\">10000</limit>"))
        #expect(text.hasPrefix("<!DOCTYPE busconfig"))
        #expect(text.hasSuffix("</busconfig>\n"))
    }
}
