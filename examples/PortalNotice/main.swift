import UserNotifications

// PortalNotice: one notification the way a sandboxed app posts it. In a Flatpak sandbox (the
// file /.flatpak-info) or a Snap ($SNAP) the center chooses the notification portal,
// org.freedesktop.portal.Notification; elsewhere the agent or the app's own process.
//
// Try the portal without a sandbox by asking for it (the portal then files the notification
// under the app id it finds for an unsandboxed process, often the empty one):
//
//     DESKTOPNOTIFICATIONS_ENGINE=portal swift run PortalNotice
//
// The tests run it in a bubblewrap sandbox with a /.flatpak-info of its own (the test kit's
// FlatpakSandbox), where the center chooses the portal by itself and the portal files the
// notification under the sandbox's app id.
//
// It prints which engine carried the notification, then exits: the portal (or the agent)
// keeps it on screen after the app has gone.

let identity = ApplicationIdentity(id: "org.desktopnotifications.PortalNotice", displayName: "Portal Notice", icon: "dialog-information")
UNUserNotificationCenter.configure(identity: identity)

let center = UNUserNotificationCenter.current()
let open = UNNotificationAction(identifier: "open", title: "Open", options: [.foreground])
center.setNotificationCategories([UNNotificationCategory(identifier: "notice", actions: [open], intentIdentifiers: [], options: [])])
let content = UNMutableNotificationContent()
content.title = "Portal Notice"
content.body = "Posted from a sandbox, through the notification portal"
content.categoryIdentifier = "notice"
content.sound = .default
do {
    try await post(UNNotificationRequest(identifier: "portal-notice", content: content, trigger: nil), to: center)
} catch {
    print("PortalNotice: not posted:", error)
    exit(1)
}
switch await center.engineKind {
case .portal: print("posted through the notification portal")
case .agent: print("posted through the notification agent (not sandboxed)")
default: print("posted from this process (not sandboxed, no agent)")
}

// In top-level code Swift picks the completion-handler form of `center.add(request)`; inside
// an async function it is the async one, which throws.
func post(_ request: UNNotificationRequest, to center: UNUserNotificationCenter) async throws {
    try await center.add(request)
}
