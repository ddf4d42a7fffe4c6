import DBus
import DesktopNotificationsSupport
import Foundation
import FreedesktopNotifications
import Testing
import UserNotificationsTesting

/// ``TerminalPresenter`` on a private bus, answered through a pipe as a person at the keyboard
/// would, and posted to by real clients.
@Suite("Terminal presenter: answers, limits and what it prints")
struct TerminalPresenterTests {
    /// A presenter serving on its own bus, its printed text, its keyboard, and a client
    /// posting to it with the events the client receives.
    final class Setup: Sendable {
        let bus: TestBus
        let connection: DBusConnection
        let server: NotificationServer
        let keyboard: Pipe
        let client: NotificationsClient
        let events: EventRecorder<NotificationEvent>
        private let printed = Locked("")

        init(maximumLive: Int = TerminalPresenter.defaultMaximumLive, bell: Bool = false) async throws {
            bus = try await TestBus()
            connection = try await DBusConnection.connect(to: bus.bus)
            keyboard = Pipe()
            let printed = printed
            let presenter = TerminalPresenter(maximumLive: maximumLive, bell: bell) { text in printed.withLock { $0 += text } }
            server = try await presenter.start(on: connection, input: keyboard.fileHandleForReading)
            client = NotificationsClient(bus: bus.bus)
            events = EventRecorder(client.events())
        }

        var output: String { printed.withLock { $0 } }

        func type(_ line: String) {
            keyboard.fileHandleForWriting.write(Data((line + "\n").utf8))
        }

        /// Waits at most 5 s until the output contains `text`.
        func waitForOutput(containing text: String) async -> Bool {
            let deadline = ContinuousClock.now + .seconds(5)
            while !output.contains(text) && ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(10))
            }
            return output.contains(text)
        }

        func stop() async {
            await client.disconnect()
            try? keyboard.fileHandleForWriting.close()
            await server.stop()
            await connection.close()
            await bus.stop()
        }
    }

    @Test("a sound rings the bell once, a suppressed one or none does not; the presenter has the sound capability")
    func bell() async throws {
        let setup = try await Setup(bell: true)
        #expect(try await setup.client.capabilities().contains(.sound))
        var quiet = NotifyRequest(summary: "Quiet")
        quiet.hints.soundName = "message-new-instant"
        quiet.hints.suppressSound = true
        _ = try await setup.client.notify(quiet)
        _ = try await setup.client.notify(NotifyRequest(summary: "None"))
        var loud = NotifyRequest(summary: "Loud")
        loud.hints.soundName = "message-new-instant"
        _ = try await setup.client.notify(loud)
        #expect(await setup.waitForOutput(containing: "Loud"))
        #expect(await eventually(timeout: .seconds(5)) { setup.output.filter { $0 == "\u{07}" }.count == 1 })
        #expect(!(setup.output.components(separatedBy: "Loud").first ?? "").contains("\u{07}"))
        await setup.stop()
        // Without a bell (standard output not a terminal) nothing rings.
        let silent = try await Setup()
        _ = try await silent.client.notify(loud)
        #expect(await silent.waitForOutput(containing: "Loud"))
        #expect(!silent.output.contains("\u{07}"))
        await silent.stop()
    }

    @Test("a number typed for a notification without buttons is answered with a hint, and the notification stays")
    func numberWithoutButtons() async throws {
        let setup = try await Setup()
        let (client, events) = (setup.client, setup.events)
        let posted = try await client.notify(NotifyRequest(summary: "No buttons"))
        #expect(await setup.waitForOutput(containing: "No buttons"))
        setup.type("1")
        #expect(await setup.waitForOutput(containing: "[answer with an empty line]"))
        #expect(await events.extra().isEmpty)
        setup.type("")
        #expect(await events.next() == .closed(id: posted.id, reason: .dismissed, server: posted.server))
        await setup.stop()
    }

    @Test("an input line past the answer limit is ignored whole, with a note, and the next line is an answer again")
    func overlongInputLine() async throws {
        let setup = try await Setup()
        let (client, events) = (setup.client, setup.events)
        let posted = try await client.notify(NotifyRequest(summary: "Reply here", actions: [NotificationAction(key: "inline-reply", label: "Reply")]))
        #expect(await setup.waitForOutput(containing: "Reply here"))
        let chunk = Data(repeating: UInt8(ascii: "x"), count: 16_384)
        for _ in 0..<(TerminalPresenter.maximumAnswerBytes / chunk.count + 2) {
            setup.keyboard.fileHandleForWriting.write(chunk)
        }
        #expect(await setup.waitForOutput(containing: "[input line longer than \(TerminalPresenter.maximumAnswerBytes) bytes: ignored]"))
        setup.type("> tail of the long line")
        setup.type("> short")
        #expect(await events.next() == .replied(id: posted.id, text: "short", server: posted.server))
        #expect(await events.extra() == [.closed(id: posted.id, reason: .dismissed, server: posted.server)])
        await setup.stop()
    }

    @Test("escape sequences and other control characters in every field are printed neutralised")
    func controlCharacters() async throws {
        let setup = try await Setup()
        let client = setup.client
        var request = NotifyRequest(
            appName: "App\u{1B}]0;title\u{07}", summary: "Sum\u{1B}[2Jmary\u{9B}31m", body: "line\u{1B}[1A\nnext\u{202E}txt.exe",
            actions: [NotificationAction(key: "go", label: "Go\u{1B}[8m")])
        request.hints.imagePath = "/tmp/i\u{1B}[Kmage.png"
        _ = try await client.notify(request)
        #expect(await setup.waitForOutput(containing: "Go"))
        let printed = setup.output
        #expect(!printed.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(printed.debugDescription)")
        #expect(!printed.unicodeScalars.contains { (0x7F...0x9F).contains($0.value) || $0 == "\u{202E}" }, "\(printed.debugDescription)")
        #expect(printed.contains("│ line^[[1A\n│ next<U+202E>txt.exe\n"))
        await setup.stop()
    }

    @Test("a Notify over the client's size limits is refused with InvalidArgs, and nothing is printed")
    func oversized() async throws {
        let setup = try await Setup()
        let generous = NotificationsClient(bus: setup.bus.bus, limits: NotificationLimits(bodyBytes: 1 << 20))
        let body = String(repeating: "x", count: NotificationLimits().bodyBytes + 1)
        await #expect(throws: NotificationsError.self) {
            try await generous.notify(NotifyRequest(summary: "Too big", body: body))
        }
        #expect(!setup.output.contains("Too big"))
        #expect(try await generous.notify(NotifyRequest(summary: "Fits")).id == 1)
        await generous.disconnect()
        await setup.stop()
    }

    @Test("a notification expires after its expire_timeout with NotificationClosed(id, 1); 0, -1 and a replacement without one stay")
    func expiry() async throws {
        let setup = try await Setup()
        let (client, events) = (setup.client, setup.events)
        let staying = try await client.notify(NotifyRequest(summary: "Default", expiry: .serverDefault))
        let forever = try await client.notify(NotifyRequest(summary: "Forever", expiry: .never))
        let replaced = try await client.notify(NotifyRequest(summary: "Soon", expiry: .milliseconds(300)))
        #expect(try await client.notify(NotifyRequest(replacesID: replaced.id, summary: "Kept", expiry: .never)).id == replaced.id)
        let started = ContinuousClock.now
        let brief = try await client.notify(NotifyRequest(summary: "Brief", expiry: .milliseconds(300)))
        #expect(await events.next() == .closed(id: brief.id, reason: .expired, server: brief.server))
        #expect(ContinuousClock.now - started >= .milliseconds(300))
        #expect(await setup.waitForOutput(containing: "[notification \(brief.id) expired]"))
        #expect(await events.extra(after: .milliseconds(500)).isEmpty)
        try await client.closeNotification(id: staying.id)
        try await client.closeNotification(id: forever.id)
        try await client.closeNotification(id: replaced.id)
        #expect(await events.next(3) == [
            .closed(id: staying.id, reason: .closedByCall, server: staying.server),
            .closed(id: forever.id, reason: .closedByCall, server: forever.server),
            .closed(id: replaced.id, reason: .closedByCall, server: replaced.server),
        ])
        await setup.stop()
    }

    @Test("past the live bound the oldest notification is closed (reason 1) to make room")
    func bounded() async throws {
        let setup = try await Setup(maximumLive: 3)
        let (client, events) = (setup.client, setup.events)
        var ids: [UInt32] = []
        for number in 1...3 { ids.append(try await client.notify(NotifyRequest(summary: "N\(number)")).id) }
        #expect(await events.extra().isEmpty)
        let fourth = try await client.notify(NotifyRequest(summary: "N4"))
        #expect(await events.next() == .closed(id: ids[0], reason: .expired, server: fourth.server))
        // Replacing a live one does not count as one more.
        #expect(try await client.notify(NotifyRequest(replacesID: ids[1], summary: "N2 again")).id == ids[1])
        #expect(await events.extra().isEmpty)
        await setup.stop()
    }

    @Test("replaces_id of another client's notification gives a new id and leaves that one alone; one's own is replaced")
    func replaceOnlyOwn() async throws {
        let setup = try await Setup()
        let (owner, ownerEvents) = (setup.client, setup.events)
        let intruder = NotificationsClient(bus: setup.bus.bus)
        let buttons = [NotificationAction(key: "ok", label: "OK")]
        let original = try await owner.notify(NotifyRequest(summary: "Bank: code 1234", actions: buttons))
        let taken = try await intruder.notify(NotifyRequest(replacesID: original.id, summary: "Hijacked"))
        #expect(taken.id != original.id)
        #expect(try await owner.notify(NotifyRequest(replacesID: original.id, summary: "Bank: updated", actions: buttons)).id == original.id)
        // The newest is the intruder's: an answer goes to it, not to the owner.
        setup.type("")
        #expect(await ownerEvents.extra().isEmpty)
        setup.type("1")
        #expect(await ownerEvents.next() == .actionInvoked(id: original.id, actionKey: "ok", server: original.server))
        await intruder.disconnect()
        await setup.stop()
    }
}
