import DBus
import Foundation

extension UNUserNotificationCenter {
    /// Serves `org.freedesktop.Application` for the app on the center's bus, owning the app id
    /// as a bus name, so that a click on a notification of the app after it exited relaunches
    /// it through D-Bus activation and the click reaches the delegate. A Linux addition: on
    /// Apple platforms the system launches the app and hands the response to its delegate.
    ///
    /// When a person clicks a notification of an app that is not running, the per-user agent
    /// keeps the response and, for an app whose desktop entry says `DBusActivatable=true`,
    /// calls `ActivateAction("notification-response", [<response id>], platform_data)` on the
    /// app id's bus name; the bus starts the app from its D-Bus service file and holds the call
    /// until the app owns the name. The center then takes the responses the agent keeps (that
    /// one and any queued before it, in order, each once), hands them to the delegate, and
    /// acknowledges them to the agent; the click's activation token (`activation-token`, else
    /// `desktop-startup-id` in `platform_data`) is the response's
    /// ``UNNotificationResponse/activationToken`` when the agent's copy has none.
    /// `notify app-files --id ID --exec PATH --dbus-activatable` writes the desktop entry and
    /// the service file such an app needs.
    ///
    /// Through the notification portal (``engineKind`` is ``NotificationEngineKind/portal``),
    /// a center that serves the interface gets its notifications' click and buttons as
    /// `app.notification-response` actions: the portal calls the same `ActivateAction` with a
    /// target naming the notification and the action, and the center hands the delegate the
    /// response for the notification in its saved list, once. Such a target is taken from the
    /// owner of `org.freedesktop.portal.Desktop` only, and only when it carries the secret
    /// nonce the engine gave that notification (kept in the saved list, so a click after a
    /// relaunch is taken too): any session peer may call `ActivateAction`, and identifiers are
    /// easy to guess.
    ///
    /// A GNOME target (the response itself, which GNOME Shell sends for a notification posted
    /// through ``NotificationEngineKind/gnome``) is taken whatever engine this launch chose, so
    /// a click on what an earlier launch posted through GNOME still reaches the delegate; it is
    /// taken from the owner of `org.gtk.Notifications` only.
    ///
    /// `Activate` calls ``applicationActivateHandler`` and `Open` calls
    /// ``applicationOpenHandler``, when set; otherwise they do nothing. Any other action, a
    /// malformed call, a notification response other than a GNOME target for a center whose
    /// notifications are neither in the agent, GNOME's nor the portal's (``engineKind`` is
    /// ``NotificationEngineKind/inProcess``), a GNOME target that does not read or does not come
    /// from GNOME Shell, a portal target not sent by the portal or that the engine does not
    /// know (another nonce among them), or one past 16 being taken
    /// at once, is answered with a D-Bus error. Call it once the delegate is set; calling it again while the interface is
    /// served, or being set up, does nothing. The center serves until it goes away.
    ///
    /// - Throws: ``ApplicationInterfaceError``: the app id is not a well-known D-Bus name,
    ///   another connection owns it, or the bus cannot be reached.
    public func serveApplicationInterface() async throws(ApplicationInterfaceError) {
        let starts = applicationSide.withLock { side in
            guard side.server == nil, !side.starting else { return false }
            side.starting = true
            return true
        }
        guard starts else { return }
        let actions = ApplicationInterfaceServer.Actions(
            activate: { [weak self] activation in
                guard let handler = self?.applicationSide.withLock({ $0.activateHandler }) else { return }
                Task { @MainActor in handler(activation) }
            },
            open: { [weak self] urls, activation in
                guard let handler = self?.applicationSide.withLock({ $0.openHandler }) else { return }
                Task { @MainActor in handler(urls, activation) }
            },
            takeResponse: { [weak self] id, activation, sender, connection in
                await self?.takeResponse(id, activation: activation, sender: sender, connection: connection) ?? false
            })
        do {
            let server = try await ApplicationInterfaceServer.start(appID: identity.id, bus: bus.dbusBus, actions: actions)
            applicationSide.withLock { side in
                side.server = server
                side.starting = false
            }
            engine.applicationInterfaceServed()
        } catch {
            applicationSide.withLock { $0.starting = false }
            throw error
        }
    }

    /// Hands a notification response to the engine
    /// (``NotificationEngine/takeActivatedResponse(_:activationToken:sender:)``): the GNOME and
    /// portal engines read it from their own targets and take it only from their service's
    /// owner; the agent's takes what the agent keeps. A GNOME target that reaches a center on
    /// another engine (an earlier launch posted through GNOME's interface, and this one chose
    /// another engine) is read the same way, from GNOME Shell only, and handed to the delegate
    /// as it stands.
    private func takeResponse(_ id: String, activation: ApplicationActivation, sender: String, connection: DBusConnection) async -> Bool {
        if GnomeActionTarget.isTarget(id), await engineKind != .gnome {
            guard let response = await GnomeService.response(
                target: id, activationToken: activation.activationToken, sender: sender, on: connection)
            else { return false }
            receive(response)
            return true
        }
        return await engine.takeActivatedResponse(id, activationToken: activation.activationToken, sender: sender)
    }

    /// Called on the main actor for each `org.freedesktop.Application.Activate` (the app was
    /// started or raised from its launcher) once ``serveApplicationInterface()`` serves; `nil`
    /// (the default): `Activate` does nothing. A Linux addition.
    public var applicationActivateHandler: (@MainActor @Sendable (ApplicationActivation) -> Void)? {
        get { applicationSide.withLock { $0.activateHandler } }
        set { applicationSide.withLock { $0.activateHandler = newValue } }
    }

    /// Called on the main actor for each `org.freedesktop.Application.Open`, with its URIs (at
    /// most 1,024, each a URL with a scheme), once ``serveApplicationInterface()`` serves;
    /// `nil` (the default): `Open` does nothing. A Linux addition.
    public var applicationOpenHandler: (@MainActor @Sendable ([URL], ApplicationActivation) -> Void)? {
        get { applicationSide.withLock { $0.openHandler } }
        set { applicationSide.withLock { $0.openHandler = newValue } }
    }
}
