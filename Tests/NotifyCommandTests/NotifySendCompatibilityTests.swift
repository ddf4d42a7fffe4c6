import DBus
import Foundation
import FreedesktopNotifications
import Testing
import UserNotificationsTesting
@testable import NotifyCLI

/// `notify` started as `notify-send` (the README's symlink) behaves as libnotify's current
/// `notify-send` (its main branch after 0.8.7): its default app name, `-n`, the descriptor options, how `-i`
/// travels, its actions, and its portal mode. Each runs the built `notify` through a
/// `notify-send` link against a fake server or a fake portal on a private bus.
@Suite("notify as notify-send (libnotify's current notify-send)")
struct NotifySendCompatibilityTests {
    /// A scratch folder holding a `notify-send` symbolic link to the built `notify`.
    struct Link {
        let folder: URL
        var path: String { folder.appendingPathComponent("notify-send").path }

        init() throws {
            folder = try NotifyCommandTests.scratchFolder()
            try FileManager.default.createSymbolicLink(
                atPath: folder.appendingPathComponent("notify-send").path, withDestinationPath: NotifyCommandTests.executable().path)
        }

        func remove() { try? FileManager.default.removeItem(at: folder) }

        /// Starts `notify-send` with `arguments` under `/bin/sh`, which first opens the files
        /// `descriptors` names (descriptor number to file) for writing, as a script passes them.
        /// In `sandbox` when one is given.
        func start(
            _ arguments: [String], descriptors: [Int32: URL] = [:], in sandbox: FlatpakSandbox? = nil, environment: [String: String]
        ) throws -> ChildProcess {
            let redirects = descriptors.sorted { $0.key < $1.key }.map { "\($0.key)>'\($0.value.path)'" }.joined(separator: " ")
            let shell = ["-c", "exec \"$0\" \"$@\" \(redirects)", path] + arguments
            let command = try FlatpakSandbox.command("/bin/sh", shell, in: sandbox)
            return try ChildProcess(executable: command.executable, arguments: command.arguments, environment: environment)
        }

        func run(
            _ arguments: [String], descriptors: [Int32: URL] = [:], in sandbox: FlatpakSandbox? = nil, environment: [String: String]
        ) async throws -> CommandResult {
            try await start(arguments, descriptors: descriptors, in: sandbox, environment: environment).result(timeout: .seconds(15))
        }
    }

    /// Waits until `read` gives a non-empty text, at most 10 seconds; returns the last text read.
    static func eventually(_ read: () throws -> String) async throws -> String {
        let deadline = ContinuousClock.now + .seconds(10)
        var text = try read()
        while text.isEmpty && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
            text = try read()
        }
        return text
    }

    static func contents(_ file: URL) -> String {
        (try? String(contentsOf: file, encoding: .utf8)) ?? ""
    }

    @Test("started as notify-send the default app name is notify-send, as notify it is notify; -a still wins")
    func appName() async throws {
        let link = try Link()
        defer { link.remove() }
        let bus = try await TestBus()
        let server = try await FakeNotificationServer.start(on: bus.bus)
        let asNotifySend = try await link.run(["Summary"], environment: bus.environment)
        #expect(asNotifySend.status == .exited(0), "\(asNotifySend.standardError)")
        let asNotify = try await NotifyCommandTests.run(["Summary"], bus: bus)
        #expect(asNotify.status == .exited(0), "\(asNotify.standardError)")
        let named = try await link.run(["-a", "foo.App", "Summary"], environment: bus.environment)
        #expect(named.status == .exited(0), "\(named.standardError)")
        #expect(server.notifications.map(\.request.appName) == ["notify-send", "notify", "foo.App"])
        await server.stop()
        await bus.stop()
    }

    @Test("-n is the app icon; -i is the image-path hint from spec 1.2, image_path in 1.1, the app icon before (unless -n)")
    func icons() async throws {
        let link = try Link()
        defer { link.remove() }
        for (spec, expectHint) in [("1.2", "image-path"), ("1.1", "image_path"), ("1.0", nil)] as [(String, String?)] {
            let bus = try await TestBus()
            var personality = ServerPersonality.dunst
            personality.information.specVersion = spec
            let server = try await FakeNotificationServer.start(on: bus.bus, personality: personality)
            let both = try await link.run(["-n", "my-app-icon", "-i", "my-image", "Both"], environment: bus.environment)
            #expect(both.status == .exited(0), "\(both.standardError)")
            let image = try await link.run(["-i", "/some/image.png", "Image"], environment: bus.environment)
            #expect(image.status == .exited(0), "\(image.standardError)")
            let posted = server.notifications.map(\.request)
            try #require(posted.count == 2)
            #expect(posted[0].appIcon == "my-app-icon", "spec \(spec)")
            if let expectHint {
                #expect(posted[0].hints[raw: expectHint] == .string("my-image"), "spec \(spec)")
                #expect(posted[1].hints[raw: expectHint] == .string("/some/image.png"), "spec \(spec)")
                #expect(posted[1].appIcon == "", "spec \(spec)")
            } else {
                #expect(posted[0].hints[raw: "image-path"] == nil && posted[0].hints[raw: "image_path"] == nil)
                #expect(posted[1].appIcon == "/some/image.png")
            }
            await server.stop()
            await bus.stop()
        }
    }

    @Test("--id-fd gets the id; --selected-action-fd and --activation-token-fd get the chosen action and its token")
    func descriptors() async throws {
        let link = try Link()
        defer { link.remove() }
        let bus = try await TestBus()
        let server = try await FakeNotificationServer.start(on: bus.bus, personality: .kde)
        let files = (id: link.folder.appendingPathComponent("id"), action: link.folder.appendingPathComponent("action"),
                     token: link.folder.appendingPathComponent("token"))
        let waiting = try link.start(
            ["--id-fd=5", "--selected-action-fd", "6", "--activation-token-fd=7", "-A", "Foo", "-A", "bar-action=Bar", "Act", "Choose"],
            descriptors: [5: files.id, 6: files.action, 7: files.token], environment: bus.environment)
        let id = try #require(await server.waitForNotify(timeout: .seconds(10)), "\(waiting.standardError)")
        #expect(try await Self.eventually { Self.contents(files.id) } == "\(id)\n")
        #expect(waiting.isRunning)
        #expect(Self.contents(files.action).isEmpty)
        server.invokeAction(id: id, key: "bar-action", activationToken: "token-7")
        let result = try await waiting.result(timeout: .seconds(10))
        #expect(result.status == .exited(0), "\(result.standardError)")
        #expect(result.standardOutput == "bar-action\n")
        #expect(Self.contents(files.action) == "bar-action\n")
        #expect(Self.contents(files.token) == "token-7\n")

        // Without a token from the server, the token's line is empty.
        let second = try link.start(["--selected-action-fd=6", "--activation-token-fd=7", "-A", "Foo", "Again"],
                                    descriptors: [6: files.action, 7: files.token], environment: bus.environment)
        let secondID = try #require(await server.waitForNotify(count: 2, timeout: .seconds(10)), "\(second.standardError)")
        server.invokeAction(id: secondID, key: "0")
        let secondResult = try await second.result(timeout: .seconds(10))
        #expect(secondResult.status == .exited(0), "\(secondResult.standardError)")
        #expect(Self.contents(files.action) == "0\n")
        #expect(Self.contents(files.token) == "\n")

        // A number that is no open descriptor is refused before anything is shown.
        let refused = try await link.run(["--id-fd=9", "Nothing"], environment: bus.environment)
        #expect(refused.status == .exited(1))
        #expect(refused.standardError == "--id-fd: 9 is not an open file descriptor.\n")
        #expect(server.notifications.count == 2)
        await server.stop()
        await bus.stop()
    }

    @Test("-A without a name is numbered by its position; a name given again replaces the earlier action")
    func actionNames() {
        #expect(NotifyOptions.actions(["foo", "id=default", "baz"]) == [
            NotificationAction(key: "0", label: "foo"), NotificationAction(key: "id", label: "default"),
            NotificationAction(key: "2", label: "baz"),
        ])
        #expect(NotifyOptions.actions(["foo-action=Foo", "other=Other", " foo-action = FooBar ", "=x", "y="]) == [
            NotificationAction(key: "other", label: "Other"), NotificationAction(key: "foo-action", label: "FooBar"),
        ])
    }

    @Test("-h byte: takes hexadecimal after 0x, as libnotify's current notify-send")
    func hexadecimalByte() throws {
        #expect(try HintParser.parse("byte:b:0x11").value == .byte(0x11))
        #expect(try HintParser.parse("byte:b:0xff").value == .byte(0xFF))
        #expect(try HintParser.parse("byte:b:255").value == .byte(255))
        #expect(throws: HintParser.Failure.self) { try HintParser.parse("byte:b:0x100") }
    }

    @Test("an action the server invents is said on standard error and the wait goes on; Control-C then closes, exit 0")
    func unknownAction() async throws {
        let link = try Link()
        defer { link.remove() }
        let bus = try await TestBus()
        let server = try await FakeNotificationServer.start(on: bus.bus, personality: .kde)
        var script = server.script
        script.neverClose = true
        server.script = script
        let action = link.folder.appendingPathComponent("action")
        let waiting = try link.start(["--selected-action-fd=6", "-A", "foo=Foo", "Act"], descriptors: [6: action], environment: bus.environment)
        let id = try #require(await server.waitForNotify(timeout: .seconds(10)), "\(waiting.standardError)")
        server.invokeAction(id: id, key: "default")
        server.invokeAction(id: id, key: "bar")
        #expect(try await Self.eventually { waiting.standardError } == "Received unknown action bar\n")
        #expect(waiting.isRunning)
        #expect(waiting.interrupt())
        let result = try await waiting.result(timeout: .seconds(10))
        #expect(result.status == .exited(0))
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError == "Received unknown action bar\nWait cancelled, closing notification\n")
        #expect(Self.contents(action).isEmpty)
        #expect(server.calls.contains(.closeNotification(id: id, sender: try #require(server.notifications.first?.sender))))
        await server.stop()
        await bus.stop()
    }

    @Test("--wait ends after -t's time when the server does not close it (GNOME ignores -t); the notification is left open")
    func waitEndsAtExpireTime() async throws {
        let link = try Link()
        defer { link.remove() }
        let bus = try await TestBus()
        let server = try await FakeNotificationServer.start(on: bus.bus, personality: .gnome)
        let result = try await link.run(["--wait", "-t", "300", "Short"], environment: bus.environment)
        #expect(result.status == .exited(0), "\(result.standardError)")
        #expect(result.standardError == "Wait timeout expired\n")
        let id = try #require(server.notifications.first?.id)
        #expect(server.liveIDs.contains(id))
        #expect(!server.calls.contains { if case .closeNotification = $0 { true } else { false } })
        await server.stop()
        await bus.stop()
    }

    @Test("actions on a server without the actions capability: shown without them, said, exit 1, the id still printed")
    func actionsNotSupported() async throws {
        let link = try Link()
        defer { link.remove() }
        let bus = try await TestBus()
        var personality = ServerPersonality.mako
        personality.capabilities = [.body]
        let server = try await FakeNotificationServer.start(on: bus.bus, personality: personality)
        let result = try await link.run(["-p", "--action=Foo", "--action=Bar=bar-item", "action!", "Chose it"], environment: bus.environment)
        #expect(result.status == .exited(1))
        #expect(result.standardError == "Actions are not supported by this notifications server. Displaying non-interactively.\n")
        let posted = try #require(server.notifications.first)
        #expect(result.standardOutput == "\(try #require(posted.id))\n")
        #expect(posted.request.actions.isEmpty)
        #expect(posted.request.appName == "notify-send")
        await server.stop()
        await bus.stop()
    }

    // MARK: - Portal

    /// The senders of the portal's `AddNotification` calls, in order.
    static func senders(_ portal: FakeNotificationPortal) -> [String] {
        portal.calls.compactMap { if case .add(_, _, let sender) = $0 { sender } else { nil } }
    }

    /// The environment of `bus` with `variables` added.
    static func environment(_ bus: TestBus, _ variables: [String: String]) -> [String: String] {
        bus.environment.merging(variables) { $1 }
    }

    /// A `notify-send` link, a private bus with the fake portal of `version` on it, and the
    /// environment (`NOTIFY_FORCE_PORTAL`) that sends `notify-send` through that portal.
    struct ForcedPortal {
        let link: Link
        let bus: TestBus
        let portal: FakeNotificationPortal
        let environment: [String: String]

        init(version: UInt32 = 1) async throws {
            link = try Link()
            bus = try await TestBus()
            portal = try await FakeNotificationPortal.start(on: bus.bus, version: version)
            environment = NotifySendCompatibilityTests.environment(bus, ["NOTIFY_FORCE_PORTAL": "1"])
        }

        func stop() async {
            await portal.stop()
            await bus.stop()
        }
    }

    @Test("NOTIFY_FORCE_PORTAL: AddNotification with libnotify's id and dictionary; -r removes and replaces that id")
    func portalDictionary() async throws {
        let forced = try await ForcedPortal()
        defer { forced.link.remove() }
        let (link, portal, environment) = (forced.link, forced.portal, forced.environment)
        let plain = try await link.run(["-p", "title", "my text"], environment: environment)
        #expect(plain.status == .exited(0), "\(plain.standardError)")
        #expect(plain.standardOutput == "1\n")
        let options = try await link.run(
            ["-r", "1234", "-a", "foo.App", "-n", "app-icon", "-i", "some-icon", "-c", "some.category", "-u", "critical", "title", "my text"],
            environment: environment)
        #expect(options.status == .exited(0), "\(options.standardError)")
        #expect(options.standardError.contains("-a (App Name) is not available when using Portal Notifications"))
        #expect(options.standardError.contains("-n (App Icon) is not available when using Portal Notifications"))
        #expect(options.standardError.contains("-c (Category) is not available when using Portal Notifications"))
        let image = link.folder.appendingPathComponent("icon.png")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D]).write(to: image)
        let file = try await link.run(["-u", "low", "-i", image.path, "image"], environment: environment)
        #expect(file.status == .exited(0), "\(file.standardError)")

        let added = portal.added
        try #require(added.count == 3)
        #expect(added[0].id == "libnotify-flatpak.(null)-notify-send-1")
        #expect(added[0].notification == ["title": .string("title"), "body": .string("my text"), "priority": .string("normal")])
        #expect(added[1].id == "libnotify-flatpak.(null)-notify-send-1234")
        #expect(added[1].notification == [
            "title": .string("title"), "body": .string("my text"), "priority": .string("urgent"),
            "icon": .structure([.string("themed"), .variant(.stringArray(["some-icon", "some-icon-symbolic"]))]),
        ])
        #expect(portal.calls.contains { if case .remove("libnotify-flatpak.(null)-notify-send-1234", _) = $0 { true } else { false } })
        #expect(added[2].notification["priority"] == .string("low"))
        #expect(added[2].notification["icon"] == .structure([.string("bytes"), .variant(.byteArray([0x89, 0x50, 0x4E, 0x47, 0x0D]))]))
        await forced.stop()
    }

    /// Option sets sent through the portal by libnotify's notify-send and by notify; `IMAGE`
    /// stands for a PNG file's path. Options that Debian 12's notify-send (0.8.1) lacks, such
    /// as `-n`, are left to the tests above, which hold the current libnotify's behaviour.
    static let portalParityCases: [[String]] = [
        ["title", "my text"],
        ["-u", "critical", "-i", "some-icon", "title", "body"],
        ["-u", "low", "-i", "IMAGE", "image"],
        ["-r", "1234", "replaced"],
        ["-a", "foo.App", "-c", "some.category", "title"],
        ["-h", "string:x-foo:bar", "-t", "5000", "-e", "hinted"],
        ["-i", "file://IMAGE", "uri"],
        ["-i", "/no/such/icon.png", "missing file"],
    ]

    @Test(
        "through the portal, version 1 and 2: the same AddNotification id and dictionary as libnotify's notify-send",
        arguments: portalParityCases, [UInt32(1), 2])
    func portalParity(arguments: [String], version: UInt32) async throws {
        let forced = try await ForcedPortal(version: version)
        defer { forced.link.remove() }
        let (link, portal, environment) = (forced.link, forced.portal, forced.environment)
        let image = link.folder.appendingPathComponent("icon.png")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]).write(to: image)
        let arguments = arguments.map { $0.replacingOccurrences(of: "IMAGE", with: image.path) }
        let reference = try await ChildProcess(
            executable: ToolRequirement.require("notify-send"), arguments: arguments, environment: environment).result(timeout: .seconds(15))
        let ours = try await link.run(arguments, environment: environment)
        #expect(ours.status == reference.status, "notify-send: \(reference.standardError) notify: \(ours.standardError)")
        let added = portal.added
        try #require(added.count == 2, "notify-send: \(reference.standardError) notify: \(ours.standardError)")
        #expect(added[1].id == added[0].id)
        #expect(added[1].notification == added[0].notification)
        // Standard error differs by design: 0.8.1 prints GLib warnings, the current notify-send
        // (and notify) one line per option the portal cannot carry (portalDictionary above).
        #expect(ours.standardOutput == reference.standardOutput)
        await forced.stop()
    }

    @Test("through the portal, -A: the same buttons as libnotify's notify-send; an invoked action printed and the notification removed alike")
    func portalActionParity() async throws {
        let forced = try await ForcedPortal()
        defer { forced.link.remove() }
        let (link, portal, environment) = (forced.link, forced.portal, forced.environment)
        let arguments = ["-A", "yes=Yes", "-A", "No", "-A", "default=Open", "Question"]
        let notifySend = try ToolRequirement.require("notify-send")
        var results: [CommandResult] = []
        for index in 0..<2 {
            let process = index == 0
                ? try ChildProcess(executable: notifySend, arguments: arguments, environment: environment)
                : try link.start(arguments, environment: environment)
            let sender = try await Self.eventually { Self.senders(portal).count == index + 1 ? Self.senders(portal)[index] : "" }
            let id = try #require(portal.added.last?.id)
            try portal.invokeAction(id: id, action: "yes", to: sender)
            results.append(try await process.result(timeout: .seconds(10)))
            #expect(portal.calls.contains(.remove(id: id, sender: sender)))
        }
        let added = portal.added
        try #require(added.count == 2)
        #expect(added[1].id == added[0].id)
        #expect(added[1].notification == added[0].notification)
        #expect(results[1].status == results[0].status)
        #expect(results[1].standardOutput == results[0].standardOutput)
        #expect(results[0].standardOutput == "yes\n")
        await forced.stop()
    }

    @Test("through the portal, --wait with -t ends when -t runs out and removes the notification (the portal keeps no time)")
    func portalExpiry() async throws {
        let forced = try await ForcedPortal()
        defer { forced.link.remove() }
        let result = try await forced.link.run(["--wait", "-t", "300", "Short"], environment: forced.environment)
        #expect(result.status == .exited(0), "\(result.standardError)")
        #expect(result.standardError == "Wait timeout expired\n")
        let id = "libnotify-flatpak.(null)-notify-send-1"
        #expect(forced.portal.calls.contains { if case .remove(id, _) = $0 { true } else { false } })
        await forced.stop()
    }

    @Test("in a Flatpak the portal id names the app; NOTIFY_IGNORE_PORTAL and a missing portal send to the server")
    func portalChoice() async throws {
        let link = try Link()
        defer { link.remove() }
        let sandbox = try FlatpakSandbox(contents: "[Application]\nname=org.example.App\nruntime=runtime/x\n", in: link.folder)
        let bus = try await TestBus()
        let server = try await FakeNotificationServer.start(on: bus.bus)
        // No portal yet: the server gets it.
        let noPortal = try await link.run(["first"], environment: Self.environment(bus, ["NOTIFY_FORCE_PORTAL": "1"]))
        #expect(noPortal.status == .exited(0), "\(noPortal.standardError)")
        let portal = try await FakeNotificationPortal.start(on: bus.bus, version: 1)
        // `notify` itself this time: the id names the app as `notify`.
        let notify = try sandbox.command(NotifyCommandTests.executable().path, ["second"])
        let sandboxed = try await ChildProcess(executable: notify.executable, arguments: notify.arguments, environment: Self.environment(bus, [:]))
            .result(timeout: .seconds(15))
        #expect(sandboxed.status == .exited(0), "\(sandboxed.standardError)")
        let ignored = try await link.run(["third"], in: sandbox, environment: Self.environment(bus, [
            "NOTIFY_FORCE_PORTAL": "1", "NOTIFY_IGNORE_PORTAL": "1",
        ]))
        #expect(ignored.status == .exited(0), "\(ignored.standardError)")
        #expect(server.notifications.map(\.request.summary) == ["first", "third"])
        #expect(portal.added.map(\.id) == ["libnotify-flatpak.org.example.App-notify-1"])
        await portal.stop()
        await server.stop()
        await bus.stop()
    }

    @Test("portal actions: buttons, ActionInvoked printed and written, the notification removed; an unknown one ends the wait")
    func portalActions() async throws {
        let forced = try await ForcedPortal()
        defer { forced.link.remove() }
        let (link, portal, environment) = (forced.link, forced.portal, forced.environment)
        let files = (id: link.folder.appendingPathComponent("id"), action: link.folder.appendingPathComponent("action"))
        let waiting = try link.start(
            ["--id-fd=5", "--selected-action-fd=6", "--action=Foo", "--action=default=Open", "--action=bar-action=Bar", "action!"],
            descriptors: [5: files.id, 6: files.action], environment: environment)
        #expect(try await Self.eventually { Self.contents(files.id) } == "1\n", "\(waiting.standardError)")
        let id = "libnotify-flatpak.(null)-notify-send-1"
        let sender = try #require(portal.calls.compactMap { if case .add(id, _, let sender) = $0 { sender } else { nil } }.first)
        let added = try #require(portal.added.first?.notification)
        #expect(added["default-action"] == .string("default"))
        #expect(added["buttons"] == .array(element: .dictionary(key: .string, value: .variant), [
            .variantDictionary([("action", .string("0")), ("label", .string("Foo"))]),
            .variantDictionary([("action", .string("default")), ("label", .string("Open"))]),
            .variantDictionary([("action", .string("bar-action")), ("label", .string("Bar"))]),
        ]))
        try portal.invokeAction(id: "another-id", action: "0", to: sender)
        try portal.invokeAction(id: id, action: "bar-action", to: sender)
        let result = try await waiting.result(timeout: .seconds(10))
        #expect(result.status == .exited(0), "\(result.standardError)")
        #expect(result.standardOutput == "bar-action\n")
        #expect(Self.contents(files.action) == "bar-action\n")
        #expect(portal.calls.contains(.remove(id: id, sender: sender)))

        // An action the portal invents ends the wait as a dismissal (libnotify closes it).
        let unknown = try link.start(["--selected-action-fd=6", "--action=foo=Foo", "again"], descriptors: [6: files.action], environment: environment)
        let secondSender = try await Self.eventually { Self.senders(portal).count == 2 ? Self.senders(portal)[1] : "" }
        try portal.invokeAction(id: id, action: "bar", to: secondSender)
        let unknownResult = try await unknown.result(timeout: .seconds(10))
        #expect(unknownResult.status == .exited(0))
        #expect(unknownResult.standardOutput.isEmpty)
        #expect(unknownResult.standardError == "Received unknown action bar\n")
        #expect(Self.contents(files.action).isEmpty)

        // Control-C removes it.
        let interrupted = try link.start(["--wait", "waiting"], environment: environment)
        let thirdSender = try await Self.eventually { Self.senders(portal).count == 3 ? Self.senders(portal)[2] : "" }
        #expect(interrupted.interrupt())
        let interruptedResult = try await interrupted.result(timeout: .seconds(10))
        #expect(interruptedResult.status == .exited(0))
        #expect(interruptedResult.standardError == "Wait cancelled, closing notification\n")
        #expect(portal.calls.contains(.remove(id: id, sender: thirdSender)))
        await forced.stop()
    }
}
