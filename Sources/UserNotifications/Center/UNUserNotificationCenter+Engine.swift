extension UNUserNotificationCenter {
    /// Where this center's notifications live: in the per-user agent, through the notification
    /// portal, through GNOME's own interface, or in this process. A Linux addition.
    ///
    /// Chosen when the center is made: the `engine` given to ``configure(identity:bus:clock:persistent:engine:)``
    /// or ``init(identity:bus:clock:persistent:stateDirectory:engine:)``, else
    /// `DESKTOPNOTIFICATIONS_ENGINE` (`agent`, `in-process`, `portal` or `gnome`), else the portal
    /// in a sandbox (Flatpak's `/.flatpak-info`, or `$SNAP`), else the agent when
    /// `org.desktopnotifications.Agent` has an owner on the center's bus or the bus can start
    /// it, else GNOME's `org.gtk.Notifications` when it has an owner and the app's desktop entry
    /// (`<app id>.desktop` in `applications/` under `XDG_DATA_HOME` or `XDG_DATA_DIRS`) says
    /// `DBusActivatable=true`, else this process; a center that is not persistent or was given a
    /// state folder of its own stays in process without a choice (it keeps its state itself
    /// then). The choice is made without blocking the caller: calls made meanwhile wait for it,
    /// in call order, and this property answers once it is made. An agent that does not answer
    /// `Connect` within a few seconds, or a portal that cannot be reached, leaves the center in
    /// process, and that is logged (label `org.desktopnotifications.center`).
    public var engineKind: NotificationEngineKind {
        get async {
            await madeEngine.kind()
        }
    }

    /// Why this center's notifications do not live where it first tried to keep them, or `nil`
    /// when they do. A Linux addition.
    ///
    /// Set when the agent refused the app (``NotificationEngineFallback/Reason/refused(_:)``;
    /// ``NotificationAgentError/notAllowed(_:)`` when another process of the app is connected to
    /// it, as a second copy of the app is) or did not answer `Connect` in time, or when the
    /// portal or GNOME's interface, asked for, could not be reached; ``engineKind`` then says where
    /// the notifications live instead (in this process, or GNOME's interface when the agent was
    /// not asked for by name). Answers once the engine is chosen, as ``engineKind`` does. The
    /// fallback is logged too (label `org.desktopnotifications.center`: a refusal as an error).
    public var engineFallback: NotificationEngineFallback? {
        get async {
            await madeEngine.fallback()
        }
    }

    /// Test and bench hook: with the agent as the engine, how many add calls the center sent it
    /// and how many requests they carried (``AgentAddPacker``); `nil` with another engine.
    ///
    /// Read by `AgentPackingTests` and by NotifyBench (a release executable, which cannot reach
    /// internal symbols), so it stays a `package` member of the product. Nothing in the product
    /// reads it; the packer counts inside the lock it already holds to pack, so the counts cost
    /// nothing measurable, and this getter costs only when it is called.
    package var agentAddCounts: (calls: Int, requests: Int)? {
        get async {
            _ = await engineKind
            return engine.agentEngine?.packer.counts
        }
    }
}
