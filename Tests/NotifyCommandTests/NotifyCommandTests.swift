import Foundation
import FreedesktopNotifications
import Testing
import UserNotificationsTesting

/// End-to-end tests of the built `notify` binary, run as a child process against
/// ``FakeNotificationServer`` on a private ``TestBus``, side by side with libnotify's
/// `notify-send` 0.8.1 where the two should agree.
@Suite("notify command")
struct NotifyCommandTests {
    // MARK: - Helpers

    /// The `notify` executable: built next to the test bundle (`swift build --build-tests`
    /// puts every product in the same folder).
    static func executable() throws -> URL {
        try BuiltProduct.url(named: "notify")
    }

    static func start(_ arguments: [String], bus: TestBus) throws -> ChildProcess {
        try ChildProcess(executable: executable(), arguments: arguments, environment: bus.environment)
    }

    static func run(_ arguments: [String], bus: TestBus) async throws -> CommandResult {
        try await start(arguments, bus: bus).result(timeout: .seconds(15))
    }

    /// A request with the parts that differ by design made equal: `sender-pid` (each tool
    /// sends its own PID, checked separately) and the default app name ("notify-send" vs
    /// "notify") when `-a` is not given.
    static func normalized(_ request: NotifyRequest) -> NotifyRequest {
        var copy = request
        try? copy.hints.setVendorHint("sender-pid", nil)
        if copy.appName == "notify-send" || copy.appName == "notify" { copy.appName = "<default>" }
        return copy
    }

    /// Runs notify-send, then notify, with `arguments` on one fake server; returns both
    /// recorded requests.
    static func bothRequests(_ arguments: [String], personality: ServerPersonality = .kde)
        async throws -> (notifySend: NotifyRequest, notify: NotifyRequest, results: [CommandResult])
    {
        let bus = try await TestBus()
        let server = try await FakeNotificationServer.start(on: bus.bus, personality: personality)
        let reference = try NotifySend(bus: bus).start(arguments)
        let referenceResult = try await reference.result(timeout: .seconds(15))
        let ours = try start(arguments, bus: bus)
        let oursResult = try await ours.result(timeout: .seconds(15))
        let recorded = server.notifications
        try #require(recorded.count == 2, "notify-send: \(referenceResult.standardError) notify: \(oursResult.standardError)")
        #expect(recorded[0].request.hints[raw: "sender-pid"] == .int64(Int64(reference.pid)))
        #expect(recorded[1].request.hints[raw: "sender-pid"] == .int64(Int64(ours.pid)))
        await server.stop()
        await bus.stop()
        return (recorded[0].request, recorded[1].request, [referenceResult, oursResult])
    }

    // MARK: - notify-send parity

    static let parityCases: [[String]] = [
        ["Summary"],
        ["Summary", "Body"],
        ["-u", "low", "Summary", "Body"],
        ["--urgency=critical", "Summary"],
        ["-t", "1500", "Summary"],
        ["--expire-time=0", "Summary"],
        ["-a", "App", "Summary"],
        // -i is left out: 0.8.1 sends it as the app icon, later versions (and notify) as the
        // image-path hint (NotifySendCompatibilityTests.icons).
        ["-c", "im.received,email.arrived", "Summary"],
        ["-e", "Summary"],
        ["-r", "7", "Summary"],
        ["-h", "boolean:t:true", "-h", "BOOLEAN:f:0", "-h", "boolean:n:12", "Summary"],
        ["-h", "int:x:5", "-h", "int:y:12abc", "-h", "int:value:4294967297", "Summary"],
        ["-h", "double:d:1.5", "-h", "byte:b:7", "-h", "byte:z:abc", "Summary"],
        ["-h", "string:s:a:b:c", "-h", "string:image-path:/tmp/i.png", "Summary"],
        ["-h", "variant:v:<int64 3>", "-h", "variant:a:[1, 2]", "-h", "variant:u:uint32 9", "Summary"],
        ["-h", "variant:s:'quoted'", "-h", "variant:d:{'k': <1>}", "-h", "variant:t:(1, 'x', true)", "Summary"],
        ["-h", "byte:urgency:2", "-h", "boolean:transient:false", "-e", "Summary"],
        ["Summary", "tab\\there\\nnew line \\101 \\\\ \\q"],
        ["-p", "Summary"],
    ]

    @Test("every notify-send option gives the same Notify arguments as notify-send", arguments: parityCases)
    func parity(arguments: [String]) async throws {
        let (reference, ours, results) = try await Self.bothRequests(arguments)
        #expect(results[0].status == .exited(0), "\(results[0].standardError)")
        #expect(results[1].status == .exited(0), "\(results[1].standardError)")
        #expect(Self.normalized(ours) == Self.normalized(reference))
        if arguments.contains("-a") { #expect(ours.appName == reference.appName) }
        if arguments.contains("-p") {
            // Each prints the id it was given: 1 for notify-send, 2 for notify.
            #expect(results[0].standardOutput == "1\n")
            #expect(results[1].standardOutput == "2\n")
        } else {
            #expect(results[1].standardOutput.isEmpty)
        }
    }

    @Test("-A: both send the same actions; notify prints the key the server invokes and closes the notification")
    func actions() async throws {
        let bus = try await TestBus()
        let server = try await FakeNotificationServer.start(on: bus.bus, personality: .gnome)
        let arguments = ["-A", "yes=Yes", "-A", " Maybe later ", "-A", "no = No", "Question"]
        let reference = try NotifySend(bus: bus).start(arguments)
        let referenceID = try #require(await server.waitForNotify(count: 1, timeout: .seconds(10)))
        server.invokeAction(id: referenceID, key: "1")
        let referenceResult = try await reference.result(timeout: .seconds(10))

        let ours = try Self.start(arguments, bus: bus)
        let id = try #require(await server.waitForNotify(count: 2, timeout: .seconds(10)), "\(ours.standardError)")
        #expect(ours.isRunning)
        server.invokeAction(id: id, key: "no")
        let result = try await ours.result(timeout: .seconds(10))

        let posted = server.notifications
        #expect(posted[1].request.actions == [
            NotificationAction(key: "yes", label: "Yes"), NotificationAction(key: "1", label: "Maybe later"),
            NotificationAction(key: "no", label: "No"),
        ])
        #expect(Self.normalized(posted[1].request) == Self.normalized(posted[0].request))
        #expect(referenceResult.standardOutput == "1\n")
        #expect(result.status == .exited(0), "\(result.standardError)")
        #expect(result.standardOutput == "no\n")
        #expect(server.calls.contains(.closeNotification(id: id, sender: posted[1].sender)))
        await server.stop()
        await bus.stop()
    }

    // MARK: - Exit codes

    @Test("a bad hint exits 1 with notify-send's message and sends nothing", arguments: [
        ("int:x:abc", "Value \"abc\" of hint \"x\" could not be parsed as type \"int\"."),
        ("byte:x:300", "Value \"300\" of hint \"x\" could not be parsed as type \"byte\"."),
        ("foo:x:1", "Invalid hint type \"foo\". Valid types are int, double, string and byte."),
        ("nocolons", "Invalid hint syntax specified. Use TYPE:NAME:VALUE."),
        ("variant:x:<<", "Value \"<<\" of hint \"x\" could not be parsed as type \"variant\"."),
    ])
    func badHint(hint: String, message: String) async throws {
        let bus = try await TestBus()
        let server = try await FakeNotificationServer.start(on: bus.bus)
        let reference = try await NotifySend(bus: bus).run(["-h", hint, "Summary"])
        let result = try await Self.run(["-h", hint, "Summary"], bus: bus)
        #expect(reference.status == .exited(1))
        #expect(result.status == .exited(1))
        #expect(result.standardError == message + "\n")
        #expect(reference.standardError == message + "\n")
        #expect(server.notifications.isEmpty)
        await server.stop()
        await bus.stop()
    }

    @Test("a variant hint nested past D-Bus's limits exits 1 with the parse message, never a crash", arguments: [
        String(repeating: "<", count: 65) + "1" + String(repeating: ">", count: 65),
        String(repeating: "[", count: 33) + "1" + String(repeating: "]", count: 33),
        String(repeating: "(", count: 33) + "1" + String(repeating: ")", count: 33),
        String(repeating: "<", count: 60_000) + "1" + String(repeating: ">", count: 60_000),
    ])
    func deeplyNestedVariantHint(value: String) async throws {
        let bus = try await TestBus()
        let server = try await FakeNotificationServer.start(on: bus.bus)
        let result = try await Self.run(["-h", "variant:deep:" + value, "Summary"], bus: bus)
        #expect(result.status == .exited(1))
        #expect(result.standardError == "Value \"\(value)\" of hint \"deep\" could not be parsed as type \"variant\".\n")
        #expect(server.notifications.isEmpty)
        await server.stop()
        await bus.stop()
    }

    @Test("-A on a server without the actions capability: shown without actions, exit 1, like notify-send")
    func actionsWithoutCapability() async throws {
        let bus = try await TestBus()
        var personality = ServerPersonality.mako
        personality.capabilities = ["body"]
        let server = try await FakeNotificationServer.start(on: bus.bus, personality: personality)
        let reference = try await NotifySend(bus: bus).run(["-A", "ok=OK", "Summary"])
        let result = try await Self.run(["-A", "ok=OK", "Summary"], bus: bus)
        #expect(reference.status == .exited(1))
        #expect(result.status == .exited(1))
        #expect(result.standardError == reference.standardError)
        let posted = server.notifications
        #expect(posted.count == 2)
        #expect(posted.last?.request.actions == [])
        await server.stop()
        await bus.stop()
    }

    @Test("invalid UTF-8 in an argument is an error (exit 1), not a crash")
    func invalidUTF8() async throws {
        let bus = try await TestBus()
        let server = try await FakeNotificationServer.start(on: bus.bus)
        let notify = try Self.executable().path
        for script in [#"exec "$0" "$(printf 'bad \377')""#, #"exec "$0" ok "$(printf '\377')""#, #"exec "$0" -a "$(printf '\300')" ok"#] {
            let shell = try ChildProcess(executable: URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", script, notify], environment: bus.environment)
            let result = try await shell.result(timeout: .seconds(10))
            #expect(result.status == .exited(1), "\(script): \(result.status)")
            #expect(result.standardError.contains("Invalid UTF-8"))
        }
        let escaped = try await Self.run(["ok", "\\377"], bus: bus)
        #expect(escaped.status == .exited(1))
        #expect(escaped.standardError.contains("Invalid UTF-8 provided for parameter: Body"))
        #expect(server.notifications.isEmpty)
        await server.stop()
        await bus.stop()
    }

    @Test("usage errors exit 1 as notify-send's do; -v prints the version")
    func usage() async throws {
        let bus = try await TestBus()
        let none = try await Self.run([], bus: bus)
        #expect(none.status == .exited(1))
        #expect(none.standardError == "No summary specified.\n")
        let three = try await Self.run(["a", "b", "c"], bus: bus)
        #expect(three.status == .exited(1))
        #expect(three.standardError == "Invalid number of options.\n")
        let urgency = try await Self.run(["-u", "bogus", "a"], bus: bus)
        #expect(urgency.status == .exited(1))
        #expect(urgency.standardError == "Unknown urgency bogus specified. Known urgency levels: low, normal, critical.\n")
        let version = try await Self.run(["-v"], bus: bus)
        #expect(version.status == .exited(0))
        #expect(version.standardOutput.hasPrefix("notify "))
        let help = try await Self.run(["-?"], bus: bus)
        #expect(help.status == .exited(0))
        #expect(help.standardOutput.contains("--expire-time"))
        await bus.stop()
    }

    // MARK: - Waiting

    @Test("SIGINT while waiting closes the notification and exits 0")
    func interrupt() async throws {
        let bus = try await TestBus()
        let server = try await FakeNotificationServer.start(on: bus.bus, personality: .gnome)
        let waiting = try Self.start(["-w", "Wait for me"], bus: bus)
        let id = try #require(await server.waitForNotify(timeout: .seconds(10)), "\(waiting.standardError)")
        let sender = try #require(server.notifications.first?.sender)
        #expect(waiting.isRunning)
        #expect(waiting.interrupt())
        let result = try await waiting.result(timeout: .seconds(10))
        #expect(result.status == .exited(0), "\(result.standardError)")
        #expect(result.standardError.contains("Wait cancelled"))
        #expect(server.calls.contains(.closeNotification(id: id, sender: sender)))
        // The server answers CloseNotification first and closes after, as real servers do;
        // the command may have exited in between.
        #expect(await eventually { server.liveIDs.isEmpty })
        await server.stop()
        await bus.stop()
    }

    @Test("--wait ends when the server closes it; --timeout ends a wait the server never ends")
    func waitEnds() async throws {
        let bus = try await TestBus()
        let server = try await FakeNotificationServer.start(on: bus.bus, personality: .dunst)
        let waiting = try Self.start(["-w", "--json", "Closed by the server"], bus: bus)
        let id = try #require(await server.waitForNotify(timeout: .seconds(10)))
        server.close(id: id, reason: .expired)
        let closed = try await waiting.result(timeout: .seconds(10))
        #expect(closed.status == .exited(0))
        #expect(closed.standardOutput.contains(#""closeReason":"expired""#))
        #expect(closed.standardOutput.contains(#""waitEnded":"closed""#))

        let started = ContinuousClock.now
        let timed = try await Self.run(["-w", "--timeout", "0.5", "Never closed"], bus: bus)
        #expect(timed.status == .exited(0))
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(timed.standardError.contains("Wait timeout expired"))
        let second = try #require(server.notifications.last)
        #expect(server.calls.contains(.closeNotification(id: try #require(second.id), sender: second.sender)))
        await server.stop()
        await bus.stop()
    }

    @Test("--json after an action carries id, action and activation token; --reply prints the reply")
    func json() async throws {
        let bus = try await TestBus()
        let server = try await FakeNotificationServer.start(on: bus.bus, personality: .kde)
        let acting = try Self.start(["--json", "-A", "open=Open", "Act"], bus: bus)
        let id = try #require(await server.waitForNotify(timeout: .seconds(10)))
        server.invokeAction(id: id, key: "open", activationToken: "token-42")
        let acted = try await acting.result(timeout: .seconds(10))
        #expect(acted.status == .exited(0))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(acted.standardOutput.utf8)) as? [String: Any])
        #expect(object["id"] as? Int == Int(id))
        #expect(object["action"] as? String == "open")
        #expect(object["activationToken"] as? String == "token-42")
        #expect(object["waitEnded"] as? String == "action")
        #expect(object["terminal"] as? Bool == false)

        let replying = try Self.start(["--reply", "Say something", "Chat"], bus: bus)
        let replyID = try #require(await server.waitForNotify(count: 2, timeout: .seconds(10)))
        let posted = try #require(server.notifications.last?.request)
        #expect(posted.actions.contains(NotificationAction(key: "inline-reply", label: "Reply")))
        #expect(posted.hints.replyPlaceholderText == "Say something")
        server.reply(id: replyID, text: "hello there")
        let replied = try await replying.result(timeout: .seconds(10))
        #expect(replied.status == .exited(0))
        #expect(replied.standardOutput == "hello there\n")
        await server.stop()
        await bus.stop()
    }

    // MARK: - Fallback, subcommands, server

    @Test("no session bus: the notification is printed in the terminal and notify exits 0; --no-fallback fails")
    func fallback() async throws {
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=/nonexistent/notify-tests/bus"
        let shown = try ChildProcess(executable: Self.executable(), arguments: ["-a", "Fallback", "Hello", "from\\nthe terminal"], environment: environment)
        let result = try await shown.result(timeout: .seconds(15))
        #expect(result.status == .exited(0), "\(result.standardError)")
        #expect(result.standardError.contains("Fallback"))
        #expect(result.standardError.contains("│ Hello"))
        #expect(result.standardError.contains("│ from\n│ the terminal"))

        let strict = try ChildProcess(executable: Self.executable(), arguments: ["--no-fallback", "Hello"], environment: environment)
        let failed = try await strict.result(timeout: .seconds(15))
        #expect(failed.status == .exited(1))
        #expect(!failed.standardError.contains("│ Hello"))
    }

    @Test("notify info and notify close talk to the server")
    func infoAndClose() async throws {
        let bus = try await TestBus()
        let server = try await FakeNotificationServer.start(on: bus.bus, personality: .dunst)
        let info = try await Self.run(["info"], bus: bus)
        #expect(info.status == .exited(0))
        #expect(info.standardOutput.contains("name: dunst\nvendor: knopwob\nversion: 1.9.0\nspec version: 1.2\n"))
        #expect(info.standardOutput.contains("capabilities: actions body"))
        // The fake dunst has no org.dunstproject.cmd0: the switch does not answer.
        #expect(info.standardOutput.contains("do not disturb: unknown (dunstPaused)\n"))
        let shown = try await Self.run(["-p", "Close me"], bus: bus)
        let id = try #require(UInt32(shown.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(server.liveIDs.contains(id))
        let closed = try await Self.run(["close", "\(id)"], bus: bus)
        #expect(closed.status == .exited(0))
        #expect(!server.liveIDs.contains(id))
        await server.stop()
        await bus.stop()
    }

    @Test("notify server serves notify-send, and stops on SIGINT")
    func server() async throws {
        let bus = try await TestBus()
        let serving = try Self.start(["server"], bus: bus)
        try await bus.waitForName(NotificationsInterface.busName, ownedBy: serving)
        let sent = try await NotifySend(bus: bus).run(["-a", "CI", "-p", "Build finished", "All green"])
        #expect(sent.status == .exited(0), "\(sent.standardError)")
        #expect(sent.standardOutput == "1\n")
        #expect(await serving.waitForOutput(containing: "All green", timeout: .seconds(10)))
        #expect(serving.standardOutput.contains("┌─ CI (1)\n│ Build finished\n│ All green\n"))
        #expect(serving.interrupt())
        #expect(await serving.waitForExit(timeout: .seconds(10)) == .exited(0))
        await bus.stop()
    }

    // MARK: - --image, --sound

    /// A new empty folder under the temporary folder.
    static func scratchFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("notify-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Runs `notify` with `arguments` from a shell started in `folder` (relative paths, stdin).
    static func run(in folder: URL, _ arguments: [String], stdin: URL? = nil, environment: [String: String]) async throws -> CommandResult {
        let redirect = stdin.map { " < '\($0.path)'" } ?? ""
        let shell = try ChildProcess(
            executable: URL(fileURLWithPath: "/bin/sh"),
            arguments: ["-c", "cd \"$1\" && shift && exec \"$0\" \"$@\"\(redirect)", try executable().path, folder.path] + arguments,
            environment: environment)
        return try await shell.result(timeout: .seconds(15))
    }

    @Test("--image sends a file:// URI of the absolute path; --sound sends sound-file or sound-name; a missing image exits 1")
    func imageAndSound() async throws {
        let folder = try Self.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: folder.appendingPathComponent("my pic.png"))
        let soundFile = folder.appendingPathComponent("bell.oga")
        try Data([1, 2, 3]).write(to: soundFile)
        let bus = try await TestBus()
        let server = try await FakeNotificationServer.start(on: bus.bus)

        let relative = try await Self.run(in: folder, ["--image", "my pic.png", "--sound", soundFile.path, "Picture"], environment: bus.environment)
        #expect(relative.status == .exited(0), "\(relative.standardError)")
        let absolute = try await Self.run(["--image", folder.appendingPathComponent("./my pic.png").path, "--sound", "message-new-instant", "Named"], bus: bus)
        #expect(absolute.status == .exited(0), "\(absolute.standardError)")
        let overridden = try await Self.run(["--image", folder.appendingPathComponent("my pic.png").path, "-h", "string:image-path:icon-name", "Hint wins"], bus: bus)
        #expect(overridden.status == .exited(0), "\(overridden.standardError)")
        let posted = server.notifications.map(\.request)
        try #require(posted.count == 3)
        let uri = "file://\(folder.path)/my%20pic.png"
        #expect(posted[0].hints.imagePath == uri)
        #expect(posted[0].hints.soundFile == soundFile.path)
        #expect(posted[0].hints.soundName == nil)
        #expect(posted[1].hints.imagePath == uri)
        #expect(posted[1].hints.soundName == "message-new-instant")
        #expect(posted[1].hints.soundFile == nil)
        #expect(posted[2].hints.imagePath == "icon-name")

        let missing = try await Self.run(in: folder, ["--image", "nothing.png", "Missing"], environment: bus.environment)
        #expect(missing.status == .exited(1))
        #expect(missing.standardError == "--image: no such file: nothing.png\n")
        let directory = try await Self.run(["--image", folder.path, "Folder"], bus: bus)
        #expect(directory.status == .exited(1))
        #expect(directory.standardError.contains("is a folder"))
        #expect(server.notifications.count == 3)
        await server.stop()
        await bus.stop()
    }

    // MARK: - --id, close, list

    @Test("--id replaces while the same server serves; notify list and notify close know the names; a new server starts afresh")
    func identifiers() async throws {
        let state = try Self.scratchFolder()
        defer { try? FileManager.default.removeItem(at: state) }
        let bus = try await TestBus()
        var environment = bus.environment
        environment["XDG_STATE_HOME"] = state.path
        func run(_ arguments: [String]) async throws -> CommandResult {
            try await ChildProcess(executable: Self.executable(), arguments: arguments, environment: environment).result(timeout: .seconds(15))
        }
        let first = try await FakeNotificationServer.start(on: bus.bus, personality: .dunst)

        let building = try await run(["--id", "build", "-p", "Building"])
        #expect(building.status == .exited(0), "\(building.standardError)")
        let buildID = try #require(UInt32(building.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)))
        let other = try await run(["--id", "other", "--json", "Other\tone"])
        #expect(other.status == .exited(0), "\(other.standardError)")
        #expect(other.standardOutput.contains(#""identifier":"other""#))
        let finished = try await run(["--id", "build", "-p", "Build finished"])
        #expect(finished.status == .exited(0), "\(finished.standardError)")
        #expect(finished.standardOutput == "\(buildID)\n")
        let posted = first.notifications.map(\.request)
        try #require(posted.count == 3)
        #expect(posted[0].replacesID == 0)
        #expect(posted[1].replacesID == 0)
        #expect(posted[2].replacesID == buildID)
        let otherID = try #require(first.notifications[1].id)

        let listed = try await run(["list"])
        #expect(listed.status == .exited(0), "\(listed.standardError)")
        #expect(listed.standardOutput == "build\t\(buildID)\tBuild finished\nother\t\(otherID)\tOther one\n")

        let closed = try await run(["close", "build"])
        #expect(closed.status == .exited(0), "\(closed.standardError)")
        #expect(first.calls.contains { call in
            if case .closeNotification(id: buildID, _) = call { true } else { false }
        })
        #expect(!first.liveIDs.contains(buildID))
        let afterClose = try await run(["list"])
        #expect(afterClose.standardOutput == "other\t\(otherID)\tOther one\n")
        let unknown = try await run(["close", "build"])
        #expect(unknown.status == .exited(1))
        #expect(unknown.standardError.contains("No notification is known as \"build\""))

        // Closing by number forgets the name too.
        let closedByID = try await run(["close", "\(otherID)"])
        #expect(closedByID.status == .exited(0), "\(closedByID.standardError)")
        #expect(try await run(["list"]).standardOutput.isEmpty)
        let reshown = try await run(["--id", "other", "Other one"])
        #expect(reshown.status == .exited(0), "\(reshown.standardError)")
        #expect(first.notifications.last?.request.replacesID == 0)
        let newOtherID = try #require(first.notifications.last?.id)
        #expect(try await run(["list"]).standardOutput == "other\t\(newOtherID)\tOther one\n")

        let numeric = try await run(["--id", "42", "Numbers are ids"])
        #expect(numeric.status == .exited(1))
        #expect(numeric.standardError.contains("--id needs a name"))
        #expect(first.notifications.count == 4)

        // A wait that ends forgets the name: the notification is gone.
        let waiting = try ChildProcess(executable: Self.executable(), arguments: ["--id", "waiter", "-w", "Waiting"], environment: environment)
        let waitedID = try #require(await first.waitForNotify(count: 5, timeout: .seconds(10)), "\(waiting.standardError)")
        // notify remembers the name once Notify has replied: poll for it, with a deadline.
        let deadline = ContinuousClock.now + .seconds(10)
        var listedWaiter = false
        while !listedWaiter && ContinuousClock.now < deadline {
            listedWaiter = try await run(["list"]).standardOutput.contains("waiter\t\(waitedID)\tWaiting\n")
            if !listedWaiter { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(listedWaiter)
        first.close(id: waitedID, reason: .dismissed)
        #expect(try await waiting.result(timeout: .seconds(10)).status == .exited(0))
        #expect(try await run(["list"]).standardOutput == "other\t\(newOtherID)\tOther one\n")

        // Another server instance: the remembered ids are not its ids.
        await first.stop()
        let second = try await FakeNotificationServer.start(on: bus.bus, personality: .dunst)
        let stale = try await run(["--id", "other", "Other again"])
        #expect(stale.status == .exited(0), "\(stale.standardError)")
        #expect(second.notifications.first?.request.replacesID == 0)
        #expect(try await run(["list"]).standardOutput == "other\t\(try #require(second.notifications.first?.id))\tOther again\n")
        let saved = try String(contentsOf: state.appendingPathComponent("notify/ids.json"), encoding: .utf8)
        #expect(saved.contains(second.uniqueName))
        await second.stop()
        let third = try await FakeNotificationServer.start(on: bus.bus, personality: .dunst)
        let gone = try await run(["close", "other"])
        #expect(gone.status == .exited(1))
        #expect(gone.standardError.contains("has gone"))
        #expect(third.calls.isEmpty)
        let empty = try await run(["list"])
        #expect(empty.status == .exited(0))
        #expect(empty.standardOutput.isEmpty)
        await third.stop()
        await bus.stop()
    }

    // MARK: - push

    @Test("notify push shows an APNs payload through the center (file or stdin); a malformed payload exits 1 with the parser's message")
    func push() async throws {
        let folder = try Self.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let payload = folder.appendingPathComponent("payload.json")
        try Data(#"{"aps": {"alert": {"title": "Build", "subtitle": "main", "body": "All green"}, "thread-id": "ci", "category": "build"}, "run": 42}"#.utf8)
            .write(to: payload)
        let bus = try await TestBus()
        let server = try await FakeNotificationServer.start(on: bus.bus, personality: .dunst)
        var environment = bus.environment
        environment["XDG_STATE_HOME"] = folder.path

        let pushed = try await ChildProcess(executable: Self.executable(), arguments: ["push", "-a", "CI", "--collapse-id", "build-main", payload.path], environment: environment)
            .result(timeout: .seconds(15))
        #expect(pushed.status == .exited(0), "\(pushed.standardError)")
        #expect(pushed.standardOutput.isEmpty)
        let fromStdin = try await Self.run(in: folder, ["push", "-"], stdin: payload, environment: environment)
        #expect(fromStdin.status == .exited(0), "\(fromStdin.standardError)")
        let posted = server.notifications.map(\.request)
        try #require(posted.count == 2)
        #expect(posted[0].appName == "CI")
        #expect(posted[0].summary == "Build")
        #expect(posted[0].body == "main\nAll green")
        #expect(posted[1].appName == "notify")
        #expect(posted[1].summary == "Build")

        // The same collapse id and app name, in a later run: an update in place.
        let again = try await ChildProcess(executable: Self.executable(), arguments: ["push", "-a", "CI", "--collapse-id", "build-main", payload.path], environment: environment)
            .result(timeout: .seconds(15))
        #expect(again.status == .exited(0), "\(again.standardError)")
        let updated = server.notifications
        try #require(updated.count == 3)
        #expect(updated[2].request.replacesID == updated[0].id)
        #expect(updated[2].request.replacesID != 0)

        let silent = folder.appendingPathComponent("silent.json")
        try Data(#"{"aps": {"content-available": 1}}"#.utf8).write(to: silent)
        let quiet = try await ChildProcess(executable: Self.executable(), arguments: ["push", silent.path], environment: environment).result(timeout: .seconds(15))
        #expect(quiet.status == .exited(0), "\(quiet.standardError)")
        #expect(quiet.standardError.contains("nothing to show"))

        for (text, message) in [
            (#"{"aps": {"alert": "x", "badge": "three"}}"#, #""badge" must be a number"#),
            (#"{"alert": "no aps"}"#, #"the payload has no "aps" dictionary"#),
            ("not json", "the payload is not a JSON object"),
        ] {
            let bad = folder.appendingPathComponent("bad.json")
            try Data(text.utf8).write(to: bad)
            let result = try await ChildProcess(executable: Self.executable(), arguments: ["push", bad.path], environment: environment).result(timeout: .seconds(15))
            #expect(result.status == .exited(1), "\(text)")
            #expect(result.standardError.contains(message), "\(result.standardError)")
        }
        let missing = try await Self.run(["push", folder.appendingPathComponent("none.json").path], bus: bus)
        #expect(missing.status == .exited(1))
        #expect(missing.standardError.hasPrefix("Cannot read the payload"))
        #expect(server.notifications.count == 3, "the silent, malformed and missing payloads show nothing")
        await server.stop()
        await bus.stop()
    }

    // MARK: - Completion scripts

    @Test("--generate-completion-script gives bash, zsh and fish scripts covering the options and every subcommand")
    func completionScripts() async throws {
        let bus = try await TestBus()
        for shell in ["bash", "zsh", "fish"] {
            let script = try await Self.run(["--generate-completion-script", shell], bus: bus)
            #expect(script.status == .exited(0), "\(shell): \(script.standardError)")
            for word in ["expire-time", "image", "sound", "collapse-id", "push", "list", "close", "server", "info"] {
                #expect(script.standardOutput.contains(word), "\(shell) script lacks \(word)")
            }
        }
        let bash = try await Self.run(["--generate-completion-script=bash"], bus: bus)
        let folder = try Self.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("notify.bash")
        try Data(bash.standardOutput.utf8).write(to: file)
        let loaded = try await ChildProcess(executable: URL(fileURLWithPath: "/bin/bash"), arguments: ["-c", "source \"$0\" && complete -p notify", file.path])
            .result(timeout: .seconds(10))
        #expect(loaded.status == .exited(0), "\(loaded.standardError)")
        #expect(loaded.standardOutput.contains("notify"))
        // Run normally, subcommands keep their "notify WORD" usage line.
        let help = try await Self.run(["push", "--help"], bus: bus)
        #expect(help.standardOutput.contains("USAGE: notify push"))
        await bus.stop()
    }

    @Test("the description generate-manual reads covers every subcommand; notify help WORD prints its help; notify -- help is a notification")
    func manualAndHelp() async throws {
        let bus = try await TestBus()
        let server = try await FakeNotificationServer.start(on: bus.bus)
        let dump = try await Self.run(["--experimental-dump-help"], bus: bus)
        #expect(dump.status == .exited(0), "\(dump.standardError)")
        let tool = try #require(try JSONSerialization.jsonObject(with: Data(dump.standardOutput.utf8)) as? [String: Any])
        let command = try #require(tool["command"] as? [String: Any])
        #expect(command["commandName"] as? String == "notify")
        let names = (command["subcommands"] as? [[String: Any]] ?? []).compactMap { $0["commandName"] as? String }
        #expect(names == ["info", "close", "list", "pending", "cancel", "push", "server", "agent", "app-files", "help"])
        let options = (command["arguments"] as? [[String: Any]] ?? []).compactMap { ($0["preferredName"] as? [String: Any])?["name"] as? String }
        for option in ["expire-time", "image", "sound", "id", "json", "no-fallback"] {
            #expect(options.contains(option), "\(option) missing from \(options)")
        }

        let helpPush = try await Self.run(["help", "push"], bus: bus)
        #expect(helpPush.status == .exited(0))
        #expect(helpPush.standardOutput.contains("USAGE: notify push"))
        let helpRoot = try await Self.run(["help"], bus: bus)
        #expect(helpRoot.status == .exited(0))
        #expect(helpRoot.standardOutput.contains("--expire-time"))
        let helpBogus = try await Self.run(["help", "bogus"], bus: bus)
        #expect(helpBogus.status == .exited(1))
        #expect(helpBogus.standardError.contains("no subcommand \"bogus\""))
        #expect(server.notifications.isEmpty)
        let escaped = try await Self.run(["--", "help"], bus: bus)
        #expect(escaped.status == .exited(0), "\(escaped.standardError)")
        #expect(server.notifications.map(\.request.summary) == ["help"])
        await server.stop()
        await bus.stop()
    }
}
