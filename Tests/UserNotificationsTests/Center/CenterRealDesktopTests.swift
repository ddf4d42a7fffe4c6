import Foundation
import FreedesktopNotifications
@testable import UserNotifications
import Testing
import UserNotificationsTesting

/// The center end to end against real desktops' servers: headless GNOME Shell 43,
/// xfce4-notifyd under Xvfb and mako on a headless sway, each on a private bus, acted on as a
/// person would (GNOME's message tray through the harness's extension, xfce's windows
/// clicked with xdotool, mako through makoctl). None has `inline-reply`, so a text-input
/// action is a plain button whose response carries no text.
@Suite("Center against real desktops: GNOME Shell, xfce4-notifyd and mako")
struct CenterRealDesktopTests {
    @Test("a request with a category is shown once with the category's buttons", arguments: RealDesktop.allCases)
    func showsWithCategory(desktop: RealDesktop) async throws {
        try await desktop.withCenter { session in
            try await session.center.add(RealDesktopSession.request("greeting", body: "From the center"))
            #expect(try await session.shownCount(1) == 1)
            #expect(await session.center.deliveredNotifications().map(\.request.identifier) == ["greeting"])
            if let mako = session.mako {
                let shown = try #require(try await mako.list().first)
                #expect(shown.summary == "Greeting")
                #expect(shown.body == "From the center")
                #expect(shown.appName == RealDesktopSession.identity.displayName)
                #expect(shown.actions == ["default": "", "reply": "Reply", "later": "Later"])
            }
            if let gnome = session.gnome {
                let shown = try #require(try await gnome.list().first)
                #expect(shown.title == "Greeting")
                #expect(shown.body == "From the center")
                #expect(shown.source == RealDesktopSession.identity.displayName)
                // default is the click on the body, not a button.
                #expect(shown.actions == ["Reply", "Later"])
            }
        }
    }

    @Test("adding the same identifier again updates in place: one notification, the new body", arguments: RealDesktop.allCases)
    func updateInPlace(desktop: RealDesktop) async throws {
        try await desktop.withCenter { session in
            try await session.center.add(RealDesktopSession.request("news", body: "first"))
            #expect(try await session.shownCount(1) == 1)
            let firstID = try await session.mako?.list().first?.id
            let firstGnomeID = try await session.gnome?.list().first?.id
            try await session.center.add(RealDesktopSession.request("news", body: "second"))
            #expect(try await session.shownCount(1) == 1)
            let delivered = await session.center.deliveredNotifications()
            #expect(delivered.map(\.request.identifier) == ["news"])
            #expect(delivered.first?.request.content.body == "second")
            if let mako = session.mako {
                let shown = try await mako.list()
                #expect(shown.map(\.id) == [try #require(firstID)])
                #expect(shown.first?.body == "second")
            }
            if let gnome = session.gnome {
                let shown = try await gnome.list()
                #expect(shown.map(\.id) == [try #require(firstGnomeID)])
                #expect(shown.first?.body == "second")
            }
            // The update closed nothing: no response.
            #expect(await session.delegate.responses.extra().isEmpty)
        }
    }

    @Test("removeDeliveredNotifications withdraws it from the server; no response", arguments: RealDesktop.allCases)
    func withdraw(desktop: RealDesktop) async throws {
        try await desktop.withCenter { session in
            try await session.center.add(RealDesktopSession.request("going", body: "soon"))
            #expect(try await session.shownCount(1) == 1)
            session.center.removeDeliveredNotifications(withIdentifiers: ["going"])
            #expect(try await session.shownCount(0) == 0)
            #expect(await session.center.deliveredNotifications().isEmpty)
            #expect(await session.delegate.responses.extra(after: .milliseconds(500)).isEmpty)
        }
    }

    @Test("each action of the category reaches the delegate with its identifier",
          arguments: RealDesktop.allCases, ["reply", "later"])
    func eachAction(desktop: RealDesktop, action: String) async throws {
        try await desktop.withCenter { session in
            try await session.center.add(RealDesktopSession.request("question", body: "Answer me"))
            #expect(try await session.shownCount(1) == 1)
            try await session.invoke(action)
            let response = try #require(await session.delegate.responses.next(timeout: .seconds(15)))
            #expect(response.actionIdentifier == action)
            #expect(response.notification.request.identifier == "question")
            // No inline reply on these servers: the text action is a button and carries no text.
            if action == "reply" {
                #expect((response as? UNTextInputNotificationResponse)?.userText == "")
            }
            #expect(await session.delegate.responses.extra(after: .milliseconds(500)).isEmpty)
        }
    }

    @Test("the default action (GNOME: a click on the body; mako: makoctl invoke default) is UNNotificationDefaultActionIdentifier",
          arguments: [RealDesktop.gnome, .mako])
    func defaultAction(desktop: RealDesktop) async throws {
        try await desktop.withCenter { session in
            try await session.center.add(RealDesktopSession.request("open-me", body: "Open"))
            #expect(try await session.shownCount(1) == 1)
            try await session.invoke(NotificationAction.defaultKey)
            let response = try #require(await session.delegate.responses.next(timeout: .seconds(15)))
            #expect(response.actionIdentifier == UNNotificationDefaultActionIdentifier)
            #expect(response.notification.request.identifier == "open-me")
            #expect(await session.delegate.responses.extra(after: .milliseconds(500)).isEmpty)
        }
    }

    @Test("xfce: the default action has no button (its label is empty), and the harness refuses to click one")
    func xfceDefaultHasNoButton() async throws {
        try await RealDesktop.xfce.withCenter { session in
            try await session.center.add(RealDesktopSession.request("open-me", body: "Open"))
            #expect(try await session.shownCount(1) == 1)
            await #expect(throws: HarnessError.self) { try await session.invoke(NotificationAction.defaultKey) }
            #expect(await session.delegate.responses.extra(after: .milliseconds(300)).isEmpty)
        }
    }

    @Test("a dismissal (GNOME: the close button; xfce: a click on the body, the only click there; mako: makoctl dismiss) is the dismiss response with .customDismissAction",
          arguments: RealDesktop.allCases)
    func dismissal(desktop: RealDesktop) async throws {
        try await desktop.withCenter { session in
            try await session.center.add(RealDesktopSession.request("dismiss-me", body: "Away"))
            #expect(try await session.shownCount(1) == 1)
            try await session.dismiss()
            let response = try #require(await session.delegate.responses.next(timeout: .seconds(15)))
            #expect(response.actionIdentifier == UNNotificationDismissActionIdentifier)
            #expect(response.notification.request.identifier == "dismiss-me")
            #expect(try await session.shownCount(0) == 0)
            #expect(await session.center.deliveredNotifications().isEmpty)
        }
    }
}

/// The real desktops the center is tested against.
enum RealDesktop: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case gnome
    case xfce
    case mako

    var testDescription: String { rawValue }

    /// Starts the desktop and a center with a recording delegate on its bus, runs `body`,
    /// and stops everything by PID whether `body` throws or not.
    func withCenter(_ body: (RealDesktopSession) async throws -> Void) async throws {
        switch self {
        case .gnome:
            try await GnomeDesktop.run { desktop in
                try await body(try await RealDesktopSession(bus: desktop.testBus, gnome: desktop.shell))
            }
        case .xfce:
            try await XfceDesktop.run { desktop in
                try await body(try await RealDesktopSession(bus: desktop.testBus, xfce: desktop.xfce))
            }
        case .mako:
            try await MakoDesktop.run { desktop in
                try await body(try await RealDesktopSession(bus: desktop.testBus, mako: desktop.mako))
            }
        }
    }
}

/// A center on a real desktop's bus, and the person's gestures on that desktop.
struct RealDesktopSession {
    let center: UNUserNotificationCenter
    let delegate: RecordingDelegate
    let gnome: GnomeShellServer?
    let xfce: XfceNotifyServer?
    let mako: MakoServer?

    static let identity = ApplicationIdentity(id: "org.example.CenterRealDesktopTests", displayName: "Center Real Desktop Tests")

    /// The category every request uses: a text action, a plain one, and dismissals reported.
    static let category: UNNotificationCategory = {
        let reply = UNTextInputNotificationAction(
            identifier: "reply", title: "Reply", options: [], textInputButtonTitle: "Send", textInputPlaceholder: "Your answer")
        let later = UNNotificationAction(identifier: "later", title: "Later", options: [])
        return UNNotificationCategory(identifier: "question", actions: [reply, later], intentIdentifiers: [], options: [.customDismissAction])
    }()

    /// The actions the center sends for ``category``, in order: `default` (no label) first.
    static let actions = [
        NotificationAction(key: NotificationAction.defaultKey, label: ""), NotificationAction(key: "reply", label: "Reply"),
        NotificationAction(key: "later", label: "Later"),
    ]

    init(bus: TestBus, gnome: GnomeShellServer? = nil, xfce: XfceNotifyServer? = nil, mako: MakoServer? = nil) async throws {
        center = UNUserNotificationCenter(identity: Self.identity, bus: .address(bus.address), persistent: false)
        delegate = await RecordingDelegate()
        center.delegate = delegate
        center.setNotificationCategories([Self.category])
        self.gnome = gnome
        self.xfce = xfce
        self.mako = mako
    }

    static func request(_ identifier: String, body: String) -> UNNotificationRequest {
        let content = UNMutableNotificationContent()
        content.title = identifier == "greeting" ? "Greeting" : identifier
        content.body = body
        content.categoryIdentifier = category.identifier
        return UNNotificationRequest(identifier: identifier, content: content, trigger: nil)
    }

    /// Waits until the server shows `count` notifications and returns how many it shows.
    func shownCount(_ count: Int) async throws -> Int {
        if let gnome { return try await gnome.waitForList(count: count).count }
        if let xfce { return try await xfce.waitForWindows(count: count).count }
        if let mako { return try await mako.waitForList(count: count).count }
        return 0
    }

    /// Invokes action `key` of the one notification shown.
    func invoke(_ key: String) async throws {
        if let gnome {
            let shown = try #require(try await gnome.waitForList(count: 1).first)
            if key == NotificationAction.defaultKey {
                try await gnome.activate(id: shown.id)
            } else {
                try await gnome.invokeAction(id: shown.id, label: try #require(Self.actions.first { $0.key == key }).label)
            }
        } else if let xfce {
            let window = try #require(try await xfce.waitForWindows(count: 1).first)
            try await xfce.clickButton(for: key, among: Self.actions, in: window)
        } else if let mako {
            let shown = try #require(try await mako.waitForList(count: 1).first)
            try await mako.invoke(id: shown.id, action: key)
        }
    }

    /// Dismisses the one notification shown.
    func dismiss() async throws {
        if let gnome {
            try await gnome.dismiss(id: try #require(try await gnome.waitForList(count: 1).first).id)
        } else if let xfce {
            try await xfce.clickBody(of: try #require(try await xfce.waitForWindows(count: 1).first))
        } else if let mako {
            try await mako.dismiss(id: try #require(try await mako.waitForList(count: 1).first).id)
        }
    }
}
