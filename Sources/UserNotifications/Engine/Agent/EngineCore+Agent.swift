import DesktopNotificationsSupport
import Foundation
import FreedesktopNotifications

extension EngineCore {
    /// Starts the engine of one app in the per-user agent: the engine an app runs when it has
    /// no agent, with the app's identity (so the server shows the app's name and icon, and
    /// `desktop-entry` is its id) and its state in the folder the agent gives it.
    ///
    /// An immediate request is accepted before it is shown: `add` returns once it is
    /// validated, its attachments taken and it is kept (pending with no trigger, saved as
    /// scheduled requests are) until the server took it; its `accepted` is called then, on the
    /// engine's actor, before the delivery's `Notify` is built, so the agent answers its app
    /// first.
    ///
    /// - Parameters:
    ///   - identity: The app's id, name and icon.
    ///   - client: The notification server's client: the agent's one, shared by every app
    ///     over its one bus connection (each engine opens its own channel on it and takes the
    ///     signals of the notifications it posted).
    ///   - clock: The clock of its triggers (the agent's shared, multiplexed one).
    ///   - host: The agent's side of the app: where presentation questions, responses and
    ///     content extension questions go. Held weakly: the caller keeps it. It has no service
    ///     extension of its own to run (the agent asks a connected app's center before it adds
    ///     a push).
    ///   - stateDirectory: The app's folder in the agent's state.
    ///   - locationHub: The GeoClue2 client the app's location triggers are watched through
    ///     (the agent's one, shared by every app).
    ///   - undelivered: Told of an accepted immediate request whose delivery failed (by its
    ///     identifier); the request stays pending with no trigger and is delivered again when a
    ///     notification server gets the name, or at the engine's next start.
    ///   - taskExecutor: Where the engine's own drains run (after a reply or signal it read,
    ///     after a call that does not wait).
    ///   - saves: The group whose saves the engine's are spaced with (``SaveLoad``): the
    ///     agent's, shared by every app.
    package static func agentApp(
        identity: ApplicationIdentity, client: NotificationsClient, clock: any NotificationClock, host: any EngineHost,
        stateDirectory: URL, locationHub: LocationHub, undelivered: @escaping @Sendable (String, any Error) -> Void,
        taskExecutor: any TaskExecutor, saves: SaveLoad
    ) -> EngineCore {
        let reference = EngineHostReference()
        reference.host = host
        return start(
            identity: identity, client: client, clock: clock, host: reference, stateDirectory: .success(stateDirectory),
            locationHub: locationHub, undeliveredAfterAcceptance: { identifier, error in undelivered(identifier, error) },
            taskExecutor: taskExecutor, saves: saves)
    }
}
