import Foundation
import FreedesktopNotifications
@testable import UserNotifications
import Testing
import UserNotificationsTesting

/// The center end to end against a real server: dunst under Xvfb, on a private bus.
@Suite("Center against dunst under Xvfb")
struct CenterDunstTests {
    @Test("a request with no trigger is shown by dunst with its title and body")
    func shows() async throws {
        try await DunstCenter.run { desktop in
            try await desktop.center.add(DunstCenter.request("greeting", title: "Hello", body: "From the center"))
            #expect(try await desktop.dunst.displayedWhenSettled() == 1)
            #expect(await desktop.center.deliveredNotifications().map(\.request.identifier) == ["greeting"])
            #expect(await desktop.delegate.presented.map(\.request.identifier) == ["greeting"])

            // dunst lists a notification in its history once it is closed: the person closes it.
            try await desktop.dunst.closeAll()
            let history = try await desktop.dunst.history()
            #expect(history.count == 1)
            #expect(history.first?.summary == "Hello")
            #expect(history.first?.body == "From the center")
            #expect(history.first?.appName == DunstCenter.identity.displayName)
            // Its NotificationClosed(id, 2) reaches the center, which forgets it; no response.
            #expect(await eventually { await desktop.center.deliveredNotifications().isEmpty })
            #expect(await desktop.delegate.responses.extra().isEmpty)
        }
    }

    @Test("adding the same identifier again updates dunst's notification in place: one notification, same id, new body")
    func updateInPlace() async throws {
        try await DunstCenter.run { desktop in
            let replies = try await NotifyReplyWatcher.start(on: desktop)
            try await desktop.center.add(DunstCenter.request("news", title: "News", body: "first"))
            #expect(try await desktop.dunst.displayedWhenSettled() == 1)
            try await desktop.center.add(DunstCenter.request("news", title: "News", body: "second"))
            #expect(try await desktop.dunst.displayedWhenSettled() == 1)

            #expect(await eventually { replies.ids.count == 2 }, "dbus-monitor saw: \(replies.process.standardOutput)")
            let ids = replies.ids
            #expect(ids.count == 2 && ids.first == ids.last)
            let delivered = await desktop.center.deliveredNotifications()
            #expect(delivered.map(\.request.identifier) == ["news"])
            #expect(delivered.first?.request.content.body == "second")

            try await desktop.dunst.closeAll()
            let history = try await desktop.dunst.history()
            #expect(history.map(\.id) == ids.prefix(1).map { Int($0) })
            #expect(history.first?.body == "second")
            await replies.stop()
        }
    }

    @Test("removeDeliveredNotifications closes it in dunst and empties the delivered list")
    func remove() async throws {
        try await DunstCenter.run { desktop in
            try await desktop.center.add(DunstCenter.request("remove-me", title: "Going", body: "soon"))
            try await desktop.center.add(DunstCenter.request("keep-me", title: "Staying", body: "here"))
            #expect(try await desktop.dunst.displayedWhenSettled() == 2)

            desktop.center.removeDeliveredNotifications(withIdentifiers: ["remove-me"])
            #expect(await desktop.center.deliveredNotifications().map(\.request.identifier) == ["keep-me"])
            #expect(await eventually { (try? await desktop.dunst.displayedWhenSettled()) == 1 })
            #expect(try await desktop.dunst.history().map(\.summary) == ["Going"])

            desktop.center.removeDeliveredNotifications(withIdentifiers: ["keep-me"])
            #expect(await desktop.center.deliveredNotifications().isEmpty)
            #expect(await eventually { (try? await desktop.dunst.displayedWhenSettled()) == 0 })
            #expect(try await desktop.dunst.history().map(\.summary) == ["Staying", "Going"])
            // A withdrawal is the app's own doing: no response for it.
            #expect(await desktop.delegate.responses.extra().isEmpty)
        }
    }

    @Test("an action invoked through dunstctl reaches the delegate as the default action")
    func defaultAction() async throws {
        try await DunstCenter.run { desktop in
            try await desktop.center.add(DunstCenter.request("clickable", title: "Click", body: "me"))
            #expect(try await desktop.dunst.displayedWhenSettled() == 1)

            try await desktop.dunst.invokeAction()
            let response = try #require(await desktop.delegate.responses.next(timeout: .seconds(10)))
            #expect(response.actionIdentifier == UNNotificationDefaultActionIdentifier)
            #expect(response.notification.request.identifier == "clickable")
            #expect(response.notification.request.content.title == "Click")
            #expect(await desktop.delegate.responses.extra().isEmpty)
        }
    }
}

/// A private bus, Xvfb, dunst, and a center with a recording delegate on that bus.
private struct DunstCenter {
    let testBus: TestBus
    let display: XvfbDisplay
    let dunst: DunstServer
    let center: UNUserNotificationCenter
    let delegate: RecordingDelegate

    static let identity = ApplicationIdentity(id: "org.example.CenterDunstTests", displayName: "Center Dunst Tests")

    /// Starts everything, runs `body`, and stops the helpers by PID whether `body` throws or not.
    static func run(_ body: (DunstCenter) async throws -> Void) async throws {
        try await DunstDesktop.run { desktop in
            let center = UNUserNotificationCenter(identity: identity, bus: .address(desktop.testBus.address), persistent: false)
            let delegate = await RecordingDelegate()
            center.delegate = delegate
            try await body(DunstCenter(
                testBus: desktop.testBus, display: desktop.display, dunst: desktop.dunst, center: center, delegate: delegate))
        }
    }

    static func request(_ identifier: String, title: String, body: String) -> UNNotificationRequest {
        let content = UNMutableNotificationContent()
        content.title = title
        content.body = body
        return UNNotificationRequest(identifier: identifier, content: content, trigger: nil)
    }
}

/// `dbus-monitor` watching the method returns dunst sends, to learn the ids it hands out.
/// dunst's only replies whose body is a bare `uint32` are those to Notify (its answers to
/// dunstctl's property reads are variants, printed as `variant uint32 N`).
private struct NotifyReplyWatcher {
    let process: ChildProcess

    static func start(on desktop: DunstCenter) async throws -> NotifyReplyWatcher {
        let monitor = try ToolRequirement.require("dbus-monitor")
        // The unique name of dunst's connection, from the bus.
        let owner = try await desktop.testBus.run("dbus-send", [
            "--session", "--print-reply=literal", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
            "org.freedesktop.DBus.GetNameOwner", "string:\(NotificationsInterface.busName)",
        ]).check().standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        let process = try desktop.testBus.spawn("stdbuf", [
            "-oL", monitor.path, "--session", "type='method_return',sender='\(owner)'",
        ])
        let watcher = NotifyReplyWatcher(process: process)
        // Ready once a reply from dunst shows up in its output.
        let ready = await eventually(timeout: .seconds(10)) {
            _ = try? await desktop.testBus.run("dbus-send", [
                "--session", "--print-reply", "--dest=\(NotificationsInterface.busName)", NotificationsInterface.path.rawValue,
                "\(NotificationsInterface.name).GetServerInformation",
            ])
            return process.standardOutput.contains("knopwob")
        }
        guard ready else {
            await process.stop()
            throw HarnessError.startFailed(program: "dbus-monitor", reason: "it never saw dunst's replies", log: process.standardError)
        }
        return watcher
    }

    /// The ids in dunst's Notify replies so far, in order.
    var ids: [UInt32] {
        process.standardOutput.split(separator: "\n").compactMap { line in
            let text = line.trimmingCharacters(in: .whitespaces)
            guard text.hasPrefix("uint32 ") else { return nil }
            return UInt32(text.dropFirst("uint32 ".count))
        }
    }

    func stop() async {
        await process.stop()
    }
}
